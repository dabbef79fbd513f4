// The avatar's scripted 60-second tracking session (docs/rig/avatar.md,
// "Tests"), one timeline for every test that runs it: twice over 30 s, the
// upper body's phases (avatar_test_util.h's Script: look around, a 90° head
// turn, crouch, reach forward, overhead and to the sides, hands behind the
// head, behind the back, out of reach) and then the user walking: 20–24.5 s
// 1.5 m forward, 25–26.5 s a 0.5 m side step to the left, at 27 s a 90°
// snap turn to the left (the root turns about the user within one 30 Hz
// frame); the second half walks back, side-steps right and snap-turns back.
// The root carries the walk (docs/rig/avatar.md, "Steps": the app moves the
// root with the user), so the targets' script is the same about it.
#pragma once

#include <algorithm>
#include <vector>

#include "native/avatar_test_util.h"

namespace avatartest {

constexpr float kSessionLength = 60.0f, kHalf = 30.0f;
constexpr float kWalk = 20.0f, kSideStep = 25.0f, kSideStepEnd = 26.5f, kSnap = 27.0f;  // the first half's, +30 s the second's

// The user's place in the play space (before the snap turns).
inline glm::vec3 Walked(float t) {
  const float forward = 1.5f * (Ease(t, kWalk, kWalk + 4.5f) - Ease(t, kHalf + kWalk, kHalf + kWalk + 4.5f));
  const float left = 0.5f * (Ease(t, kSideStep, kSideStepEnd) - Ease(t, kHalf + kSideStep, kHalf + kSideStepEnd));
  return glm::vec3(left, 0.0f, forward);
}

// A turn by `angle` about up through `pivot` (model).
inline LocalTransform TurnAbout(const glm::vec3& pivot, float angle) {
  LocalTransform out;
  out.rotation = glm::angleAxis(angle, glm::vec3(0, 1, 0));
  out.translation = pivot - out.rotation * pivot;
  return out;
}

inline LocalTransform Then(const LocalTransform& a, const LocalTransform& b) {
  LocalTransform out;
  out.rotation = glm::normalize(a.rotation * b.rotation);
  out.translation = a.translation + a.rotation * b.translation;
  return out;
}

// Fraction of the snap turn done at t: all of it within the 30 Hz frame ending at `at`.
inline float Snapped(float t, float at) { return std::clamp((t - (at - 1.0f / 30.0f)) * 30.0f, 0.0f, 1.0f); }

// The root at time t: `base`, then each snap turn about where the user stands.
inline LocalTransform SessionRoot(float t, const LocalTransform& base) {
  const float quarter = 1.5707963f;
  LocalTransform root = Then(base, TurnAbout(Walked(kSnap), quarter * Snapped(t, kSnap)));
  return Then(root, TurnAbout(Walked(kHalf + kSnap), -quarter * Snapped(t, kHalf + kSnap)));
}

struct SessionFrame {
  LocalTransform root;
  Targets targets;  // world
};

inline SessionFrame Session(float t, const LocalTransform& base, const std::vector<rigtest::World>& restWorld) {
  SessionFrame out;
  out.root = SessionRoot(t, base);
  out.root.translation += out.root.rotation * Walked(t);  // the app carries the root with the user
  out.targets = Script(t, out.root, restWorld, t < kHalf ? t : t - kHalf);
  return out;
}

}  // namespace avatartest
