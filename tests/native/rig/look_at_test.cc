// Look-at IK (docs/rig/look-at.md): convergence, weight distribution, limits, frame-rate
// independence with the exact integrator, blend-out to exactly zero, the eye offset.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "ikpd/ikpd.h"
#include "native/chain_test_util.h"

namespace {

using ikpd::LookAt;
using ikpd::LookAtSettings;
using ikpd::Transform;

float Angle(const glm::quat& a, const glm::quat& b) {
  const glm::quat d = glm::conjugate(glm::normalize(a)) * glm::normalize(b);
  return 2.0f * std::atan2(glm::length(glm::vec3(d.x, d.y, d.z)), std::abs(d.w));
}
float AngleBetween(const glm::vec3& a, const glm::vec3& b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

// pelvis → spine → chest → neck → head stacked on +Y, looking along +Z.
std::vector<Transform> Spine(glm::quat facing = glm::quat(1, 0, 0, 0)) {
  std::vector<Transform> joints(5);
  const float heights[] = {1.0f, 1.2f, 1.4f, 1.6f, 1.75f};
  for (std::size_t i = 0; i < 5; ++i) joints[i] = {facing * glm::vec3(0, heights[i], 0), facing};
  return joints;
}

LookAt Make(std::vector<float>& weights, std::vector<float>* limits = nullptr, float settleTime = 0.3f) {
  LookAtSettings s;
  s.weights = weights;
  if (limits) s.limits = *limits;
  s.settleTime = settleTime;
  LookAt look;
  EXPECT_TRUE(look.Reset(s).ok());
  return look;
}

glm::vec3 HeadDirection(const std::vector<Transform>& out) { return out.back().rotation * glm::vec3(0, 0, 1); }

TEST(LookAt, HeadConvergesToTheTargetDirection) {
  std::vector<float> weights{0.1f, 0.2f, 0.3f, 0.5f, 1.0f};
  LookAt look = Make(weights);
  const std::vector<Transform> pose = Spine();
  std::vector<Transform> out(5);
  for (const glm::vec3 target : {glm::vec3(2, 1.75f, 1), glm::vec3(-1, 3, 0.5f), glm::vec3(0.5f, 0, 2), glm::vec3(-3, 1, -0.2f)}) {
    for (int frame = 0; frame < 240; ++frame) ASSERT_TRUE(look.Update(1.0f / 60.0f, pose, target, true, out).ok());
    EXPECT_LT(AngleBetween(HeadDirection(out), target - out.back().position), 2e-3f) << target.x;
    // Bone lengths (joint distances) are kept.
    for (std::size_t i = 1; i < 5; ++i) {
      EXPECT_NEAR(glm::distance(out[i].position, out[i - 1].position), glm::distance(pose[i].position, pose[i - 1].position), 1e-5f);
    }
    EXPECT_EQ(out[0].position, pose[0].position);
  }
}

TEST(LookAt, WeightsDistributeTheTurn) {
  // Weights 1/5, 1/4, 1/3, 1/2, 1 share a yaw equally: every joint turns by a fifth.
  std::vector<float> weights{0.2f, 0.25f, 1.0f / 3.0f, 0.5f, 1.0f};
  LookAt look = Make(weights);
  const std::vector<Transform> pose = Spine();
  const float yaw = 1.0f;
  const glm::vec3 target = pose.back().position + 3.0f * glm::vec3(std::sin(yaw), 0, std::cos(yaw));
  std::vector<Transform> out(5);
  ASSERT_TRUE(look.Update(0.0f, pose, target, true, out).ok());
  for (std::size_t i = 0; i < 5; ++i) EXPECT_NEAR(Angle(look.desired()[i], glm::quat(1, 0, 0, 0)), yaw / 5.0f, 1e-4f) << i;
  // A head-only rig (weights 0 … 0, 1) turns only the head.
  std::vector<float> headOnly{0, 0, 0, 0, 1};
  LookAt head = Make(headOnly);
  ASSERT_TRUE(head.Update(0.0f, pose, target, true, out).ok());
  for (std::size_t i = 0; i < 4; ++i) EXPECT_NEAR(Angle(head.desired()[i], glm::quat(1, 0, 0, 0)), 0.0f, 1e-6f);
  EXPECT_NEAR(Angle(head.desired()[4], glm::quat(1, 0, 0, 0)), yaw, 1e-4f);
}

TEST(LookAt, LimitsCapEachOffset) {
  std::vector<float> weights{0.2f, 0.25f, 1.0f / 3.0f, 0.5f, 1.0f};
  std::vector<float> limits{0.05f, 0.1f, 0.1f, 0.2f, 0.4f};
  LookAt look = Make(weights, &limits);
  const std::vector<Transform> pose = Spine();
  const glm::vec3 target = pose.back().position + glm::vec3(-3, 0.5f, -1);  // far behind
  std::vector<Transform> out(5);
  for (int frame = 0; frame < 600; ++frame) ASSERT_TRUE(look.Update(1.0f / 60.0f, pose, target, true, out).ok());
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_LE(Angle(look.offsets()[i], glm::quat(1, 0, 0, 0)), limits[i] + 1e-4f) << i;
    EXPECT_NEAR(Angle(look.desired()[i], glm::quat(1, 0, 0, 0)), limits[i], 1e-3f) << i;  // every joint at its limit
  }
}

TEST(LookAt, FrameRateIndependentWithTheExactIntegrator) {
  std::vector<float> weights{0.1f, 0.2f, 0.3f, 0.5f, 1.0f};
  const std::vector<Transform> pose = Spine();
  const glm::vec3 target(1.5f, 2.5f, 1.0f);
  std::vector<Transform> out30(5), out120(5), outOne(5);
  LookAt a = Make(weights), b = Make(weights), c = Make(weights);
  for (int f = 0; f < 6; ++f) ASSERT_TRUE(a.Update(1.0f / 30.0f, pose, target, true, out30).ok());
  for (int f = 0; f < 24; ++f) ASSERT_TRUE(b.Update(1.0f / 120.0f, pose, target, true, out120).ok());
  ASSERT_TRUE(c.Update(0.2f, pose, target, true, outOne).ok());
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_LT(Angle(a.offsets()[i], b.offsets()[i]), 1e-4f) << i;
    EXPECT_LT(Angle(a.offsets()[i], c.offsets()[i]), 1e-4f) << i;
    EXPECT_LT(glm::distance(out30[i].position, out120[i].position), 1e-5f);
  }
  // Smoothing really is happening: 0.2 s into a 0.3 s settle time, the head is not there yet.
  EXPECT_GT(Angle(a.offsets()[4], a.desired()[4]), 1e-2f);
}

TEST(LookAt, FollowsTheAnimationAndBlendsOutToExactlyZero) {
  std::vector<float> weights{0.1f, 0.2f, 0.3f, 0.5f, 1.0f};
  LookAt look = Make(weights);
  const glm::vec3 target(2, 2, 2);
  std::vector<Transform> out(5);
  // The character turns (animation) while looking: the offsets are in joint space.
  for (int frame = 0; frame < 300; ++frame) {
    const std::vector<Transform> pose = Spine(glm::angleAxis(0.002f * static_cast<float>(frame), glm::vec3(0, 1, 0)));
    ASSERT_TRUE(look.Update(1.0f / 60.0f, pose, target, true, out).ok());
  }
  EXPECT_LT(AngleBetween(HeadDirection(out), target - out.back().position), 0.02f);
  EXPECT_TRUE(look.active());
  // Off: offsets blend out to exactly identity; the output is the animated pose.
  const std::vector<Transform> pose = Spine(glm::angleAxis(0.7f, glm::vec3(0, 1, 0)));
  for (int frame = 0; frame < 600; ++frame) ASSERT_TRUE(look.Update(1.0f / 60.0f, pose, target, false, out).ok());
  EXPECT_FALSE(look.active());
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(look.offsets()[i], glm::quat(1, 0, 0, 0));
    EXPECT_LT(glm::distance(out[i].position, pose[i].position), 1e-5f);
    EXPECT_LT(Angle(out[i].rotation, pose[i].rotation), 1e-5f);
  }
}

TEST(LookAt, DegenerateInputStaysFinite) {
  std::vector<float> weights{0.5f, 1.0f};
  LookAt look = Make(weights);
  std::vector<Transform> pose{{{0, 0, 0}, glm::quat(2, 0, 0, 0)}, {{0, 0, 0}, glm::quat(0, 0, 0, 1)}};
  std::vector<Transform> out(2);
  for (const glm::vec3 target : {glm::vec3(0, 0, 0), glm::vec3(0, 0, -5), glm::vec3(3e38f, -3e38f, 1), glm::vec3(1e-30f, 0, 0)}) {
    for (const float dt : {0.0f, 1.0f / 60.0f, 1e6f}) {
      ASSERT_TRUE(look.Update(dt, pose, target, true, out).ok());
      for (const Transform& t : out) ASSERT_TRUE(ikpd::IsFinite(t));
    }
  }
}

TEST(LookAt, Validation) {
  LookAt look;
  LookAtSettings s;
  EXPECT_STREQ(look.Reset(s).error, "weights: needs one weight per joint (at least one)");
  std::vector<float> weights{0.5f, 1.5f};
  s.weights = weights;
  EXPECT_STREQ(look.Reset(s).error, "weights: every weight must be in [0, 1]");
  weights[1] = 1.0f;
  std::vector<float> limits{1.0f};
  s.limits = limits;
  EXPECT_STREQ(look.Reset(s).error, "limits: needs one limit per joint");
  s.limits = {};
  s.settleTime = 0.0f;
  EXPECT_STREQ(look.Reset(s).error, "settleTime: must be a finite number > 0");
  s.settleTime = 0.3f;
  s.damping = -1.0f;
  EXPECT_STREQ(look.Reset(s).error, "damping: must be a finite number > 0");
  s.damping = 1.0f;
  s.forward = {0, 0, 0};
  EXPECT_STREQ(look.Reset(s).error, "forward: must be a finite non-zero vector");
  s.forward = {0, 0, 1};
  ASSERT_TRUE(look.Reset(s).ok());
  std::vector<Transform> pose(2), out(2);
  EXPECT_STREQ(look.Update(-1.0f, pose, {0, 0, 1}, true, out).error, "dt: must be finite and >= 0");
  EXPECT_STREQ(look.Update(0.1f, std::span<const Transform>(pose.data(), 1), {0, 0, 1}, true, out).error,
               "joints: needs one joint per weight");
  EXPECT_STREQ(look.Update(0.1f, pose, {NAN, 0, 1}, true, out).error, "target: must be finite");
}

}  // namespace

namespace {

// The eye offset lives in LookAt itself: one joint with eyes off its axis.
TEST(LookAtOffset, TheEyesLookAtTheTarget) {
  const float weights[1] = {1.0f};
  ikpd::LookAtSettings s;
  s.weights = weights;
  s.offset = {0.05f, 0.1f, 0.08f};
  // Targets in every direction: no yaw or pitch limit.
  s.maxYaw = ikpd::kPi;
  s.maxPitchUp = s.maxPitchDown = ikpd::kPi / 2.0f;
  ikpd::LookAt look;
  ASSERT_TRUE(look.Reset(s).ok());
  chaintest::Rng rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const ikpd::Transform joint{rng.Direction(), rng.Rotation()};
    const glm::vec3 target = joint.position + rng.Uniform(0.5f, 5.0f) * rng.Direction();
    ikpd::Transform out[1];
    look.Clear();
    ASSERT_TRUE(look.Update(100.0f, std::span(&joint, 1), target, true, out).ok());
    const glm::vec3 eye = out[0].position + out[0].rotation * s.offset;
    const glm::vec3 toTarget = glm::normalize(target - eye);
    EXPECT_GT(glm::dot(toTarget, out[0].rotation * s.forward), 0.0f);
    EXPECT_LT(glm::length(glm::cross(toTarget, out[0].rotation * s.forward)), 1e-4f) << trial;
  }
  s.offset.y = INFINITY;
  EXPECT_STREQ(look.Reset(s).error, "offset: must be finite");
}

}  // namespace
