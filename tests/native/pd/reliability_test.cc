// PD controllers: the stability check before every discrete step (onUnstable),
// the velocity limit inside the classic single update, and the sub-step split.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "ikpd/ikpd.h"
#include "native/status_test_util.h"

using namespace ikpd::pd;

namespace {

using statustest::StartsWith;

PdSettings WithGains(double kp, double kd, Integrator integrator) {
  PdSettings s;
  s.kp = kp;
  s.kd = kd;
  s.integrator = integrator;
  return s;
}

// The classic update, literally: F = kp(g − x) − kd·v; v += dt·F; v = clamp(v); x += dt·v.
void ClassicExplicit(double kp, double kd, double dt, double g, double vMax, double& x, double& v) {
  v += dt * (kp * (g - x) - kd * v);
  v = std::clamp(v, -vMax, vMax);
  x += dt * v;
}
// Stable PD: F = (kp(g − x − dt·v) − kd·v) / (1 + dt·kd), then as above.
void ClassicStable(double kp, double kd, double dt, double g, double vMax, double& x, double& v) {
  v += dt * (kp * (g - x - dt * v) - kd * v) / (1.0 + dt * kd);
  v = std::clamp(v, -vMax, vMax);
  x += dt * v;
}

}  // namespace

TEST(PdReliability, ExplicitOutsideItsRegionIsAnErrorBeforeTheStep) {
  // kp = 1e4, critical damping, dt = 1/30: kp·dt² + 2·kd·dt = 24.4 > 4. The step used
  // to run (reaching ~1e122 after 200 updates) without an error.
  PdSettings s = WithGains(1e4, 200.0, Integrator::kExplicit);
  ScalarPD pd(s);
  pd.Reset(1.0, 0.5);
  const ikpd::Status st = pd.Update(1.0 / 30.0, 0.0);
  EXPECT_TRUE(StartsWith(st, "dt: outside the 'explicit' integrator's stability region")) << st.error;
  EXPECT_EQ(pd.value(), 1.0);
  EXPECT_EQ(pd.velocity(), 0.5);
  // The same for vectors and quaternions (one chart step for all).
  Vec3PD v(s);
  EXPECT_TRUE(StartsWith(v.Update(1.0 / 30.0, glm::dvec3(0.0, 1.0, 0.0)), "dt: outside the 'explicit'"));
  EXPECT_EQ(v.value(), glm::dvec3(1.0, 0.0, 0.0));
  QuatPD q(s);
  EXPECT_TRUE(StartsWith(q.Update(1.0 / 30.0, glm::dquat(0.0, 1.0, 0.0, 0.0)), "dt: outside the 'explicit'"));
  EXPECT_EQ(q.value(), glm::dquat(1.0, 0.0, 0.0, 0.0));
}

TEST(PdReliability, StablePdCounterexampleIsCaughtAtTheFirstUpdate) {
  // kd/kp > dt holds (the published condition), yet 3·kp·dt² > 4 + 2·kd·dt: it used to
  // be noticed only when the state overflowed, after thousands of updates.
  const double kp = 1e4, dt = 1.0 / 30.0, kd = 1.01 * kp * dt;
  ScalarPD pd(WithGains(kp, kd, Integrator::kStable));
  pd.Reset(1.0);
  EXPECT_TRUE(StartsWith(pd.Update(dt, 0.0), "dt: outside the 'stable' integrator's stability region"));
  EXPECT_EQ(pd.value(), 1.0);
}

TEST(PdReliability, TheCheckIsTheClosedFormLimit) {
  std::mt19937 rng(16);
  std::uniform_real_distribution<double> logK(-1.0, 5.0), logD(-2.0, 3.0);
  for (int i = 0; i < 2000; ++i) {
    const double kp = std::pow(10.0, logK(rng));
    const double kd = i % 5 == 0 ? 0.0 : std::pow(10.0, logD(rng));
    for (Integrator in : {Integrator::kExplicit, Integrator::kStable}) {
      const double limit = StepLimit(in, kp, kd);
      if (in == Integrator::kExplicit) {
        ASSERT_NEAR(kp * limit * limit + 2.0 * kd * limit, 4.0, 1e-9);
      } else {
        ASSERT_NEAR(3.0 * kp * limit * limit, 4.0 + 2.0 * kd * limit, 1e-9 * (4.0 + 2.0 * kd * limit));
      }
      ScalarPD inside(WithGains(kp, kd, in)), outside(WithGains(kp, kd, in));
      inside.Reset(1.0);
      outside.Reset(1.0);
      ASSERT_TRUE(inside.Update(0.999 * limit, 0.0)) << kp << " " << kd;
      ASSERT_FALSE(outside.Update(1.001 * limit, 0.0)) << kp << " " << kd;
      ASSERT_EQ(outside.value(), 1.0);
      // Inside the limit the update never grows: many steps stay bounded.
      double peak = 0.0;
      for (int k = 0; k < 500 && inside.Update(0.999 * limit, 0.0); ++k) {
        peak = std::max(peak, std::fabs(inside.value()) + std::fabs(inside.velocity()) / std::sqrt(kp));
      }
      ASSERT_LT(peak, 100.0) << kp << " " << kd;
    }
  }
  EXPECT_EQ(StepLimit(Integrator::kExact, 1e4, 0.0), std::numeric_limits<double>::infinity());
}

TEST(PdReliability, ClampShortensTheStepToHalfTheLimit) {
  const double kp = 1e4, kd = 200.0, dt = 1.0 / 30.0;
  PdSettings s = WithGains(kp, kd, Integrator::kExplicit);
  s.onUnstable = OnUnstable::kClamp;
  ScalarPD clamped(s);
  clamped.Reset(1.0);
  ASSERT_TRUE(clamped.Update(dt, 0.0));
  // One explicit step of half the limit, nothing else.
  const double h = 0.5 * StepLimit(Integrator::kExplicit, kp, kd);
  double x = 1.0, v = 0.0;
  ClassicExplicit(kp, kd, h, 0.0, INFINITY, x, v);
  EXPECT_EQ(clamped.value(), x);
  EXPECT_EQ(clamped.velocity(), v);
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(clamped.Update(dt, 0.0));
  EXPECT_LT(std::fabs(clamped.value()), 1e-9);
  // Stable PD with the counterexample gains converges too.
  s = WithGains(kp, 1.01 * kp * dt, Integrator::kStable);
  s.onUnstable = OnUnstable::kClamp;
  ScalarPD stable(s);
  stable.Reset(1.0);
  for (int i = 0; i < 200; ++i) ASSERT_TRUE(stable.Update(dt, 0.0));
  EXPECT_LT(std::fabs(stable.value()), 1e-9);
}

TEST(PdReliability, SubstepWithTooLongSubStepsThrowsOrShortensThem) {
  const double kp = 1e4, kd = 200.0, dt = 1.0 / 30.0;
  PdSettings s = WithGains(kp, kd, Integrator::kSubstep);
  s.dtMax = 1.0 / 60.0;  // still outside the region (limit ≈ 0.0083 s)
  ScalarPD pd(s);
  pd.Reset(1.0);
  EXPECT_TRUE(StartsWith(pd.Update(dt, 0.0), "dt: the 'substep' sub-step"));
  EXPECT_EQ(pd.value(), 1.0);
  s.onUnstable = OnUnstable::kClamp;
  ASSERT_TRUE(pd.Configure(s));
  ASSERT_TRUE(pd.Update(dt, 0.0));
  // = the same dt covered with sub-steps no longer than half the limit.
  PdSettings fine = s;
  fine.onUnstable = OnUnstable::kThrow;
  fine.dtMax = 0.5 * StepLimit(Integrator::kSubstep, kp, kd);
  ScalarPD reference(fine);
  reference.Reset(1.0);
  ASSERT_TRUE(reference.Update(dt, 0.0));
  EXPECT_EQ(pd.value(), reference.value());
  EXPECT_EQ(pd.velocity(), reference.velocity());
}

TEST(PdReliability, VelocityLimitKeepsTheClassicSingleUpdate) {
  // A finite maxVelocity does not make 'explicit' and 'stable' sub-step at dtMax.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (Integrator in : {Integrator::kExplicit, Integrator::kStable}) {
    PdSettings s = WithGains(60.0, 4.0, in);
    s.maxVelocity = 2.0;
    ScalarPD pd(s);
    pd.Reset(0.0);
    double x = 0.0, v = 0.0;
    bool clamped = false;
    for (int i = 0; i < 300; ++i) {
      const double dt = 0.01 + 0.05 * u(rng);  // longer than dtMax = 1/120
      const double g = i % 60 < 30 ? 5.0 : -3.0;
      ASSERT_TRUE(pd.Update(dt, g));
      if (in == Integrator::kExplicit) ClassicExplicit(s.kp, s.kd, dt, g, s.maxVelocity, x, v);
      else ClassicStable(s.kp, s.kd, dt, g, s.maxVelocity, x, v);
      clamped = clamped || std::fabs(v) == s.maxVelocity;
      ASSERT_NEAR(pd.value(), x, 1e-12 * std::max(1.0, std::fabs(x))) << i;
      ASSERT_NEAR(pd.velocity(), v, 1e-12 * std::max(1.0, std::fabs(v))) << i;
    }
    EXPECT_TRUE(clamped);
  }
}

TEST(PdReliability, SubstepSplitsEquallyOrClassically) {
  const double kp = 400.0, kd = 30.0, dtMax = 1.0 / 60.0, dt = 0.045;  // 2 × dtMax + 0.01167
  for (SubstepSplit split : {SubstepSplit::kEqual, SubstepSplit::kClassic}) {
    PdSettings s = WithGains(kp, kd, Integrator::kSubstep);
    s.dtMax = dtMax;
    s.substepSplit = split;
    s.maxVelocity = 3.0;  // clamps in the first sub-steps
    ScalarPD pd(s);
    pd.Reset(0.0);
    ASSERT_TRUE(pd.Update(dt, 1.0));
    double x = 0.0, v = 0.0;
    if (split == SubstepSplit::kEqual) {
      for (int k = 0; k < 3; ++k) ClassicExplicit(kp, kd, dt / 3.0, 1.0, 3.0, x, v);
    } else {
      ClassicExplicit(kp, kd, dtMax, 1.0, 3.0, x, v);
      ClassicExplicit(kp, kd, dtMax, 1.0, 3.0, x, v);
      ClassicExplicit(kp, kd, dt - 2.0 * dtMax, 1.0, 3.0, x, v);
    }
    EXPECT_NEAR(pd.value(), x, 1e-14) << static_cast<int>(split);
    EXPECT_NEAR(pd.velocity(), v, 1e-13) << static_cast<int>(split);
  }
  // A multiple of dtMax takes no remainder step; dt below dtMax is one step.
  PdSettings s = WithGains(kp, kd, Integrator::kSubstep);
  s.dtMax = 0.25;
  s.substepSplit = SubstepSplit::kClassic;
  s.kp = 4.0;
  s.kd = 1.0;
  ScalarPD pd(s);
  pd.Reset(0.0);
  ASSERT_TRUE(pd.Update(0.5, 1.0));
  double x = 0.0, v = 0.0;
  ClassicExplicit(4.0, 1.0, 0.25, 1.0, INFINITY, x, v);
  ClassicExplicit(4.0, 1.0, 0.25, 1.0, INFINITY, x, v);
  EXPECT_EQ(pd.value(), x);
  ASSERT_TRUE(pd.Update(0.1, 1.0));
  ClassicExplicit(4.0, 1.0, 0.1, 1.0, INFINITY, x, v);
  EXPECT_EQ(pd.value(), x);
}

TEST(PdReliability, NewSettingsAreValidated) {
  PdSettings s;
  s.onUnstable = static_cast<OnUnstable>(5);
  EXPECT_TRUE(StartsWith(s.Validate(), "onUnstable:"));
  s = PdSettings{};
  s.substepSplit = static_cast<SubstepSplit>(5);
  EXPECT_TRUE(StartsWith(s.Validate(), "substepSplit:"));
}
