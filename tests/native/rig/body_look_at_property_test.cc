// Property tests of BodyLookAt over thousands of random poses, targets, time
// steps and settings: finite unit output, bone lengths kept, planted feet
// wherever the leg can reach, the layered effects within their bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "ikpd/ikpd.h"
#include "native/humanoid_test_util.h"

namespace {

using humanoid::InputOf;
using humanoid::Pose;
using humanoid::Solved;

// The test humanoid moved, turned, scaled and with every joint jittered.
Pose RandomPose(chaintest::Rng& rng) {
  Pose p = humanoid::Reframed(humanoid::IdlePose(rng.Uniform(0.0f, 10.0f)), static_cast<unsigned>(rng.engine()));
  const glm::quat turn = rng.Rotation();
  const float scale = rng.Uniform(0.3f, 3.0f);
  const glm::vec3 offset = 5.0f * rng.Direction();
  auto move = [&](std::span<ikpd::Transform> joints) {
    for (ikpd::Transform& j : joints) {
      j.position = offset + turn * (scale * j.position + 0.02f * scale * rng.Direction());
      j.rotation = turn * j.rotation;
    }
  };
  move(p.spine);
  move(p.arms);
  move(p.legs);
  return p;
}

ikpd::BodyLookAtSettings RandomSettings(chaintest::Rng& rng, const Pose& pose) {
  ikpd::BodyLookAtSettings s;
  s.forward = glm::conjugate(pose.spine[humanoid::kHead].rotation) * rng.Direction();
  s.up = rng.Direction();
  s.offset = rng.Uniform(0.0f, 0.2f) * rng.Direction();
  s.spine.headSettleTime = rng.Uniform(0.05f, 1.0f);
  s.spine.pelvisSettleTime = rng.Uniform(0.05f, 1.0f);
  s.spine.damping = rng.Uniform(0.3f, 2.0f);
  s.weightShift.amount = rng.Uniform(0.0f, 0.2f);
  s.weightShift.limit = rng.Uniform(0.0f, 0.15f);
  s.weightShift.settleTime = rng.Uniform(0.05f, 1.0f);
  s.weightShift.damping = rng.Uniform(0.3f, 2.0f);
  s.armReaction.amount = rng.Uniform(0.0f, 1.0f);
  s.armReaction.settleTime = rng.Uniform(0.05f, 1.0f);
  s.armReaction.damping = rng.Uniform(0.2f, 2.0f);
  s.footLock = rng.Uniform(0.0f, 1.0f) < 0.8f;
  s.blendOutTime = rng.Uniform(0.0f, 0.3f);
  return s;
}

float RandomDt(chaintest::Rng& rng) {
  const float pick = rng.Uniform(0.0f, 1.0f);
  if (pick < 0.05f) return 0.0f;
  if (pick < 0.1f) return rng.Uniform(1.0f, 1e4f);
  return rng.Uniform(1.0f / 240.0f, 0.1f);
}

void ExpectBones(std::span<const ikpd::Transform> in, std::span<const ikpd::Transform> out, std::size_t stride,
                 float tolerance, int trial) {
  for (std::size_t first = 0; first < in.size(); first += stride) {
    for (std::size_t j = first + 1; j < first + stride; ++j) {
      const float before = glm::length(in[j].position - in[j - 1].position);
      const float after = glm::length(out[j].position - out[j - 1].position);
      EXPECT_NEAR(after, before, tolerance) << "trial " << trial << " joint " << j;
    }
  }
}

TEST(BodyLookAtProperty, RandomPosesTargetsAndSettings) {
  chaintest::Rng rng(2024);
  int planted = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Pose animated = RandomPose(rng);
    const ikpd::BodyLookAtSettings s = RandomSettings(rng, animated);
    ikpd::BodyLookAt rig;
    ASSERT_TRUE(rig.Reset(s).ok()) << trial;
    const glm::vec3 head = animated.spine[humanoid::kHead].position;
    const float scale = glm::length(head - animated.spine[0].position);
    Solved out;
    for (int step = 0; step < 6; ++step) {
      const float reach = rng.Uniform(0.0f, 1.0f) < 0.05f ? 0.0f : rng.Uniform(0.0f, 10.0f) * scale;
      const glm::vec3 target = head + reach * rng.Direction();
      const bool enabled = rng.Uniform(0.0f, 1.0f) < 0.8f;
      ASSERT_TRUE(rig.Update(RandomDt(rng), InputOf(animated, target, enabled), out.View()).ok()) << trial;
      auto each = [&](std::span<const ikpd::Transform> joints) {
        for (const ikpd::Transform& j : joints) {
          ASSERT_TRUE(ikpd::IsFinite(j)) << trial;
          EXPECT_NEAR(glm::length(j.rotation), 1.0f, 1e-5f) << trial;
        }
      };
      each(out.pose.spine);
      each(out.pose.arms);
      each(out.pose.legs);
      const float tolerance = 2e-5f * std::max(1.0f, glm::length(head)) + 1e-4f * scale;
      ExpectBones(animated.spine, out.pose.spine, animated.spine.size(), tolerance, trial);
      ExpectBones(animated.arms, out.pose.arms, 3, tolerance, trial);
      ExpectBones(animated.legs, out.pose.legs, 3, tolerance, trial);
      EXPECT_LE(glm::length(rig.pelvisShift()), 3.0f * s.weightShift.limit + 1e-6f) << trial;  // spring overshoot at most
      EXPECT_NEAR(glm::dot(rig.pelvisShift(), glm::normalize(s.up)), 0.0f, 1e-6f) << trial;  // horizontal
      if (!s.footLock) continue;
      for (std::size_t leg = 0; leg < 6; leg += 3) {
        const float thigh = glm::length(animated.legs[leg + 1].position - animated.legs[leg].position);
        const float shin = glm::length(animated.legs[leg + 2].position - animated.legs[leg + 1].position);
        const float need = glm::length(animated.legs[leg + 2].position - out.pose.legs[leg].position);
        if (need > thigh + shin - 1e-3f * scale || need < std::abs(thigh - shin) + 1e-3f * scale) continue;
        ++planted;
        EXPECT_LT(glm::length(out.pose.legs[leg + 2].position - animated.legs[leg + 2].position),
                  1e-4f * scale + 2e-6f * std::max(1.0f, glm::length(head)))
            << trial;
        EXPECT_LT(humanoid::AngleBetween(out.pose.legs[leg + 2].rotation, animated.legs[leg + 2].rotation), 1e-5f);
      }
    }
  }
  EXPECT_GT(planted, 10000);  // most legs could reach: the property was really exercised
}

}  // namespace
