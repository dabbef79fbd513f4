// Damped spring core: exact step vs the analytic solution, N steps == 1 step,
// stability regions, gain conversions, settle time.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "ikpd/ikpd.h"

using namespace ikpd::pd;

namespace {

constexpr double kTwoPi = 6.283185307179586;

// Textbook closed form (WEB-NOTES), evaluated in long double, fixed target g.
void Analytic(double kp, double kd, double g, double x0, double v0, double t, double* x, double* v) {
  using L = long double;
  const L a = L(kd) / 2, e0 = L(x0) - g, tt = t;
  const L disc = a * a - L(kp);
  if (disc < 0) {
    const L wd = std::sqrt(-disc);
    const L B = (v0 + a * e0) / wd;
    const L E = std::exp(-a * tt);
    *x = double(g + E * (e0 * std::cos(wd * tt) + B * std::sin(wd * tt)));
    *v = double(E * (v0 * std::cos(wd * tt) - ((L(kp) * e0 + a * v0) / wd) * std::sin(wd * tt)));
  } else if (disc == 0) {
    const L c = v0 + a * e0;
    const L E = std::exp(-a * tt);
    *x = double(g + (e0 + c * tt) * E);
    *v = double((v0 - a * c * tt) * E);
  } else {
    const L r = std::sqrt(disc);
    const L s2 = -a - r, s1 = L(kp) / s2;
    const L c2 = (v0 - s1 * e0) / (s2 - s1), c1 = e0 - c2;
    *x = double(g + c1 * std::exp(s1 * tt) + c2 * std::exp(s2 * tt));
    *v = double(c1 * s1 * std::exp(s1 * tt) + c2 * s2 * std::exp(s2 * tt));
  }
}

double Close(double got, double ref, double scale) { return std::fabs(got - ref) <= 1e-6 * std::fabs(ref) + 1e-10 * scale; }

}  // namespace

TEST(PdSpring, ExactMatchesAnalyticAllRegimes) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int counts[3] = {0, 0, 0};
  for (int i = 0; i < 20000; ++i) {
    const double kp = std::pow(10.0, 3.0 * u(rng) + 1.0);  // 0.1 .. 1e4
    double zeta = std::pow(10.0, 1.5 * u(rng));            // 0.03 .. 30
    if (std::fabs(zeta - 1.0) < 0.02) zeta = 1.2;  // the long-double reference cancels near ζ = 1
    if (i % 10 == 0) zeta = 1.0;
    const double kd = 2.0 * zeta * std::sqrt(kp);
    const double x0 = 10 * u(rng), v0 = 10 * u(rng) * std::sqrt(kp), g = 10 * u(rng);
    const double t = (u(rng) + 1.0) * 2.0 / std::sqrt(kp);
    double xr, vr;
    Analytic(kp, kd, g, x0, v0, t, &xr, &vr);
    double x = x0, v = v0;
    ExactStep(kp, kd, t, g, 0.0, 0.0, x, v);
    const double scale = std::fabs(x0 - g) + std::fabs(v0) / std::sqrt(kp);
    ASSERT_TRUE(Close(x, xr, scale)) << "kp=" << kp << " kd=" << kd << " t=" << t << " x=" << x << " ref=" << xr;
    ASSERT_TRUE(Close(v, vr, scale * std::sqrt(kp))) << "kp=" << kp << " kd=" << kd << " v=" << v << " ref=" << vr;
    counts[zeta < 1.0 ? 0 : zeta == 1.0 ? 1 : 2]++;
  }
  EXPECT_GT(counts[0], 1000);
  EXPECT_GT(counts[1], 100);
  EXPECT_GT(counts[2], 1000);
}

TEST(PdSpring, ContinuousAcrossCriticalDamping) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 2000; ++i) {
    const double kp = std::pow(10.0, 3.0 * u(rng) + 1.0);
    const double x0 = u(rng), v0 = u(rng) * std::sqrt(kp);
    const double t = (u(rng) + 1.0) * 3.0 / std::sqrt(kp);
    const double kdc = 2.0 * std::sqrt(kp);
    double xc = x0, vc = v0;
    ExactStep(kp, kdc, t, 0.0, 0.0, 0.0, xc, vc);
    // ζ = 1 exactly through the critical branch must agree with the analytic critical formula.
    double xr, vr;
    Analytic(kp, kdc, 0.0, x0, v0, t, &xr, &vr);
    const double scale = std::fabs(x0) + std::fabs(v0) / std::sqrt(kp);
    ASSERT_TRUE(Close(xc, xr, scale));
    for (double zeta : {1.0 - 1e-9, 1.0 + 1e-9, 1.0 - 1e-6, 1.0 + 1e-6}) {
      double x = x0, v = v0;
      ExactStep(kp, 2.0 * zeta * std::sqrt(kp), t, 0.0, 0.0, 0.0, x, v);
      const double tol = std::fabs(zeta - 1.0) * 20.0 * scale + 1e-9 * scale;
      ASSERT_NEAR(x, xc, tol) << "zeta=" << zeta;
      ASSERT_NEAR(v, vc, tol * std::sqrt(kp)) << "zeta=" << zeta;
    }
  }
}

TEST(PdSpring, StiffAndVeryDampedStayAccurateAndFinite) {
  // Very stiff under-damped, very damped over-damped (slow root kp/s2), huge dt.
  struct Case { double kp, kd; };
  for (Case c : {Case{1e8, 1.0}, Case{1e8, 2e4}, Case{1.0, 1e6}, Case{1e-3, 1e5}, Case{1e6, 1e9}}) {
    for (double t : {1e-6, 1.0 / 240.0, 1.0 / 30.0, 1.0, 1e3, 1e12}) {
      double x = 1.0, v = -0.5;
      ExactStep(c.kp, c.kd, t, 0.0, 0.0, 0.0, x, v);
      ASSERT_TRUE(std::isfinite(x) && std::isfinite(v)) << c.kp << " " << c.kd << " " << t;
      EXPECT_LE(std::fabs(x), 1.0 + 0.5 / std::sqrt(c.kp) + 1e-9);
      if (t < 10.0) {
        double xr, vr;
        Analytic(c.kp, c.kd, 0.0, 1.0, -0.5, t, &xr, &vr);
        EXPECT_TRUE(Close(x, xr, 1e-3)) << c.kp << " " << c.kd << " " << t << ": " << x << " vs " << xr;
      }
    }
  }
  // Over-damped slow root: kp = 1e-3, kd = 1e5 → s1 ≈ −1e-8; after 1e6 s, e ≈ e^{−0.01}.
  double x = 1.0, v = 0.0;
  ExactStep(1e-3, 1e5, 1e6, 0.0, 0.0, 0.0, x, v);
  EXPECT_NEAR(x, std::exp(-1e-3 / 1e5 * 1e6), 1e-6);
}

TEST(PdSpring, NStepsEqualOneStep) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 300; ++i) {
    const double kp = std::pow(10.0, 2.0 * u(rng) + 1.5);
    const double kd = 2.0 * std::pow(10.0, u(rng)) * std::sqrt(kp);
    const double x0 = u(rng), v0 = u(rng), g = u(rng), q = u(rng), bias = u(rng);
    double x1 = x0, v1 = v0;
    ExactStep(kp, kd, 1.0, g + q * 1.0, q, bias, x1, v1);  // target moves g → g + q over the second
    for (int n : {10, 30, 60, 144, 240}) {
      double x = x0, v = v0;
      const double dt = 1.0 / n;
      for (int k = 1; k <= n; ++k) ExactStep(kp, kd, dt, g + q * k * dt, q, bias, x, v);
      ASSERT_NEAR(x, x1, 1e-9);
      ASSERT_NEAR(v, v1, 1e-8);
    }
  }
}

TEST(PdSpring, BackwardStepUndoesForwardStep) {
  double x = 0.3, v = -2.0;
  ExactStep(40.0, 8.0, 0.25, 1.0, 0.0, 0.0, x, v);
  ExactStep(40.0, 8.0, -0.25, 1.0, 0.0, 0.0, x, v);
  EXPECT_NEAR(x, 0.3, 1e-12);
  EXPECT_NEAR(v, -2.0, 1e-12);
}

TEST(PdSpring, ExplicitDivergesWhereExactDoesNot) {
  const double kp = 1e4, kd = 2.0 * std::sqrt(kp), dt = 1.0 / 30.0;
  double xe = 1.0, ve = 0.0, xx = 1.0, vx = 0.0;
  const double inf = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 60; ++i) {
    ExplicitStep(kp, kd, dt, 0.0, 0.0, inf, xe, ve);
    ExactStep(kp, kd, dt, 0.0, 0.0, 0.0, xx, vx);
  }
  EXPECT_GT(std::fabs(xe), 1e10);
  EXPECT_LT(std::fabs(xx), 1e-10);
  EXPECT_FALSE(CheckStability(Integrator::kExplicit, kp, kd, dt).stable);
  EXPECT_TRUE(CheckStability(Integrator::kExact, kp, kd, dt).stable);
}

namespace {
// Runs n fixed-target steps and returns |e| + |v|/√kp at the end relative to the start.
template <class Step>
double Growth(Step step, double kp, int n) {
  double x = 1.0, v = 0.0;
  for (int i = 0; i < n; ++i) step(x, v);
  const double g = std::fabs(x) + std::fabs(v) / std::sqrt(kp);
  return std::isfinite(g) ? g : std::numeric_limits<double>::infinity();
}
}  // namespace

TEST(PdSpring, StablePdRegionIsNotKdOverKpGreaterThanDt) {
  const double inf = std::numeric_limits<double>::infinity();
  // Counter-example: kd/kp = 1.01·dt satisfies the published condition yet diverges.
  const double kp = 1e4, dt = 1.0 / 30.0, kd = 1.01 * kp * dt;
  EXPECT_GT(kd / kp, dt);
  const StabilityReport r = CheckStability(Integrator::kStable, kp, kd, dt);
  EXPECT_FALSE(r.stable);
  EXPECT_GT(r.spectralRadius, 1.0);
  EXPECT_GT(Growth([&](double& x, double& v) { StableStep(kp, kd, dt, 0.0, 0.0, inf, x, v); }, kp, 400), 1e6);

  // Both sides of the derived boundary 3·kp·h² = 4 + 2·kd·h, over many gains.
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int i = 0; i < 500; ++i) {
    const double k = std::pow(10.0, 1.0 + 4.0 * u(rng));
    const double d = std::pow(10.0, -1.0 + 4.0 * u(rng));
    const StabilityReport s = CheckStability(Integrator::kStable, k, d, 1.0 / 60.0);
    const double hMax = s.maxStableDt;
    EXPECT_NEAR(3.0 * k * hMax * hMax, 4.0 + 2.0 * d * hMax, 1e-9 * (4.0 + 2.0 * d * hMax));
    const double inside = hMax * 0.98, outside = hMax * 1.02;
    const StabilityReport a = CheckStability(Integrator::kStable, k, d, inside);
    const StabilityReport b = CheckStability(Integrator::kStable, k, d, outside);
    EXPECT_TRUE(a.stable);
    EXPECT_LT(a.spectralRadius, 1.0);
    EXPECT_FALSE(b.stable);
    EXPECT_GT(b.spectralRadius, 1.0);
    // And the simulation agrees: decays inside, grows outside.
    const double gi = Growth([&](double& x, double& v) { StableStep(k, d, inside, 0.0, 0.0, inf, x, v); }, k, 3000);
    const double go = Growth([&](double& x, double& v) { StableStep(k, d, outside, 0.0, 0.0, inf, x, v); }, k, 3000);
    EXPECT_LT(gi, 1.0) << k << " " << d;
    EXPECT_GT(go, 1.0) << k << " " << d;
  }
}

TEST(PdSpring, ExplicitRegion) {
  const double inf = std::numeric_limits<double>::infinity();
  for (double kp : {10.0, 40.0, 1e3, 1e5}) {
    for (double zeta : {0.2, 1.0, 3.0}) {
      const double kd = 2.0 * zeta * std::sqrt(kp);
      const double hMax = CheckStability(Integrator::kExplicit, kp, kd, 0.01).maxStableDt;
      EXPECT_NEAR(kp * hMax * hMax + 2.0 * kd * hMax, 4.0, 1e-9);
      EXPECT_TRUE(CheckStability(Integrator::kExplicit, kp, kd, hMax * 0.98).stable);
      EXPECT_FALSE(CheckStability(Integrator::kExplicit, kp, kd, hMax * 1.02).stable);
      EXPECT_LT(Growth([&](double& x, double& v) { ExplicitStep(kp, kd, hMax * 0.98, 0.0, 0.0, inf, x, v); }, kp, 5000), 1.0);
      EXPECT_GT(Growth([&](double& x, double& v) { ExplicitStep(kp, kd, hMax * 1.02, 0.0, 0.0, inf, x, v); }, kp, 5000), 1.0);
      // Sub-stepping at dtMax below the bound is stable for any frame dt.
      EXPECT_TRUE(CheckStability(Integrator::kSubstep, kp, kd, 1.0, hMax * 0.9).stable);
    }
  }
}

TEST(PdSpring, SeedNumbers) {
  // kp = 40, critical: ≈ 1.4 % of the initial error left at T = 2π/√kp ≈ 0.99 s.
  Gains g;
  ASSERT_TRUE(GainsFromSettleTime(kTwoPi / std::sqrt(40.0), 1.0, &g));
  EXPECT_NEAR(g.kp, 40.0, 1e-9);
  EXPECT_NEAR(g.kd, 2.0 * std::sqrt(40.0), 1e-9);
  const double T = kTwoPi / std::sqrt(40.0);
  EXPECT_NEAR(T, 0.9935, 1e-4);
  double x = 1.0, v = 0.0;
  ExactStep(g.kp, g.kd, T, 0.0, 0.0, 0.0, x, v);
  EXPECT_NEAR(x, 0.0136, 0.0005);  // (1 + 2π)e^{−2π}

  // Responsive (kd = √(2kp)) overshoots ≈ 4.3 % (e^{−π}).
  ASSERT_TRUE(GainsFromSettleTime(1.0, kResponsiveDampingRatio, &g));
  EXPECT_NEAR(g.kd, std::sqrt(2.0 * g.kp), 1e-9);
  double xr = 1.0, vr = 0.0, minX = 1.0;
  for (int i = 0; i < 2000; ++i) {
    ExactStep(g.kp, g.kd, 0.001, 0.0, 0.0, 0.0, xr, vr);
    minX = std::min(minX, xr);
  }
  EXPECT_NEAR(-minX, std::exp(-kTwoPi / 2.0), 2e-4);
  EXPECT_NEAR(-minX, 0.043, 0.001);

  // Over-damped is slower than critical (never overshooting either).
  Gains crit, over;
  ASSERT_TRUE(GainsFromSettleTime(1.0, 1.0, &crit));
  ASSERT_TRUE(GainsFromSettleTime(1.0, kOverDampingRatio, &over));
  for (double t : {0.25, 0.5, 1.0, 2.0}) {
    double xc = 1.0, vc = 0.0, xo = 1.0, vo = 0.0;
    ExactStep(crit.kp, crit.kd, t, 0.0, 0.0, 0.0, xc, vc);
    ExactStep(over.kp, over.kd, t, 0.0, 0.0, 0.0, xo, vo);
    EXPECT_GT(xo, xc);
    EXPECT_GT(xc, 0.0);
  }
  const double u0 = 1.0, w0 = 0.0;
  EXPECT_GT(SettleTime(over.kp, over.kd, 1, &u0, &w0, 0.01), SettleTime(crit.kp, crit.kd, 1, &u0, &w0, 0.01));
}

TEST(PdSpring, GainConversions) {
  Gains g;
  // Unity SmoothDamp: ω = 2/smoothTime, critical.
  ASSERT_TRUE(GainsFromSmoothTime(0.5, &g));
  EXPECT_NEAR(g.kp, 16.0, 1e-12);
  EXPECT_NEAR(g.kd, 8.0, 1e-12);
  // Half-life: from rest the error halves after exactly halfLife.
  ASSERT_TRUE(GainsFromHalfLife(0.3, &g));
  EXPECT_NEAR(DampingRatio(g), 1.0, 1e-12);
  double x = 1.0, v = 0.0;
  ExactStep(g.kp, g.kd, 0.3, 0.0, 0.0, 0.0, x, v);
  EXPECT_NEAR(x, 0.5, 1e-12);
  // react-spring defaults (tension 170, friction 26, mass 1); motion with mass 2.
  ASSERT_TRUE(GainsFromStiffnessDamping(170.0, 26.0, 1.0, &g));
  EXPECT_EQ(g.kp, 170.0);
  EXPECT_EQ(g.kd, 26.0);
  ASSERT_TRUE(GainsFromStiffnessDamping(100.0, 10.0, 2.0, &g));
  EXPECT_EQ(g.kp, 50.0);
  EXPECT_EQ(g.kd, 5.0);
  // Errors name the parameter.
  EXPECT_STREQ(GainsFromSettleTime(0.0, 1.0, &g).error, "settleTime: must be a finite number > 0");
  EXPECT_STREQ(GainsFromSettleTime(1.0, -1.0, &g).error, "damping: ratio must be a finite number >= 0");
  EXPECT_STREQ(GainsFromSmoothTime(NAN, &g).error, "smoothTime: must be a finite number > 0");
  EXPECT_STREQ(GainsFromHalfLife(-1.0, &g).error, "halfLife: must be a finite number > 0");
  EXPECT_STREQ(GainsFromStiffnessDamping(1.0, 1.0, 0.0, &g).error, "mass: must be a finite number > 0");
}

TEST(PdSpring, SettleTimeMatchesDenseSimulation) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 300; ++i) {
    const double kp = std::pow(10.0, u(rng) + 1.5);
    const double zeta = std::pow(10.0, 0.8 * u(rng));
    const double kd = 2.0 * zeta * std::sqrt(kp);
    const int n = 1 + i % 3;
    double u0[3], w0[3];
    for (int k = 0; k < n; ++k) {
      u0[k] = u(rng);
      w0[k] = u(rng) * std::sqrt(kp);
    }
    const double tol = std::pow(10.0, -1.0 - 3.0 * (u(rng) + 1.0) / 2.0);
    const double T = SettleTime(kp, kd, n, u0, w0, tol);
    ASSERT_TRUE(std::isfinite(T));
    // Dense check: |u(T + δ)| <= tol after, and some sample just before T has |u| >= tol (when T > 0).
    auto norm = [&](double t) {
      double s = 0.0;
      for (int k = 0; k < n; ++k) {
        double x, w;
        FreeSpringAt(kp, kd, t, u0[k], w0[k], &x, &w);
        s += x * x;
      }
      return std::sqrt(s);
    };
    const double span = std::max(T, 1.0 / std::sqrt(kp)) * 3.0;
    for (int k = 1; k <= 3000; ++k) {
      const double t = T + 1e-9 + span * k / 3000.0;
      ASSERT_LE(norm(t), tol * (1.0 + 1e-6)) << "i=" << i << " T=" << T << " t=" << t;
    }
    if (T > 0.0) {
      EXPECT_NEAR(norm(T), tol, tol * 1e-6);
    }
  }
  // Undamped never settles; already settled is 0.
  const double one = 1.0, zero = 0.0;
  EXPECT_EQ(SettleTime(40.0, 0.0, 1, &one, &zero, 0.1), std::numeric_limits<double>::infinity());
  const double tiny = 1e-6;
  EXPECT_EQ(SettleTime(40.0, 12.0, 1, &tiny, &zero, 0.1), 0.0);
}
