// PD controllers over time: the state at any time of a segment (StateAt), the
// time to settle within a tolerance, at-rest thresholds and blend-out to
// exactly zero (docs/pd/pd.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "ikpd/ikpd.h"
#include "native/pd_test_util.h"

using namespace ikpd::pd;
using pdtest::AxisAngle;
using pdtest::kPi;
using pdtest::QuatAngle;
using pdtest::Settings;

TEST(PdControllers, StateAtForwardAndBackward) {
  PdSettings s = Settings(1.0, 0.5);
  ScalarPD pd(s);
  pd.Reset(0.0, 1.0);
  ASSERT_TRUE(pd.Update(0.1, 2.0, 0.5));
  ScalarPD copy = pd;
  double x, v;
  ASSERT_TRUE(pd.StateAt(0.25, &x, &v));
  ASSERT_TRUE(copy.Update(0.25, 2.0 + 0.5 * 0.25, 0.5));
  EXPECT_NEAR(x, copy.value(), 1e-12);
  EXPECT_NEAR(v, copy.velocity(), 1e-12);
  ASSERT_TRUE(pd.StateAt(-0.1, &x, &v));  // back to the start of the segment
  EXPECT_NEAR(x, 0.0, 1e-12);
  EXPECT_NEAR(v, 1.0, 1e-12);
  EXPECT_FALSE(pd.StateAt(-1e6, &x, &v).ok());  // overflow is an error, not Inf
  // Quaternion StateAt matches Update too.
  QuatPD q(s);
  ASSERT_TRUE(q.Reset(AxisAngle({1, 0, 0}, 0.5), glm::dvec3(0, 1, 0)));
  ASSERT_TRUE(q.Update(0.05, AxisAngle({0, 0, 1}, 1.0)));
  QuatPD qc = q;
  glm::dquat qv;
  glm::dvec3 w;
  ASSERT_TRUE(q.StateAt(0.3, &qv, &w));
  ASSERT_TRUE(qc.Update(0.3, AxisAngle({0, 0, 1}, 1.0)));
  EXPECT_NEAR(QuatAngle(qv, qc.value()), 0.0, 1e-9);
  EXPECT_NEAR(glm::length(w - qc.velocity()), 0.0, 1e-9);
  ASSERT_TRUE(q.StateAt(-0.05, &qv, &w));
  EXPECT_NEAR(QuatAngle(qv, AxisAngle({1, 0, 0}, 0.5)), 0.0, 1e-9);
}

TEST(PdControllers, TimeToSettleIsWhenTheErrorStaysUnderTolerance) {
  for (double zeta : {0.3, 1.0, 2.0}) {
    ScalarPD pd(Settings(1.0, zeta));
    pd.Reset(1.0, 0.0);
    ASSERT_TRUE(pd.Update(0.0, 0.0));
    double T;
    ASSERT_TRUE(pd.TimeToSettle(0.01, &T));
    ScalarPD sim = pd;
    ASSERT_TRUE(sim.Update(T, 0.0));
    EXPECT_NEAR(std::fabs(sim.value()), 0.01, 1e-8) << zeta;
    for (int i = 0; i < 500; ++i) {
      ASSERT_TRUE(sim.Update(0.01, 0.0));
      EXPECT_LE(std::fabs(sim.value()), 0.01 + 1e-9);
    }
  }
  // Critical, kp = 40: 1 % takes longer than 2π/√kp (1.4 % left there).
  ScalarPD c(Settings(2.0 * kPi / std::sqrt(40.0)));
  c.Reset(1.0);
  ASSERT_TRUE(c.Update(0.0, 0.0));
  double T;
  ASSERT_TRUE(c.TimeToSettle(0.014, &T));
  EXPECT_NEAR(T, 2.0 * kPi / std::sqrt(40.0), 0.01);
}

TEST(PdControllers, BlendOutReachesExactlyZero) {
  PdSettings s = Settings(0.5);
  s.blendOutEnergy = 1e-3;
  s.blendOutTime = 0.2;
  ScalarPD pd(s);
  pd.Reset(25.0 * kPi / 180.0, 0.0);
  int frames = 0;
  double prev = pd.value();
  while (pd.blendPhase() != BlendPhase::kDone && frames < 1000) {
    ASSERT_TRUE(pd.UpdateBlendOut(1.0 / 60.0));
    EXPECT_LE(std::fabs(pd.value() - prev), 0.05);  // continuous
    prev = pd.value();
    ++frames;
  }
  EXPECT_EQ(pd.value(), 0.0);
  EXPECT_EQ(pd.velocity(), 0.0);
  EXPECT_LT(frames, 1000);
  ASSERT_TRUE(pd.UpdateBlendOut(1.0 / 60.0));
  EXPECT_EQ(pd.value(), 0.0);
  // Quaternion offsets blend to exactly identity, the IK-offset helpers go back to animation.
  QuatPD q(s);
  const glm::dquat anim = AxisAngle({0, 1, 0}, 0.7);
  glm::dquat out;
  for (int i = 0; i < 60; ++i) ASSERT_TRUE(q.TrackOffset(1.0 / 60.0, anim, AxisAngle({1, 0, 0}, 0.4) * anim, &out));
  EXPECT_NEAR(QuatAngle(out, AxisAngle({1, 0, 0}, 0.4) * anim), 0.0, 0.05);
  for (int i = 0; i < 1000 && q.blendPhase() != BlendPhase::kDone; ++i) ASSERT_TRUE(q.ReleaseOffset(1.0 / 60.0, anim, &out));
  EXPECT_EQ(q.value().w, 1.0);
  EXPECT_EQ(q.value().x, 0.0);
  EXPECT_NEAR(QuatAngle(out, anim), 0.0, 1e-12);
  // Scalar offsets: desired = animation + smoothed offset.
  ScalarPD off(s);
  double o = 0.0;
  for (int i = 0; i < 240; ++i) ASSERT_TRUE(off.TrackOffset(1.0 / 60.0, std::sin(i / 60.0), std::sin(i / 60.0) + 0.3, &o));
  EXPECT_NEAR(o, std::sin(239 / 60.0) + 0.3, 1e-4);
}

// A linear blend-out whose blendOutTime is set to 0 or -0 (a valid value: -0 >=
// 0) while it runs finishes at rest on the next update, never NaN (found by
// pd_fuzz: elapsed / -0 was -Infinity).
TEST(PdControllers, BlendOutTimeLoweredToZeroFinishesTheBlend) {
  for (const double zero : {0.0, -0.0}) {
    PdSettings s = Settings(0.5);
    s.blendOutTime = 0.2;
    QuatPD q(s);
    glm::dquat out;
    ASSERT_TRUE(q.UpdateBlendOut(0.0));  // at rest: the linear blend begins
    ASSERT_EQ(q.blendPhase(), BlendPhase::kLinear);
    s.blendOutTime = zero;
    ASSERT_TRUE(q.Configure(s));
    ASSERT_TRUE(q.ReleaseOffset(1.0 / 15.0, AxisAngle({0, 1, 0}, 0.7), &out));
    EXPECT_EQ(q.blendPhase(), BlendPhase::kDone);
    EXPECT_EQ(q.value(), glm::dquat(1.0, 0.0, 0.0, 0.0));
    EXPECT_NEAR(QuatAngle(out, AxisAngle({0, 1, 0}, 0.7)), 0.0, 1e-12);
    ScalarPD p(s);
    p.Reset(0.0, 0.0);
    s.blendOutTime = 0.2;
    ASSERT_TRUE(p.Configure(s));
    ASSERT_TRUE(p.UpdateBlendOut(0.0));
    s.blendOutTime = zero;
    ASSERT_TRUE(p.Configure(s));
    ASSERT_TRUE(p.UpdateBlendOut(1.0 / 15.0));
    EXPECT_EQ(p.value(), 0.0);
    EXPECT_EQ(p.blendPhase(), BlendPhase::kDone);
  }
}

TEST(PdControllers, AtRestThresholds) {
  PdSettings s = Settings(0.5);
  s.restTolerance = 1e-3;
  s.restVelocity = 1e-3;
  ScalarPD pd(s);
  pd.Reset(0.0);
  ASSERT_TRUE(pd.Update(0.0, 1.0));
  EXPECT_FALSE(pd.AtRest());
  double T;
  ASSERT_TRUE(pd.TimeToSettle(1e-4, &T));
  ASSERT_TRUE(pd.Update(T + 0.5, 1.0));
  EXPECT_TRUE(pd.AtRest());
}

TEST(PdControllers, RotationTimeToSettleMatchesSimulation) {
  for (double zeta : {0.4, 1.0, 1.7}) {
    QuatPD q(Settings(0.7, zeta));
    ASSERT_TRUE(q.Reset(AxisAngle({1, 2, 0}, 1.1), glm::dvec3(0.5, -1.0, 2.0)));
    const glm::dquat g = AxisAngle({0, 0, 1}, -0.4);
    ASSERT_TRUE(q.Update(0.0, g));
    double T;
    ASSERT_TRUE(q.TimeToSettle(0.01, &T));
    QuatPD sim = q;
    ASSERT_TRUE(sim.Update(T, g));
    EXPECT_NEAR(QuatAngle(sim.value(), g), 0.01, 1e-7) << zeta;
    for (int i = 0; i < 300; ++i) {
      ASSERT_TRUE(sim.Update(0.01, g));
      EXPECT_LE(QuatAngle(sim.value(), g), 0.01 + 1e-9);
    }
    Vec3PD v(Settings(0.7, zeta));
    ASSERT_TRUE(v.Reset(glm::dvec3(0, 1, 0), glm::dvec3(1, 0, 1)));
    ASSERT_TRUE(v.Update(0.0, glm::dvec3(1, 0, 0)));
    ASSERT_TRUE(v.TimeToSettle(0.02, &T));
    Vec3PD vs = v;
    ASSERT_TRUE(vs.Update(T, glm::dvec3(1, 0, 0)));
    EXPECT_NEAR(std::acos(std::min(1.0, vs.value().x)), 0.02, 1e-6) << zeta;
  }
}
