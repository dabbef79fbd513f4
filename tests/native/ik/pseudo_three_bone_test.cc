// Pseudo three-bone IK (docs/ik/pseudo-three-bone.md) over random quadruped-leg poses.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "ikpd/ikpd.h"
#include "native/chain_test_util.h"

namespace {

using ikpd::PseudoThreeBoneJob;
using ikpd::PseudoThreeBoneResult;
using ikpd::PseudoThreeBoneVariant;
using ikpd::Transform;
using ikpd::TwoBoneJob;
using ikpd::TwoBoneResult;

using chaintest::Angle;

struct Leg {
  Transform root, mid, end, tip;
  float a, b, c;
};

// A quadruped leg: hip, knee, ankle, toe; forward +X, hinge +Z; knee and
// ankle bent in the hinge plane, the foot also twisted a little.
struct LegGenerator {
  std::mt19937 rng;
  explicit LegGenerator(unsigned seed) : rng(seed) {}
  float U(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }
  glm::vec3 Dir() {
    for (;;) {
      const glm::vec3 v(U(-1, 1), U(-1, 1), U(-1, 1));
      const float l = glm::length(v);
      if (l > 0.1f && l <= 1.0f) return v / l;
    }
  }
  Leg Make() {
    const glm::vec3 f(1, 0, 0), h(0, 0, 1);
    Leg leg;
    leg.a = U(0.2f, 0.6f);
    leg.b = U(0.2f, 0.6f);
    leg.c = U(0.05f, 0.3f);
    leg.root.position = {U(-1, 1), U(0, 2), U(-1, 1)};
    leg.root.rotation = glm::angleAxis(U(-3.1f, 3.1f), Dir());
    leg.mid.position = leg.root.position + leg.a * (leg.root.rotation * f);
    leg.mid.rotation = leg.root.rotation * glm::angleAxis(U(0.2f, 2.6f), h);
    leg.end.position = leg.mid.position + leg.b * (leg.mid.rotation * f);
    leg.end.rotation = leg.mid.rotation * glm::angleAxis(U(-1.5f, 1.5f), h) * glm::angleAxis(U(-0.3f, 0.3f), f);
    leg.tip.position = leg.end.position + leg.c * (leg.end.rotation * f);
    leg.tip.rotation = leg.end.rotation;
    return leg;
  }
  // A target the tip can reach with the foot's world rotation fixed (blend = 1).
  glm::vec3 ReachableWithFixedFoot(const Leg& leg) {
    const float lo = std::abs(leg.a - leg.b) + 0.02f * (leg.a + leg.b);
    const float hi = 0.98f * (leg.a + leg.b);
    return leg.root.position + (leg.tip.position - leg.end.position) + Dir() * U(lo, hi);
  }
};

PseudoThreeBoneJob JobFor(const Leg& leg, const glm::vec3& target, float blend) {
  PseudoThreeBoneJob job;
  job.frame.limb.root = leg.root;
  job.frame.limb.mid = leg.mid;
  job.frame.limb.end = leg.end;
  job.frame.limb.target = target;
  job.frame.tip = leg.tip;
  job.frame.blend = blend;
  return job;
}

// Step 4 alone, computed independently: the first two-bone pass.
TwoBoneResult FirstPass(const Leg& leg, const glm::vec3& target) {
  TwoBoneJob job;
  job.frame.root = leg.root;
  job.frame.mid = leg.mid;
  job.frame.end = leg.end;
  job.frame.target = target;
  job.frame.effectorOffset = leg.tip.position - leg.end.position;
  TwoBoneResult r;
  job.result = &r;
  EXPECT_TRUE(job.Run().ok());
  return r;
}

void ExpectRigidTip(const Leg& leg, const PseudoThreeBoneResult& r) {
  // Lengths kept, tip rigid with the end joint.
  ASSERT_NEAR(glm::distance(r.mid.position, r.root.position), leg.a, 2e-5f);
  ASSERT_NEAR(glm::distance(r.end.position, r.mid.position), leg.b, 2e-5f);
  const glm::vec3 localTip = glm::conjugate(leg.end.rotation) * (leg.tip.position - leg.end.position);
  const glm::vec3 solvedTip = glm::conjugate(r.end.rotation) * (r.tip.position - r.end.position);
  ASSERT_LT(glm::distance(localTip, solvedTip), 2e-5f);
  ASSERT_EQ(r.root.position, leg.root.position);
}

TEST(PseudoThreeBone, BlendOneKeepsEffectorRotationAndReachesEveryReachableTarget) {
  LegGenerator gen(1);
  for (int i = 0; i < 10000; ++i) {
    const Leg leg = gen.Make();
    const glm::vec3 target = gen.ReachableWithFixedFoot(leg);
    const PseudoThreeBoneJob job = JobFor(leg, target, 1.0f);
    PseudoThreeBoneResult r;
    PseudoThreeBoneJob run = job;
    run.result = &r;
    ASSERT_TRUE(run.Run().ok());
    ExpectRigidTip(leg, r);
    ASSERT_LT(Angle(r.end.rotation, leg.end.rotation), 1e-3f) << "pose " << i;
    ASSERT_LE(r.distance, 1e-4f * (leg.a + leg.b)) << "pose " << i;
    ASSERT_TRUE(r.reached);
    ASSERT_NEAR(glm::distance(r.tip.position, target), r.distance, 1e-5f);
  }
}

TEST(PseudoThreeBone, BlendZeroRebuildsJointThreeRelativeToJointTwo) {
  LegGenerator gen(2);
  int reachable = 0;
  for (int i = 0; i < 10000; ++i) {
    const Leg leg = gen.Make();
    const glm::vec3 target = gen.ReachableWithFixedFoot(leg);
    PseudoThreeBoneJob job = JobFor(leg, target, 0.0f);
    PseudoThreeBoneResult r;
    job.result = &r;
    ASSERT_TRUE(job.Run().ok());
    ExpectRigidTip(leg, r);
    // Step 5: joint 3 = (joint 2 after the first pass) · q_diff.
    const glm::quat qDiff = glm::conjugate(leg.mid.rotation) * leg.end.rotation;
    const TwoBoneResult first = FirstPass(leg, target);
    ASSERT_LT(Angle(r.end.rotation, first.mid.rotation * qDiff), 1e-3f) << "pose " << i;
    // Its rotation relative to the final joint 2 differs from q_diff exactly by
    // the turn the corrective pass gave joint 2.
    const float drift = Angle(glm::conjugate(r.mid.rotation) * r.end.rotation, qDiff);
    ASSERT_NEAR(drift, Angle(r.mid.rotation, first.mid.rotation), 2e-3f);
    // Step 7 lands the tip whenever the corrective pass's goal is within reach.
    const float c = glm::distance(target - (r.tip.position - r.end.position), leg.root.position);
    if (c > std::abs(leg.a - leg.b) + 1e-3f && c < (leg.a + leg.b) * (1.0f - 1e-3f)) {
      ++reachable;
      ASSERT_LE(r.distance, 1e-4f * (leg.a + leg.b)) << "pose " << i;
    }
  }
  EXPECT_GT(reachable, 5000);
}

TEST(PseudoThreeBone, IntermediateBlendsLandBetween) {
  LegGenerator gen(4);
  for (int i = 0; i < 10000; ++i) {
    const Leg leg = gen.Make();
    const glm::vec3 target = gen.ReachableWithFixedFoot(leg);
    const float blend = gen.U(0.05f, 0.95f);
    PseudoThreeBoneJob job = JobFor(leg, target, blend);
    job.settings.variant = i % 2 ? PseudoThreeBoneVariant::kRelative : PseudoThreeBoneVariant::kFollowMid;
    PseudoThreeBoneResult r;
    job.result = &r;
    ASSERT_TRUE(job.Run().ok());
    ExpectRigidTip(leg, r);
    const TwoBoneResult first = FirstPass(leg, target);
    const glm::quat qDiff = glm::conjugate(leg.mid.rotation) * leg.end.rotation;
    const glm::quat rebuilt = i % 2 ? first.mid.rotation * qDiff : first.mid.rotation;
    const float total = Angle(rebuilt, leg.end.rotation);
    // On the slerp arc: blend·total from the rebuilt pose, (1 − blend)·total from the input.
    ASSERT_NEAR(Angle(r.end.rotation, rebuilt), blend * total, 2e-3f) << "pose " << i;
    ASSERT_NEAR(Angle(r.end.rotation, leg.end.rotation), (1.0f - blend) * total, 2e-3f) << "pose " << i;
  }
}

TEST(PseudoThreeBone, FollowMidTakesJointTwosPosture) {
  LegGenerator gen(5);
  for (int i = 0; i < 1000; ++i) {
    const Leg leg = gen.Make();
    const glm::vec3 target = gen.ReachableWithFixedFoot(leg);
    PseudoThreeBoneJob job = JobFor(leg, target, 0.0f);
    job.settings.variant = PseudoThreeBoneVariant::kFollowMid;
    PseudoThreeBoneResult r;
    job.result = &r;
    ASSERT_TRUE(job.Run().ok());
    ASSERT_LT(Angle(r.end.rotation, FirstPass(leg, target).mid.rotation), 1e-3f);
  }
}

TEST(PseudoThreeBone, EndLimitHoldsBeforeTheExtraPass) {
  LegGenerator gen(6);
  int active = 0;
  for (int i = 0; i < 10000; ++i) {
    const Leg leg = gen.Make();
    const glm::vec3 target = gen.ReachableWithFixedFoot(leg);
    PseudoThreeBoneJob job = JobFor(leg, target, 1.0f);  // fixed foot: the ankle angle gets extreme
    job.settings.endLimit = 0.3f;
    PseudoThreeBoneResult r;
    job.result = &r;
    ASSERT_TRUE(job.Run().ok());
    ExpectRigidTip(leg, r);
    const glm::quat qDiff = glm::conjugate(leg.mid.rotation) * leg.end.rotation;
    const TwoBoneResult first = FirstPass(leg, target);
    const float fromInput = Angle(r.end.rotation, first.mid.rotation * qDiff);
    ASSERT_LE(fromInput, 0.3f + 1e-3f) << "pose " << i;
    active += Angle(first.mid.rotation * qDiff, leg.end.rotation) > 0.3f;
  }
  EXPECT_GT(active, 1000);  // the limit was really at work
}

TEST(PseudoThreeBone, WeightZeroReturnsTheInput) {
  LegGenerator gen(7);
  const Leg leg = gen.Make();
  PseudoThreeBoneJob job = JobFor(leg, gen.ReachableWithFixedFoot(leg), 0.3f);
  job.frame.limb.weight = 0.0f;
  PseudoThreeBoneResult r;
  job.result = &r;
  ASSERT_TRUE(job.Run().ok());
  EXPECT_LT(glm::distance(r.end.position, leg.end.position), 1e-6f);
  EXPECT_LT(glm::distance(r.tip.position, leg.tip.position), 1e-6f);
  EXPECT_LT(Angle(r.end.rotation, leg.end.rotation), 1e-3f);
}

TEST(PseudoThreeBone, StretchStaysWithinMaxStretch) {
  LegGenerator gen(8);
  for (int i = 0; i < 1000; ++i) {
    const Leg leg = gen.Make();
    PseudoThreeBoneJob job = JobFor(leg, leg.root.position + gen.Dir() * 5.0f, 0.0f);
    job.settings.limb.maxStretch = 1.2f;
    PseudoThreeBoneResult r;
    job.result = &r;
    ASSERT_TRUE(job.Run().ok());
    ASSERT_LE(glm::distance(r.mid.position, r.root.position), 1.2f * leg.a * (1 + 1e-5f));
    ASSERT_LE(glm::distance(r.end.position, r.mid.position), 1.2f * leg.b * (1 + 1e-5f));
  }
}

// Regression (found by tests/fuzz/pseudo_three_bone_fuzz.cc): with a zero-length
// upper bone the extra pass measured the first pass's stretch on that bone
// alone, saw none, and stretched the lower bone by maxStretch a second time
// (length 1 -> 3 with maxStretch 2.7).
TEST(PseudoThreeBone, StretchOfBothPassesStaysWithinMaxStretchWithAZeroLengthBone) {
  const glm::quat id(1, 0, 0, 0);
  PseudoThreeBoneJob job;
  job.frame.limb.root = {{0, -2, -2}, id};
  job.frame.limb.mid = {{0, -2, -2}, glm::normalize(glm::quat(-0.416f, 0, -0.645f, 0.641f))};
  job.frame.limb.end = {{-1, -2, -2}, id};
  job.frame.limb.target = {0, -2, -2};
  job.settings.limb.pole = ikpd::TwoBonePole::kDirection, job.frame.limb.pole = glm::vec3(1, 0, 0);
  job.settings.limb.forward = {0, 1, 0};
  job.settings.limb.bendAxis = {1, 0, 0};
  job.settings.limb.maxStretch = 2.7f;
  job.frame.tip = {{0, 0, 0}, glm::normalize(glm::quat(-0.416f, 0, 0, -0.909f))};
  job.frame.blend = 1.0f;
  job.settings.variant = PseudoThreeBoneVariant::kFollowMid;
  for (float endLimit : {0.0f, 0.5f}) {
    job.settings.endLimit = endLimit;
    PseudoThreeBoneResult r;
    job.result = &r;
    ASSERT_TRUE(job.Run().ok());
    EXPECT_LE(glm::distance(r.mid.position, r.root.position), 1e-5f);
    EXPECT_LE(glm::distance(r.end.position, r.mid.position), 2.7f * (1 + 1e-5f));
  }
  // And with ordinary legs whose upper or lower bone is zero.
  LegGenerator gen(21);
  for (int i = 0; i < 1000; ++i) {
    Leg leg = gen.Make();
    leg.mid.position = i % 2 ? leg.root.position : leg.end.position;
    const float before = glm::distance(leg.root.position, leg.mid.position) + glm::distance(leg.mid.position, leg.end.position);
    PseudoThreeBoneJob stretchy = JobFor(leg, leg.root.position + gen.Dir() * 5.0f, gen.U(0.0f, 1.0f));
    stretchy.settings.limb.maxStretch = 1.5f;
    stretchy.settings.endLimit = gen.U(0.0f, 1.0f);
    PseudoThreeBoneResult r;
    stretchy.result = &r;
    ASSERT_TRUE(stretchy.Run().ok());
    const float length = glm::distance(r.mid.position, r.root.position) + glm::distance(r.end.position, r.mid.position);
    ASSERT_LE(length, 1.5f * before * (1 + 1e-5f)) << i;
  }
}

// Regression (found by tests/fuzz/pseudo_three_bone_fuzz.cc): `reached` took the
// extra pass's result, whose tolerance scaled with the already stretched limb.
TEST(PseudoThreeBone, ReachedIsRelativeToTheInputLimbLength) {
  const glm::quat id(1, 0, 0, 0);
  PseudoThreeBoneJob job;
  job.frame.limb.root = {{0, 0, 0}, id};
  job.frame.limb.mid = {{0.5f, 0, 0}, id};
  job.frame.limb.end = {{1, 0, 0}, id};
  job.frame.limb.target = {10, 0, 0};
  job.settings.limb.maxStretch = 3.0f;
  job.frame.tip = {{1.1f, 0, 0}, id};
  job.frame.blend = 0.0f;  // two passes
  for (float tolerance : {3.0f, 7.0f}) {
    job.settings.limb.tolerance = tolerance;
    PseudoThreeBoneResult r;
    job.result = &r;
    ASSERT_TRUE(job.Run().ok());
    ASSERT_NEAR(r.distance, 6.9f, 1e-4f);  // stretched to 3: tip at 3.1
    EXPECT_EQ(r.reached, r.distance <= tolerance * 1.0f) << tolerance;
  }
}

TEST(PseudoThreeBone, DegenerateInputStaysFinite) {
  const glm::quat id(1, 0, 0, 0);
  // Tip on the end joint, target at the root, zero-length bones, straight leg.
  const Transform cases[][4] = {
      {{{0, 0, 0}, id}, {{1, 0, 0}, id}, {{2, 0, 0}, id}, {{2, 0, 0}, id}},
      {{{0, 0, 0}, id}, {{0, 0, 0}, id}, {{0, 0, 0}, id}, {{0, 0, 0}, id}},
      {{{0, 0, 0}, id}, {{1, 0, 0}, id}, {{1, 0, 0}, id}, {{1.5f, 0, 0}, id}},
  };
  const glm::vec3 targets[] = {{0, 0, 0}, {2.5f, 0, 0}, {10, 0, 0}, {0.5f, 0.5f, 0}};
  for (const auto& c : cases) {
    for (const glm::vec3& t : targets) {
      for (float blend : {0.0f, 0.5f, 1.0f}) {
        PseudoThreeBoneJob job;
        job.frame.limb.root = c[0];
        job.frame.limb.mid = c[1];
        job.frame.limb.end = c[2];
        job.frame.tip = c[3];
        job.frame.limb.target = t;
        job.frame.blend = blend;
        job.settings.endLimit = 0.5f;
        PseudoThreeBoneResult r;
        job.result = &r;
        ASSERT_TRUE(job.Run().ok());
        EXPECT_TRUE(ikpd::IsFinite(r.root) && ikpd::IsFinite(r.mid) && ikpd::IsFinite(r.end) && ikpd::IsFinite(r.tip));
        EXPECT_TRUE(std::isfinite(r.distance));
      }
    }
  }
}

TEST(PseudoThreeBone, Validation) {
  LegGenerator gen(9);
  const Leg leg = gen.Make();
  PseudoThreeBoneJob job = JobFor(leg, {0, 0, 0}, 0.0f);
  PseudoThreeBoneResult r;
  r.distance = 42.0f;
  EXPECT_STREQ(job.Run().error, "result: output pointer must not be null");
  job.result = &r;
  job.frame.blend = 1.5f;
  EXPECT_STREQ(job.Run().error, "blend: must be in [0, 1]");
  job.frame.blend = 0.5f;
  job.settings.endLimit = -1.0f;
  EXPECT_STREQ(job.Run().error, "endLimit: must be in [0, pi]");
  job.settings.endLimit = ikpd::kPi;
  job.frame.tip.position.x = NAN;
  EXPECT_STREQ(job.Run().error, "tip: position must be finite");
  job.frame.tip = leg.tip;
  job.frame.tip.rotation = glm::quat(0, 0, 0, 0);
  EXPECT_STREQ(job.Run().error, "tip: rotation must be finite and non-zero");
  job.frame.tip = leg.tip;
  job.settings.variant = static_cast<PseudoThreeBoneVariant>(7);
  EXPECT_STREQ(job.Run().error, "variant: must be relative or followMid");
  job.settings.variant = PseudoThreeBoneVariant::kRelative;
  job.frame.limb.weight = 2.0f;  // two-bone options are validated by TwoBoneJob
  EXPECT_NE(job.Run().error, nullptr);
  EXPECT_EQ(r.distance, 42.0f);  // untouched on error
  job.frame.limb.weight = 1.0f;
  EXPECT_TRUE(job.Run().ok());
}

}  // namespace
