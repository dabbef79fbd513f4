// PD controllers: the velocity limit inside the classic single update, and the
// sub-step split.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "ikpd/ikpd.h"

using namespace ikpd::pd;

namespace {

bool StartsWith(const ikpd::Status& s, const char* prefix) {
  return s.error != nullptr && std::string(s.error).rfind(prefix, 0) == 0;
}

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

TEST(PdReliability, VelocityLimitKeepsTheClassicSingleUpdate) {
  // A finite maxVelocity used to sub-step 'explicit' and 'stable' at dtMax.
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
  s.substepSplit = static_cast<SubstepSplit>(5);
  EXPECT_TRUE(StartsWith(s.Validate(), "substepSplit:"));
}
