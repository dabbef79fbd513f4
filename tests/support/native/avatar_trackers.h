// A scripted full-body tracking session (docs/rig/avatar.md, "Full-body
// trackers") on the VRM-proportioned humanoid (avatar_test_util.h): a user
// with the avatar's proportions crouches (1–3 s), lunges (3–5 s), kicks
// (5–7 s), lifts a knee (7–9 s) and walks 0.8 m (9–12 s), looking around
// and swinging the arms; the six trackers (head, hands, pelvis, feet) are
// where that user's bones are, so every target is reachable.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "native/avatar_test_util.h"

namespace avatartest {

constexpr float kTrackersLength = 12.0f;
constexpr float kWalkStart = 9.0f, kWalkEnd = 12.0f;

// 1 within [a, b], easing in and out over 0.5 s at each end.
inline float Bump(float t, float a, float b) { return Ease(t, a, a + 0.5f) * (1.0f - Ease(t, b - 0.5f, b)); }

// The user's pose at time t (locals of the humanoid): each turn in the
// model frame at rest (as Animated's), the hips lowered so the lower foot
// stays on the floor.
inline std::vector<LocalTransform> User(const std::vector<LocalTransform>& rest, float t) {
  std::vector<LocalTransform> pose = rest;
  const std::vector<int> parents = Parents();
  const std::vector<rigtest::World> restWorld = rigtest::Fk(parents, rest);
  const auto turn = [&](int joint, const glm::quat& model) {
    const glm::quat r = restWorld[static_cast<std::size_t>(joint)].rotation;
    pose[static_cast<std::size_t>(joint)].rotation = glm::normalize(rest[static_cast<std::size_t>(joint)].rotation * glm::conjugate(r) * model * r);
  };
  const glm::vec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
  const float crouch = Bump(t, 1.0f, 3.0f), lunge = Bump(t, 3.0f, 5.0f), kick = Bump(t, 5.0f, 7.0f), knee = Bump(t, 7.0f, 9.0f);
  const float walk = Ease(t, kWalkStart, kWalkStart + 0.5f) * (1.0f - Ease(t, kWalkEnd - 0.7f, kWalkEnd - 0.2f));
  const float stride = walk * std::sin(2.0f * 3.14159265f * 0.9f * (t - kWalkStart));
  // Legs: a thigh's swing forward is a turn about −x, a knee's bend about +x.
  const float leftThigh = -0.9f * crouch - 0.9f * lunge - 1.4f * knee + 0.35f * stride;
  const float leftShin = 1.7f * crouch + 1.1f * lunge + 1.6f * knee + 0.5f * walk * std::max(0.0f, -stride) + 0.1f * walk;
  const float rightThigh = -0.9f * crouch + 0.35f * lunge - 1.1f * kick - 0.35f * stride;
  const float rightShin = 1.7f * crouch + 0.6f * lunge + 0.25f * kick + 0.5f * walk * std::max(0.0f, stride) + 0.1f * walk;
  turn(15, glm::angleAxis(leftThigh, x) * glm::angleAxis(0.05f * crouch, z));
  turn(16, glm::angleAxis(leftShin, x));
  turn(17, glm::angleAxis(-0.8f * crouch - 0.2f * lunge, x));
  turn(18, glm::angleAxis(rightThigh, x) * glm::angleAxis(-0.05f * crouch, z));
  turn(19, glm::angleAxis(rightShin, x));
  turn(20, glm::angleAxis(-0.8f * crouch - 0.3f * lunge + 0.3f * kick, x));
  // The spine leans forward evenly, the hips twist, the head looks around.
  const float lean = 0.12f * crouch + 0.05f * lunge - 0.04f * kick + 0.06f * knee + 0.04f * walk + 0.03f * std::sin(0.9f * t);
  for (int j : {2, 3, 4}) turn(j, glm::angleAxis(lean, x));
  turn(1, glm::angleAxis(0.25f * std::sin(0.6f * t), y));
  turn(6, glm::angleAxis(0.5f * std::sin(0.8f * t), y) * glm::angleAxis(0.2f * std::sin(1.3f * t), x));
  // Arms down, swinging, the elbows bent.
  const float swing = 0.4f * std::sin(1.5f * t) + 0.3f * stride;
  turn(8, glm::angleAxis(-1.2f, z) * glm::angleAxis(swing, x));
  turn(12, glm::angleAxis(1.2f, z) * glm::angleAxis(-swing, x));
  turn(9, glm::angleAxis(-0.9f - 0.3f * std::sin(1.1f * t), y));
  turn(13, glm::angleAxis(0.9f + 0.3f * std::sin(1.2f * t), y));
  // The hips: forward with the walk, then down until the lower foot is on the floor.
  pose[kHips].translation += glm::vec3(0.0f, 0.0f, 0.8f * Ease(t, kWalkStart, kWalkEnd - 0.2f) + 0.12f * lunge);
  const std::vector<rigtest::World> w = rigtest::Fk(parents, pose);
  const float lowest = std::min(w[kLeftFoot].position.y - restWorld[kLeftFoot].position.y,
                                w[kRightFoot].position.y - restWorld[kRightFoot].position.y);
  pose[kHips].translation.y -= lowest;
  return pose;
}

// The six trackers (world; the root at `root`), weight 1: where the user's head, hands, hips and feet are.
struct BodyTargets {
  ikpd::rig::TargetPose pose[6];  // rig/avatar.h's AvatarTarget order
};
inline BodyTargets Trackers(const std::vector<LocalTransform>& rest, float t, const LocalTransform& root) {
  const std::vector<rigtest::World> w = rigtest::Fk(Parents(), User(rest, t), root);
  BodyTargets out;
  const int joints[6] = {kHead, kLeftHand, kRightHand, kHips, kLeftFoot, kRightFoot};
  for (int k = 0; k < 6; ++k) {
    const rigtest::World& j = w[static_cast<std::size_t>(joints[k])];
    out.pose[k] = {j.position, j.rotation, 1.0f};
  }
  return out;
}

}  // namespace avatartest
