// Fuzzes the PD controllers: random (possibly invalid) settings, then a random
// sequence of updates, resets, time queries and blend-outs on every controller.
// Checks: errors name a parameter and leave the state untouched; the state is
// always finite; vectors and quaternions stay unit; maxAngle holds.
#include "fuzz.h"

using namespace ikpd;
using namespace ikpd::pd;

namespace {

PdSettings Settings(fuzz::Input& in) {
  PdSettings s;
  s.kp = static_cast<double>(in.Bool() ? in.Range(0.0f, 2000.0f) : in.MaybeNonFinite());
  s.kd = static_cast<double>(in.Bool() ? in.Range(0.0f, 100.0f) : in.MaybeNonFinite());
  s.integrator = static_cast<Integrator>(in.Int(0, 3));
  s.dtMax = static_cast<double>(in.Bool() ? 1.0f / 120.0f : in.Float());
  s.maxVelocity = in.Bool() ? std::numeric_limits<double>::infinity() : static_cast<double>(in.Float());
  s.feedForward = static_cast<double>(in.Range(0.0f, 1.0f));
  s.ki = in.Bool() ? 0.0 : static_cast<double>(in.Float());
  s.maxIntegral = in.Bool() ? std::numeric_limits<double>::infinity() : static_cast<double>(in.Float());
  s.targetMotion = static_cast<TargetMotion>(in.Int(0, 1));
  s.blendOutEnergy = static_cast<double>(in.Range(0.0f, 1.0f));
  s.blendOutTime = static_cast<double>(in.Range(0.0f, 0.5f));
  s.method = static_cast<RotationUpdate>(in.Int(0, 1));
  s.maxAngle = static_cast<double>(in.Bool() ? kPi : in.Float());
  return s;
}

bool FiniteD(double v) { return std::isfinite(v); }
bool FiniteV(const glm::dvec3& v) { return FiniteD(v.x) && FiniteD(v.y) && FiniteD(v.z); }
bool FiniteQ(const glm::dquat& q) { return FiniteD(q.x) && FiniteD(q.y) && FiniteD(q.z) && FiniteD(q.w); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input in(data, size);
  const PdSettings s = Settings(in);
  const Status valid = s.Validate();
  FUZZ_CHECK(fuzz::NamesParameter(valid), "%s", valid.error);
  ScalarPD scalar;
  AnglePD angle;
  Vec3PD vec;
  QuatPD quat;
  if (valid) {
    FUZZ_CHECK(scalar.Configure(s) && angle.Configure(s) && vec.Configure(s) && quat.Configure(s), "configure");
  }
  for (int step = 0; step < 24 && in.remaining() > 0; ++step) {
    const double dt = static_cast<double>(in.Bool() ? in.Range(0.0f, 0.1f) : in.MaybeNonFinite());
    const int op = in.Int(0, 5);
    const ScalarPD scalar0 = scalar;
    const Vec3PD vec0 = vec;
    const QuatPD quat0 = quat;
    Status a, b, c, d;
    switch (op) {
      case 0:
      case 1:
        a = scalar.Update(dt, static_cast<double>(in.MaybeNonFinite()));
        b = angle.Update(dt, static_cast<double>(in.MaybeNonFinite()), static_cast<double>(in.Float()));
        c = vec.Update(dt, glm::dvec3(in.MaybeNonFiniteVec3()));
        d = quat.Update(dt, glm::dquat(in.Quat()), glm::dvec3(in.Vec3()));
        break;
      case 2:
        a = scalar.UpdateBlendOut(dt);
        b = angle.UpdateBlendOut(dt, static_cast<double>(in.Float()));
        c = vec.UpdateBlendOut(dt, glm::dvec3(in.Vec3()));
        d = quat.UpdateBlendOut(dt);
        break;
      case 3: {
        double x = 0, v = 0, t = 0;
        glm::dvec3 p, w;
        glm::dquat q;
        const double when = static_cast<double>(in.Float());
        a = scalar.StateAt(when, &x, &v);
        if (a) FUZZ_CHECK(FiniteD(x) && FiniteD(v), "StateAt");
        c = vec.StateAt(when, &p, &w);
        if (c) FUZZ_CHECK(FiniteV(p) && FiniteV(w), "Vec3 StateAt");
        d = quat.StateAt(when, &q, &w);
        if (d) FUZZ_CHECK(FiniteQ(q) && FiniteV(w), "Quat StateAt");
        b = angle.TimeToSettle(static_cast<double>(in.Float()), &t);
        if (b) FUZZ_CHECK(!std::isnan(t) && t >= 0.0, "TimeToSettle %g", t);
        break;
      }
      case 4: {
        double out = 0;
        glm::dquat q;
        a = scalar.TrackOffset(dt, static_cast<double>(in.Float()), static_cast<double>(in.Float()), &out);
        if (a) FUZZ_CHECK(FiniteD(out), "TrackOffset");
        d = quat.TrackOffset(dt, glm::dquat(in.Quat()), glm::dquat(in.Quat()), &q);
        if (d) FUZZ_CHECK(FiniteQ(q), "Quat TrackOffset");
        break;
      }
      default:
        scalar.Reset(static_cast<double>(in.Float()), static_cast<double>(in.Float()));
        c = vec.Reset(glm::dvec3(in.Vec3()), glm::dvec3(in.Vec3()));
        d = quat.Reset(glm::dquat(in.Quat()), glm::dvec3(in.Vec3()));
        break;
    }
    for (const Status& st : {a, b, c, d}) FUZZ_CHECK(fuzz::NamesParameter(st), "%s", st.error);
    if (op <= 1 && !a) FUZZ_CHECK(scalar.value() == scalar0.value() && scalar.velocity() == scalar0.velocity(), "untouched");
    if (op <= 1 && !c) FUZZ_CHECK(vec.value() == vec0.value() && vec.velocity() == vec0.velocity(), "untouched");
    if (op <= 1 && !d) FUZZ_CHECK(quat.value() == quat0.value() && quat.velocity() == quat0.velocity(), "untouched");
    FUZZ_CHECK(FiniteD(scalar.value()) && FiniteD(scalar.velocity()), "scalar %g %g", scalar.value(), scalar.velocity());
    FUZZ_CHECK(FiniteD(angle.value()) && angle.value() > -kPi - 1e-6 && angle.value() <= kPi + 1e-6, "angle %g",
               angle.value());
    FUZZ_CHECK(FiniteV(vec.value()) && FiniteV(vec.velocity()), "vec");
    FUZZ_CHECK(std::fabs(glm::length(vec.value()) - 1.0) < 1e-9, "vec unit %g", glm::length(vec.value()));
    FUZZ_CHECK(FiniteQ(quat.value()) && FiniteV(quat.velocity()), "quat");
    FUZZ_CHECK(std::fabs(glm::length(quat.value()) - 1.0) < 1e-9, "quat unit %g", glm::length(quat.value()));
    if (valid && quat.settings().maxAngle < kPi) {
      FUZZ_CHECK(std::fabs(quat.value().w) >= std::cos(0.5 * quat.settings().maxAngle) - 1e-9, "maxAngle w=%g",
                 quat.value().w);
    }
  }
  return 0;
}
