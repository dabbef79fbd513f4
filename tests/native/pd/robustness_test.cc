// Regression tests for PD-controller defects found by tests/fuzz/pd_fuzz.cc.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ikpd/ikpd.h"

namespace {

using namespace ikpd::pd;

bool Unit(const glm::dvec3& v) { return std::fabs(glm::length(v) - 1.0) < 1e-9; }
bool Unit(const glm::dquat& q) { return std::fabs(glm::length(q) - 1.0) < 1e-9; }

TEST(PdRobustness, HugeQuaternionsAndVectorsNormalizeWithoutOverflow) {
  // glm::normalize squares the components: 1e300² overflowed to a zero "unit" value.
  QuatPD q;
  ASSERT_TRUE(q.Reset(glm::dquat(1e300, 1e300, 0.0, 0.0)).ok());
  EXPECT_TRUE(Unit(q.value()));
  ASSERT_TRUE(q.Update(0.1, glm::dquat(0.0, 0.0, 1e300, 1e300)).ok());
  EXPECT_TRUE(Unit(q.value()));

  Vec3PD v;
  ASSERT_TRUE(v.Reset(glm::dvec3(1e300, 0.0, 1e300)).ok());
  EXPECT_TRUE(Unit(v.value()));
  ASSERT_TRUE(v.Update(0.1, glm::dvec3(0.0, 1e300, 0.0)).ok());
  EXPECT_TRUE(Unit(v.value()));
  EXPECT_NEAR(ikpd::LengthSafe(glm::dvec3(3e300, 4e300, 0.0)), 5e300, 1e286);
  EXPECT_NEAR(ikpd::LengthSafe(glm::vec3(3e-30f, 4e-30f, 0.0f)), 5e-30f, 1e-36f);
}

TEST(PdRobustness, ComponentwiseVectorWithHugeTargetVelocityStaysUnit) {
  PdSettings s;
  s.method = RotationUpdate::kComponentwise;
  Vec3PD v(s);
  const glm::dvec3 huge(1e300, 1e300, 1e300);
  const ikpd::Status status = v.Update(0.000152586, huge, huge);
  if (status.ok()) {
    EXPECT_TRUE(Unit(v.value()));
  } else {
    EXPECT_STREQ(status.error, "dt: the integrator diverged (step too large for these gains; see checkStability)");
  }
}

TEST(PdRobustness, OverflowingStepIsAnErrorAndLeavesTheStateAlone) {
  // A finite chart state mapped back to the sphere overflowed to NaN, yet Update returned Ok.
  PdSettings s;
  s.integrator = Integrator::kStable;
  s.dtMax = 1e300;
  Vec3PD v(s);
  const glm::dvec3 before = v.value();
  const ikpd::Status status = v.Update(1e300, glm::dvec3(1e300, 1e300, 1e300));
  if (status.ok()) {
    EXPECT_TRUE(Unit(v.value()));
    EXPECT_TRUE(std::isfinite(v.velocity().x) && std::isfinite(v.velocity().y) && std::isfinite(v.velocity().z));
  } else {
    EXPECT_EQ(v.value(), before);
  }
}

TEST(PdRobustness, FailedUpdateDoesNotCancelBlendOut) {
  ScalarPD c;
  c.Reset(1.0);
  ASSERT_TRUE(c.UpdateBlendOut(0.01).ok());
  ASSERT_EQ(c.blendPhase(), BlendPhase::kSpring);
  EXPECT_FALSE(c.Update(0.01, std::numeric_limits<double>::quiet_NaN()).ok());
  EXPECT_EQ(c.blendPhase(), BlendPhase::kSpring);
  EXPECT_FALSE(c.Update(-1.0, 0.0, 0.0).ok());
  EXPECT_EQ(c.blendPhase(), BlendPhase::kSpring);
}

TEST(PdRobustness, TrackOffsetOverflowIsAnErrorAndChangesNothing) {
  ScalarPD c;
  c.Reset(-1.7e308);
  double out = 7.0;
  const ikpd::Status status = c.ReleaseOffset(0.0, -1.7e308, &out);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(out, 7.0);
  EXPECT_EQ(c.value(), -1.7e308);
  EXPECT_EQ(c.blendPhase(), BlendPhase::kNone);
}

TEST(PdRobustness, SettleTimeIsNeverNaNOrNegative) {
  // Tiny tolerances (tol² underflowed to 0) and vanishing damping (log(decay) = 0) gave NaN or -inf.
  const double u0[3] = {0.0452, 0.0452, 0.0452}, w0[3] = {0.0, 0.0, 0.0};
  for (double kp : {1e-30, 0.0099999997764825821, 1.0, 39.47, 1e30}) {
    for (double ratio : {0.0, 1e-300, 0.3, 0.99999999, 1.0, 3.0}) {
      for (double tol : {1e-300, 1e-200, 1e-30, 1e-3, 0.05, 1e30}) {
        const double kd = ratio * 2.0 * std::sqrt(kp);
        const double t = SettleTime(kp, kd, 3, u0, w0, tol);
        EXPECT_FALSE(std::isnan(t)) << kp << " " << kd << " " << tol;
        EXPECT_GE(t, 0.0) << kp << " " << kd << " " << tol;
      }
    }
  }
  // Near-critical damping with a tiny tolerance: finite and at least the 1e-100 time.
  const double t100 = SettleTime(0.0099999997764825821, 0.1999999977648258, 3, u0, w0, 1e-100);
  const double t300 = SettleTime(0.0099999997764825821, 0.1999999977648258, 3, u0, w0, 1e-300);
  EXPECT_TRUE(std::isfinite(t300));
  EXPECT_GE(t300, t100);
  // Huge errors scale: the answer depends only on tolerance / error.
  const double big[1] = {1e200}, zero[1] = {0.0}, one[1] = {1.0};
  EXPECT_NEAR(SettleTime(1.0, 2.0, 1, big, zero, 1e197), SettleTime(1.0, 2.0, 1, one, zero, 1e-3), 1e-9);
}

}  // namespace

namespace {

TEST(PdRobustness, LinearBlendOutRespectsALoweredMaxAngle) {
  // The linear blend-out slerped from a pose recorded before Configure lowered maxAngle.
  using namespace ikpd::pd;
  PdSettings s;
  s.blendOutEnergy = 1e9;  // switch to the linear blend at once
  s.blendOutTime = 1.0;
  QuatPD q(s);
  ASSERT_TRUE(q.Reset(glm::angleAxis(1.4, glm::dvec3(0.0, 0.0, 1.0))).ok());
  ASSERT_TRUE(q.UpdateBlendOut(0.0).ok());
  ASSERT_EQ(q.blendPhase(), BlendPhase::kLinear);
  s.maxAngle = 0.01;
  ASSERT_TRUE(q.Configure(s).ok());
  ASSERT_TRUE(q.UpdateBlendOut(0.1).ok());
  EXPECT_LE(2.0 * std::acos(std::min(1.0, std::fabs(q.value().w))), 0.01 + 1e-9);
}



// pd_fuzz: blendOutTime lowered to 0 by Configure during the linear blend-out
// made the scalar blend fraction 0/0 = NaN; the blend now finishes instead.
TEST(PdRobustness, BlendOutTimeSetToZeroMidBlendFinishesTheBlend) {
  PdSettings settings;
  settings.blendOutTime = 0.1;
  for (bool angle : {false, true}) {
    ScalarPD c(settings, angle);
    c.Reset(0.0, 0.0);  // at rest: the first blend-out step enters the linear phase
    ASSERT_TRUE(c.UpdateBlendOut(0.0, 0.0).ok());
    ASSERT_EQ(c.blendPhase(), BlendPhase::kLinear);
    PdSettings lowered = settings;
    lowered.blendOutTime = 0.0;
    ASSERT_TRUE(c.Configure(lowered).ok());
    ASSERT_TRUE(c.UpdateBlendOut(0.0, 0.0).ok());
    EXPECT_EQ(c.value(), 0.0);
    EXPECT_EQ(c.velocity(), 0.0);
    EXPECT_EQ(c.blendPhase(), BlendPhase::kDone);
  }
}

}  // namespace
