// The remaining angle an aim and a look-at report as `distance` (docs/rig/rig.md,
// "Results"): exact to float rounding at small angles. An arc cosine of the
// float cosine can only read 0, 3.45e-4 or 4.88e-4 rad near zero, so an exact
// look read one of those depending on the rounding of its two unit vectors (a
// still character's state flickered between frames).
#include <gtest/gtest.h>

#include <cmath>

#include "native/rig_test_util.h"

namespace {

using namespace rigtest;
using ikpd::rig::ConstraintKind;
using ikpd::rig::LocalTransform;
using ikpd::rig::Rig;

// A solved aim looks at its target: its distance reads the rounding of the
// solve, not the cosine's steps.
TEST(RigDistance, AnExactAimReadsNearZero) {
  iktest::Rng rng(20261130);
  const ChainRig body = RandomChain(rng, 3);
  float worst = 0.0f;
  for (int k = 0; k < 2000; ++k) {
    Rig rig = MakeRig(body);  // a fresh rig: no smoothing carried between targets
    ASSERT_TRUE(rig.Add(Settings(ConstraintKind::kAim, {2})).ok());
    const std::vector<LocalTransform> pose = RandomPose(rng, body.rest);
    rig.frames()[0].target = rng.Vec(-3.0f, 3.0f) + glm::vec3(0.0f, 0.0f, 4.0f);
    std::vector<LocalTransform> out(pose.size());
    ASSERT_TRUE(rig.Update(1.0f / 60.0f, pose, LocalTransform{}, out).ok());
    worst = std::max(worst, rig.results()[0].distance);
    EXPECT_EQ(rig.results()[0].reached, 1.0f) << k;
  }
  EXPECT_LT(worst, 2e-5f);
}

// A look-at held off its target by its yaw limit reports the angle past the
// limit, where the cosine read 0 below 2.4e-4 rad and in steps above.
TEST(RigDistance, AnAngleBeyondTheYawLimitReadsItself) {
  ChainRig body;
  body.parents = {-1, 0, 1};
  body.rest = {At({0.0f, 1.0f, 0.0f}), At({0.0f, 0.5f, 0.0f}), At({0.0f, 0.3f, 0.0f})};
  const float limit = 0.5f;
  for (float past : {2e-5f, 5e-5f, 1e-4f, 2e-4f, 3e-4f, 4e-4f, 6e-4f, 1e-3f, 0.01f}) {
    Rig rig = MakeRig(body);
    ikpd::rig::ConstraintSettings s = Settings(ConstraintKind::kLookAt, {0, 1, 2});
    s.common.forward = glm::vec3(0.0f, 0.0f, 1.0f);
    s.lookAt.maxYaw = limit;
    ASSERT_TRUE(rig.Add(s).ok());
    const float yaw = limit + past;  // about +Y from +Z, 2 m from the head, at its height
    rig.frames()[0].target = glm::vec3(2.0f * std::sin(yaw), 1.8f, 2.0f * std::cos(yaw));
    std::vector<LocalTransform> out(body.rest.size());
    for (int f = 0; f < 600; ++f) ASSERT_TRUE(rig.Update(1.0f / 60.0f, body.rest, LocalTransform{}, out).ok());
    EXPECT_NEAR(rig.results()[0].distance, past, 2e-6f) << past;
  }
}

}  // namespace
