// The spring step on chart coordinates (ChartStep) and the exact segment queries
// (SegmentAt, SegmentSettle) every controller runs on its chart.
#include "ikpd/pd/chart_step.h"

#include <algorithm>
#include <cmath>

#include "pd_checks.h"

namespace ikpd::pd {
namespace {

using detail::FiniteD;
using detail::kDiverged;

constexpr int kMaxSubsteps = 10000;
constexpr const char* kUnstableExplicit =
    "dt: outside the 'explicit' integrator's stability region for these gains (the step would diverge; "
    "see checkStability; use a smaller dt, integrator 'exact', or onUnstable: 'clamp')";
constexpr const char* kUnstableStable =
    "dt: outside the 'stable' integrator's stability region for these gains (the step would diverge; "
    "see checkStability; use a smaller dt, integrator 'exact', or onUnstable: 'clamp')";
constexpr const char* kUnstableSubstep =
    "dt: the 'substep' sub-step (dtMax, or dt / 10000 for a huge dt) is outside the stability region for "
    "these gains (the step would diverge; see checkStability; lower dtMax, or onUnstable: 'clamp')";

double Norm(const double* v, int n) {
  double s = 0.0;
  for (int i = 0; i < n; ++i) s += v[i] * v[i];
  return std::sqrt(s);
}

// Bias force per chart component: feed-forward of the target velocity plus the integral term.
void Biases(const PdSettings& s, int n, const double* q, const double* integral, double* bias) {
  for (int i = 0; i < n; ++i) bias[i] = s.feedForward * s.kd * q[i] + s.ki * integral[i];
}

}  // namespace

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

// After one (sub-)step of length h from u0: the velocity limit on the norm.
// Discrete updates: the classic clamp after the velocity update, then x += h·v.
// Exact: the velocity and the move of the sub-step.
void LimitSubstep(const PdSettings& s, double h, int n, const double* u0, double* u, double* w) {
  const double speed = Norm(w, n);
  if (speed > s.maxVelocity) {
    for (int i = 0; i < n; ++i) w[i] *= s.maxVelocity / speed;
    if (s.integrator != Integrator::kExact) {
      for (int i = 0; i < n; ++i) u[i] = u0[i] + h * w[i];
    }
  }
  if (s.integrator != Integrator::kExact) return;
  double d[4];
  for (int i = 0; i < n; ++i) d[i] = u[i] - u0[i];
  const double moved = Norm(d, n);
  const double maxMove = s.maxVelocity * h;
  if (moved > maxMove) {
    for (int i = 0; i < n; ++i) u[i] = u0[i] + d[i] * (maxMove / moved);
  }
}

}  // namespace

bool HeldStepPlan(const PdSettings& s, double dt, int* count, double* length) {
  const StepPlan plan = PlanSteps(dt, s.dtMax, s.substepSplit);
  if (plan.count == 0 || plan.last > 0.0) return false;
  *count = plan.count;
  *length = plan.length;
  return true;
}

bool HeldExactSteps(const PdSettings& s, int n, double dt, StepCoeffsCache* cache, double* u, double* w) {
  const StepPlan plan = PlanSteps(dt, s.dtMax, s.substepSplit);
  if (plan.count == 0 || plan.last > 0.0) return false;
  const StepCoeffs& k = cache->Get(s.kp, s.kd, plan.length);
  for (int step = 0; step < plan.count; ++step) {
    double u0[4];
    for (int i = 0; i < n; ++i) u0[i] = u[i];
    for (int i = 0; i < n; ++i) {
      // ApplyExactStep with the target, its velocity and the offset all 0.
      const double x = u[i], v = w[i];
      u[i] = k.ee * x + k.ev * v;
      w[i] = k.ve * x + k.vv * v;
    }
    LimitSubstep(s, plan.length, n, u0, u, w);
  }
  return true;
}

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
    if (clampV) LimitSubstep(s, h, n, u0, c.u, c.w);
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

}  // namespace ikpd::pd
