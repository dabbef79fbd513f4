// A VRM-proportioned humanoid (metres, Y up, facing +Z, T-pose rest, 1.6 m)
// for the avatar constraint's tests, its animated idle (arms down, elbows
// bent) and a scripted tracking session: look around, turn, crouch, reach
// forward, overhead and to the side, hands behind the head.
#pragma once

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include "native/rig_test_util.h"

namespace avatartest {

using rigtest::LocalTransform;

// Joints: 0 root, 1 hips, 2 spine, 3 chest, 4 upperChest, 5 neck, 6 head,
// 7–10 left shoulder, upper arm, lower arm, hand; 11–14 right; 15–17 left
// upper leg, lower leg, foot; 18–20 right.
enum : int { kHips = 1, kNeck = 5, kHead = 6, kLeftShoulder = 7, kLeftUpper = 8, kLeftLower = 9, kLeftHand = 10,
             kRightShoulder = 11, kRightUpper = 12, kRightLower = 13, kRightHand = 14, kLeftFoot = 17, kRightFoot = 20 };
constexpr int kJoints = 21;

inline std::vector<int> Parents() {
  return {-1, 0, 1, 2, 3, 4, 5, 4, 7, 8, 9, 4, 11, 12, 13, 1, 15, 16, 1, 18, 19};
}

// The rest pose: every rest rotation `frame(i)` (identity by default), so a
// test can give the bones any axes; the translations put the joints where a
// VRM T-pose has them whatever the frames.
inline std::vector<LocalTransform> Rest(bool framed = false) {
  const glm::vec3 world[kJoints] = {
      {0, 0, 0},         {0, 0.95f, 0},      {0, 1.05f, 0},       {0, 1.17f, 0},       {0, 1.30f, 0},
      {0, 1.44f, 0},     {0, 1.54f, 0},      {0.03f, 1.40f, 0},   {0.12f, 1.40f, 0},   {0.38f, 1.40f, 0},
      {0.62f, 1.40f, 0}, {-0.03f, 1.40f, 0}, {-0.12f, 1.40f, 0},  {-0.38f, 1.40f, 0},  {-0.62f, 1.40f, 0},
      {0.08f, 0.89f, 0}, {0.08f, 0.48f, 0.015f}, {0.08f, 0.08f, -0.01f}, {-0.08f, 0.89f, 0}, {-0.08f, 0.48f, 0.015f},
      {-0.08f, 0.08f, -0.01f}};
  const std::vector<int> parents = Parents();
  std::vector<glm::quat> rotation(kJoints, glm::quat(1, 0, 0, 0));
  if (framed) {
    iktest::Rng rng(7);
    for (glm::quat& q : rotation) q = rng.Rotation();
  }
  std::vector<LocalTransform> rest(kJoints);
  for (int i = 0; i < kJoints; ++i) {
    const int p = parents[static_cast<std::size_t>(i)];
    const glm::quat pr = p >= 0 ? rotation[static_cast<std::size_t>(p)] : glm::quat(1, 0, 0, 0);
    const glm::vec3 pp = p >= 0 ? world[p] : glm::vec3(0.0f);
    rest[static_cast<std::size_t>(i)].translation = glm::conjugate(pr) * (world[i] - pp);
    rest[static_cast<std::size_t>(i)].rotation = glm::normalize(glm::conjugate(pr) * rotation[static_cast<std::size_t>(i)]);
  }
  return rest;
}

// The animated idle at time t: arms down and the elbows a little bent (each
// turn applied in the model frame, so the rest frames do not matter), a
// slight sway of the spine.
inline std::vector<LocalTransform> Animated(const std::vector<LocalTransform>& rest, float t) {
  std::vector<LocalTransform> pose = rest;
  const auto turn = [&](int joint, const glm::quat& model) {  // turn a joint by a model-space rotation at rest
    std::vector<rigtest::World> w = rigtest::Fk(Parents(), rest);
    const glm::quat r = w[static_cast<std::size_t>(joint)].rotation;
    pose[static_cast<std::size_t>(joint)].rotation = glm::normalize(rest[static_cast<std::size_t>(joint)].rotation * glm::conjugate(r) * model * r);
  };
  turn(kLeftUpper, glm::angleAxis(-1.2f, glm::vec3(0, 0, 1)));
  turn(kRightUpper, glm::angleAxis(1.2f, glm::vec3(0, 0, 1)));
  turn(kLeftLower, glm::angleAxis(-0.3f, glm::vec3(0, 1, 0)));
  turn(kRightLower, glm::angleAxis(0.3f, glm::vec3(0, 1, 0)));
  turn(2, glm::angleAxis(0.03f * std::sin(1.3f * t), glm::vec3(0, 0, 1)));
  return pose;
}

// The avatar constraint on this skeleton (the common settings' defaults).
inline rigtest::ConstraintSettings Settings() {
  rigtest::ConstraintSettings s = ikpd::rig::DefaultSettings(rigtest::ConstraintKind::kAvatar);
  s.joints = {1, 2, 3, 4, 5, 6};
  s.arms = {7, 8, 9, 10, 11, 12, 13, 14};
  s.legs = {15, 16, 17, 18, 19, 20};
  return s;
}

// The scripted session's targets at time t (world; the root at `root`),
// around the animated head and hands: 0–2 s look around, 2–4 s turn 90°,
// 4–6 s crouch 0.3 m, 6–8 s reach forward, 8–10 s overhead and to the sides,
// 10–12 s hands behind the head. Hand rotations turn the rest hand's frame
// with the arm's direction and roll it about the arm.
struct Targets {
  ikpd::rig::TargetPose head, hands[2];
};
constexpr float kSession = 12.0f;

// The rotation between two quaternions, radians in [0, π] (either sign of each).
inline float RotationAngle(const glm::quat& a, const glm::quat& b) {
  const glm::quat d = glm::conjugate(glm::normalize(a)) * glm::normalize(b);
  return 2.0f * std::atan2(glm::length(glm::vec3(d.x, d.y, d.z)), std::abs(d.w));
}

inline float Ease(float t, float a, float b) {  // 0 before a, 1 after b, smooth between
  const float x = std::clamp((t - a) / (b - a), 0.0f, 1.0f);
  return x * x * (3.0f - 2.0f * x);
}

inline glm::quat Swing(const glm::vec3& from, const glm::vec3& to) {
  const glm::vec3 a = glm::normalize(from), b = glm::normalize(to);
  const float d = glm::dot(a, b);
  const glm::vec3 c = glm::cross(a, b);
  return glm::normalize(glm::quat(1.0f + d, c.x, c.y, c.z));
}

// `phase` (default t) times the phases; the slow waves run on t. Past 12 s:
// 12–15.5 s hands behind the back, 16–19.5 s hands reaching out of reach
// (forward and out), all back by 20 s.
inline Targets Script(float t, const LocalTransform& root, const std::vector<rigtest::World>& restWorld, float phase = -1.0f) {
  Targets out;
  const glm::vec3 up(0, 1, 0);
  const float p = phase >= 0.0f ? phase : t;
  const float yaw = 0.6f * std::sin(3.14159265f * p) * (1.0f - Ease(p, 1.5f, 2.0f)) + 1.5707963f * Ease(p, 2.0f, 4.0f) * (1.0f - Ease(p, 11.0f, 12.0f));
  const float pitch = 0.25f * std::sin(2.0f * t);
  const float crouch = 0.3f * Ease(p, 4.0f, 5.0f) * (1.0f - Ease(p, 5.5f, 6.5f));
  const float lean = 0.15f * Ease(p, 6.0f, 7.0f) * (1.0f - Ease(p, 7.5f, 8.5f));
  const glm::quat body = glm::angleAxis(yaw * 0.5f, up);  // the body's heading: half the head's turn
  const glm::quat headTurn = glm::angleAxis(yaw, up) * glm::angleAxis(pitch, glm::vec3(1, 0, 0));
  const glm::vec3 headAt = glm::vec3(0.0f, 1.52f - crouch, 0.05f * std::sin(0.7f * t) + lean + 0.1f * crouch);
  const auto world = [&](const glm::vec3& model) { return root.translation + root.rotation * model; };
  out.head = {world(body * headAt), glm::normalize(root.rotation * headTurn * restWorld[kHead].rotation), 1.0f};
  for (int side = 0; side < 2; ++side) {
    const float s = side == 0 ? 1.0f : -1.0f;
    const glm::vec3 shoulder(0.12f * s, 1.38f - crouch, lean);
    // Positions relative to the shoulder, blended through the session's phases.
    glm::vec3 rel = glm::vec3(0.15f * s, -0.32f, 0.15f) + glm::vec3(0.05f * s, 0.04f, 0.05f) * std::sin(1.7f * t + s);
    rel = glm::mix(rel, glm::vec3(0.08f * s, -0.05f, 0.36f), Ease(p, 6.0f, 7.0f) * (1.0f - Ease(p, 7.5f, 8.0f)));
    rel = glm::mix(rel, glm::vec3(0.25f * s, 0.38f, 0.08f), Ease(p, 8.0f, 8.8f) * (1.0f - Ease(p, 9.0f, 9.5f)));
    rel = glm::mix(rel, glm::vec3(0.45f * s, 0.02f, 0.0f), Ease(p, 9.3f, 9.8f) * (1.0f - Ease(p, 9.8f, 10.2f)));
    const float behindHead = Ease(p, 9.9f, 11.0f) * (1.0f - Ease(p, 11.0f, 11.9f));  // 1.1 s in, 0.9 s out
    rel = glm::mix(rel, glm::vec3(-0.06f * s, 0.2f, -0.14f), behindHead);
    rel += glm::vec3(0.3f * s, 0.1f, 0.25f) * (4.0f * behindHead * (1.0f - behindHead));  // around the shoulder, not through it
    rel = glm::mix(rel, glm::vec3(0.04f * s, -0.4f, -0.16f), Ease(p, 12.0f, 13.0f) * (1.0f - Ease(p, 14.5f, 15.5f)));
    rel = glm::mix(rel, glm::vec3(0.3f * s, 0.1f, 0.75f), Ease(p, 16.0f, 17.0f) * (1.0f - Ease(p, 18.5f, 19.5f)));
    const glm::vec3 hand = shoulder + rel;
    const int joint = side == 0 ? kLeftHand : kRightHand;
    const glm::quat roll = glm::angleAxis(0.5f * std::sin(1.1f * t), glm::vec3(s, 0, 0));
    const glm::quat turn = Swing(glm::vec3(s, 0, 0), rel + glm::vec3(0.2f * s, 0.0f, 0.0f)) * roll;  // from inside the shoulder: never a null direction
    out.hands[side] = {world(body * hand), glm::normalize(root.rotation * body * turn * restWorld[joint].rotation), 1.0f};
  }
  return out;
}

// A foot's path (world, per frame) cut into planted runs (frames that moved
// less than `still` from the one before) and the steps between them.
struct Planted {
  float slide = 0.0f;  // the most a foot moved within a planted run from where the run began
  float at = 0.0f;     // the frame's index of that
  int steps = 0;       // the moving runs
};
inline Planted PlantedRuns(const std::vector<glm::vec3>& path, float still = 5e-4f) {
  Planted out;
  std::size_t start = 0;
  bool moving = false;
  for (std::size_t f = 1; f < path.size(); ++f) {
    if (glm::length(path[f] - path[f - 1]) >= still) {
      if (!moving) ++out.steps;
      moving = true;
      continue;
    }
    if (moving) start = f - 1, moving = false;  // a run begins where the step ended
    const float slide = glm::length(path[f] - path[start]);
    if (slide > out.slide) out.slide = slide, out.at = static_cast<float>(f);
  }
  return out;
}

// The humanoid (Rest(framed)) and a rig on it with `s` added; failures are the
// test's. Kept in place (the rig refers to its skeleton).
struct AvatarRig {
  std::vector<int> parents = Parents();
  std::vector<LocalTransform> rest;
  std::vector<rigtest::World> restWorld;
  rigtest::Skeleton skeleton;
  rigtest::Rig rig;
  explicit AvatarRig(const rigtest::ConstraintSettings& s = Settings(), bool framed = false)
      : rest(Rest(framed)), restWorld(rigtest::Fk(parents, rest)) {
    EXPECT_TRUE(skeleton.Init(parents).ok());
    EXPECT_TRUE(rig.Init(skeleton, rest).ok());
    const ikpd::Status added = rig.Add(s);
    EXPECT_TRUE(added.ok()) << added.error;
  }
  AvatarRig(const AvatarRig&) = delete;
  AvatarRig& operator=(const AvatarRig&) = delete;

  // One frame with the head and hands where the script has them at rest
  // (Script at 0), carried with `root`: the rig's Update into `solved`.
  void Carried(float dt, const std::vector<LocalTransform>& in, const LocalTransform& root, std::vector<LocalTransform>& solved) {
    const Targets targets = Script(0.0f, root, restWorld);
    rig.targets()[0] = targets.head, rig.targets()[1] = targets.hands[0], rig.targets()[2] = targets.hands[1];
    const ikpd::Status updated = rig.Update(dt, in, root, solved);
    EXPECT_TRUE(updated.ok()) << updated.error;
  }
};

// `make(rate)`'s result, made once per rate for every test that asks (one cache per call site).
template <typename T, typename Make>
const T& PerRate(int rate, Make make) {
  static std::map<int, T> runs;
  auto it = runs.find(rate);
  if (it == runs.end()) it = runs.emplace(rate, make(rate)).first;
  return it->second;
}

// Two poses bit for bit equal.
inline bool SamePose(const std::vector<LocalTransform>& a, const std::vector<LocalTransform>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(LocalTransform)) == 0;
}

// One target spoiled one way, and the error Update must give for it.
struct SpoiledTarget {
  int target;
  void (*spoil)(ikpd::rig::TargetPose&);
  const char* message;
};

// For each case: aim() sets every target good again, the case spoils one,
// and Update must fail with its message and leave `out` as it was.
template <typename Aim>
void ExpectSpoiledTargetsNamed(rigtest::Rig& rig, Aim aim, const std::vector<LocalTransform>& in, std::vector<LocalTransform>& out,
                               std::initializer_list<SpoiledTarget> cases) {
  const std::vector<LocalTransform> before = out;
  for (const SpoiledTarget& c : cases) {
    aim();
    c.spoil(rig.targets()[static_cast<std::size_t>(c.target)]);
    const ikpd::Status st = rig.Update(1.0f / 60.0f, in, LocalTransform{}, out);
    EXPECT_FALSE(st.ok()) << c.message;
    EXPECT_EQ(std::string(st.ok() ? "" : st.error), c.message);
    EXPECT_TRUE(SamePose(out, before)) << c.message;
  }
}

}  // namespace avatartest
