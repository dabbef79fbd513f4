// ikpd::pd — the damped spring (PD controller, unit mass) as plain functions on
// plain state (docs/pd/pd.md). Everything here is allocation-free and header-inline
// where it sits on a hot path, so batch (SoA) code can call it per element.
//
// Model: x'' = kp·(g(t) − x) − kd·x' + bias, with the target moving linearly
// during a step: g(t) = target − targetVelocity·(dt − t), t ∈ [0, dt]
// (`target` is where the target is at the END of the step).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "ikpd/common.h"

namespace ikpd::pd {

// How a controller advances its state over a step.
enum class Integrator : std::uint8_t {
  kExact = 0,     // closed-form solution over the step: frame-rate independent (default)
  kStable = 1,    // Stable PD (Tan, Liu & Turk 2011) in velocity-then-position order
  kExplicit = 2,  // the classic update: v += dt·F; x += dt·v (semi-implicit Euler)
  kSubstep = 3,   // explicit update on sub-steps no longer than dtMax
};

// Damping presets (ratio ζ = kd / (2√kp)).
constexpr double kCriticalDampingRatio = 1.0;
constexpr double kResponsiveDampingRatio = 0.70710678118654752440;  // kd = √(2kp), ≈ 4.3 % overshoot
constexpr double kOverDampingRatio = 1.5;                           // slower than critical, no overshoot

struct Gains {
  double kp = 0.0;  // spring (1/s²), > 0
  double kd = 0.0;  // damper (1/s), >= 0
};

// ------------------------------------------------------------ parameters

// kp = (2π / settleTime)², kd = 2·dampingRatio·√kp (docs/pd/pd.md: settle time ≈ 2π/√kp
// for critical damping; kp = 40 → ≈ 0.99 s). Errors name "settleTime" / "damping".
Status GainsFromSettleTime(double settleTime, double dampingRatio, Gains* out);
// Unity's Mathf.SmoothDamp(smoothTime): a critically damped spring with ω = 2 / smoothTime.
Status GainsFromSmoothTime(double smoothTime, Gains* out);
// Critically damped spring whose error, starting at rest, halves after `halfLife` seconds.
Status GainsFromHalfLife(double halfLife, Gains* out);
// react-spring / motion (framer-motion) physics: kp = stiffness / mass, kd = damping / mass.
Status GainsFromStiffnessDamping(double stiffness, double damping, double mass, Gains* out);
// Damping ratio ζ = kd / (2√kp) (for kp > 0).
inline double DampingRatio(const Gains& g) { return g.kd / (2.0 * std::sqrt(g.kp)); }

// ------------------------------------------------------------ stability

// Stability of the fixed-target linear update x_{n+1} = M x_n (e = x − g, v) for one
// integrator at step dt (asymptotic: both eigenvalues strictly inside the unit circle).
// Derived for the updates exactly as implemented (velocity first, then position):
//   explicit/substep: M = [[1 − kp·h², h(1 − kd·h)], [−kp·h, 1 − kd·h]]
//     stable ⇔ kd·h > 0 and kp·h² + 2·kd·h < 4       → h < 4 / (kd + √(kd² + 4kp))
//   stable PD: det = (1 − kp·h²)/(1 + kd·h), trace = 1 + det − kp·h²/(1 + kd·h)
//     stable ⇔ 3·kp·h² < 4 + 2·kd·h                  → h < (kd + √(kd² + 12kp)) / (3kp)
//     (the published kd/kp > h is NOT sufficient: kp = 1e4, kd = 1.01·kp·h, h = 1/30 diverges)
//   exact: always stable.
// For `kSubstep`, h = dt / ceil(dt / dtMax).
struct StabilityReport {
  bool stable = true;
  double maxStableDt = std::numeric_limits<double>::infinity();  // largest stable (sub)step, exclusive
  double spectralRadius = 0.0;  // of the per-(sub)step matrix M; < 1 means stable
};
StabilityReport CheckStability(Integrator integrator, double kp, double kd, double dt, double dtMax = 1.0 / 120.0);

// Largest step length (exclusive) before the fixed-target update of `integrator`
// grows (spectral radius > 1), in closed form: explicit/substep 4 / (kd + √(kd² + 4kp)),
// stable (kd + √(kd² + 12kp)) / (3kp), exact +inf. Shorter steps never diverge; with
// kd > 0 (any kd for stable) they also decay, so it equals CheckStability's maxStableDt
// except that an undamped explicit spring (kd = 0) stays bounded below it instead of 0.
// The controllers check it before every discrete step (PdSettings::onUnstable).
double StepLimit(Integrator integrator, double kp, double kd);

// ------------------------------------------------------------ exact step

// The exact step is linear in the error/velocity relative to the equilibrium path:
//   [u1; w1] = [[ee, ev], [ve, vv]] · [u0; w0].
// Compute the coefficients once per (kp, kd, dt) and apply them to many elements.
struct StepCoeffs {
  double ee = 1.0, ev = 0.0, ve = 0.0, vv = 1.0;
};

// Closed form for under-, critically- and over-damped gains (kp > 0, kd >= 0, any
// finite dt, also negative = backwards). Continuous across ζ = 1 (uses sin(ωt)/ω
// and expm1; the slow over-damped root is kp/s₂, never −a + r). Finite for dt >= 0.
StepCoeffs ExactStepCoeffs(double kp, double kd, double dt);

// ExactStepCoeffs for the last (kp, kd, dt) asked: a controller stepped at a
// steady frame rate computes them once. Get() returns exactly what
// ExactStepCoeffs returns for the same arguments.
class StepCoeffsCache {
 public:
  const StepCoeffs& Get(double kp, double kd, double dt) {
    if (kp != kp_ || kd != kd_ || dt != dt_) {
      coeffs_ = ExactStepCoeffs(kp, kd, dt);
      kp_ = kp;
      kd_ = kd;
      dt_ = dt;
    }
    return coeffs_;
  }

 private:
  double kp_ = std::numeric_limits<double>::quiet_NaN();  // NaN: nothing cached
  double kd_ = 0.0;
  double dt_ = 0.0;
  StepCoeffs coeffs_{};
};

// Steady offset of x from a target moving at `targetVelocity` with extra constant force `bias`.
inline double EquilibriumOffset(double kp, double kd, double targetVelocity, double bias) {
  return (bias - kd * targetVelocity) / kp;
}

// One exact step for one scalar (x, v), T = float or double. `offset` = EquilibriumOffset(...).
template <class T>
inline void ApplyExactStep(const StepCoeffs& c, double dt, double target, double targetVelocity, double offset,
                           T& x, T& v) {
  const double u0 = static_cast<double>(x) - (target - targetVelocity * dt) - offset;
  const double w0 = static_cast<double>(v) - targetVelocity;
  const double u1 = c.ee * u0 + c.ev * w0;
  const double w1 = c.ve * u0 + c.vv * w0;
  x = static_cast<T>(target + offset + u1);
  v = static_cast<T>(targetVelocity + w1);
}

// Convenience: one exact step of (x, v) toward `target` (held when targetVelocity = 0).
inline void ExactStep(double kp, double kd, double dt, double target, double targetVelocity, double bias, double& x,
                      double& v) {
  ApplyExactStep(ExactStepCoeffs(kp, kd, dt), dt, target, targetVelocity,
                 EquilibriumOffset(kp, kd, targetVelocity, bias), x, v);
}

// ------------------------------------------------------------ discrete steps

// The classic explicit update with optional velocity clamp (maxVelocity >= 0, may be +inf):
// F = kp(target − x) − kd·v + bias; v += dt·F; v = clamp(v); x += dt·v.
template <class T>
inline void ExplicitStep(double kp, double kd, double dt, double target, double bias, double maxVelocity, T& x, T& v) {
  const double xd = static_cast<double>(x);
  double vd = static_cast<double>(v);
  const double f = kp * (target - xd) - kd * vd + bias;
  vd += dt * f;
  vd = std::fmax(-maxVelocity, std::fmin(maxVelocity, vd));
  x = static_cast<T>(xd + dt * vd);
  v = static_cast<T>(vd);
}

// Stable PD (Tan et al.): F = (kp(target − x − dt·v) − kd·v + bias) / (1 + dt·kd);
// v += dt·F; v = clamp(v); x += dt·v. See CheckStability for its real stability region.
template <class T>
inline void StableStep(double kp, double kd, double dt, double target, double bias, double maxVelocity, T& x, T& v) {
  const double xd = static_cast<double>(x);
  double vd = static_cast<double>(v);
  const double f = (kp * (target - xd - dt * vd) - kd * vd + bias) / (1.0 + dt * kd);
  vd += dt * f;
  vd = std::fmax(-maxVelocity, std::fmin(maxVelocity, vd));
  x = static_cast<T>(xd + dt * vd);
  v = static_cast<T>(vd);
}

// ------------------------------------------------------------ time queries

// Error u(t) and velocity w(t) of the free (homogeneous) spring after time t from (u0, w0):
// the same closed form as ExactStepCoeffs. t may be negative (backwards in time).
inline void FreeSpringAt(double kp, double kd, double t, double u0, double w0, double* u, double* w) {
  const StepCoeffs c = ExactStepCoeffs(kp, kd, t);
  *u = c.ee * u0 + c.ev * w0;
  *w = c.ve * u0 + c.vv * w0;
}

// Settling time of the free spring in n <= 4 dimensions: the smallest T >= 0 with
// |u(t)| <= tolerance for every t >= T, where u(t) = e^{At}(u0, w0) (|.| = Euclidean
// norm over the n components). Uses the closed form (extrema located analytically,
// crossing refined by bisection to ~1e-12 s). Returns +inf when the spring never
// settles (kd = 0 with a non-zero error), 0 when already settled for good.
// Tolerances below 1e-150 × the largest |u0|, |w0| component are treated as that.
double SettleTime(double kp, double kd, int n, const double* u0, const double* w0, double tolerance);

}  // namespace ikpd::pd
