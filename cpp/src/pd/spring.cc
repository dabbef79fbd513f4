// Damped spring: closed-form step, gain conversions, stability analysis, settle time.
#include "ikpd/pd/spring.h"

#include <algorithm>
#include <cmath>

namespace ikpd::pd {
namespace {

constexpr double kTwoPi = 6.283185307179586476925;
constexpr double kInf = std::numeric_limits<double>::infinity();

bool Positive(double v) { return std::isfinite(v) && v > 0.0; }

// Spectral radius of [[m00, m01], [m10, m11]].
double SpectralRadius(double m00, double m01, double m10, double m11) {
  const double tr = m00 + m11;
  const double det = m00 * m11 - m01 * m10;
  const double disc = 0.25 * tr * tr - det;
  if (disc < 0.0) return std::sqrt(std::max(det, 0.0));
  const double s = std::sqrt(disc);
  return std::max(std::fabs(0.5 * tr + s), std::fabs(0.5 * tr - s));
}

}  // namespace

// ------------------------------------------------------------ parameters

Status GainsFromSettleTime(double settleTime, double dampingRatio, Gains* out) {
  if (!Positive(settleTime)) return Error("settleTime: must be a finite number > 0");
  if (!std::isfinite(dampingRatio) || dampingRatio < 0.0) return Error("damping: ratio must be a finite number >= 0");
  const double w = kTwoPi / settleTime;
  const double kp = w * w;
  if (!Positive(kp)) return Error("settleTime: too small");
  const double kd = 2.0 * dampingRatio * w;
  if (!std::isfinite(kd)) return Error("damping: too large");
  out->kp = kp;
  out->kd = kd;
  return Ok();
}

Status GainsFromSmoothTime(double smoothTime, Gains* out) {
  if (!Positive(smoothTime)) return Error("smoothTime: must be a finite number > 0");
  const double w = 2.0 / smoothTime;
  if (!Positive(w * w)) return Error("smoothTime: too small");
  out->kp = w * w;
  out->kd = 2.0 * w;
  return Ok();
}

Status GainsFromHalfLife(double halfLife, Gains* out) {
  if (!Positive(halfLife)) return Error("halfLife: must be a finite number > 0");
  // (1 + s)·e^{−s} = 1/2 for a critically damped spring released at rest, s = a·t.
  constexpr double kHalfS = 1.6783469900166610;
  const double a = kHalfS / halfLife;
  if (!Positive(a * a)) return Error("halfLife: too small");
  out->kp = a * a;
  out->kd = 2.0 * a;
  return Ok();
}

Status GainsFromStiffnessDamping(double stiffness, double damping, double mass, Gains* out) {
  if (!Positive(stiffness)) return Error("stiffness: must be a finite number > 0");
  if (!std::isfinite(damping) || damping < 0.0) return Error("damping: must be a finite number >= 0");
  if (!Positive(mass)) return Error("mass: must be a finite number > 0");
  out->kp = stiffness / mass;
  out->kd = damping / mass;
  if (!Positive(out->kp) || !std::isfinite(out->kd)) return Error("mass: gives gains out of range");
  return Ok();
}

// ------------------------------------------------------------ stability

StabilityReport CheckStability(Integrator integrator, double kp, double kd, double dt, double dtMax) {
  StabilityReport r;
  double h = dt;
  switch (integrator) {
    case Integrator::kExact: {
      const double a = 0.5 * kd;
      const double disc = a * a - kp;
      const double slow = disc > 0.0 ? kp / (a + std::sqrt(disc)) : a;  // |s1| or a
      r.spectralRadius = std::exp(-slow * dt);
      r.stable = kd > 0.0 || dt == 0.0;
      r.maxStableDt = kd > 0.0 ? kInf : 0.0;
      return r;
    }
    case Integrator::kSubstep:
      if (dt > dtMax && dtMax > 0.0) h = dt / std::ceil(dt / dtMax);
      [[fallthrough]];
    case Integrator::kExplicit: {
      r.spectralRadius = SpectralRadius(1.0 - kp * h * h, h * (1.0 - kd * h), -kp * h, 1.0 - kd * h);
      r.stable = kd * h > 0.0 && kp * h * h + 2.0 * kd * h < 4.0;
      r.maxStableDt = kd > 0.0 ? StepLimit(Integrator::kExplicit, kp, kd) : 0.0;
      return r;
    }
    case Integrator::kStable: {
      const double d = 1.0 + kd * h;
      const double alpha = h * kp / d;
      const double beta = (1.0 - kp * h * h) / d;
      r.spectralRadius = SpectralRadius(1.0 - h * alpha, h * beta, -alpha, beta);
      r.stable = h > 0.0 && 3.0 * kp * h * h < 4.0 + 2.0 * kd * h;
      r.maxStableDt = StepLimit(Integrator::kStable, kp, kd);
      return r;
    }
  }
  return r;
}

double StepLimit(Integrator integrator, double kp, double kd) {
  switch (integrator) {
    case Integrator::kExplicit:
    case Integrator::kSubstep:
      return 4.0 / (kd + std::hypot(kd, 2.0 * std::sqrt(kp)));
    case Integrator::kStable: {
      const double rho = kd / kp;  // (kd + √(kd² + 12kp)) / (3kp) without overflow; may be +inf
      return (rho + std::hypot(rho, std::sqrt(12.0 / kp))) / 3.0;
    }
    case Integrator::kExact:
      break;
  }
  return kInf;
}

// ------------------------------------------------------------ exact step

StepCoeffs ExactStepCoeffs(double kp, double kd, double t) {
  // State transition of u'' = −kp·u − kd·u' for a companion matrix:
  //   Φ = [[h' + kd·h, h], [−kp·h, h']] with h the impulse response.
  StepCoeffs c;
  if (t == 0.0) return c;
  const double a = 0.5 * kd;
  const double disc = a * a - kp;
  double h = 0.0, hp = 0.0;  // impulse response and its derivative at t
  if (disc < 0.0) {
    const double w = std::sqrt(-disc);
    const double e = std::exp(-a * t);
    if (e == 0.0) return {0.0, 0.0, 0.0, 0.0};
    const double wt = w * t;
    const double s = std::sin(wt) / w;  // → t as w → 0 (continuous with critical)
    h = e * s;
    hp = e * (std::cos(wt) - a * s);
  } else if (disc == 0.0) {
    const double e = std::exp(-a * t);
    if (e == 0.0) return {0.0, 0.0, 0.0, 0.0};
    h = e * t;
    hp = e - (a * t) * e;
  } else {
    const double r = std::sqrt(disc);
    const double s2 = -a - r;
    const double s1 = kp / s2;  // slow root, never −a + r (cancels)
    const double e1 = std::exp(s1 * t);
    const double e2 = std::exp(s2 * t);
    // (e^{s1 t} − e^{s2 t}) / (s1 − s2) = e^{s1 t}·(1 − e^{−2rt}) / (2r), s1 − s2 = 2r.
    const double hh = -std::expm1(-2.0 * r * t) / (2.0 * r);  // → t as r → 0
    h = e1 == 0.0 ? 0.0 : e1 * hh;
    hp = e2 + s1 * h;
    c.ee = e2 - s2 * h;  // = h' + kd·h without cancellation (kd + s1 = −s2)
    c.ev = h;
    c.ve = -kp * h;
    c.vv = hp;
    return c;
  }
  c.ee = hp + kd * h;
  c.ev = h;
  c.ve = -kp * h;
  c.vv = hp;
  return c;
}

// ------------------------------------------------------------ settle time

namespace {

// Largest t >= t0 with b(t) = e^{−λt}(α + βt) >= tol (b unimodal); 0 when b <= tol on [0, ∞).
double EnvelopeTime(double lambda, double alpha, double beta, double tol) {
  auto b = [&](double t) { return std::exp(-lambda * t) * (alpha + beta * t); };
  double peak = beta > 0.0 ? std::max(0.0, 1.0 / lambda - alpha / beta) : 0.0;
  if (b(peak) <= tol) return 0.0;
  double lo = peak, hi = std::max(peak, 1.0 / lambda);
  int guard = 0;
  while (b(hi) > tol && guard++ < 2000) {
    lo = hi;
    hi = hi * 2.0 + 1.0 / lambda;
  }
  for (int i = 0; i < 200 && hi - lo > 1e-13 * std::max(1.0, hi); ++i) {
    const double m = 0.5 * (lo + hi);
    (b(m) > tol ? lo : hi) = m;
  }
  return hi;
}

}  // namespace

double SettleTime(double kp, double kd, int n, const double* u0, const double* w0, double tolerance) {
  // The motion is linear in (u0, w0): scale them to at most 1 so the squares below
  // neither overflow nor underflow, and keep the scaled tolerance >= 1e-150 so its
  // square stays a normal double (a smaller relative tolerance is meaningless anyway).
  double scale = 0.0;
  for (int i = 0; i < n; ++i) scale = std::max({scale, std::fabs(u0[i]), std::fabs(w0[i])});
  if (scale == 0.0) return 0.0;
  tolerance = std::max(tolerance / scale, 1e-150);
  double P = 0.0, Q = 0.0, R = 0.0;  // |U|², U·W, |W|² (scaled)
  for (int i = 0; i < n; ++i) {
    const double u = u0[i] / scale, w = w0[i] / scale;
    P += u * u;
    Q += u * w;
    R += w * w;
  }
  const double tol2 = tolerance * tolerance;
  const double a = 0.5 * kd;
  const double disc = a * a - kp;
  // f(t) = |u(t)|² − tol², u(t) = ee(t)·U + ev(t)·W.
  auto f = [&](double t) {
    const StepCoeffs c = ExactStepCoeffs(kp, kd, t);
    return c.ee * c.ee * P + 2.0 * c.ee * c.ev * Q + c.ev * c.ev * R - tol2;
  };
  // Last crossing in [lo, hi] given f(lo) >= 0 > f(hi) and a single crossing there.
  auto bisect = [&](double lo, double hi) {
    for (int i = 0; i < 200 && hi - lo > 1e-13 * std::max(1.0, hi); ++i) {
      const double m = 0.5 * (lo + hi);
      (f(m) >= 0.0 ? lo : hi) = m;
    }
    return hi;
  };
  if (P + R == 0.0) return 0.0;

  if (disc < 0.0) {
    // u(t) = e^{−at}(A cos ωt + B sin ωt), A = U, B = (W + aU)/ω;
    // |u|² = e^{−2at}(Pm + Rm·cos(2ωt − φ)).
    const double w = std::sqrt(-disc);
    const double AA = P, BB = (R + 2.0 * a * Q + a * a * P) / (w * w), AB = (Q + a * P) / w;
    const double Pm = 0.5 * (AA + BB);
    const double Rc = 0.5 * (AA - BB);
    const double Rm = std::sqrt(Rc * Rc + AB * AB);
    const double phi = std::atan2(AB, Rc);
    if (a == 0.0) return (Pm + Rm <= tol2) ? 0.0 : kInf;
    const double period = kPi / w;  // of |u|² (up to the decay)
    // Decay of the maxima per period, as a rate: -log(decay) = 2·a·period. When it
    // vanishes in double (kd tiny against kp) the spring is undamped in practice.
    const double rate = 2.0 * a * period;
    if (!(rate > 0.0)) return (Pm + Rm <= tol2) ? 0.0 : kInf;
    const double c = a / w;  // g(θ) ∝ e^{−cθ}(Pm + Rm cos(θ − φ)), θ = 2ωt
    auto g = [&](double t) { return std::exp(-2.0 * a * t) * (Pm + Rm * std::cos(2.0 * w * t - phi)); };
    const double sn = Rm > 0.0 ? -c * Pm / (Rm * std::sqrt(1.0 + c * c)) : -2.0;
    if (sn < -1.0 || sn > 1.0) {
      // |u|² is monotone decreasing: a single crossing.
      if (g(0.0) <= tol2) return 0.0;
      const double hi = EnvelopeTime(a, std::sqrt(Pm + Rm), 0.0, tolerance);
      return bisect(0.0, std::max(hi, 1e-300));
    }
    // Local maxima of g repeat every period (scaled by `decay`): find the first at t >= 0.
    const double beta = std::atan(c);
    const double as = std::asin(sn);
    double tm = 0.0, best = -1.0;
    for (double psi : {as - beta, kPi - as - beta}) {
      double t = (psi + phi) / (2.0 * w);
      t = std::fmod(t, period);
      if (t < 0.0) t += period;
      const double gt = g(t);
      if (gt > best) { best = gt; tm = t; }
    }
    // Candidates: t = 0 (when before the first max g may still be above tol) and the maxima.
    if (best < tol2) {
      if (g(0.0) < tol2) return 0.0;
      return bisect(0.0, tm);
    }
    const double k = std::floor(std::log(best / tol2) / rate);
    const double tk = tm + k * period;
    return bisect(tk, tk + period);
  }

  // Critical / over-damped: at most two extrema; the decay bound gives the search range.
  const double slow = disc > 0.0 ? kp / (a + std::sqrt(disc)) : a;  // −s1
  const double U = std::sqrt(P);
  const double D = std::sqrt(std::max(0.0, R + 2.0 * slow * Q + slow * slow * P));  // |W − s1·U|
  const double hiT = EnvelopeTime(slow, U, D, tolerance);
  if (hiT == 0.0) return 0.0;
  constexpr int kSamples = 1024;
  double prev = hiT;
  for (int i = kSamples - 1; i >= 0; --i) {
    const double t = hiT * static_cast<double>(i) / kSamples;
    if (f(t) >= 0.0) return bisect(t, prev);
    prev = t;
  }
  return 0.0;
}

}  // namespace ikpd::pd
