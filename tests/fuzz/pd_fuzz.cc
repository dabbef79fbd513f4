// Fuzzes the PD controllers (docs/pd/pd.md): random settings and a random sequence of
// operations on one ScalarPD/AnglePD/Vec3PD/QuatPD. Every call either succeeds
// with a finite state or returns a named error and leaves the state untouched.
// Invariants: angles in (−π, π], vectors and quaternions unit, the quaternion's
// angle within maxAngle, |velocity| <= maxVelocity for a held target. QuatPD's
// operations include UpdateQuatPDs (float lanes) on it and two copies, and twice
// with the lanes kept between updates (QuatPdLaneSet: the same bits once committed).
#include <cstring>
#include <string>
#include <vector>

#include "fuzz.h"

using namespace ikpd;
using namespace ikpd::pd;
using namespace ikpd::fuzz;

namespace {

constexpr double kPiD = 3.141592653589793238463;

// Doubles: the floats of Input (finite ones up to FLT_MAX, the JS API's range)
// plus a few fixed huge and tiny values. Beyond ~1e150 (gains of 1e300, say)
// squares overflow double; no caller has such values, so they are not fuzzed.
double Double(Input& in) {
  switch (in.Int(0, 15)) {
    case 0: return 1e30;
    case 1: return -3.4e38;
    case 2: return 1e-30;
    default: return static_cast<double>(in.MaybeNonFinite());
  }
}

double Dt(Input& in) {
  switch (in.Int(0, 7)) {
    case 0: return 0.0;
    case 1: return 1.0 / 60.0;
    case 2: return static_cast<double>(in.Range(0.0f, 0.1f));
    case 3: return static_cast<double>(in.Range(0.0f, 10.0f));
    case 4: return 1e-9;
    default: return Double(in);  // huge, negative or non-finite: errors or huge steps
  }
}

double Positive(Input& in, double typical_lo, double typical_hi) {
  return in.Int(0, 5) != 0 ? static_cast<double>(in.Range(static_cast<float>(typical_lo), static_cast<float>(typical_hi)))
                           : Double(in);
}

PdSettings RandomSettings(Input& in) {
  PdSettings s;
  if (in.Bool()) {
    s.kp = Positive(in, 0.01, 2000.0);
    s.kd = in.Bool() ? 2.0 * std::sqrt(std::fabs(s.kp)) : Positive(in, 0.0, 200.0);
  }
  s.integrator = static_cast<Integrator>(in.Int(0, in.Int(0, 15) == 0 ? 4 : 3));
  if (in.Bool()) s.dtMax = Positive(in, 1e-4, 0.1);
  if (in.Bool()) s.maxVelocity = in.Bool() ? std::numeric_limits<double>::infinity() : Positive(in, 0.01, 100.0);
  if (in.Bool()) s.feedForward = Positive(in, 0.0, 1.0);
  if (in.Bool()) s.ki = Positive(in, 0.0, 10.0);
  if (in.Bool()) s.maxIntegral = Positive(in, 0.0, 10.0);
  s.targetMotion = static_cast<TargetMotion>(in.Int(0, 1));
  if (in.Bool()) s.restTolerance = Positive(in, 0.0, 0.1);
  if (in.Bool()) s.restVelocity = Positive(in, 0.0, 0.1);
  if (in.Bool()) s.blendOutEnergy = Positive(in, 0.0, 0.1);
  if (in.Bool()) s.blendOutTime = Positive(in, 0.0, 1.0);
  s.method = static_cast<RotationUpdate>(in.Int(0, 1));
  if (in.Bool()) s.maxAngle = Positive(in, 0.01, kPiD);
  s.onUnstable = static_cast<OnUnstable>(in.Int(0, 1));
  s.substepSplit = static_cast<SubstepSplit>(in.Int(0, 1));
  return s;
}

glm::dvec3 DVec3(Input& in) { return {Double(in), Double(in), Double(in)}; }
glm::dquat DQuat(Input& in) {
  if (in.Bool()) return glm::dquat(in.Quat());
  return {Double(in), Double(in), Double(in), Double(in)};
}

bool FiniteD(double v) { return std::isfinite(v); }
bool FiniteV(const glm::dvec3& v) { return FiniteD(v.x) && FiniteD(v.y) && FiniteD(v.z); }
bool FiniteQ(const glm::dquat& q) { return FiniteD(q.x) && FiniteD(q.y) && FiniteD(q.z) && FiniteD(q.w); }

void CheckStatus(const Status& s) {
  FUZZ_CHECK(NamesParameter(s), "error does not start with a parameter name: %s", s.error);
}

std::string Show(double v) { return std::to_string(v); }
std::string Show(const glm::dvec3& v) {
  char b[96];
  std::snprintf(b, sizeof b, "(%.17g %.17g %.17g)", v.x, v.y, v.z);
  return b;
}
std::string Show(const glm::dquat& q) {
  char b[128];
  std::snprintf(b, sizeof b, "(x%.17g y%.17g z%.17g w%.17g)", q.x, q.y, q.z, q.w);
  return b;
}

bool FiniteState(double v) { return FiniteD(v); }
bool FiniteState(const glm::dvec3& v) { return FiniteV(v); }
bool FiniteState(const glm::dquat& q) { return FiniteQ(q); }

// Observable state (value, velocity, target, blend phase, settings), for "unchanged on error".
void Push(std::vector<double>& out, double v) { out.push_back(v); }
void Push(std::vector<double>& out, const glm::dvec3& v) { out.insert(out.end(), {v.x, v.y, v.z}); }
void Push(std::vector<double>& out, const glm::dquat& q) { out.insert(out.end(), {q.x, q.y, q.z, q.w}); }
template <class Controller>
std::vector<double> Snapshot(const Controller& c) {
  std::vector<double> out;
  Push(out, c.value());
  Push(out, c.velocity());
  Push(out, c.target());
  const PdSettings& s = c.settings();
  out.insert(out.end(), {static_cast<double>(c.blendPhase()), s.kp, s.kd, static_cast<double>(s.integrator), s.dtMax,
                         s.maxVelocity, s.feedForward, s.ki, s.maxIntegral, s.maxAngle});
  return out;
}
template <class Controller>
bool SameState(const std::vector<double>& before, const Controller& c) {
  const std::vector<double> after = Snapshot(c);
  return before.size() == after.size() && std::memcmp(before.data(), after.data(), before.size() * sizeof(double)) == 0;
}

// Operations shared by all controllers; `value`/`target` types differ per controller.
template <class Controller, class Value, class Velocity, class MakeValue, class MakeVelocity, class CheckState>
void RunSequence(Input& in, Controller& c, MakeValue make_value, MakeVelocity make_velocity, CheckState check) {
  for (int step = 0; step < 48 && in.remaining() > 0; ++step) {
    const std::vector<double> before = Snapshot(c);
    Status s;
    bool held_update = false;
    const int op = in.Int(0, 8);
    FUZZ_TRACE("op %d: ", op);
    switch (op) {
      case 0: {
        const double dt = Dt(in);
        const Value target = make_value(in);
        FUZZ_TRACE("Update(%g, %s) ", dt, Show(target).c_str());
        s = c.Update(dt, target);
        held_update = dt > 0.0;  // dt = 0 is a no-op (a Reset velocity may exceed maxVelocity)
        break;
      }
      case 1: {
        const double dt = Dt(in);
        const Value target = make_value(in);
        const Velocity velocity = make_velocity(in);
        FUZZ_TRACE("Update(%g, %s, %s) ", dt, Show(target).c_str(), Show(velocity).c_str());
        s = c.Update(dt, target, velocity);
        break;
      }
      case 2: {
        PdSettings settings = RandomSettings(in);
        FUZZ_TRACE("Configure(kp %.17g kd %.17g integrator %d maxVelocity %g maxAngle %.17g method %d) ", settings.kp,
                   settings.kd, static_cast<int>(settings.integrator), settings.maxVelocity, settings.maxAngle,
                   static_cast<int>(settings.method));
        s = c.Configure(settings);
        break;
      }
      case 3: {
        Value value{};
        Velocity velocity{};
        const double t = Dt(in) * (in.Bool() ? -1.0 : 1.0);
        FUZZ_TRACE("StateAt(%.17g) ", t);
        s = c.StateAt(t, &value, &velocity);
        if (s.ok()) FUZZ_CHECK(FiniteState(value) && FiniteState(velocity), "StateAt gave non-finite state");
        break;
      }
      case 4: {
        double seconds = -1.0;
        const double tolerance = Double(in);
        FUZZ_TRACE("TimeToSettle(%.17g) ", tolerance);
        s = c.TimeToSettle(tolerance, &seconds);
        if (s.ok()) FUZZ_CHECK(seconds >= 0.0 && !std::isnan(seconds), "TimeToSettle = %g", seconds);
        break;
      }
      case 5: {
        const double e = c.Energy();
        FUZZ_CHECK(!std::isnan(e) && e >= 0.0, "Energy = %g", e);
        (void)c.AtRest();
        break;
      }
      default: s = check.extra(in, c); break;
    }
    FUZZ_TRACE("%s\n", s.ok() ? "ok" : s.error);
    if (!s.ok()) {
      CheckStatus(s);
      FUZZ_CHECK(SameState(before, c), "state changed on error: %s", s.error);
      // The stability check before a step errs only when asked to (onUnstable 'throw').
      const bool unstable = std::strncmp(s.error, "dt: outside", 11) == 0 ||
                            std::strncmp(s.error, "dt: the 'substep' sub-step", 26) == 0;
      FUZZ_CHECK(!unstable || c.settings().onUnstable == OnUnstable::kThrow, "onUnstable 'clamp' threw: %s", s.error);
      continue;
    }
    check.state(c, held_update);
  }
}

struct ScalarChecks {
  bool angle;
  Status extra(Input& in, ScalarPD& c) {
    switch (in.Int(0, 3)) {
      case 0: {
        const double value = Double(in), velocity = Double(in);
        if (!FiniteD(value) || !FiniteD(velocity)) return Ok();  // Reset is unchecked by contract (void)
        c.Reset(value, velocity);
        return Ok();
      }
      case 1: return c.UpdateBlendOut(Dt(in), Double(in));
      case 2: {
        double out = 0.0;
        const Status s = c.TrackOffset(Dt(in), Double(in), Double(in), &out);
        if (s.ok()) FUZZ_CHECK(FiniteD(out), "TrackOffset output not finite");
        return s;
      }
      default: {
        double out = 0.0;
        const Status s = c.ReleaseOffset(Dt(in), Double(in), &out);
        if (s.ok()) FUZZ_CHECK(FiniteD(out), "ReleaseOffset output not finite");
        return s;
      }
    }
  }
  void state(const ScalarPD& c, bool held_update) {
    FUZZ_CHECK(FiniteD(c.value()) && FiniteD(c.velocity()), "non-finite state %g %g", c.value(), c.velocity());
    if (angle) FUZZ_CHECK(c.value() > -kPiD - 1e-9 && c.value() <= kPiD + 1e-9, "angle %g outside (-pi, pi]", c.value());
    const PdSettings& s = c.settings();
    if (held_update && s.targetMotion == TargetMotion::kHold && std::isfinite(s.maxVelocity)) {
      FUZZ_CHECK(std::fabs(c.velocity()) <= s.maxVelocity * (1.0 + 1e-6) + 1e-12, "velocity %g > maxVelocity %g",
                 c.velocity(), s.maxVelocity);
    }
  }
};

struct Vec3Checks {
  Status extra(Input& in, Vec3PD& c) {
    if (in.Bool()) {
      const glm::dvec3 value = DVec3(in), velocity = in.Bool() ? glm::dvec3(0.0) : DVec3(in);
      FUZZ_TRACE("Reset((%g %g %g), (%g %g %g)) ", value.x, value.y, value.z, velocity.x, velocity.y, velocity.z);
      return c.Reset(value, velocity);
    }
    const double dt = Dt(in);
    const glm::dvec3 rest = DVec3(in);
    FUZZ_TRACE("UpdateBlendOut(%g, (%g %g %g)) ", dt, rest.x, rest.y, rest.z);
    return c.UpdateBlendOut(dt, rest);
  }
  void state(const Vec3PD& c, bool) {
    FUZZ_CHECK(FiniteV(c.value()) && FiniteV(c.velocity()), "non-finite state");
    FUZZ_CHECK(std::fabs(glm::length(c.value()) - 1.0) < 1e-6, "value not unit: %g", glm::length(c.value()));
  }
};

struct QuatChecks {
  Status extra(Input& in, QuatPD& c) {
    switch (in.Int(0, 4)) {
      case 0: {
        const glm::dquat value = DQuat(in);
        const glm::dvec3 velocity = in.Bool() ? glm::dvec3(0.0) : DVec3(in);
        FUZZ_TRACE("Reset(%s, %s) ", Show(value).c_str(), Show(velocity).c_str());
        return c.Reset(value, velocity);
      }
      case 1: {
        const double dt = Dt(in);
        FUZZ_TRACE("UpdateBlendOut(%.17g) ", dt);
        return c.UpdateBlendOut(dt);
      }
      case 2: {
        glm::dquat out;
        const double dt = Dt(in);
        const glm::dquat animation = DQuat(in), desired = DQuat(in);
        FUZZ_TRACE("TrackOffset(%.17g, %s, %s) ", dt, Show(animation).c_str(), Show(desired).c_str());
        const Status s = c.TrackOffset(dt, animation, desired, &out);
        if (s.ok()) FUZZ_CHECK(FiniteQ(out) && std::fabs(glm::length(out) - 1.0) < 1e-6, "TrackOffset output");
        return s;
      }
      case 4: {
        // UpdateQuatPDs (float lanes) on c and, beside it, two copies with their own targets:
        // every controller finite, unit and within maxAngle, the copies too.
        const double dt = Dt(in);
        QuatPD group[3] = {c, c, c};
        glm::quat targets[3];
        for (glm::quat& t : targets) t = glm::quat(DQuat(in));
        const std::size_t n = in.Bool() ? 1 : 3;
        FUZZ_TRACE("UpdateQuatPDs(%.17g, %zu, %s) ", dt, n, Show(glm::dquat(targets[0])).c_str());
        QuatPD plain[3] = {c, c, c}, kept[3] = {c, c, c};
        const Status s = UpdateQuatPDs(dt, std::span<QuatPD>(group, n), std::span<const glm::quat>(targets, n));
        // The same two updates with the lanes kept between them (QuatPdLaneSet): committed, the same bits.
        QuatPdLaneSet lanes;
        if (lanes.Allocate(n)) {
          for (int update = 0; update < 2; ++update) {
            const Status a = UpdateQuatPDs(dt, std::span<QuatPD>(plain, n), std::span<const glm::quat>(targets, n));
            const Status b = UpdateQuatPDs(dt, std::span<QuatPD>(kept, n), std::span<const glm::quat>(targets, n), &lanes);
            FUZZ_CHECK(a.ok() == b.ok(), "kept lanes: status %d against %d", b.ok(), a.ok());
            if (!a.ok()) break;
            for (std::size_t i = 0; i < n; ++i) {
              const glm::quat va = plain[i].valuef(), vb = lanes.valuef(std::span<const QuatPD>(kept, n), i);
              FUZZ_CHECK(std::memcmp(&va, &vb, sizeof va) == 0, "kept lanes: value %zu", i);
            }
          }
          lanes.Commit(std::span<QuatPD>(kept, n));
          for (std::size_t i = 0; i < n; ++i) {
            const glm::dquat va = plain[i].value(), vb = kept[i].value();
            const glm::dvec3 wa = plain[i].velocity(), wb = kept[i].velocity();
            FUZZ_CHECK(std::memcmp(&va, &vb, sizeof va) == 0 && std::memcmp(&wa, &wb, sizeof wa) == 0,
                       "kept lanes: committed state %zu", i);
          }
        }
        if (s.ok()) {
          for (std::size_t i = 1; i < n; ++i) state(group[i], false);
          c = group[0];
        }
        return s;
      }
      default: {
        glm::dquat out;
        const double dt = Dt(in);
        const glm::dquat animation = DQuat(in);
        FUZZ_TRACE("ReleaseOffset(%.17g, %s) ", dt, Show(animation).c_str());
        const Status s = c.ReleaseOffset(dt, animation, &out);
        if (s.ok()) FUZZ_CHECK(FiniteQ(out) && std::fabs(glm::length(out) - 1.0) < 1e-6, "ReleaseOffset output");
        return s;
      }
    }
  }
  void state(const QuatPD& c, bool) {
    FUZZ_CHECK(FiniteQ(c.value()) && FiniteV(c.velocity()), "non-finite state");
    FUZZ_CHECK(std::fabs(glm::length(c.value()) - 1.0) < 1e-6, "value not unit: %g", glm::length(c.value()));
    const double max_angle = c.settings().maxAngle;
    if (max_angle < kPiD) {
      const double angle = 2.0 * std::acos(std::min(1.0, std::fabs(c.value().w)));
      FUZZ_CHECK(angle <= max_angle + 1e-6, "rotation angle %g > maxAngle %g", angle, max_angle);
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  const int kind = in.Int(0, 3);
  const PdSettings settings = RandomSettings(in);
  FUZZ_TRACE("kind %d kp %.17g kd %.17g integrator %d dtMax %g maxVelocity %g ff %g ki %g maxIntegral %g motion %d method %d maxAngle %g\n",
             kind, settings.kp, settings.kd, static_cast<int>(settings.integrator), settings.dtMax, settings.maxVelocity,
             settings.feedForward, settings.ki, settings.maxIntegral, static_cast<int>(settings.targetMotion),
             static_cast<int>(settings.method), settings.maxAngle);
  const Status valid = settings.Validate();
  if (!valid.ok()) {
    CheckStatus(valid);
    return 0;
  }
  switch (kind) {
    case 0:
    case 1: {
      ScalarPD c(settings, kind == 1);
      RunSequence<ScalarPD, double, double>(
          in, c, [](Input& i) { return Double(i); }, [](Input& i) { return Double(i); }, ScalarChecks{kind == 1});
      break;
    }
    case 2: {
      Vec3PD c(settings);
      RunSequence<Vec3PD, glm::dvec3, glm::dvec3>(in, c, DVec3, DVec3, Vec3Checks{});
      break;
    }
    default: {
      QuatPD c(settings);
      RunSequence<QuatPD, glm::dquat, glm::dvec3>(in, c, DQuat, DVec3, QuatChecks{});
      break;
    }
  }
  return 0;
}
