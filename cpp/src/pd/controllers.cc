// PD controllers: settings validation, the chart step shared by every
// controller, and the scalar/angle, unit-vector and quaternion charts.
#include "ikpd/pd/controllers.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>

#include "quat_pd_kernel.h"

namespace ikpd::pd {
namespace {

constexpr double kTwoPiD = 6.283185307179586476925;
constexpr double kPiD = 3.141592653589793238463;
constexpr int kMaxSubsteps = 10000;
constexpr const char* kDiverged = "dt: the integrator diverged (step too large for these gains; see checkStability)";
constexpr const char* kUnstableExplicit =
    "dt: outside the 'explicit' integrator's stability region for these gains (the step would diverge; "
    "see checkStability; use a smaller dt, integrator 'exact', or onUnstable: 'clamp')";
constexpr const char* kUnstableStable =
    "dt: outside the 'stable' integrator's stability region for these gains (the step would diverge; "
    "see checkStability; use a smaller dt, integrator 'exact', or onUnstable: 'clamp')";
constexpr const char* kUnstableSubstep =
    "dt: the 'substep' sub-step (dtMax, or dt / 10000 for a huge dt) is outside the stability region for "
    "these gains (the step would diverge; see checkStability; lower dtMax, or onUnstable: 'clamp')";

bool FiniteD(double v) { return std::isfinite(v); }
bool FiniteV(const glm::dvec3& v) { return FiniteD(v.x) && FiniteD(v.y) && FiniteD(v.z); }
bool FiniteQ(const glm::dquat& q) { return FiniteD(q.x) && FiniteD(q.y) && FiniteD(q.z) && FiniteD(q.w); }

double Norm(const double* v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += v[i] * v[i];
  return std::sqrt(s);
}

Status CheckDt(double dt) {
  if (!FiniteD(dt) || dt < 0.0) return Error("dt: must be a finite number >= 0");
  return Ok();
}

Status CheckTolerance(double tolerance) {
  if (!FiniteD(tolerance) || tolerance <= 0.0) return Error("tolerance: must be a finite number > 0");
  return Ok();
}

double WrapAngle(double x) {
  double r = std::remainder(x, kTwoPiD);  // [−π, π]
  if (r <= -kPiD) r += kTwoPiD;
  return r;
}

// Bias force per chart component: feed-forward of the target velocity plus the integral term.
void Biases(const PdSettings& s, int n, const double* q, const double* integral, double* bias) {
  for (int i = 0; i < n; ++i) bias[i] = s.feedForward * s.kd * q[i] + s.ki * integral[i];
}

// Chart state → settle time / state at t, common to all controllers.
void SegmentAt(const PdSettings& s, int n, double t, const double* q, const ChartState& c, double* u, double* w) {
  double bias[4];
  Biases(s, n, q, c.integral, bias);
  const StepCoeffs k = ExactStepCoeffs(s.kp, s.kd, t);
  for (int i = 0; i < n; ++i) {
    double x = c.u[i], v = c.w[i];
    ApplyExactStep(k, t, q[i] * t, q[i], EquilibriumOffset(s.kp, s.kd, q[i], bias[i]), x, v);
    u[i] = x;
    w[i] = v;
  }
}

double SegmentSettle(const PdSettings& s, int n, const double* q, const ChartState& c, double tolerance) {
  double bias[4], u[4], w[4];
  Biases(s, n, q, c.integral, bias);
  for (int i = 0; i < n; ++i) {
    u[i] = c.u[i] - EquilibriumOffset(s.kp, s.kd, q[i], bias[i]);
    w[i] = c.w[i] - q[i];
  }
  return SettleTime(s.kp, s.kd, n, u, w, tolerance);
}

double ChartEnergy(const PdSettings& s, int n, const ChartState& c) {
  double e = 0.0;
  for (int i = 0; i < n; ++i) e += 0.5 * s.kp * c.u[i] * c.u[i] + 0.5 * c.w[i] * c.w[i];
  return e;
}

glm::dvec3 Normalized(const glm::dvec3& v) { return NormalizeSafe(v); }

// Unit vector / quaternion of a finite, non-zero input without overflow in the length
// (huge but finite components); `fallback` when the input is (nearly) zero.
glm::dvec3 SafeNormalize(const glm::dvec3& v, const glm::dvec3& fallback) {
  const double m = std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)});
  if (!(m > 1e-150) || !std::isfinite(m)) return fallback;
  return Normalized(v / m);
}
glm::dquat SafeNormalize(const glm::dquat& q, const glm::dquat& fallback) {
  const double m = std::max({std::fabs(q.x), std::fabs(q.y), std::fabs(q.z), std::fabs(q.w)});
  if (!(m > 1e-150) || !std::isfinite(m)) return fallback;
  const glm::dquat r = q * (1.0 / m);
  return r * (1.0 / std::sqrt(glm::dot(r, r)));
}

// Nonzero, finite vector → unit; otherwise error.
bool UsableVector(const glm::dvec3& v) { return FiniteV(v) && glm::dot(v, v) > 1e-24; }
bool UsableQuat(const glm::dquat& q) { return FiniteQ(q) && glm::dot(q, q) > 1e-24; }

glm::dquat Slerp(const glm::dquat& a, const glm::dquat& b, double s) {
  const glm::dvec3 u = QuatLogChart(b, a);  // b = exp(u)·a
  return QuatExpChart(u * s, a);
}

}  // namespace

// ------------------------------------------------------------ settings

Status PdSettings::Validate() const {
  if (!FiniteD(kp) || kp <= 0.0) return Error("kp: must be a finite number > 0");
  if (!FiniteD(kd) || kd < 0.0) return Error("kd: must be a finite number >= 0");
  if (static_cast<unsigned>(integrator) > 3u) return Error("integrator: unknown");
  if (!FiniteD(dtMax) || dtMax <= 0.0) return Error("dtMax: must be a finite number > 0");
  if (static_cast<unsigned>(substepSplit) > 1u) return Error("substepSplit: unknown");
  if (static_cast<unsigned>(onUnstable) > 1u) return Error("onUnstable: unknown");
  if (std::isnan(maxVelocity) || maxVelocity <= 0.0) return Error("maxVelocity: must be > 0 (Infinity for no limit)");
  if (!FiniteD(feedForward) || feedForward < 0.0 || feedForward > 1.0) return Error("feedForward: must be in [0, 1]");
  if (!FiniteD(ki) || ki < 0.0) return Error("ki: must be a finite number >= 0");
  if (std::isnan(maxIntegral) || maxIntegral < 0.0) return Error("maxIntegral: must be >= 0 (Infinity for no limit)");
  if (static_cast<unsigned>(targetMotion) > 1u) return Error("targetMotion: unknown");
  if (!FiniteD(restTolerance) || restTolerance < 0.0) return Error("restTolerance: must be a finite number >= 0");
  if (!FiniteD(restVelocity) || restVelocity < 0.0) return Error("restVelocity: must be a finite number >= 0");
  if (!FiniteD(blendOutEnergy) || blendOutEnergy < 0.0) return Error("blendOutEnergy: must be a finite number >= 0");
  if (!FiniteD(blendOutTime) || blendOutTime < 0.0) return Error("blendOutTime: must be a finite number >= 0");
  if (static_cast<unsigned>(method) > 1u) return Error("method: unknown");
  if (!FiniteD(maxAngle) || maxAngle <= 0.0 || maxAngle > kPiD + 1e-6) return Error("maxAngle: must be in (0, π]");
  return Ok();
}

Status SettingsFromSettleTime(double settleTime, double dampingRatio, PdSettings* out) {
  Gains g;
  if (Status s = GainsFromSettleTime(settleTime, dampingRatio, &g); !s) return s;
  out->kp = g.kp;
  out->kd = g.kd;
  return Ok();
}

// ------------------------------------------------------------ chart step

namespace {

// The sub-steps of one update: `count` steps of `length`, then one of `last` (0: none).
struct StepPlan {
  int count = 1;
  double length = 0.0;
  double last = 0.0;
  double Longest() const { return std::max(length, last); }
};

StepPlan PlanSteps(double dt, double dtMax, SubstepSplit split) {
  StepPlan p;
  if (split == SubstepSplit::kClassic && dt / dtMax < kMaxSubsteps) {
    p.count = static_cast<int>(std::floor(dt / dtMax));
    p.length = dtMax;
    p.last = dt - p.count * dtMax;  // may be 0 (dt a multiple of dtMax): no remainder step
    if (p.count == 0) p.length = 0.0;
    return p;
  }
  const double k = std::ceil(dt / dtMax);
  p.count = static_cast<int>(std::clamp(k, 1.0, static_cast<double>(kMaxSubsteps)));
  p.length = dt / p.count;
  return p;
}

// The stability check before a discrete step: shortens dt (or the sub-steps) for
// onUnstable 'clamp', or returns the error naming the integrator.
Status FitStability(const PdSettings& s, double* dt, StepPlan* plan) {
  const double limit = StepLimit(s.integrator, s.kp, s.kd);
  if (plan->Longest() < limit) return Ok();
  const bool sub = s.integrator == Integrator::kSubstep;
  if (s.onUnstable == OnUnstable::kThrow) {
    return Error(sub ? kUnstableSubstep : s.integrator == Integrator::kStable ? kUnstableStable : kUnstableExplicit);
  }
  const double h = 0.5 * limit;
  if (sub) {
    *dt = std::min(*dt, h * kMaxSubsteps);
    *plan = PlanSteps(*dt, h, s.substepSplit);
  } else {
    *dt = h;
    *plan = StepPlan{1, h, 0.0};
  }
  return Ok();
}

}  // namespace

Status ChartStep(const PdSettings& s, int n, double dt, const double* q, ChartState* state) {
  if (dt == 0.0) return Ok();
  ChartState c = *state;
  const bool clampV = std::isfinite(s.maxVelocity);

  // 'substep' and 'exact' with a velocity limit sub-step; 'explicit' and 'stable' are
  // one update (their velocity clamp sits inside the update). Discrete steps are
  // checked against their stability limit first.
  StepPlan plan{1, dt, 0.0};
  if (s.integrator == Integrator::kSubstep || (clampV && s.integrator == Integrator::kExact)) {
    plan = PlanSteps(dt, s.dtMax, s.substepSplit);
  }
  if (s.integrator != Integrator::kExact) {
    if (Status st = FitStability(s, &dt, &plan); !st) return st;
  }

  // Integral (explicit, before the step) with anti-windup: no accumulation while the
  // velocity limit is active, and |ki·I|/kp clamped to maxIntegral.
  // Trapezoid over the step: half with the error at its start (relative to the target
  // then, −q·dt in the chart) before the step, half with the error at its end after it.
  const bool integrate = s.ki > 0.0 && !(clampV && Norm(c.w, n) >= s.maxVelocity * (1.0 - 1e-9));
  auto clampIntegral = [&] {
    const double limit = s.maxIntegral * s.kp / s.ki;
    const double len = Norm(c.integral, n);
    if (len > limit) {
      for (int i = 0; i < n; ++i) c.integral[i] *= limit / len;
    }
  };
  if (integrate) {
    for (int i = 0; i < n; ++i) c.integral[i] -= 0.5 * dt * (c.u[i] + q[i] * dt);
    clampIntegral();
  }
  double bias[4];
  Biases(s, n, q, c.integral, bias);
  double offset[4];
  for (int i = 0; i < n; ++i) offset[i] = EquilibriumOffset(s.kp, s.kd, q[i], bias[i]);

  // One (sub-)step of length h; `remaining`: the time left after it.
  auto step = [&](double h, double remaining, const StepCoeffs& coeffs) {
    double u0[4];
    for (int i = 0; i < n; ++i) u0[i] = c.u[i];
    for (int i = 0; i < n; ++i) {
      const double target = -q[i] * remaining;  // chart target at the end of this sub-step
      switch (s.integrator) {
        case Integrator::kExact:
          ApplyExactStep(coeffs, h, target, q[i], offset[i], c.u[i], c.w[i]);
          break;
        case Integrator::kStable:
          StableStep(s.kp, s.kd, h, target, bias[i], std::numeric_limits<double>::infinity(), c.u[i], c.w[i]);
          break;
        case Integrator::kExplicit:
        case Integrator::kSubstep:
          ExplicitStep(s.kp, s.kd, h, target, bias[i], std::numeric_limits<double>::infinity(), c.u[i], c.w[i]);
          break;
      }
    }
    if (!clampV) return;
    // Velocity limit on the norm. Discrete updates: the classic clamp after the
    // velocity update, then x += h·v. Exact: the velocity and the move of the sub-step.
    const double speed = Norm(c.w, n);
    if (speed > s.maxVelocity) {
      for (int i = 0; i < n; ++i) c.w[i] *= s.maxVelocity / speed;
      if (s.integrator != Integrator::kExact) {
        for (int i = 0; i < n; ++i) c.u[i] = u0[i] + h * c.w[i];
      }
    }
    if (s.integrator != Integrator::kExact) return;
    double d[4];
    for (int i = 0; i < n; ++i) d[i] = c.u[i] - u0[i];
    const double moved = Norm(d, n);
    const double maxMove = s.maxVelocity * h;
    if (moved > maxMove) {
      for (int i = 0; i < n; ++i) c.u[i] = u0[i] + d[i] * (maxMove / moved);
    }
  };
  const bool exact = s.integrator == Integrator::kExact;
  if (plan.count > 0) {
    const StepCoeffs coeffs = exact ? ExactStepCoeffs(s.kp, s.kd, plan.length) : StepCoeffs{};
    for (int k = 1; k <= plan.count; ++k) step(plan.length, dt - plan.length * k, coeffs);
  }
  if (plan.last > 0.0) step(plan.last, 0.0, exact ? ExactStepCoeffs(s.kp, s.kd, plan.last) : StepCoeffs{});

  if (integrate) {
    for (int i = 0; i < n; ++i) c.integral[i] -= 0.5 * dt * c.u[i];
    clampIntegral();
  }
  for (int i = 0; i < n; ++i) {
    if (!FiniteD(c.u[i]) || !FiniteD(c.w[i]) || !FiniteD(c.integral[i])) {
      return Error(kDiverged);
    }
  }
  *state = c;
  return Ok();
}

// ------------------------------------------------------------ scalar / angle

ScalarPD::ScalarPD(const PdSettings& settings, bool angle) : angle_(angle) {
  if (settings.Validate()) settings_ = settings;
}

Status ScalarPD::Configure(const PdSettings& settings) {
  if (Status s = settings.Validate(); !s) return s;
  settings_ = settings;
  return Ok();
}

double ScalarPD::Wrap(double x) const { return angle_ ? WrapAngle(x) : x; }
double ScalarPD::Chart(double x, double target) const { return angle_ ? WrapAngle(x - target) : x - target; }

Status ScalarPD::Update(double dt, double target) {
  // An Update cancels a blend-out, but only when it succeeds (errors change nothing).
  const Status s = Advance(dt, target, nullptr);
  if (s) phase_ = BlendPhase::kNone;
  return s;
}

Status ScalarPD::Update(double dt, double target, double targetVelocity) {
  // An Update cancels a blend-out, but only when it succeeds (errors change nothing).
  const Status s = Advance(dt, target, &targetVelocity);
  if (s) phase_ = BlendPhase::kNone;
  return s;
}

Status ScalarPD::Advance(double dt, double target, const double* targetVelocity) {
  if (Status s = CheckDt(dt); !s) return s;
  if (!FiniteD(target)) return Error("target: must be a finite number");
  double q = 0.0;
  if (targetVelocity) {
    if (!FiniteD(*targetVelocity)) return Error("targetVelocity: must be a finite number");
    q = *targetVelocity;
  } else if (settings_.targetMotion == TargetMotion::kLinear && hasTarget_ && dt > 0.0) {
    q = Chart(target, target_) / dt;
  }
  if (dt == 0.0) {  // a no-op on the state; the new target is remembered
    target_ = Wrap(target);
    targetVelocity_ = q;
    hasTarget_ = true;
    return Ok();
  }
  ChartState c;
  c.u[0] = Chart(x_, target);
  c.w[0] = v_;
  c.integral[0] = integral_;
  if (Status s = ChartStep(settings_, 1, dt, &q, &c); !s) return s;
  if (!FiniteD(target + c.u[0])) return Error(kDiverged);
  x_ = Wrap(target + c.u[0]);
  v_ = c.w[0];
  integral_ = c.integral[0];
  target_ = Wrap(target);
  targetVelocity_ = q;
  hasTarget_ = true;
  return Ok();
}

void ScalarPD::Reset(double value, double velocity) {
  x_ = FiniteD(value) ? Wrap(value) : 0.0;
  v_ = FiniteD(velocity) ? velocity : 0.0;
  target_ = x_;
  targetVelocity_ = 0.0;
  integral_ = 0.0;
  hasTarget_ = false;
  phase_ = BlendPhase::kNone;
}

bool ScalarPD::AtRest() const {
  return std::fabs(Chart(x_, target_)) <= settings_.restTolerance && std::fabs(v_) <= settings_.restVelocity;
}

double ScalarPD::Energy() const {
  const double e = Chart(x_, target_);
  return 0.5 * settings_.kp * e * e + 0.5 * v_ * v_;
}

Status ScalarPD::StateAt(double t, double* value, double* velocity) const {
  if (!FiniteD(t)) return Error("t: must be a finite number");
  ChartState c;
  c.u[0] = Chart(x_, target_);
  c.w[0] = v_;
  c.integral[0] = integral_;
  double u, w;
  SegmentAt(settings_, 1, t, &targetVelocity_, c, &u, &w);
  const double x = Wrap(target_ + u);
  if (!FiniteD(x) || !FiniteD(w)) return Error("t: too far back in time (the state overflows)");
  *value = x;
  *velocity = w;
  return Ok();
}

Status ScalarPD::TimeToSettle(double tolerance, double* seconds) const {
  if (Status s = CheckTolerance(tolerance); !s) return s;
  ChartState c;
  c.u[0] = Chart(x_, target_);
  c.w[0] = v_;
  c.integral[0] = integral_;
  *seconds = SegmentSettle(settings_, 1, &targetVelocity_, c, tolerance);
  return Ok();
}

Status ScalarPD::UpdateBlendOut(double dt, double rest) {
  if (Status s = CheckDt(dt); !s) return s;
  if (!FiniteD(rest)) return Error("rest: must be a finite number");
  rest = Wrap(rest);
  if (phase_ == BlendPhase::kNone || phase_ == BlendPhase::kSpring) {
    const double zero = 0.0;
    if (Status s = Advance(dt, rest, &zero); !s) return s;
    phase_ = BlendPhase::kSpring;
    if (Energy() <= settings_.blendOutEnergy) {
      phase_ = BlendPhase::kLinear;
      blendFrom_ = Chart(x_, rest);
      blendElapsed_ = 0.0;
      if (settings_.blendOutTime == 0.0) {
        phase_ = BlendPhase::kDone;
        x_ = rest;
        v_ = 0.0;
      }
    }
    return Ok();
  }
  target_ = rest;
  targetVelocity_ = 0.0;
  if (phase_ == BlendPhase::kLinear) {
    blendElapsed_ += dt;
    const double s = blendElapsed_ / settings_.blendOutTime;  // NaN when blendOutTime became 0: finish
    if (s < 1.0) {
      x_ = Wrap(rest + (1.0 - s) * blendFrom_);
      v_ = -blendFrom_ / settings_.blendOutTime;
      return Ok();
    }
    phase_ = BlendPhase::kDone;
  }
  x_ = rest;
  v_ = 0.0;
  integral_ = 0.0;
  return Ok();
}

Status ScalarPD::TrackOffset(double dt, double animation, double desired, double* out) {
  if (!FiniteD(animation)) return Error("animation: must be a finite number");
  if (!FiniteD(desired)) return Error("desired: must be a finite number");
  ScalarPD next = *this;  // commit only when the output is finite too
  if (Status s = next.Update(dt, Chart(desired, animation)); !s) return s;
  const double result = animation + next.x_;
  if (!FiniteD(result)) return Error("animation: animation + offset overflows");
  *this = next;
  *out = Wrap(result);
  return Ok();
}

Status ScalarPD::ReleaseOffset(double dt, double animation, double* out) {
  if (!FiniteD(animation)) return Error("animation: must be a finite number");
  ScalarPD next = *this;  // commit only when the output is finite too
  if (Status s = next.UpdateBlendOut(dt, 0.0); !s) return s;
  const double result = animation + next.x_;
  if (!FiniteD(result)) return Error("animation: animation + offset overflows");
  *this = next;
  *out = Wrap(result);
  return Ok();
}

// ------------------------------------------------------------ rotation charts

glm::dvec3 AnyPerpendicular(const glm::dvec3& v) {
  const glm::dvec3 axis = std::fabs(v.x) < 0.57 ? glm::dvec3(1, 0, 0)
                          : std::fabs(v.y) < 0.57 ? glm::dvec3(0, 1, 0)
                                                  : glm::dvec3(0, 0, 1);
  return Normalized(glm::cross(v, axis));
}

glm::dvec3 SphereLog(const glm::dvec3& p, const glm::dvec3& g, const glm::dvec3& hint) {
  const double d = glm::dot(p, g);
  const glm::dvec3 perp = p - d * g;
  const double s = glm::length(perp);
  const double angle = std::atan2(s, d);
  if (s > 1e-12) return perp * (angle / s);
  if (d > 0.0) return perp;  // p == g
  // Exactly opposite: any direction is a shortest path; use the hint's tangential part.
  glm::dvec3 h = hint - glm::dot(hint, g) * g;
  const double hl = glm::length(h);
  const glm::dvec3 dir = hl > 1e-12 ? h / hl : AnyPerpendicular(g);
  return dir * angle;
}

glm::dvec3 SphereExp(const glm::dvec3& u, const glm::dvec3& g) {
  const double t = LengthSafe(u);
  if (t < 1e-12) return Normalized(g + u);
  return Normalized(std::cos(t) * g + std::sin(t) * (u / t));
}

namespace {

// dp/dt of p = SphereExp(u, g) for du/dt = udot (udot ⊥ g).
glm::dvec3 SphereExpVelocity(const glm::dvec3& u, const glm::dvec3& g, const glm::dvec3& udot) {
  const double t = glm::length(u);
  const glm::dvec3 ud = udot - glm::dot(udot, g) * g;
  if (t < 1e-12) return ud;
  const glm::dvec3 uh = u / t;
  const double r = glm::dot(ud, uh);
  const glm::dvec3 perp = ud - r * uh;
  return r * (-std::sin(t) * g + std::cos(t) * uh) + (std::sin(t) / t) * perp;
}

// du/dt for p = SphereExp(u, g) moving at pdot (the inverse of SphereExpVelocity).
glm::dvec3 SphereLogVelocity(const glm::dvec3& u, const glm::dvec3& g, const glm::dvec3& p, const glm::dvec3& pdot) {
  const double t = glm::length(u);
  if (t < 1e-12) return pdot - glm::dot(pdot, g) * g;
  const glm::dvec3 uh = u / t;
  const glm::dvec3 dir = -std::sin(t) * g + std::cos(t) * uh;  // unit tangent at p, away from g
  const double r = glm::dot(pdot, dir);
  const glm::dvec3 perp = pdot - r * dir - glm::dot(pdot, p) * p;
  const double st = std::sin(t);
  const glm::dvec3 across = st > 1e-9 ? perp * (t / st) : glm::dvec3(0.0);
  return r * uh + across;
}

}  // namespace

// The rotation chart is written once, over a lane type, in quat_pd_kernel.h
// (QuatPdBatchJob runs it in float lanes); these are its double instances.
glm::dvec3 QuatLogChart(const glm::dquat& q, const glm::dquat& g) {
  kernel::HalfAngle<double> half;
  simd::Q4<double> target = simd::FromGlm(g);
  return simd::ToGlm(kernel::QuatLog(simd::FromGlm(q), &target, &half));
}

glm::dquat QuatExpChart(const glm::dvec3& u, const glm::dquat& g) {
  const simd::V3<double> v = simd::FromGlm(u);
  return simd::ToGlm(kernel::QuatExp(v, kernel::HalfAngleOf(v), simd::FromGlm(g)));
}

glm::dvec3 LeftJacobianTimes(const glm::dvec3& u, const glm::dvec3& udot) {
  const simd::V3<double> v = simd::FromGlm(u);
  return simd::ToGlm(kernel::JTimes(v, kernel::HalfAngleOf(v), simd::FromGlm(udot)));
}

glm::dvec3 LeftJacobianInverseTimes(const glm::dvec3& u, const glm::dvec3& omega) {
  const simd::V3<double> v = simd::FromGlm(u);
  return simd::ToGlm(kernel::JInvTimes(v, kernel::HalfAngleOf(v), simd::FromGlm(omega)));
}

// ------------------------------------------------------------ unit vector

Vec3PD::Vec3PD() = default;

Vec3PD::Vec3PD(const PdSettings& settings) {
  if (settings.Validate()) settings_ = settings;
}

Status Vec3PD::Configure(const PdSettings& settings) {
  if (Status s = settings.Validate(); !s) return s;
  settings_ = settings;
  return Ok();
}

Status Vec3PD::Reset(const glm::dvec3& value, const glm::dvec3& velocity) {
  if (!UsableVector(value)) return Error("value: must be a finite, non-zero vector");
  if (!FiniteV(velocity)) return Error("velocity: must be finite");
  p_ = Normalized(value);
  v_ = velocity;
  target_ = p_;
  targetVelocity_ = glm::dvec3(0.0);
  integral_[0] = integral_[1] = integral_[2] = 0.0;
  hasTarget_ = false;
  phase_ = BlendPhase::kNone;
  return Ok();
}

void Vec3PD::ToChart(const glm::dvec3& g, ChartState* c) const {
  glm::dvec3 u, w;
  if (settings_.method == RotationUpdate::kLogMap) {
    u = SphereLog(p_, g, v_);
    w = SphereLogVelocity(u, g, p_, v_);
  } else {
    u = p_ - g;
    w = v_;
  }
  for (int i = 0; i < 3; ++i) {
    c->u[i] = u[i];
    c->w[i] = w[i];
    c->integral[i] = integral_[i];
  }
}

void Vec3PD::FromChart(const glm::dvec3& g, const ChartState& c, glm::dvec3* p, glm::dvec3* v) const {
  const glm::dvec3 u(c.u[0], c.u[1], c.u[2]), w(c.w[0], c.w[1], c.w[2]);
  if (settings_.method == RotationUpdate::kLogMap) {
    *p = SphereExp(u, g);
    *v = SphereExpVelocity(u, g, w);
  } else {
    *p = SafeNormalize(g + u, p_);
    *v = w;
  }
}

Status Vec3PD::Update(double dt, const glm::dvec3& target) {
  // An Update cancels a blend-out, but only when it succeeds (errors change nothing).
  const Status s = Advance(dt, target, nullptr);
  if (s) phase_ = BlendPhase::kNone;
  return s;
}

Status Vec3PD::Update(double dt, const glm::dvec3& target, const glm::dvec3& targetVelocity) {
  // An Update cancels a blend-out, but only when it succeeds (errors change nothing).
  const Status s = Advance(dt, target, &targetVelocity);
  if (s) phase_ = BlendPhase::kNone;
  return s;
}

Status Vec3PD::Advance(double dt, const glm::dvec3& targetIn, const glm::dvec3* targetVelocity) {
  if (Status s = CheckDt(dt); !s) return s;
  if (!FiniteV(targetIn)) return Error("target: must be finite");
  if (!UsableVector(targetIn)) return Error("target: must not be zero");
  const glm::dvec3 g = Normalized(targetIn);
  PdSettings s = settings_;
  // The componentwise update moves along the chord, which passes through the
  // origin for opposite vectors: far from the target (> ~154°) use the log map instead.
  glm::dvec3 v0 = v_;
  if (s.method == RotationUpdate::kComponentwise && glm::dot(p_, g) < -0.9) {
    s.method = RotationUpdate::kLogMap;
    v0 = v_ - glm::dot(v_, p_) * p_;
  }
  glm::dvec3 q(0.0);  // chart velocity of the target
  if (targetVelocity) {
    if (!FiniteV(*targetVelocity)) return Error("targetVelocity: must be finite");
    q = *targetVelocity - glm::dot(*targetVelocity, g) * g;
  } else if (s.targetMotion == TargetMotion::kLinear && hasTarget_ && dt > 0.0) {
    q = (s.method == RotationUpdate::kLogMap ? -SphereLog(target_, g, glm::dvec3(0.0)) : g - target_) / dt;
  }
  if (dt == 0.0) {
    target_ = g;
    targetVelocity_ = q;
    hasTarget_ = true;
    return Ok();
  }
  Vec3PD self = *this;
  self.settings_ = s;
  self.v_ = v0;
  ChartState c;
  self.ToChart(g, &c);
  const double qa[3] = {q.x, q.y, q.z};
  if (Status st = ChartStep(s, 3, dt, qa, &c); !st) return st;
  glm::dvec3 np, nv;
  self.FromChart(g, c, &np, &nv);
  if (!FiniteV(np) || !FiniteV(nv)) return Error(kDiverged);
  p_ = np;
  v_ = nv;
  integral_[0] = c.integral[0];
  integral_[1] = c.integral[1];
  integral_[2] = c.integral[2];
  target_ = g;
  targetVelocity_ = q;
  hasTarget_ = true;
  return Ok();
}

bool Vec3PD::AtRest() const {
  const double angle = std::atan2(glm::length(glm::cross(p_, target_)), glm::dot(p_, target_));
  return angle <= settings_.restTolerance && glm::length(v_) <= settings_.restVelocity;
}

double Vec3PD::Energy() const {
  PdSettings s = settings_;
  Vec3PD self = *this;
  self.settings_.method = RotationUpdate::kLogMap;
  ChartState c;
  self.ToChart(target_, &c);
  return ChartEnergy(s, 3, c);
}

Status Vec3PD::StateAt(double t, glm::dvec3* value, glm::dvec3* velocity) const {
  if (!FiniteD(t)) return Error("t: must be a finite number");
  Vec3PD self = *this;
  self.settings_.method = RotationUpdate::kLogMap;
  ChartState c;
  self.ToChart(target_, &c);
  const double q[3] = {targetVelocity_.x, targetVelocity_.y, targetVelocity_.z};
  ChartState out;
  SegmentAt(settings_, 3, t, q, c, out.u, out.w);
  glm::dvec3 p, v;
  self.FromChart(target_, out, &p, &v);
  if (!FiniteV(p) || !FiniteV(v)) return Error("t: too far back in time (the state overflows)");
  *value = p;
  *velocity = v;
  return Ok();
}

Status Vec3PD::TimeToSettle(double tolerance, double* seconds) const {
  if (Status s = CheckTolerance(tolerance); !s) return s;
  Vec3PD self = *this;
  self.settings_.method = RotationUpdate::kLogMap;
  ChartState c;
  self.ToChart(target_, &c);
  const double q[3] = {targetVelocity_.x, targetVelocity_.y, targetVelocity_.z};
  *seconds = SegmentSettle(settings_, 3, q, c, tolerance);
  return Ok();
}

Status Vec3PD::UpdateBlendOut(double dt, const glm::dvec3& restIn) {
  if (Status s = CheckDt(dt); !s) return s;
  if (!UsableVector(restIn)) return Error("rest: must be a finite, non-zero vector");
  const glm::dvec3 rest = Normalized(restIn);
  if (phase_ == BlendPhase::kNone || phase_ == BlendPhase::kSpring) {
    const glm::dvec3 zero(0.0);
    if (Status s = Advance(dt, rest, &zero); !s) return s;
    phase_ = BlendPhase::kSpring;
    if (Energy() <= settings_.blendOutEnergy) {
      phase_ = settings_.blendOutTime > 0.0 ? BlendPhase::kLinear : BlendPhase::kDone;
      blendFrom_ = p_;
      blendElapsed_ = 0.0;
      if (phase_ == BlendPhase::kDone) {
        p_ = rest;
        v_ = glm::dvec3(0.0);
      }
    }
    return Ok();
  }
  target_ = rest;
  targetVelocity_ = glm::dvec3(0.0);
  if (phase_ == BlendPhase::kLinear) {
    blendElapsed_ += dt;
    const double s = blendElapsed_ / settings_.blendOutTime;
    if (s < 1.0) {
      const glm::dvec3 u = SphereLog(blendFrom_, rest, glm::dvec3(0.0));
      p_ = SphereExp((1.0 - s) * u, rest);
      v_ = SphereExpVelocity((1.0 - s) * u, rest, -u / settings_.blendOutTime);
      return Ok();
    }
    phase_ = BlendPhase::kDone;
  }
  p_ = rest;
  v_ = glm::dvec3(0.0);
  integral_[0] = integral_[1] = integral_[2] = 0.0;
  return Ok();
}

// ------------------------------------------------------------ quaternion

QuatPD::QuatPD() = default;

QuatPD::QuatPD(const PdSettings& settings) {
  if (settings.Validate()) settings_ = settings;
}

Status QuatPD::Configure(const PdSettings& settings) {
  if (Status s = settings.Validate(); !s) return s;
  settings_ = settings;
  ClampAngle();
  return Ok();
}

Status QuatPD::Reset(const glm::dquat& value, const glm::dvec3& angularVelocity) {
  if (!UsableQuat(value)) return Error("value: must be a finite, non-zero quaternion");
  if (!FiniteV(angularVelocity)) return Error("velocity: must be finite");
  q_ = NormalizeSafe(value);
  omega_ = angularVelocity;
  qdot_ = glm::dvec4(0.0);
  {
    const glm::dquat d = glm::dquat(0.0, omega_.x, omega_.y, omega_.z) * q_;
    qdot_ = 0.5 * glm::dvec4(d.x, d.y, d.z, d.w);
  }
  target_ = q_;
  targetVelocity_ = glm::dvec3(0.0);
  for (double& i : integral_) i = 0.0;
  hasTarget_ = false;
  phase_ = BlendPhase::kNone;
  ClampAngle();
  return Ok();
}

void QuatPD::ToChart(const glm::dquat& g, ChartState* c) const {
  for (int i = 0; i < 4; ++i) c->integral[i] = integral_[i];
  if (settings_.method == RotationUpdate::kLogMap) {
    const glm::dvec3 u = QuatLogChart(q_, g);
    const glm::dvec3 w = LeftJacobianInverseTimes(u, omega_);
    for (int i = 0; i < 3; ++i) {
      c->u[i] = u[i];
      c->w[i] = w[i];
    }
    c->u[3] = c->w[3] = 0.0;
  } else {
    const glm::dquat gh = glm::dot(q_, g) < 0.0 ? -g : g;
    const double uq[4] = {q_.x - gh.x, q_.y - gh.y, q_.z - gh.z, q_.w - gh.w};
    for (int i = 0; i < 4; ++i) {
      c->u[i] = uq[i];
      c->w[i] = qdot_[i];
    }
  }
}

void QuatPD::FromChart(const glm::dquat& g, const ChartState& c, glm::dquat* q, glm::dvec3* omega,
                       glm::dvec4* raw) const {
  if (settings_.method == RotationUpdate::kLogMap) {
    const glm::dvec3 u(c.u[0], c.u[1], c.u[2]), w(c.w[0], c.w[1], c.w[2]);
    *q = QuatExpChart(u, g);
    *omega = LeftJacobianTimes(u, w);
    const glm::dquat d = glm::dquat(0.0, omega->x, omega->y, omega->z) * *q;
    *raw = 0.5 * glm::dvec4(d.x, d.y, d.z, d.w);
  } else {
    const glm::dquat gh = glm::dot(q_, g) < 0.0 ? -g : g;
    const glm::dquat r(gh.w + c.u[3], gh.x + c.u[0], gh.y + c.u[1], gh.z + c.u[2]);
    *q = SafeNormalize(r, q_);
    *raw = glm::dvec4(c.w[0], c.w[1], c.w[2], c.w[3]);
    // ω = 2·(q̇ q*).xyz
    const glm::dquat qd(c.w[3], c.w[0], c.w[1], c.w[2]);
    const glm::dquat o = qd * glm::conjugate(*q);
    *omega = 2.0 * glm::dvec3(o.x, o.y, o.z);
  }
}

void QuatPD::ClampAngle() {
  if (settings_.maxAngle >= kPiD) return;
  const double wMin = std::cos(0.5 * settings_.maxAngle);
  const double sign = q_.w < 0.0 ? -1.0 : 1.0;
  if (sign * q_.w >= wMin) return;
  glm::dvec3 v(q_.x, q_.y, q_.z);
  const double vl = glm::length(v);
  const glm::dvec3 axis = vl > 1e-300 ? sign * v / vl : glm::dvec3(1.0, 0.0, 0.0);
  const double sMax = std::sin(0.5 * settings_.maxAngle);
  q_ = glm::dquat(sign * wMin, sign * axis.x * sMax, sign * axis.y * sMax, sign * axis.z * sMax);
  const double out = glm::dot(omega_, axis);
  if (out > 0.0) omega_ -= out * axis;
  const glm::dquat d = glm::dquat(0.0, omega_.x, omega_.y, omega_.z) * q_;
  qdot_ = 0.5 * glm::dvec4(d.x, d.y, d.z, d.w);
}

Status QuatPD::Update(double dt, const glm::dquat& target) {
  // An Update cancels a blend-out, but only when it succeeds (errors change nothing).
  const Status s = Advance(dt, target, nullptr);
  if (s) phase_ = BlendPhase::kNone;
  return s;
}

Status QuatPD::Update(double dt, const glm::dquat& target, const glm::dvec3& targetVelocity) {
  // An Update cancels a blend-out, but only when it succeeds (errors change nothing).
  const Status s = Advance(dt, target, &targetVelocity);
  if (s) phase_ = BlendPhase::kNone;
  return s;
}

Status QuatPD::Advance(double dt, const glm::dquat& targetIn, const glm::dvec3* targetVelocity) {
  if (Status s = CheckDt(dt); !s) return s;
  if (!FiniteQ(targetIn)) return Error("target: must be finite");
  if (!UsableQuat(targetIn)) return Error("target: quaternion must not be zero");
  glm::dquat g = NormalizeSafe(targetIn);
  if (glm::dot(g, q_) < 0.0) g = -g;  // the target's hemisphere follows the state
  glm::dvec3 omegaT(0.0);
  if (targetVelocity) {
    if (!FiniteV(*targetVelocity)) return Error("targetVelocity: must be finite");
    omegaT = *targetVelocity;
  } else if (settings_.targetMotion == TargetMotion::kLinear && hasTarget_ && dt > 0.0) {
    omegaT = -QuatLogChart(target_, g) / dt;  // target_ = exp(−ω dt)·g
  }
  double q[4];
  if (settings_.method == RotationUpdate::kLogMap) {
    q[0] = omegaT.x, q[1] = omegaT.y, q[2] = omegaT.z, q[3] = 0.0;
  } else {
    const glm::dquat gh = glm::dot(q_, g) < 0.0 ? -g : g;
    const glm::dquat d = glm::dquat(0.0, omegaT.x, omegaT.y, omegaT.z) * gh;
    q[0] = 0.5 * d.x, q[1] = 0.5 * d.y, q[2] = 0.5 * d.z, q[3] = 0.5 * d.w;
  }
  if (dt == 0.0) {
    target_ = g;
    targetVelocity_ = omegaT;
    hasTarget_ = true;
    return Ok();
  }
  glm::dquat nq;
  glm::dvec3 nomega;
  glm::dvec4 nraw;
  ChartState c;
  for (int i = 0; i < 4; ++i) c.integral[i] = integral_[i];
  if (settings_.method == RotationUpdate::kLogMap && settings_.integrator == Integrator::kExact &&
      std::isinf(settings_.maxVelocity) && settings_.ki == 0.0 && omegaT == glm::dvec3(0.0)) {
    // The common case as one fused step: the kernel QuatPdBatchJob runs in float lanes.
    const StepCoeffs& k = steps_.Get(settings_.kp, settings_.kd, dt);
    simd::Q4<double> kq;
    simd::V3<double> kw;
    kernel::QuatPdExactStep<double>({k.ee, k.ev, k.ve, k.vv}, simd::FromGlm(q_), simd::FromGlm(omega_),
                                    simd::FromGlm(g), &kq, &kw);
    nq = simd::ToGlm(kq);
    nomega = simd::ToGlm(kw);
    const glm::dquat d = glm::dquat(0.0, nomega.x, nomega.y, nomega.z) * nq;
    nraw = 0.5 * glm::dvec4(d.x, d.y, d.z, d.w);
  } else {
    const int n = settings_.method == RotationUpdate::kLogMap ? 3 : 4;
    ToChart(g, &c);
    if (Status s = ChartStep(settings_, n, dt, q, &c); !s) return s;
    FromChart(g, c, &nq, &nomega, &nraw);
  }
  if (!FiniteQ(nq) || !FiniteV(nomega) || !FiniteD(nraw.x + nraw.y + nraw.z + nraw.w)) return Error(kDiverged);
  q_ = nq;
  omega_ = nomega;
  qdot_ = nraw;
  for (int i = 0; i < 4; ++i) integral_[i] = c.integral[i];
  target_ = g;
  targetVelocity_ = omegaT;
  hasTarget_ = true;
  ClampAngle();
  return Ok();
}

bool QuatPD::AtRest() const {
  return glm::length(QuatLogChart(q_, target_)) <= settings_.restTolerance &&
         glm::length(omega_) <= settings_.restVelocity;
}

double QuatPD::Energy() const {
  const glm::dvec3 u = QuatLogChart(q_, target_);
  const glm::dvec3 w = LeftJacobianInverseTimes(u, omega_);
  return 0.5 * settings_.kp * glm::dot(u, u) + 0.5 * glm::dot(w, w);
}

Status QuatPD::StateAt(double t, glm::dquat* value, glm::dvec3* angularVelocity) const {
  if (!FiniteD(t)) return Error("t: must be a finite number");
  QuatPD self = *this;
  self.settings_.method = RotationUpdate::kLogMap;
  ChartState c;
  self.ToChart(target_, &c);
  const double q[3] = {targetVelocity_.x, targetVelocity_.y, targetVelocity_.z};
  ChartState out;
  SegmentAt(settings_, 3, t, q, c, out.u, out.w);
  glm::dquat r;
  glm::dvec3 w;
  glm::dvec4 raw;
  self.FromChart(target_, out, &r, &w, &raw);
  if (!FiniteQ(r) || !FiniteV(w)) return Error("t: too far back in time (the state overflows)");
  *value = r;
  *angularVelocity = w;
  return Ok();
}

Status QuatPD::TimeToSettle(double tolerance, double* seconds) const {
  if (Status s = CheckTolerance(tolerance); !s) return s;
  QuatPD self = *this;
  self.settings_.method = RotationUpdate::kLogMap;
  ChartState c;
  self.ToChart(target_, &c);
  const double q[3] = {targetVelocity_.x, targetVelocity_.y, targetVelocity_.z};
  *seconds = SegmentSettle(settings_, 3, q, c, tolerance);
  return Ok();
}

Status QuatPD::UpdateBlendOut(double dt) {
  if (Status s = CheckDt(dt); !s) return s;
  const glm::dquat identity(1.0, 0.0, 0.0, 0.0);
  if (phase_ == BlendPhase::kNone || phase_ == BlendPhase::kSpring) {
    const glm::dvec3 zero(0.0);
    if (Status s = Advance(dt, identity, &zero); !s) return s;
    phase_ = BlendPhase::kSpring;
    if (Energy() <= settings_.blendOutEnergy) {
      phase_ = settings_.blendOutTime > 0.0 ? BlendPhase::kLinear : BlendPhase::kDone;
      blendFrom_ = q_;
      blendElapsed_ = 0.0;
      if (phase_ == BlendPhase::kDone) {
        q_ = identity;
        omega_ = glm::dvec3(0.0);
        qdot_ = glm::dvec4(0.0);
      }
    }
    return Ok();
  }
  target_ = identity;
  targetVelocity_ = glm::dvec3(0.0);
  if (phase_ == BlendPhase::kLinear) {
    blendElapsed_ += dt;
    const double s = blendElapsed_ / settings_.blendOutTime;
    if (s < 1.0) {
      q_ = Slerp(blendFrom_, identity, s);
      omega_ = -QuatLogChart(blendFrom_, identity) / settings_.blendOutTime;
      const glm::dquat d = glm::dquat(0.0, omega_.x, omega_.y, omega_.z) * q_;
      qdot_ = 0.5 * glm::dvec4(d.x, d.y, d.z, d.w);
      ClampAngle();  // maxAngle may have been lowered (Configure) since the blend started
      return Ok();
    }
    phase_ = BlendPhase::kDone;
  }
  q_ = identity;
  omega_ = glm::dvec3(0.0);
  qdot_ = glm::dvec4(0.0);
  for (double& i : integral_) i = 0.0;
  return Ok();
}

Status QuatPD::TrackOffset(double dt, const glm::dquat& animation, const glm::dquat& desired, glm::dquat* out) {
  if (!UsableQuat(animation)) return Error("animation: must be a finite, non-zero quaternion");
  if (!UsableQuat(desired)) return Error("desired: must be a finite, non-zero quaternion");
  const glm::dquat a = NormalizeSafe(animation);
  if (Status s = Update(dt, NormalizeSafe(desired) * glm::conjugate(a)); !s) return s;
  *out = glm::normalize(q_ * a);
  return Ok();
}

Status QuatPD::ReleaseOffset(double dt, const glm::dquat& animation, glm::dquat* out) {
  if (!UsableQuat(animation)) return Error("animation: must be a finite, non-zero quaternion");
  if (Status s = UpdateBlendOut(dt); !s) return s;
  *out = glm::normalize(q_ * NormalizeSafe(animation));
  return Ok();
}

}  // namespace ikpd::pd
