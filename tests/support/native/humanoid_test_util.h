// A small standard humanoid (metres, Y up, facing +Z) for the full-body rig
// tests: spine pelvis, spine ×3, neck, head; arms hanging; legs slightly bent.
#pragma once

#include <array>
#include <cmath>
#include <span>

#include <glm/gtc/quaternion.hpp>

#include "ikpd/ikpd.h"
#include "native/chain_test_util.h"

namespace humanoid {

constexpr std::size_t kSpine = 6;  // pelvis, spine, spine1, chest, neck, head
constexpr std::size_t kChest = 3;
constexpr std::size_t kHead = 5;

// World joints of one pose, in the order BodyLookAt takes them.
struct Pose {
  std::array<ikpd::Transform, kSpine> spine;
  std::array<ikpd::Transform, 6> arms;  // left upper, lower, hand; right upper, lower, hand
  std::array<ikpd::Transform, 6> legs;  // left hip, knee, ankle; right hip, knee, ankle
};

// Rest pose. Every joint's world rotation is `frames[i]` (identity by default),
// so tests can check that bone axes do not matter.
inline Pose RestPose() {
  Pose p;
  const float spineY[kSpine] = {1.0f, 1.1f, 1.22f, 1.35f, 1.5f, 1.6f};
  for (std::size_t i = 0; i < kSpine; ++i) p.spine[i].position = {0.0f, spineY[i], 0.0f};
  for (int side = 0; side < 2; ++side) {
    const float s = side == 0 ? 1.0f : -1.0f;
    const std::size_t a = static_cast<std::size_t>(side) * 3;
    p.arms[a + 0].position = {0.18f * s, 1.45f, 0.0f};
    p.arms[a + 1].position = {0.21f * s, 1.17f, -0.02f};
    p.arms[a + 2].position = {0.23f * s, 0.92f, 0.03f};
    p.legs[a + 0].position = {0.1f * s, 0.95f, 0.0f};
    p.legs[a + 1].position = {0.11f * s, 0.52f, 0.04f};
    p.legs[a + 2].position = {0.12f * s, 0.08f, -0.01f};
  }
  return p;
}

// A procedural idle (t in seconds): the upper body sways about the pelvis; the
// pelvis and legs hold still.
inline Pose IdlePose(float t) {
  Pose p = RestPose();
  const glm::quat sway = glm::angleAxis(0.05f * std::sin(1.3f * t), glm::vec3(0, 0, 1)) *
                         glm::angleAxis(0.03f * std::sin(0.9f * t), glm::vec3(1, 0, 0));
  const glm::vec3 pelvis = p.spine[0].position;
  for (std::size_t i = 1; i < kSpine; ++i) p.spine[i] = {pelvis + sway * (p.spine[i].position - pelvis), sway};
  for (ikpd::Transform& j : p.arms) j = {pelvis + sway * (j.position - pelvis), sway};
  return p;
}

// The same pose with every joint's world rotation replaced by rotation·frame
// (a different bone-axis convention for the same skeleton).
inline Pose Reframed(Pose p, unsigned seed) {
  chaintest::Rng rng(seed);
  for (ikpd::Transform& j : p.spine) j.rotation = j.rotation * rng.Rotation();
  for (ikpd::Transform& j : p.arms) j.rotation = j.rotation * rng.Rotation();
  for (ikpd::Transform& j : p.legs) j.rotation = j.rotation * rng.Rotation();
  return p;
}

// Output buffers for one Update.
struct Solved {
  Pose pose;
  ikpd::BodyLookAtOutput View() { return {pose.spine, pose.arms, pose.legs}; }
};

inline ikpd::BodyLookAtInput InputOf(const Pose& p, const glm::vec3& target, bool enabled = true) {
  return {p.spine, p.arms, p.legs, target, enabled};
}

// Rotation angle between two unit quaternions (radians, [0, π]).
inline float AngleBetween(const glm::quat& a, const glm::quat& b) {
  const glm::quat d = glm::conjugate(glm::normalize(a)) * glm::normalize(b);
  return 2.0f * std::atan2(glm::length(glm::vec3(d.x, d.y, d.z)), std::abs(d.w));
}

}  // namespace humanoid
