// Regression tests for IK defects found by tests/fuzz/{aim,two_bone}_fuzz.cc.
#include <gtest/gtest.h>

#include <cmath>

#include "ikpd/ikpd.h"

namespace {

TEST(IkRobustness, HugeInputQuaternionsAreNormalizedWithoutOverflow) {
  // glm::normalize squared the components: w = 3.4e38 became a zero "unit" quaternion.
  ikpd::AimJob aim;
  aim.frame.rotation = glm::quat(3.40282347e+38f, 0.0f, 0.0f, 0.0f);
  aim.frame.target = {0.0f, -2.0f, 2.0f};
  aim.settings.forward = {0.0f, 0.0f, 1.0f};
  glm::quat q;
  aim.result = &q;
  ASSERT_TRUE(aim.Run().ok());
  EXPECT_NEAR(glm::length(q), 1.0f, 1e-5f);
  EXPECT_GT(glm::dot(q * aim.settings.forward, glm::normalize(aim.frame.target)), 0.999f);

  ikpd::TwoBoneJob limb;
  limb.frame.root.rotation = glm::quat(1e30f, 0.0f, 1e30f, 0.0f);
  limb.frame.mid = {{1.0f, 0.3f, 0.0f}, glm::quat(0.0f, 0.0f, 0.0f, 2e25f)};
  limb.frame.end = {{2.0f, 0.0f, 0.0f}, glm::quat(1e20f, 1e20f, 0.0f, 0.0f)};
  limb.frame.target = {1.0f, 1.0f, 0.0f};
  ikpd::TwoBoneResult r;
  limb.result = &r;
  ASSERT_TRUE(limb.Run().ok());
  EXPECT_NEAR(glm::length(r.root.rotation), 1.0f, 1e-5f);
  EXPECT_NEAR(glm::length(r.end.rotation), 1.0f, 1e-5f);
  EXPECT_LT(r.distance, 1e-4f);

  const glm::quat world[2] = {glm::quat(0.0f, 3e30f, 0.0f, 0.0f), glm::quat(2e38f, 0.0f, 0.0f, 0.0f)};
  glm::quat local[2];
  ASSERT_TRUE(ikpd::ToLocalRotations(world, local).ok());
  EXPECT_NEAR(glm::length(local[0]), 1.0f, 1e-5f);
  EXPECT_NEAR(glm::length(local[1]), 1.0f, 1e-5f);
}

}  // namespace
