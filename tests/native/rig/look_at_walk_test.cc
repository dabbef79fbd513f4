// Look-at yaw and pitch limits under a moving animation (docs/rig/look-at.md,
// "Yaw and pitch limits"): a procedural spine sways, nods and turns its head
// while a target orbits the head and rises to 80° elevation, at 30, 60 and
// 240 Hz. After smoothing the head's look direction stays inside maxYaw,
// maxPitchUp and maxPitchDown of its character frame (world up, the animated
// head's look axis made horizontal; the animated head's own pitch always
// allowed) and turns, relative to the animated head, at most maxSpeed.
#include <gtest/gtest.h>

#include <cmath>

#include "native/rig_test_util.h"

namespace {

using namespace rigtest;
using ikpd::rig::ConstraintKind;
using ikpd::rig::ConstraintSettings;
using ikpd::rig::Rig;

constexpr float kPi = 3.14159265358979f;
const glm::vec3 kX(1.0f, 0.0f, 0.0f), kY(0.0f, 1.0f, 0.0f);

struct Stats {
  float yaw = -1.0f, up = -1.0f, down = -1.0f;  // largest excess over each limit (radians)
  float turn = 0.0f;                             // largest turn rate relative to the animated head (rad/s)
};

Stats Walk(int hz, float maxYaw, float maxUp, float maxDown, float maxSpeed) {
  ChainRig body;
  body.parents = {-1, 0, 1, 2, 3};  // pelvis, spine, chest, neck, head
  body.rest = {At({0.0f, 1.0f, 0.0f}), At({0.0f, 0.2f, 0.0f}), At({0.0f, 0.25f, 0.0f}), At({0.0f, 0.25f, 0.0f}),
               At({0.0f, 0.12f, 0.02f})};
  Rig rig = MakeRig(body);
  ConstraintSettings s = Settings(ConstraintKind::kLookAt, {1, 2, 3, 4});
  s.lookAt.maxYaw = maxYaw, s.lookAt.maxPitchUp = maxUp, s.lookAt.maxPitchDown = maxDown;
  s.lookAt.maxSpeed = maxSpeed;
  s.common.settleTime = 0.3f;
  EXPECT_TRUE(rig.Add(s).ok());
  const glm::vec3 axis = rig.lookAxis(0);
  std::vector<LocalTransform> out(body.parents.size());
  Stats stats;
  glm::vec3 previous(0.0f);
  const float dt = 1.0f / static_cast<float>(hz);
  for (int f = 1; f <= 8 * hz; ++f) {
    const float t = static_cast<float>(f) * dt;
    std::vector<LocalTransform> pose = body.rest;
    // A walk's head motion: the pelvis turns and bobs, the chest nods, the head turns.
    pose[0].rotation = glm::angleAxis(0.25f * std::sin(2.0f * kPi * t), kY) * glm::angleAxis(0.1f * std::sin(4.0f * kPi * t), kX);
    pose[2].rotation = glm::angleAxis(0.15f * std::sin(4.0f * kPi * t + 1.0f), kX);
    pose[4].rotation = glm::angleAxis(0.3f * std::sin(2.0f * kPi * 0.7f * t), kY);
    LocalTransform root;
    root.translation = glm::vec3(0.0f, 0.0f, 0.95f * t);
    const std::vector<World> animated = Fk(body.parents, pose, root);
    const float azimuth = 2.0f * kPi * t / 3.0f, elevation = 80.0f * kPi / 180.0f * t / 8.0f;
    rig.frames()[0].target = animated[4].position + 1.5f * glm::vec3(std::cos(elevation) * std::sin(azimuth), std::sin(elevation),
                                                                      std::cos(elevation) * std::cos(azimuth));
    EXPECT_TRUE(rig.Update(dt, pose, root, out).ok());
    const glm::quat head = Fk(body.parents, out, root)[4].rotation, was = animated[4].rotation;
    // The character frame (docs/rig/look-at.md): up, the animated look axis made horizontal.
    glm::vec3 facing = was * axis;
    facing = glm::normalize(facing - glm::dot(facing, kY) * kY);
    const glm::vec3 left = glm::cross(kY, facing), d = head * axis;
    const float x = glm::dot(d, facing), y = glm::dot(d, left);
    const float yaw = std::atan2(y, x), pitch = std::atan2(glm::dot(d, kY), std::sqrt(x * x + y * y));
    // The animated head's own pitch is always allowed (docs/rig/look-at.md).
    const glm::vec3 a = was * axis;
    const float own = std::atan2(glm::dot(a, kY), std::sqrt(glm::dot(a, facing) * glm::dot(a, facing) + glm::dot(a, left) * glm::dot(a, left)));
    stats.yaw = std::max(stats.yaw, std::abs(yaw) - maxYaw);
    stats.up = std::max(stats.up, pitch - std::max(maxUp, own));
    stats.down = std::max(stats.down, -pitch - std::max(maxDown, -own));
    const glm::vec3 relative = glm::conjugate(was) * d;
    if (f > 1) {
      const float c = std::clamp(glm::dot(relative, previous), -1.0f, 1.0f);
      stats.turn = std::max(stats.turn, std::acos(c) / dt);
    }
    previous = relative;
  }
  return stats;
}

TEST(LookAtWalk, LimitsHoldAfterSmoothingUnderTheAnimation) {
  for (int hz : {30, 60, 240}) {
    const Stats s = Walk(hz, 1.0f, 0.5f, 0.4f, 8.0f);
    EXPECT_LT(s.yaw, 1e-3f) << hz << " Hz";
    EXPECT_LT(s.up, 1e-3f) << hz << " Hz";
    EXPECT_LT(s.down, 1e-3f) << hz << " Hz";
    EXPECT_GT(s.up, -0.05f) << hz << " Hz: the target pulls the head up to its limit";
    EXPECT_LT(s.turn, 8.0f * 1.01f) << hz << " Hz: faster than maxSpeed";
  }
}

TEST(LookAtWalk, TightLimitsHoldToo) {
  for (int hz : {30, 60, 240}) {
    const Stats s = Walk(hz, 0.4f, 0.2f, 0.2f, 8.0f);
    EXPECT_LT(s.yaw, 1e-3f) << hz << " Hz";
    EXPECT_LT(s.up, 1e-3f) << hz << " Hz";
    EXPECT_LT(s.down, 1e-3f) << hz << " Hz";
    EXPECT_LT(s.turn, 8.0f * 1.01f) << hz << " Hz: faster than maxSpeed";
  }
}

}  // namespace
