// BodyLookAt regressions of issue #26 (docs/rig/body-look-at.md): feet that never
// slide with straight legs (the drop keeps every ankle in reach), unit output
// rotations, finite output near the float limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "ikpd/ikpd.h"
#include "native/humanoid_test_util.h"

namespace {

using humanoid::InputOf;
using humanoid::Pose;
using humanoid::Solved;

// The test humanoid with straight legs: each knee on the line hip → ankle.
Pose StraightLegs(Pose p) {
  for (std::size_t leg = 0; leg < 6; leg += 3) {
    p.legs[leg + 1].position = 0.5f * (p.legs[leg].position + p.legs[leg + 2].position);
  }
  return p;
}

// Straight legs, every weight-shift amount in [0, 1] and limit in [0, 0.3],
// random targets, a pelvis that moves with the animation: each ankle stays
// within 0.1 mm of its animated position, at 30, 60 and 240 Hz.
TEST(BodyLookAtFeet, StraightLegsNeverSlide) {
  chaintest::Rng rng(126);
  float worst = 0.0f, deepest = 0.0f;
  for (int trial = 0; trial < 300; ++trial) {
    ikpd::BodyLookAtSettings s;
    s.weightShift.amount = trial < 10 ? 0.1f * static_cast<float>(trial % 11) : rng.Uniform(0.0f, 1.0f);
    s.weightShift.limit = trial % 7 == 0 ? 0.3f : rng.Uniform(0.0f, 0.3f);
    s.weightShift.settleTime = rng.Uniform(0.1f, 0.8f);
    ikpd::BodyLookAt rig;
    ASSERT_TRUE(rig.Reset(s).ok());
    const float rate = trial % 3 == 0 ? 30.0f : trial % 3 == 1 ? 60.0f : 240.0f;
    const glm::vec3 target = glm::vec3(0, 1.6f, 0) + rng.Uniform(0.3f, 4.0f) * rng.Direction();
    Solved out;
    for (int frame = 0; frame < static_cast<int>(rate); ++frame) {
      const float t = static_cast<float>(frame) / rate;
      Pose animated = StraightLegs(humanoid::IdlePose(t));
      // The pelvis (and the whole body but the feet) bobs and sways.
      const glm::vec3 move(0.03f * std::sin(2.0f * t), 0.0f, 0.02f * std::cos(3.0f * t));
      for (ikpd::Transform& j : animated.spine) j.position += move;
      for (ikpd::Transform& j : animated.arms) j.position += move;
      for (std::size_t leg = 0; leg < 6; leg += 3) {
        animated.legs[leg].position += move;
        animated.legs[leg + 1].position = 0.5f * (animated.legs[leg].position + animated.legs[leg + 2].position);
      }
      ASSERT_TRUE(rig.Update(1.0f / rate, InputOf(animated, target), out.View()).ok());
      deepest = std::max(deepest, rig.pelvisDrop());
      for (std::size_t leg = 0; leg < 6; leg += 3) {
        const float slide = glm::length(out.pose.legs[leg + 2].position - animated.legs[leg + 2].position);
        worst = std::max(worst, slide);
        ASSERT_LT(slide, 1e-4f) << "trial " << trial << " frame " << frame << " amount " << s.weightShift.amount
                                << " limit " << s.weightShift.limit;
      }
    }
  }
  EXPECT_GT(deepest, 1e-3f);  // the body really came down for the legs
  RecordProperty("worst slide (m)", std::to_string(worst));
}

// The animated pose goes through unchanged when no effect is active, but
// every rotation comes back unit (as LookAt does).
TEST(BodyLookAtRegression, OutputRotationsAreUnitWhenNothingIsActive) {
  ikpd::BodyLookAt rig;
  ASSERT_TRUE(rig.Reset({}).ok());
  Pose animated = humanoid::RestPose();
  animated.spine[2].rotation = glm::quat(0.001f, 0.0f, 0.0f, 0.0f);  // [0, 0, 0, 0.001] in three.js order
  animated.arms[1].rotation = glm::quat(0.0f, 0.0f, 3.0f, 0.0f);
  animated.legs[4].rotation = glm::quat(0.0f, 0.0f, 0.0f, -20.0f);
  Solved out;
  ASSERT_TRUE(rig.Update(1.0f / 60.0f, InputOf(animated, glm::vec3(0, 1.6f, 2), false), out.View()).ok());
  ASSERT_FALSE(rig.active());
  auto unit = [](std::span<const ikpd::Transform> joints) {
    for (const ikpd::Transform& j : joints) EXPECT_NEAR(glm::length(j.rotation), 1.0f, 1e-6f);
  };
  unit(out.pose.spine);
  unit(out.pose.arms);
  unit(out.pose.legs);
  EXPECT_EQ(out.pose.spine[0].rotation, animated.spine[0].rotation);  // unit input: bit for bit
}

// A spine joint near the float limit in a turned character: no NaN (the
// rotated bone vectors were computed in floats and overflowed).
TEST(BodyLookAtRegression, NoNaNNearTheFloatLimit) {
  chaintest::Rng rng(5);
  auto nan = [](const ikpd::Transform& j) {
    return std::isnan(j.position.x) || std::isnan(j.position.y) || std::isnan(j.position.z) || !ikpd::IsFinite(j.rotation);
  };
  for (int trial = 0; trial < 300; ++trial) {
    ikpd::BodyLookAt rig;
    ASSERT_TRUE(rig.Reset({}).ok());
    Pose animated = humanoid::RestPose();
    const glm::quat turn = rng.Rotation();
    for (ikpd::Transform& j : animated.spine) j.rotation = trial % 2 == 0 ? turn : rng.Rotation();
    const float far = rng.Uniform(0.0f, 1.0f) < 0.5f ? 3e38f : (trial % 3 == 0 ? 1e38f : -3.4e38f);
    animated.spine[static_cast<std::size_t>(1 + trial % 5)].position[trial % 3] = far;
    const glm::vec3 target = glm::vec3(0, 1.6f, 0) + rng.Uniform(0.5f, 3.0f) * rng.Direction();
    Solved out;
    for (int frame = 0; frame < 3; ++frame) {
      ASSERT_TRUE(rig.Update(1.0f / 60.0f, InputOf(animated, target), out.View()).ok());
      for (const ikpd::Transform& j : out.pose.spine) ASSERT_FALSE(nan(j)) << trial;
      for (const ikpd::Transform& j : out.pose.arms) ASSERT_FALSE(nan(j)) << trial;
      for (const ikpd::Transform& j : out.pose.legs) ASSERT_FALSE(nan(j)) << trial;
    }
  }
}

// Eye joints through BodyLookAt: carried with the shifted head, bad ones rejected
// with nothing changed.
TEST(BodyLookAtRegression, EyesFollowTheHeadAndBadEyesChangeNothing) {
  ikpd::BodyLookAt rig;
  ASSERT_TRUE(rig.Reset({}).ok());
  const Pose animated = humanoid::RestPose();
  const ikpd::Transform eyes[2] = {{glm::vec3(0.03f, 1.68f, 0.08f), glm::quat(1, 0, 0, 0)},
                                   {glm::vec3(-0.03f, 1.68f, 0.08f), glm::quat(1, 0, 0, 0)}};
  ikpd::Transform eyesOut[2];
  Solved out;
  ikpd::BodyLookAtInput in = InputOf(animated, glm::vec3(1.5f, 1.0f, 1.0f));
  in.eyes = eyes;
  ikpd::BodyLookAtOutput view = out.View();
  view.eyes = eyesOut;
  for (int frame = 0; frame < 60; ++frame) ASSERT_TRUE(rig.Update(1.0f / 60.0f, in, view).ok());
  const ikpd::Transform& head = out.pose.spine[humanoid::kHead];
  const ikpd::Transform& headIn = animated.spine[humanoid::kHead];
  for (int k = 0; k < 2; ++k) {
    EXPECT_LT(glm::distance(eyesOut[k].position, head.position + head.rotation * (eyes[k].position - headIn.position)), 1e-5f);
  }
  const float yaw = rig.gazeYaw();
  const Solved before = out;
  ikpd::Transform bad[2] = {eyes[0], {glm::vec3(NAN, 0, 0), glm::quat(1, 0, 0, 0)}};
  in.eyes = bad;
  EXPECT_STREQ(rig.Update(1.0f / 60.0f, in, view).error, "eyes: positions must be finite");
  EXPECT_EQ(rig.gazeYaw(), yaw);
  EXPECT_EQ(out.pose.spine[humanoid::kHead].rotation, before.pose.spine[humanoid::kHead].rotation);
}

}  // namespace
