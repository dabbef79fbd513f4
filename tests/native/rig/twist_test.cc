// The twist constraint (docs/rig/twist.md): the last joint's twist about the
// line from the first joint, spread over the joints before it, the last joint
// kept where it was; exact along a straight forearm with twist bones, no flip
// past half a turn, the weight blended, bad settings named.
#include <gtest/gtest.h>

#include <cmath>

#include "native/rig_test_util.h"
#include "native/status_test_util.h"

namespace {

using namespace rigtest;
using ikpd::rig::ConstraintKind;
using ikpd::rig::ConstraintSettings;
using ikpd::rig::Rig;

constexpr double kPi = 3.141592653589793;

// body 0 → upper arm 1 → forearm 2 → twist bones 3, 4 → hand 5 → finger 6. The
// forearm, its twist bones and the hand lie on one line (the forearm's local
// direction `u`), each with its own rest rotation, as exporters write them.
struct Arm {
  ChainRig rig;
  glm::vec3 u;  // the forearm's direction in the forearm's rest frame
};

Arm MakeArm(iktest::Rng& rng, float at1 = 1.0f / 3.0f, float at2 = 2.0f / 3.0f) {
  Arm a;
  a.rig.parents = {-1, 0, 1, 2, 3, 4, 5};
  a.u = rng.Direction();
  const float length = 0.27f;
  std::vector<glm::quat> r(7);
  for (glm::quat& q : r) q = rng.Rotation();
  a.rig.rest = {At({0.0f, 1.4f, 0.0f}, r[0]), At(rng.Direction() * 0.2f, r[1]), At(rng.Direction() * 0.3f, r[2])};
  // Twist bones and the hand along u (in the forearm's frame): each translation in its parent's frame.
  glm::quat parent(1.0f, 0.0f, 0.0f, 0.0f);  // the forearm-relative rotation of the parent so far
  const float at[] = {at1, at2, 1.0f};
  float before = 0.0f;
  for (int k = 0; k < 3; ++k) {
    a.rig.rest.push_back(At(glm::conjugate(parent) * a.u * (length * (at[k] - before)), r[static_cast<std::size_t>(3 + k)]));
    parent = parent * r[static_cast<std::size_t>(3 + k)];
    before = at[k];
  }
  a.rig.rest.push_back(At(rng.Direction() * 0.08f, r[6]));
  return a;
}

ConstraintSettings Twist(std::vector<int> joints) { return Settings(ConstraintKind::kTwist, std::move(joints)); }

// The twist angle of q about unit axis a, in (−π, π].
double TwistAngle(const glm::quat& q, const glm::vec3& a) {
  double t = 2.0 * std::atan2(static_cast<double>(glm::dot(glm::vec3(q.x, q.y, q.z), a)), static_cast<double>(q.w));
  if (t > kPi) t -= 2.0 * kPi;
  if (t <= -kPi) t += 2.0 * kPi;
  return t;
}

// Joint j's twist about `axis` (model) against joint `ref`, each relative to its rest.
double TwistAgainst(const std::vector<World>& pose, const std::vector<World>& rest, int j, int ref, const glm::vec3& axis) {
  const auto J = static_cast<std::size_t>(j), R = static_cast<std::size_t>(ref);
  const glm::quat relative = glm::conjugate(pose[R].rotation) * pose[J].rotation *
                             glm::conjugate(glm::conjugate(rest[R].rotation) * rest[J].rotation);
  return TwistAngle(glm::normalize(relative), glm::normalize(glm::conjugate(pose[R].rotation) * axis));
}

double Wrap(double a) { return std::remainder(a, 2.0 * kPi); }

// The animated pose: body, upper arm, forearm and hand turned at random; the
// twist bones twisted about the forearm line only (so it stays straight).
std::vector<LocalTransform> Animate(iktest::Rng& rng, const Arm& a, float handTwist) {
  std::vector<LocalTransform> pose = a.rig.rest;
  for (int j : {0, 1, 2, 6}) pose[static_cast<std::size_t>(j)].rotation = rng.Rotation();
  // The forearm line in each twist bone's rest frame is the same direction as its translation's child.
  glm::quat parent(1.0f, 0.0f, 0.0f, 0.0f);
  for (int k = 3; k <= 4; ++k) {
    const glm::vec3 axis = glm::normalize(glm::conjugate(parent) * a.u);  // in the parent's (rest-relative) frame
    pose[static_cast<std::size_t>(k)].rotation = glm::angleAxis(rng.Uniform(-0.5f, 0.5f), axis) * a.rig.rest[static_cast<std::size_t>(k)].rotation;
    parent = parent * a.rig.rest[static_cast<std::size_t>(k)].rotation;
  }
  // The hand: a swing and a twist about the forearm line.
  const glm::vec3 axis = glm::normalize(glm::conjugate(parent) * a.u);
  pose[5].rotation = glm::angleAxis(rng.Uniform(-0.6f, 0.6f), glm::normalize(glm::cross(axis, rng.Direction()))) *
                     glm::angleAxis(handTwist, axis) * a.rig.rest[5].rotation;
  return pose;
}

TEST(RigTwist, SpreadsTheHandTwistOverAStraightForearmKeepingEveryJoint) {
  iktest::Rng rng(41);
  for (int i = 0; i < 2000; ++i) {
    const Arm arm = MakeArm(rng);
    Rig rig = MakeRig(arm.rig);
    ASSERT_TRUE(rig.Add(Twist({2, 3, 4, 5})).ok());
    const float handTwist = rng.Uniform(-3.0f, 3.0f);
    const std::vector<LocalTransform> in = Animate(rng, arm, handTwist);
    std::vector<LocalTransform> out(in.size());
    ASSERT_TRUE(rig.Update(1.0f / 60.0f, in, {}, out).ok());
    const auto before = Fk(arm.rig.parents, in), after = Fk(arm.rig.parents, out), rest = Fk(arm.rig.parents, arm.rig.rest);
    for (std::size_t j = 0; j < in.size(); ++j) {
      ASSERT_LT(glm::length(after[j].position - before[j].position), 2e-5f) << i << " joint " << j;
    }
    for (int j : {0, 1, 5, 6}) ASSERT_LT(RotationGap(after[static_cast<std::size_t>(j)].rotation, before[static_cast<std::size_t>(j)].rotation), 2e-5f) << i;
    // The hand's twist against the forearm (as animated), shared 1/3, 2/3, 1 by the forearm and its twist bones.
    const glm::vec3 axis = glm::normalize(before[5].position - before[2].position);
    const double total = TwistAgainst(before, rest, 5, 2, axis);
    const double shares[] = {1.0 / 3.0, 2.0 / 3.0, 1.0};
    for (int k = 0; k < 3; ++k) {
      // Joint 2 + k against the animated forearm: its share of the total.
      const auto J = static_cast<std::size_t>(2 + k);
      const glm::quat relative = glm::conjugate(before[2].rotation) * after[J].rotation *
                                 glm::conjugate(glm::conjugate(rest[2].rotation) * rest[J].rotation);
      const double got = TwistAngle(glm::normalize(relative), glm::normalize(glm::conjugate(before[2].rotation) * axis));
      ASSERT_NEAR(Wrap(got - shares[k] * total), 0.0, 2e-4) << i << " joint " << J << " total " << total;
    }
    // The hand keeps none of it against the last twist bone.
    ASSERT_NEAR(Wrap(TwistAgainst(after, rest, 5, 4, axis)), 0.0, 2e-4) << i;
    EXPECT_NEAR(rig.results()[0].distance, total, 2e-4) << i;
  }
}

// The reference values: at the rest pose with the hand twisted by φ (0–170°),
// each joint's local rotation is its rest turned by φ/3 about the forearm.
TEST(RigTwist, ExactSharesAtRest) {
  iktest::Rng rng(7);
  const Arm arm = MakeArm(rng);
  for (int degrees = 0; degrees <= 170; degrees += 10) {
    Rig rig = MakeRig(arm.rig);
    ASSERT_TRUE(rig.Add(Twist({2, 3, 4, 5})).ok());
    const float phi = static_cast<float>(degrees * kPi / 180.0);
    std::vector<LocalTransform> in = arm.rig.rest, out(in.size());
    const glm::quat twist23 = arm.rig.rest[3].rotation * arm.rig.rest[4].rotation;
    in[5].rotation = glm::angleAxis(phi, glm::normalize(glm::conjugate(twist23) * arm.u)) * arm.rig.rest[5].rotation;
    ASSERT_TRUE(rig.Update(1.0f / 60.0f, in, {}, out).ok());
    // Joint 2 (forearm): φ/3 about u (its own frame); the twist bones φ/3 each about u in their parent's frame; the hand 0.
    EXPECT_LT(RotationGap(out[2].rotation, arm.rig.rest[2].rotation * glm::angleAxis(phi / 3.0f, arm.u)), 1e-6f) << degrees;
    EXPECT_LT(RotationGap(out[3].rotation, glm::angleAxis(phi / 3.0f, arm.u) * arm.rig.rest[3].rotation), 1e-6f) << degrees;
    const glm::vec3 u3 = glm::normalize(glm::conjugate(arm.rig.rest[3].rotation) * arm.u);
    EXPECT_LT(RotationGap(out[4].rotation, glm::angleAxis(phi / 3.0f, u3) * arm.rig.rest[4].rotation), 1e-6f) << degrees;
    EXPECT_LT(RotationGap(out[5].rotation, arm.rig.rest[5].rotation), 1e-6f) << degrees;
  }
}

// A hand turning through half a turn and on: the forearm's share follows it
// continuously (no flip at 179°/181°), at 30, 60 and 240 Hz alike.
TEST(RigTwist, NoFlipPastHalfATurn) {
  iktest::Rng rng(3);
  const Arm arm = MakeArm(rng);
  const glm::quat twist23 = arm.rig.rest[3].rotation * arm.rig.rest[4].rotation;
  const glm::vec3 handAxis = glm::normalize(glm::conjugate(twist23) * arm.u);
  for (int hz : {30, 60, 240}) {
    Rig rig = MakeRig(arm.rig);
    ASSERT_TRUE(rig.Add(Twist({2, 3, 4, 5})).ok());
    std::vector<LocalTransform> in = arm.rig.rest, out(in.size());
    const int frames = hz * 2;  // 0 → 400° in 2 s
    for (int f = 0; f <= frames; ++f) {
      const double phi = 400.0 * kPi / 180.0 * f / frames;
      in[5].rotation = glm::angleAxis(static_cast<float>(phi), handAxis) * arm.rig.rest[5].rotation;
      ASSERT_TRUE(rig.Update(1.0f / static_cast<float>(hz), in, {}, out).ok());
      ASSERT_NEAR(rig.results()[0].distance, phi, 1e-4) << hz << " Hz frame " << f;
      const double forearm = TwistAngle(glm::normalize(glm::conjugate(arm.rig.rest[2].rotation) * out[2].rotation), arm.u);
      ASSERT_NEAR(Wrap(forearm - phi / 3.0), 0.0, 1e-4) << hz << " Hz frame " << f;
    }
  }
}

TEST(RigTwist, AmountsAndLengthSpread) {
  iktest::Rng rng(5);
  const Arm arm = MakeArm(rng, 0.25f, 0.75f);
  const glm::quat twist23 = arm.rig.rest[3].rotation * arm.rig.rest[4].rotation;
  std::vector<LocalTransform> in = arm.rig.rest;
  const float phi = 1.2f;
  in[5].rotation = glm::angleAxis(phi, glm::normalize(glm::conjugate(twist23) * arm.u)) * arm.rig.rest[5].rotation;
  const auto forearmShare = [&](ConstraintSettings s) {
    Rig rig = MakeRig(arm.rig);
    EXPECT_TRUE(rig.Add(s).ok());
    std::vector<LocalTransform> out(in.size());
    EXPECT_TRUE(rig.Update(0.0f, in, {}, out).ok());
    return TwistAngle(glm::normalize(glm::conjugate(arm.rig.rest[2].rotation) * out[2].rotation), arm.u) / phi;
  };
  ConstraintSettings s = Twist({2, 3, 4, 5});
  EXPECT_NEAR(forearmShare(s), 1.0 / 3.0, 1e-5);
  s.twist.spread = ikpd::rig::TwistSpread::kLength;
  EXPECT_NEAR(forearmShare(s), 0.25, 1e-5);
  s.twistAmounts = {0.1f, 0.5f, 0.9f};
  EXPECT_NEAR(forearmShare(s), 0.1, 1e-5);
}

// A bent chain (upper arm, forearm, hand): the hand keeps its rotation and position.
TEST(RigTwist, BentChainKeepsTheLastJoint) {
  iktest::Rng rng(11);
  for (int i = 0; i < 1000; ++i) {
    const ChainRig chain = RandomChain(rng, 5);
    Rig rig = MakeRig(chain);
    ASSERT_TRUE(rig.Add(Twist({1, 2, 3})).ok());
    const std::vector<LocalTransform> in = RandomPose(rng, chain.rest);
    std::vector<LocalTransform> out(in.size());
    ASSERT_TRUE(rig.Update(1.0f / 60.0f, in, {}, out).ok());
    const auto before = Fk(chain.parents, in), after = Fk(chain.parents, out);
    ASSERT_LT(glm::length(after[3].position - before[3].position), 2e-5f) << i;
    ASSERT_LT(RotationGap(after[3].rotation, before[3].rotation), 2e-5f) << i;
    ASSERT_LT(RotationGap(out[4].rotation, in[4].rotation), 1e-7f) << i;
    for (std::size_t j = 0; j + 1 < in.size(); ++j) {  // bone lengths
      ASSERT_NEAR(glm::length(after[j + 1].position - after[j].position), glm::length(before[j + 1].position - before[j].position), 2e-5f);
    }
  }
}

// Weight 0 and a blend out give the animated pose exactly; a weight change glides.
TEST(RigTwist, WeightAndEnabledBlendWithoutPops) {
  iktest::Rng rng(13);
  const Arm arm = MakeArm(rng);
  const std::vector<LocalTransform> in = Animate(rng, arm, 2.5f);
  for (int hz : {30, 60, 240}) {
    Rig rig = MakeRig(arm.rig);
    ConstraintSettings s = Twist({2, 3, 4, 5});
    s.common.settleTime = 0.2f;
    ASSERT_TRUE(rig.Add(s).ok());
    std::vector<LocalTransform> out(in.size()), last = in;
    float largest = 0.0f;
    const float dt = 1.0f / static_cast<float>(hz);
    for (int f = 0; f < 3 * hz; ++f) {
      if (f == hz) {  // off at 1 s
        s.common.enabled = false;
        ASSERT_TRUE(rig.SetSettings(0, s).ok());
      }
      ASSERT_TRUE(rig.Update(dt, in, {}, out).ok());
      largest = std::max(largest, RotationGap(out[2].rotation, last[2].rotation) / dt);
      last = out;
    }
    for (std::size_t j = 0; j < in.size(); ++j) EXPECT_EQ(out[j].rotation, in[j].rotation) << hz << " joint " << j;
    EXPECT_LT(largest, 10.0f) << hz;  // quaternion components per second: a glide, not a jump
  }
}

TEST(RigTwist, BadSettingsAreNamedAndChangeNothing) {
  iktest::Rng rng(17);
  const Arm arm = MakeArm(rng);
  Rig rig = MakeRig(arm.rig);
  ConstraintSettings s = Twist({2, 3, 4, 5});
  s.twistAmounts = {0.5f, 1.0f};
  EXPECT_TRUE(statustest::StartsWith(rig.Add(s), "constraints[0].amounts: needs one amount per joint but the last"));
  s.twistAmounts = {0.5f, 1.0f, 1.5f};
  EXPECT_TRUE(statustest::StartsWith(rig.Add(s), "constraints[0].amounts: each must be in [-1, 1]"));
  s.twistAmounts = {0.5f, std::nanf(""), 1.0f};
  EXPECT_TRUE(statustest::StartsWith(rig.Add(s), "constraints[0].amounts: each must be in [-1, 1]"));
  s.twistAmounts.clear();
  s.twist.spread = static_cast<ikpd::rig::TwistSpread>(5);
  EXPECT_TRUE(statustest::StartsWith(rig.Add(s), "constraints[0].spread: must be even or length"));
  EXPECT_TRUE(statustest::StartsWith(rig.Add(Twist({2})), "constraints[0]."));
  EXPECT_TRUE(statustest::StartsWith(rig.Add(Twist({5, 2})), "constraints[0]."));
  EXPECT_EQ(rig.constraintCount(), 0u);
}

// The last joint on the first (a zero-length line): nothing turns, no NaN.
TEST(RigTwist, ZeroLengthLineTurnsNothing) {
  ChainRig c;
  c.parents = {-1, 0, 1};
  c.rest = {At({0, 1, 0}), At({0, 0, 0}), At({0, 0, 0})};
  Rig rig = MakeRig(c);
  ASSERT_TRUE(rig.Add(Twist({1, 2})).ok());
  std::vector<LocalTransform> in = c.rest, out(3);
  in[2].rotation = glm::angleAxis(1.0f, glm::vec3(0, 1, 0));
  ASSERT_TRUE(rig.Update(1.0f / 60.0f, in, {}, out).ok());
  for (std::size_t j = 0; j < 3; ++j) EXPECT_LT(RotationGap(out[j].rotation, in[j].rotation), 1e-7f);
  EXPECT_EQ(rig.results()[0].distance, 0.0f);
}

}  // namespace
