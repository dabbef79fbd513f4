#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "ikpd/ikpd.h"
#include "native/humanoid_test_util.h"

namespace {

using humanoid::AngleBetween;
using humanoid::InputOf;
using humanoid::Pose;
using humanoid::Solved;
using ikpd::BodyLookAt;
using ikpd::BodyLookAtSettings;

BodyLookAt MakeRig(const BodyLookAtSettings& s = {}) {
  BodyLookAt rig;
  EXPECT_TRUE(rig.Reset(s).ok());
  return rig;
}

// Turn (radians) of a joint's solved world rotation away from the animated one.
float TurnOf(const ikpd::Transform& solved, const ikpd::Transform& animated) {
  return AngleBetween(solved.rotation, animated.rotation);
}

// The upper arm's rotation relative to the chest, solved vs animated (radians).
float ArmDeviation(const Pose& solved, const Pose& animated) {
  const glm::quat a = glm::conjugate(animated.spine[humanoid::kChest].rotation) * animated.arms[0].rotation;
  const glm::quat b = glm::conjugate(solved.spine[humanoid::kChest].rotation) * solved.arms[0].rotation;
  return AngleBetween(a, b);
}

float MaxPoseDifference(const Pose& a, const Pose& b, float* rotation) {
  float position = 0.0f;
  *rotation = 0.0f;
  auto each = [&](std::span<const ikpd::Transform> x, std::span<const ikpd::Transform> y) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      position = std::max(position, glm::length(x[i].position - y[i].position));
      *rotation = std::max(*rotation, AngleBetween(x[i].rotation, y[i].rotation));
    }
  };
  each(a.spine, b.spine);
  each(a.arms, b.arms);
  each(a.legs, b.legs);
  return position;
}

const glm::vec3 kSideLow(1.5f, 0.6f, 0.8f);  // to the left, low: the body leans and turns

TEST(BodyLookAt, FeetStayPutWhileThePelvisShifts) {
  BodyLookAt rig = MakeRig();
  Solved out;
  float maxShift = 0.0f;
  for (int frame = 0; frame < 180; ++frame) {
    const Pose animated = humanoid::IdlePose(static_cast<float>(frame) / 60.0f);
    ASSERT_TRUE(rig.Update(1.0f / 60.0f, InputOf(animated, kSideLow), out.View()).ok());
    maxShift = std::max(maxShift, glm::length(rig.pelvisShift()));
    for (std::size_t leg = 0; leg < 6; leg += 3) {
      EXPECT_LT(glm::length(out.pose.legs[leg + 2].position - animated.legs[leg + 2].position), 1e-4f) << frame;
      EXPECT_LT(AngleBetween(out.pose.legs[leg + 2].rotation, animated.legs[leg + 2].rotation), 1e-6f);
      // Bone lengths kept; the knee stays on its animated (front) side.
      for (std::size_t j = leg; j < leg + 2; ++j) {
        const float before = glm::length(animated.legs[j + 1].position - animated.legs[j].position);
        const float after = glm::length(out.pose.legs[j + 1].position - out.pose.legs[j].position);
        EXPECT_NEAR(after, before, 1e-4f);
      }
      EXPECT_GT(out.pose.legs[leg + 1].position.z, out.pose.legs[leg].position.z - 0.05f);
    }
    // The hips ride the pelvis.
    EXPECT_LT(glm::length(out.pose.legs[0].position - out.pose.spine[0].position) -
                  glm::length(animated.legs[0].position - animated.spine[0].position),
              1e-5f);
  }
  EXPECT_GT(maxShift, 0.01f);  // the pelvis really moved (about 1 cm per 0.2 rad at 0.05 m/rad)
}

TEST(BodyLookAt, StraightLegsBendTheirKneesForward) {
  // Straight legs slanting back: the pelvis shifting back (the head looks down)
  // brings each hip nearer its ankle, so the knee must bend: forward, not back.
  Pose animated = humanoid::RestPose();
  for (std::size_t leg = 0; leg < 6; leg += 3) {
    const glm::vec3 hip = animated.legs[leg].position;
    const glm::vec3 down = glm::normalize(glm::vec3(0.0f, -1.0f, -0.15f));
    animated.legs[leg + 1].position = hip + 0.43f * down;
    animated.legs[leg + 2].position = hip + 0.87f * down;
  }
  BodyLookAt rig = MakeRig();
  Solved out;
  for (int frame = 0; frame < 120; ++frame) {
    ASSERT_TRUE(rig.Update(1.0f / 60.0f, InputOf(animated, {0.0f, 0.0f, 0.5f}), out.View()).ok());
  }
  ASSERT_LT(rig.pelvisShift().z, -0.005f);
  for (std::size_t leg = 0; leg < 6; leg += 3) {
    const glm::vec3 hip = out.pose.legs[leg].position, knee = out.pose.legs[leg + 1].position;
    const glm::vec3 ankle = out.pose.legs[leg + 2].position;
    EXPECT_LT(glm::length(ankle - animated.legs[leg + 2].position), 1e-4f);
    const glm::vec3 line = glm::normalize(ankle - hip);
    const glm::vec3 bend = (knee - hip) - glm::dot(knee - hip, line) * line;
    EXPECT_GT(glm::length(bend), 0.005f);  // really bent
    EXPECT_GT(bend.z, 0.0f);              // toward the front
  }
}

TEST(BodyLookAt, WeightShiftOpposesTheLean) {
  BodyLookAt rig = MakeRig();
  Solved out;
  const Pose animated = humanoid::RestPose();
  for (int frame = 0; frame < 240; ++frame) {
    ASSERT_TRUE(rig.Update(1.0f / 60.0f, InputOf(animated, {0.0f, 0.0f, 0.6f}), out.View()).ok());  // look down
  }
  EXPECT_LT(rig.pelvisShift().z, -0.01f);  // the head leans forward: the pelvis goes back
  EXPECT_EQ(rig.pelvisShift().y, 0.0f);    // horizontal only
}

TEST(BodyLookAt, HeadLeads) {
  BodyLookAt rig = MakeRig();
  Solved out;
  const Pose animated = humanoid::RestPose();
  const glm::vec3 target(3.0f, 1.6f, 0.0f);  // a quarter turn to the left
  std::vector<float> head, chest;
  for (int frame = 0; frame < 600; ++frame) {
    ASSERT_TRUE(rig.Update(1.0f / 120.0f, InputOf(animated, target), out.View()).ok());
    head.push_back(TurnOf(out.pose.spine[humanoid::kHead], animated.spine[humanoid::kHead]));
    chest.push_back(TurnOf(out.pose.spine[humanoid::kChest], animated.spine[humanoid::kChest]));
  }
  auto halfway = [](const std::vector<float>& turn) {
    const float half = 0.5f * turn.back();
    return std::find_if(turn.begin(), turn.end(), [&](float a) { return a >= half; }) - turn.begin();
  };
  EXPECT_GT(chest.back(), 0.1f);
  EXPECT_NEAR(head.back(), ikpd::kPi / 2.0f, 0.03f);  // a quarter turn, seen from the shifted pelvis
  const ikpd::Transform& solvedHead = out.pose.spine[humanoid::kHead];
  EXPECT_LT(glm::length(glm::cross(glm::normalize(target - solvedHead.position), solvedHead.rotation * glm::vec3(0, 0, 1))),
            1e-3f);
  EXPECT_LT(halfway(head), halfway(chest));
  EXPECT_LT(static_cast<double>(halfway(head)) * 1.25, static_cast<double>(halfway(chest)));  // clearly ahead, not by a frame
}

Pose RunFor(float seconds, int hz, const glm::vec3& target) {
  BodyLookAt rig = MakeRig();
  Solved out;
  const int steps = static_cast<int>(std::lround(seconds * static_cast<float>(hz)));
  const Pose animated = humanoid::RestPose();
  for (int i = 0; i < steps; ++i) {
    EXPECT_TRUE(rig.Update(1.0f / static_cast<float>(hz), InputOf(animated, target), out.View()).ok());
  }
  return out.pose;
}

TEST(BodyLookAt, FrameRateIndependent) {
  for (const glm::vec3& target : {kSideLow, glm::vec3(-2.0f, 2.5f, 0.5f), glm::vec3(0.3f, 1.0f, -2.0f)}) {
    const Pose a = RunFor(0.5f, 30, target);
    const Pose b = RunFor(0.5f, 120, target);
    float rotation = 0.0f;
    const float position = MaxPoseDifference(a, b, &rotation);
    EXPECT_LT(rotation, 2e-3f);
    EXPECT_LT(position, 2e-3f);
  }
}

TEST(BodyLookAt, ArmsLagTheChestAndSpringBack) {
  BodyLookAt rig = MakeRig();
  Solved out;
  const Pose animated = humanoid::RestPose();
  std::vector<float> deviation;
  for (int frame = 0; frame < 600; ++frame) {
    ASSERT_TRUE(rig.Update(1.0f / 60.0f, InputOf(animated, {3.0f, 1.6f, 0.0f}), out.View()).ok());
    deviation.push_back(ArmDeviation(out.pose, animated));
    // Forearm and hand follow the upper arm rigidly.
    const glm::quat upper = out.pose.arms[0].rotation * glm::conjugate(animated.arms[0].rotation);
    for (std::size_t j = 1; j < 3; ++j) {
      EXPECT_LT(AngleBetween(out.pose.arms[j].rotation, upper * animated.arms[j].rotation), 1e-5f);
      const float before = glm::length(animated.arms[j].position - animated.arms[j - 1].position);
      EXPECT_NEAR(glm::length(out.pose.arms[j].position - out.pose.arms[j - 1].position), before, 1e-5f);
    }
  }
  const float peak = *std::max_element(deviation.begin(), deviation.begin() + 60);
  EXPECT_GT(peak, 0.02f);        // the arm visibly lags while the chest turns
  EXPECT_GT(peak, deviation[1]);  // rising first
  EXPECT_LT(deviation.back(), 1e-3f);  // at rest: the animated arm relative to the chest
}

TEST(BodyLookAt, BlendOutRestoresTheAnimatedPoseExactly) {
  BodyLookAt rig = MakeRig();
  Solved out;
  for (int frame = 0; frame < 60; ++frame) {
    const Pose animated = humanoid::IdlePose(static_cast<float>(frame) / 60.0f);
    ASSERT_TRUE(rig.Update(1.0f / 60.0f, InputOf(animated, kSideLow), out.View()).ok());
  }
  ASSERT_TRUE(rig.active());
  int frame = 60;
  for (; frame < 60 + 60 * 10 && rig.active(); ++frame) {
    const Pose animated = humanoid::IdlePose(static_cast<float>(frame) / 60.0f);
    ASSERT_TRUE(rig.Update(1.0f / 60.0f, InputOf(animated, kSideLow, false), out.View()).ok());
  }
  EXPECT_FALSE(rig.active());
  EXPECT_LT(frame, 60 + 60 * 5);  // done in a few seconds
  const Pose animated = humanoid::IdlePose(static_cast<float>(frame) / 60.0f);
  ASSERT_TRUE(rig.Update(1.0f / 60.0f, InputOf(animated, kSideLow, false), out.View()).ok());
  float rotation = 0.0f;
  EXPECT_LT(MaxPoseDifference(out.pose, animated, &rotation), 1e-6f);
  EXPECT_LT(rotation, 1e-6f);
}

TEST(BodyLookAt, BadInputNamesItAndChangesNothing) {
  BodyLookAt rig = MakeRig();
  Solved out;
  const Pose animated = humanoid::RestPose();
  for (int frame = 0; frame < 10; ++frame) ASSERT_TRUE(rig.Update(1.0f / 60.0f, InputOf(animated, kSideLow), out.View()).ok());
  const BodyLookAt before = rig;
  const Pose outBefore = out.pose;
  const float nan = std::nanf("");
  auto expectError = [&](float dt, const ikpd::BodyLookAtInput& in, const char* message) {
    EXPECT_STREQ(rig.Update(dt, in, out.View()).error, message);
  };
  expectError(-0.01f, InputOf(animated, kSideLow), "dt: must be finite and >= 0");
  expectError(INFINITY, InputOf(animated, kSideLow), "dt: must be finite and >= 0");
  expectError(0.01f, InputOf(animated, {nan, 0.0f, 1.0f}), "target: must be finite");
  ikpd::BodyLookAtInput missing = InputOf(animated, kSideLow);
  missing.spine = missing.spine.first(5);
  expectError(0.01f, missing, "spine: needs one joint per spine joint (pelvis ... head)");
  missing = InputOf(animated, kSideLow);
  missing.arms = missing.arms.first(5);
  expectError(0.01f, missing, "arms: needs 0, 3 or 6 joints (upper, lower, hand per arm)");
  missing = InputOf(animated, kSideLow);
  missing.legs = missing.legs.first(2);
  expectError(0.01f, missing, "legs: needs 0, 3 or 6 joints (hip, knee, ankle per leg)");
  Pose broken = animated;
  broken.legs[4].position.y = nan;
  expectError(0.01f, InputOf(broken, kSideLow), "legs: positions must be finite");
  broken = animated;
  broken.spine[2].rotation = glm::quat(0.0f, 0.0f, 0.0f, 0.0f);
  expectError(0.01f, InputOf(broken, kSideLow), "spine: rotations must be finite and non-zero");
  Solved small;
  ikpd::BodyLookAtOutput view = small.View();
  view.arms = view.arms.first(3);
  EXPECT_STREQ(rig.Update(0.01f, InputOf(animated, kSideLow), view).error, "output.arms: needs one entry per arm joint");
  BodyLookAt uninitialized;
  EXPECT_STREQ(uninitialized.Update(0.01f, InputOf(animated, kSideLow), out.View()).error, "bodyLookAt: not initialized");

  // Nothing changed: the output buffers, and the next update equals that of the untouched copy.
  float rotation = 0.0f;
  EXPECT_EQ(MaxPoseDifference(out.pose, outBefore, &rotation), 0.0f);
  EXPECT_EQ(rotation, 0.0f);
  BodyLookAt copy = before;
  Solved a, b;
  ASSERT_TRUE(rig.Update(0.02f, InputOf(animated, kSideLow), a.View()).ok());
  ASSERT_TRUE(copy.Update(0.02f, InputOf(animated, kSideLow), b.View()).ok());
  EXPECT_EQ(MaxPoseDifference(a.pose, b.pose, &rotation), 0.0f);
  EXPECT_EQ(rotation, 0.0f);
}

TEST(BodyLookAt, SettingsValidation) {
  BodyLookAt rig;
  BodyLookAtSettings s;
  s.spineJoints = 1;
  EXPECT_STREQ(rig.Reset(s).error, "spineJoints: needs at least 2 (pelvis and head)");
  s = {};
  const float two[2] = {0.5f, 1.0f};
  s.spine.weights = two;
  EXPECT_STREQ(rig.Reset(s).error, "spine.weights: needs one weight per spine joint");
  s = {};
  s.spine.headSettleTime = 0.0f;
  EXPECT_STREQ(rig.Reset(s).error, "spine.settleTime: must be a finite number > 0");
  s = {};
  s.weightShift.amount = -1.0f;
  EXPECT_STREQ(rig.Reset(s).error, "weightShift.amount: must be a finite number >= 0");
  s = {};
  s.armReaction.amount = 1.5f;
  EXPECT_STREQ(rig.Reset(s).error, "armReaction.amount: must be in [0, 1]");
  s = {};
  s.armReaction.chest = 6;
  EXPECT_STREQ(rig.Reset(s).error, "armReaction.chest: must be -1 or a spine index");
  s = {};
  s.offset.x = std::nanf("");
  EXPECT_STREQ(rig.Reset(s).error, "offset: must be finite");
  s = {};
  s.up = glm::vec3(0.0f);
  EXPECT_STREQ(rig.Reset(s).error, "up: must be a finite non-zero vector");
  EXPECT_EQ(rig.spineJoints(), 0u);  // failed Resets leave the rig uninitialized
  EXPECT_TRUE(rig.Reset({}).ok());
  EXPECT_EQ(rig.spineJoints(), humanoid::kSpine);
}

TEST(BodyLookAt, DefaultsLetTheHeadLeadAndFinishTheTurn) {
  for (std::size_t n = 2; n <= 12; ++n) {
    std::vector<float> w(n), limits(n), settle(n);
    ikpd::DefaultBodyLookAtWeights(w);
    ikpd::DefaultBodyLookAtLimits(limits);
    ikpd::DefaultBodyLookAtSettleTimes(0.2f, 0.6f, settle);
    EXPECT_EQ(w.back(), 1.0f);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_GT(w[i], 0.0f);
      EXPECT_LE(w[i], 1.0f);
      EXPECT_GT(limits[i], 0.0f);
      if (i > 0) {
        EXPECT_LT(settle[i], settle[i - 1]);
      }
    }
    EXPECT_FLOAT_EQ(settle.front(), 0.6f);
    EXPECT_FLOAT_EQ(settle.back(), 0.2f);
  }
}

TEST(BodyLookAt, BoneAxesDoNotMatter) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    const Pose plain = humanoid::IdlePose(0.3f * static_cast<float>(seed));
    const Pose framed = humanoid::Reframed(plain, seed);
    BodyLookAtSettings s;
    BodyLookAt a = MakeRig(s);
    // The head's look axis is +Z in the plain frames; in the reframed head it is frame⁻¹·Z.
    const glm::quat headFrame =
        glm::conjugate(plain.spine[humanoid::kHead].rotation) * framed.spine[humanoid::kHead].rotation;
    s.forward = glm::conjugate(headFrame) * glm::vec3(0, 0, 1);
    BodyLookAt b = MakeRig(s);
    Solved outA, outB;
    chaintest::Rng rng(seed);
    const glm::vec3 target = plain.spine[humanoid::kHead].position + 2.0f * rng.Direction();
    for (int frame = 0; frame < 30; ++frame) {
      ASSERT_TRUE(a.Update(1.0f / 30.0f, InputOf(plain, target), outA.View()).ok());
      ASSERT_TRUE(b.Update(1.0f / 30.0f, InputOf(framed, target), outB.View()).ok());
    }
    // Same positions; same rotations up to each joint's frame.
    float rotation = 0.0f;
    Pose unframed = outB.pose;
    auto strip = [](std::span<ikpd::Transform> out, std::span<const ikpd::Transform> from,
                    std::span<const ikpd::Transform> to) {
      for (std::size_t i = 0; i < out.size(); ++i) {
        out[i].rotation = out[i].rotation * glm::conjugate(glm::conjugate(to[i].rotation) * from[i].rotation);
      }
    };
    strip(unframed.spine, framed.spine, plain.spine);
    strip(unframed.arms, framed.arms, plain.arms);
    strip(unframed.legs, framed.legs, plain.legs);
    EXPECT_LT(MaxPoseDifference(outA.pose, unframed, &rotation), 2e-4f) << seed;
    EXPECT_LT(rotation, 2e-3f) << seed;
  }
}

TEST(BodyLookAt, EyeOffsetLooksFromTheEyes) {
  BodyLookAtSettings s;
  s.offset = {0.0f, 0.09f, 0.1f};  // eyes above and in front of the head joint
  BodyLookAt rig = MakeRig(s);
  Solved out;
  const Pose animated = humanoid::RestPose();
  const glm::vec3 target(0.8f, 1.2f, 1.0f);
  for (int frame = 0; frame < 600; ++frame) ASSERT_TRUE(rig.Update(1.0f / 60.0f, InputOf(animated, target), out.View()).ok());
  const ikpd::Transform& head = out.pose.spine[humanoid::kHead];
  const glm::vec3 eye = head.position + head.rotation * s.offset;
  const glm::vec3 look = head.rotation * s.forward;
  const glm::vec3 toTarget = target - eye;
  EXPECT_GT(glm::dot(toTarget, look), 0.0f);
  EXPECT_LT(glm::length(glm::cross(toTarget, look)), 2e-3f);  // the target is on the eye's look line
}

TEST(BodyLookAt, DegenerateInputStaysFinite) {
  Pose p = humanoid::RestPose();
  p.legs[1].position = {0.1f, 0.515f, 0.0f};  // left leg straight
  p.legs[2].position = {0.1f, 0.08f, 0.0f};
  p.arms[4].position = p.arms[3].position;  // zero-length right upper arm
  p.spine[2].position = p.spine[1].position;  // zero-length spine bone
  for (const glm::vec3& target : {p.spine[humanoid::kHead].position, glm::vec3(0.0f, 1.6f, -3.0f), glm::vec3(1e6f)}) {
    BodyLookAt rig = MakeRig();
    Solved out;
    for (float dt : {0.0f, 1.0f / 60.0f, 1e6f}) {
      ASSERT_TRUE(rig.Update(dt, InputOf(p, target), out.View()).ok());
      for (const auto& j : out.pose.spine) EXPECT_TRUE(ikpd::IsFinite(j));
      for (const auto& j : out.pose.arms) EXPECT_TRUE(ikpd::IsFinite(j));
      for (const auto& j : out.pose.legs) EXPECT_TRUE(ikpd::IsFinite(j));
      EXPECT_LT(glm::length(out.pose.legs[5].position - p.legs[5].position), 1e-4f);  // the bent leg
    }
  }
  // No arms or legs at all.
  BodyLookAt rig = MakeRig();
  Solved out;
  ikpd::BodyLookAtInput in = InputOf(p, kSideLow);
  in.arms = {};
  in.legs = {};
  ikpd::BodyLookAtOutput view = out.View();
  view.arms = {};
  view.legs = {};
  EXPECT_TRUE(rig.Update(0.1f, in, view).ok());
}

}  // namespace
