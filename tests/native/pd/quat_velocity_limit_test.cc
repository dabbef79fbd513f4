// QuatPD under a velocity limit (the look-at's maxSpeed) takes the fused step:
// one log map, ChartStep's exact sub-steps, one exp map (docs/pd/pd.md,
// "Velocity limit"). It must agree with the chart step written out with the
// public chart functions, in both sub-step splits and with the limit active.
#include <gtest/gtest.h>

#include <cmath>

#include "ikpd/ikpd.h"

using namespace ikpd::pd;

namespace {

// One update by hand: log at the target, ChartStep, exp (what QuatPD's general path does).
void ChartUpdate(const PdSettings& s, double dt, const glm::dquat& target, glm::dquat* value, glm::dvec3* velocity) {
  const glm::dquat g = glm::dot(*value, target) < 0.0 ? -target : target;
  const glm::dvec3 u = QuatLogChart(*value, g);
  const glm::dvec3 w = LeftJacobianInverseTimes(u, *velocity);
  ChartState c;
  for (int i = 0; i < 3; ++i) c.u[i] = u[i], c.w[i] = w[i];
  const double q[4] = {0, 0, 0, 0};
  ASSERT_TRUE(ChartStep(s, 3, dt, q, &c));
  const glm::dvec3 u1(c.u[0], c.u[1], c.u[2]), w1(c.w[0], c.w[1], c.w[2]);
  *value = QuatExpChart(u1, g);
  *velocity = LeftJacobianTimes(u1, w1);
}

}  // namespace

TEST(QuatPdVelocityLimit, FusedStepEqualsTheChartStep) {
  for (SubstepSplit split : {SubstepSplit::kEqual, SubstepSplit::kClassic}) {
    for (double maxVelocity : {0.5, 4.0, 40.0}) {
      PdSettings s;
      ASSERT_TRUE(SettingsFromSettleTime(0.3, 1.0, &s));
      s.maxVelocity = maxVelocity;
      s.substepSplit = split;
      QuatPD pd(s);
      glm::dquat value(1.0, 0.0, 0.0, 0.0);
      glm::dvec3 velocity(0.0);
      for (int k = 0; k < 90; ++k) {
        const double t = k / 60.0;
        const glm::dquat target = glm::angleAxis(1.5 * std::sin(2.0 * t), glm::normalize(glm::dvec3(0.3, 1.0, 0.2 * t)));
        const double dt = k % 3 == 0 ? 1.0 / 30.0 : 1.0 / 60.0;  // frames of two lengths: both plans
        ASSERT_TRUE(pd.Update(dt, target));
        ChartUpdate(s, dt, target, &value, &velocity);
        EXPECT_LT(glm::length(QuatLogChart(pd.value(), value)), 1e-12) << k;
        EXPECT_LT(glm::length(pd.velocity() - velocity), 1e-10 * (1.0 + glm::length(velocity))) << k;
        EXPECT_LE(glm::length(pd.velocity()), maxVelocity * (1.0 + 1e-12)) << k;
      }
    }
  }
}
