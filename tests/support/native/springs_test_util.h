// The springs tests' character (docs/rig/springs.md): body 0 → neck 1 → head 2
// → a 30 cm hair chain of six 5 cm bones (joints 3..9, 9 its end) hanging
// back from the head; a scripted head motion (turns, nods, a jump, a 2 m
// teleport of the body), and the rig's joints' world positions.
#pragma once

#include <cmath>
#include <vector>

#include "native/rig_test_util.h"

namespace springtest {

using namespace rigtest;

constexpr int kHairRoot = 3, kHairEnd = 9;
constexpr float kSegment = 0.05f;

inline ChainRig Head() {
  ChainRig c;
  c.parents = {-1, 0, 1, 2, 3, 4, 5, 6, 7, 8};
  c.rest = {At({0.0f, 1.0f, 0.0f}), At({0.0f, 0.45f, 0.0f}), At({0.0f, 0.1f, 0.0f}), At({0.0f, 0.1f, -0.09f})};
  const glm::vec3 down = glm::normalize(glm::vec3(0.0f, -0.6f, -0.8f)) * kSegment;
  for (int k = 4; k <= kHairEnd; ++k) c.rest.push_back(At(down));
  return c;
}

// The animated locals at time t (seconds): the head turns and nods, the body
// jumps at t in [1, 1.6] and is teleported 2 m along x from t = 2.5.
inline std::vector<LocalTransform> HeadPose(const ChainRig& c, double t) {
  std::vector<LocalTransform> pose = c.rest;
  constexpr double kPi = 3.141592653589793;
  const double yaw = 0.7 * std::sin(2.0 * kPi * 0.5 * t), pitch = 0.3 * std::sin(2.0 * kPi * 0.8 * t + 0.3);
  pose[2].rotation = glm::angleAxis(static_cast<float>(yaw), glm::vec3(0, 1, 0)) * glm::angleAxis(static_cast<float>(pitch), glm::vec3(1, 0, 0));
  pose[1].rotation = glm::angleAxis(static_cast<float>(0.1 * std::sin(2.0 * kPi * 0.4 * t)), glm::vec3(0, 0, 1));
  const double jump = t > 1.0 && t < 1.6 ? 0.3 * std::sin(kPi * (t - 1.0) / 0.6) : 0.0;
  pose[0].translation += glm::vec3(t >= 2.5 ? 2.0f : 0.0f, static_cast<float>(jump), 0.0f);
  return pose;
}

// A springs constraint over the hair: center the neck (head's parent; or
// `centerJoint`, e.g. 2 the head itself), VRM's defaults.
inline ConstraintSettings Hair(bool center = true, int centerJoint = 1) {
  ConstraintSettings s = ikpd::rig::DefaultSettings(ConstraintKind::kSprings);
  if (center) s.joints = {centerJoint};
  for (int j = kHairRoot; j <= kHairEnd; ++j) s.legs.push_back(j);
  s.springChains = {kHairEnd - kHairRoot + 1};
  return s;
}

// World positions of every joint after each frame of `rate` Hz over `seconds`,
// every `every`-th frame kept (a rig with `s` on the character).
inline std::vector<std::vector<glm::vec3>> Simulate(const ConstraintSettings& s, int rate, double seconds, int every) {
  const ChainRig c = Head();
  Rig rig = MakeRig(c);
  EXPECT_TRUE(rig.Add(s).ok());
  std::vector<std::vector<glm::vec3>> kept;
  std::vector<LocalTransform> out(c.rest.size());
  const int frames = static_cast<int>(std::lround(seconds * rate));
  for (int k = 0; k <= frames; ++k) {  // frame 0 (dt 0): the tails start where the pose at t = 0 puts them
    const std::vector<LocalTransform> in = HeadPose(c, static_cast<double>(k) / rate);
    EXPECT_TRUE(rig.Update(k == 0 ? 0.0f : 1.0f / static_cast<float>(rate), in, {}, out).ok());
    if (k == 0 || k % every != 0) continue;
    std::vector<glm::vec3> p;
    for (const World& w : Fk(c.parents, out)) p.push_back(w.position);
    kept.push_back(p);
  }
  return kept;
}

}  // namespace springtest
