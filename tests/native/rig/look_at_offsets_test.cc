// Look-at stage 1, the desired offsets (docs/rig/look-at.md, "Stage 1"),
// against the stage as the page states it: a working copy of the pose turned
// joint by joint (the arc from the head's look axis to the aim, its slerped
// share, clamped in the joint's frame, every joint from i to the head turned
// about joint i), over random chains, weights, limits, eye offsets and
// targets, with and without the yaw/pitch limits. LookAt computes the same
// offsets another way (the goal moved back instead of the pose forward); the
// two agree to float rounding.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "../../../cpp/src/ik/chain/rotation.h"
#include "../../../cpp/src/rig/look_frame.h"
#include "ikpd/ikpd.h"
#include "native/chain_test_util.h"

namespace {

using ikpd::kPi;
using ikpd::LookAt;
using ikpd::LookAtSettings;
using ikpd::Transform;
namespace look = ikpd::look_detail;

const glm::quat kIdentity(1.0f, 0.0f, 0.0f, 0.0f);

glm::quat ClampAngle(const glm::quat& q, float limit) {
  const glm::quat p = ikpd::chain_detail::Positive(q);
  if (limit >= kPi) return p;
  const float angle = ikpd::chain_detail::AngleOf(p);
  if (angle <= limit) return p;
  return glm::normalize(glm::slerp(kIdentity, p, limit / angle));
}

// n joints of a random chain (rotations need not be unit), bones 0.05 to 0.3
// long; `reach`: their total length.
std::vector<Transform> RandomJoints(chaintest::Rng& rng, std::size_t n, float* reach = nullptr) {
  std::vector<Transform> joints(n);
  glm::vec3 p = 3.0f * rng.Direction();
  for (Transform& joint : joints) {
    joint = {p, rng.Uniform(0.5f, 2.0f) * rng.Rotation()};
    const float bone = rng.Uniform(0.05f, 0.3f);
    if (reach != nullptr) *reach += bone;
    p += bone * rng.Direction();
  }
  return joints;
}

// A random look axis, up, eye offset (every fourth trial) and yaw/pitch
// limits (open without them), drawn in that order.
void RandomAxesAndLimits(chaintest::Rng& rng, int trial, bool yawPitchLimits, LookAtSettings& s) {
  s.forward = rng.Direction();
  s.up = rng.Direction();
  if (trial % 4 == 1) s.offset = 0.1f * rng.Direction();
  if (!yawPitchLimits) {
    s.maxYaw = kPi;
    s.maxPitchUp = s.maxPitchDown = kPi / 2.0f;
  } else {
    s.maxYaw = rng.Uniform(0.3f, 3.0f);
    s.maxPitchUp = rng.Uniform(0.1f, 1.5f);
    s.maxPitchDown = rng.Uniform(0.1f, 1.5f);
  }
}

// The head's turn putting the ray from its eye point along forward through goal.
glm::quat EyeTurn(const Transform& head, const glm::vec3& forward, const glm::vec3& eye, const glm::vec3& goal) {
  glm::quat solved = head.rotation;
  ikpd::AimJob job;
  job.frame.position = head.position;
  job.frame.rotation = head.rotation;
  job.frame.target = goal;
  job.settings.forward = forward;
  job.settings.method = ikpd::AimMethod::kShortestArc;
  job.settings.offset = eye;
  job.result = &solved;
  if (!job.Run()) return kIdentity;
  return glm::normalize(solved * glm::conjugate(head.rotation));
}

// The goal kept inside the yaw/pitch limits as seen from `eye`; `side`: the side 'keep' holds at.
glm::vec3 LimitedGoal(const LookAtSettings& s, const look::Frame& frame, const glm::vec3& eye, const glm::vec3& goal,
                      float fixedYaw, float side) {
  const glm::vec3 d = goal - eye;
  const float length = glm::length(d);
  if (!(length > 0.0f)) return goal;
  const float pitch = look::PitchOf(frame, d), goalYaw = look::YawOf(frame, d);
  float yaw = std::isnan(fixedYaw) ? goalYaw : fixedYaw;
  if (std::abs(yaw) > s.maxYaw) yaw = (side != 0.0f ? side : yaw >= 0.0f ? 1.0f : -1.0f) * s.maxYaw;
  const float limitedPitch = std::clamp(pitch, -s.maxPitchDown, s.maxPitchUp);
  if (yaw == goalYaw && limitedPitch == pitch) return goal;
  return eye + length * look::DirectionOf(frame, yaw, limitedPitch);
}

// Stage 1 of the first update after a reset, as docs/rig/look-at.md states it.
std::vector<glm::quat> Reference(const LookAtSettings& s, const std::vector<Transform>& joints, const glm::vec3& target) {
  const std::size_t n = joints.size();
  const glm::dvec3 origin(joints[n - 1].position);
  double extent = glm::length(glm::dvec3(target) - origin);
  for (const Transform& j : joints) extent = std::max(extent, glm::length(glm::dvec3(j.position) - origin));
  const double scale = extent > 0.0 ? extent : 1.0;
  auto local = [&](const glm::vec3& p) { return glm::vec3((glm::dvec3(p) - origin) / scale); };
  std::vector<Transform> work(n);
  for (std::size_t i = 0; i < n; ++i) work[i] = {local(joints[i].position), glm::normalize(joints[i].rotation)};
  const glm::vec3 forward = glm::normalize(s.forward), eyeLocal(glm::dvec3(s.offset) / scale);
  const glm::vec3 goal = local(target);
  const look::Frame frame = look::FrameOf(work[n - 1].rotation * forward, glm::normalize(s.up));
  // The first update aims at the target inside maxYaw, else holds at the limit on its side.
  const float yaw0 = look::YawOf(frame, goal - (work[n - 1].position + work[n - 1].rotation * eyeLocal));
  const float side = yaw0 == 0.0f ? 0.0f : yaw0 > 0.0f ? 1.0f : -1.0f;
  const float fixedYaw = std::abs(yaw0) <= s.maxYaw ? NAN : (yaw0 >= 0.0f ? 1.0f : -1.0f) * s.maxYaw;
  std::vector<glm::quat> desired(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Transform& head = work[n - 1];
    const glm::vec3 eye = head.position + head.rotation * eyeLocal;
    const glm::vec3 aim = LimitedGoal(s, frame, eye, goal, fixedYaw, side);
    const glm::quat turn = s.offset != glm::vec3(0.0f) ? EyeTurn(head, forward, eyeLocal, aim)
                                                       : ikpd::chain_detail::Arc(head.rotation * forward, aim - head.position);
    glm::quat delta = glm::normalize(glm::slerp(kIdentity, turn, s.weights[i]));
    const glm::quat r = work[i].rotation;
    desired[i] = ClampAngle(glm::conjugate(r) * delta * r, s.limits.empty() ? kPi : s.limits[i]);
    delta = glm::normalize(r * desired[i] * glm::conjugate(r));
    const glm::vec3 pivot = work[i].position;
    for (std::size_t j = i; j < n; ++j) {
      work[j] = {pivot + delta * (work[j].position - pivot), glm::normalize(delta * work[j].rotation)};
    }
  }
  return desired;
}

// Random chains, settings and targets; the largest angles between LookAt's
// desired offsets and the reference's.
struct Largest {
  float elsewhere = 0.0f, nearHalfTurn = 0.0f;
};
Largest LargestDifference(bool yawPitchLimits, unsigned seed) {
  chaintest::Rng rng(seed);
  Largest worst;
  for (int trial = 0; trial < 400; ++trial) {
    const std::vector<Transform> joints = RandomJoints(rng, 2 + static_cast<std::size_t>(trial % 7));
    const std::size_t n = joints.size();
    std::vector<float> weights(n), limits(n);
    for (std::size_t i = 0; i < n; ++i) {
      const int kind = static_cast<int>(rng.Uniform(0.0f, 4.0f));
      weights[i] = kind == 0 ? 0.0f : kind == 1 ? 1.0f : rng.Uniform(0.0f, 1.0f);
      limits[i] = rng.Uniform(0.0f, 1.0f) < 0.3f ? kPi : rng.Uniform(0.0f, 2.0f);
    }
    weights[n - 1] = trial % 3 == 0 ? rng.Uniform(0.2f, 1.0f) : 1.0f;
    LookAtSettings s;
    s.weights = weights;
    if (trial % 2 == 0) s.limits = limits;
    RandomAxesAndLimits(rng, trial, yawPitchLimits, s);
    // Targets anywhere; every fifth about a hundredth off straight behind the
    // head (the arc near a half turn, where the inputs' rounding decides the
    // axis to about 1e-7 / 1e-2), every fifth exactly behind (a half turn about
    // any axis: only checked to be a unit quaternion).
    const Transform& head = joints[n - 1];
    const glm::vec3 look = glm::normalize(head.rotation) * glm::normalize(s.forward);
    glm::vec3 target = head.position + rng.Uniform(0.3f, 5.0f) * rng.Direction();
    if (trial % 5 == 3) target = head.position + rng.Uniform(0.3f, 5.0f) * glm::normalize(-look + 1e-2f * rng.Direction());
    if (trial % 5 == 4) target = head.position - rng.Uniform(0.3f, 5.0f) * look;
    LookAt lookAt;
    EXPECT_TRUE(lookAt.Reset(s).ok());
    std::vector<Transform> out(n);
    EXPECT_TRUE(lookAt.Update(1.0f / 60.0f, joints, target, true, out).ok());
    const std::vector<glm::quat> expected = Reference(s, joints, target);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_GE(lookAt.desired()[i].w, 0.0f);
      EXPECT_NEAR(glm::length(lookAt.desired()[i]), 1.0f, 1e-6f);
      if (trial % 5 == 4) continue;
      const float difference = chaintest::Angle(lookAt.desired()[i], expected[i]);
      float& largest = trial % 5 == 3 ? worst.nearHalfTurn : worst.elsewhere;
      largest = std::max(largest, difference);
    }
  }
  return worst;
}

TEST(LookAtOffsets, EqualTheStageAsDocumentedToRounding) {
  for (const bool limits : {false, true}) {
    const Largest worst = LargestDifference(limits, limits ? 12 : 11);
    std::printf("look-at desired offsets against the documented stage (%s yaw/pitch limits): %.2e rad, %.2e rad a hundredth off a half turn\n",
                limits ? "with" : "no", static_cast<double>(worst.elsewhere), static_cast<double>(worst.nearHalfTurn));
    EXPECT_LT(worst.elsewhere, 2e-5f);
    EXPECT_LT(worst.nearHalfTurn, 2e-4f);
  }
}

// Stage 3 as docs/rig/look-at.md states it: the animated pose plus offsets `o`
// by forward kinematics (no yaw/pitch clamp of the head).
std::vector<Transform> Posed(const std::vector<Transform>& animated, const std::vector<glm::quat>& o) {
  const std::size_t n = animated.size();
  std::vector<Transform> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const glm::dquat a = glm::normalize(glm::dquat(animated[i].rotation));
    if (i == 0) {
      out[0] = {animated[0].position, glm::quat(glm::normalize(a * glm::dquat(o[0])))};
      continue;
    }
    const glm::dquat parentA = glm::normalize(glm::dquat(animated[i - 1].rotation)), parentF(out[i - 1].rotation);
    const glm::dquat carry = parentF * glm::conjugate(parentA);
    const glm::dvec3 bone = glm::dvec3(animated[i].position) - glm::dvec3(animated[i - 1].position);
    out[i] = {glm::vec3(glm::dvec3(out[i - 1].position) + carry * bone), glm::quat(glm::normalize(carry * a * glm::dquat(o[i])))};
  }
  return out;
}

// Still chains and still targets, stepped at random frame times until the PDs
// settle: the smoothed offsets come to the documented stage's desired offsets
// (the PDs' goal is a fixed point, at every dt) and the pose to its forward
// kinematics. Largest angle (rad) and position difference (chain lengths).
struct Converged {
  float offset = 0.0f, rotation = 0.0f, position = 0.0f;
};
Converged LargestConvergedDifference(bool yawPitchLimits, unsigned seed) {
  chaintest::Rng rng(seed);
  Converged worst;
  for (int trial = 0; trial < 240; ++trial) {
    float reach = 0.0f;
    const std::vector<Transform> joints = RandomJoints(rng, 2 + static_cast<std::size_t>(trial % 6), &reach);
    const std::size_t n = joints.size();
    std::vector<float> weights(n), limits(n), settle(n);
    for (std::size_t i = 0; i < n; ++i) {
      const int kind = static_cast<int>(rng.Uniform(0.0f, 4.0f));
      weights[i] = kind == 0 ? 0.0f : kind == 1 ? 1.0f : rng.Uniform(0.0f, 1.0f);
      limits[i] = rng.Uniform(0.0f, 1.0f) < 0.3f ? kPi : rng.Uniform(0.05f, 2.0f);
      settle[i] = rng.Uniform(0.1f, 0.4f);
    }
    weights[n - 1] = trial % 3 == 0 ? rng.Uniform(0.2f, 1.0f) : 1.0f;
    LookAtSettings s;
    s.weights = weights;
    if (trial % 2 == 0) s.limits = limits;
    s.settleTimes = settle;
    RandomAxesAndLimits(rng, trial, yawPitchLimits, s);
    if (trial % 5 == 2) s.targetMotion = ikpd::pd::TargetMotion::kLinear;
    s.behind = trial % 2 == 0 ? ikpd::LookBehind::kKeep : ikpd::LookBehind::kFollow;  // the reference holds at the side the target is on
    const Transform& head = joints[n - 1];
    const glm::vec3 look = glm::normalize(head.rotation) * glm::normalize(s.forward);
    glm::vec3 target = head.position + rng.Uniform(0.3f, 5.0f) * rng.Direction();
    if (glm::dot(glm::normalize(target - head.position), look) < -0.95f) continue;  // near a half turn the axis is the inputs' rounding
    LookAt lookAt;
    EXPECT_TRUE(lookAt.Reset(s).ok());
    std::vector<Transform> out(n);
    // 30 to 240 Hz, each frame its own dt, 3 s.
    for (float t = 0.0f; t < 3.0f;) {
      const float dt = 1.0f / rng.Uniform(30.0f, 240.0f);
      EXPECT_TRUE(lookAt.Update(dt, joints, target, true, out).ok());
      t += dt;
    }
    const std::vector<glm::quat> expected = Reference(s, joints, target);
    const std::vector<Transform> posed = Posed(joints, expected);
    for (std::size_t i = 0; i < n; ++i) {
      worst.offset = std::max(worst.offset, chaintest::Angle(lookAt.offsets()[i], expected[i]));
      worst.position = std::max(worst.position, glm::distance(out[i].position, posed[i].position) / reach);
      if (i + 1 < n || !yawPitchLimits) worst.rotation = std::max(worst.rotation, chaintest::Angle(out[i].rotation, posed[i].rotation));
    }
  }
  return worst;
}

TEST(LookAtOffsets, SettleOnTheDocumentedStagesSolveAtAnyFrameTimes) {
  for (const bool limits : {false, true}) {
    const Converged worst = LargestConvergedDifference(limits, limits ? 22 : 21);
    std::printf("look-at settled (%s yaw/pitch limits): offsets %.2e rad, rotations %.2e rad, positions %.2e of the chain from the documented solve\n",
                limits ? "with" : "no", static_cast<double>(worst.offset), static_cast<double>(worst.rotation), static_cast<double>(worst.position));
    EXPECT_LT(worst.offset, 2e-5f);
    EXPECT_LT(worst.rotation, 2e-5f);
    EXPECT_LT(worst.position, 2e-5f);
  }
}

}  // namespace
