// The avatar constraint (docs/rig/avatar.md): weight 0 and disabled give the
// animated pose exactly, an unreachable hand reaches fully toward its target,
// bad settings and targets are named errors that change nothing.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "native/avatar_test_util.h"

namespace {

using namespace rigtest;

struct Fixture {
  std::vector<LocalTransform> rest = avatartest::Rest();
  std::vector<World> restWorld = Fk(avatartest::Parents(), rest);
  Rig rig;
  Fixture() {
    Skeleton skeleton;
    EXPECT_TRUE(skeleton.Init(avatartest::Parents()).ok());
    EXPECT_TRUE(rig.Init(skeleton, rest).ok());
  }
  void Aim(float t) {
    const avatartest::Targets targets = avatartest::Script(t, LocalTransform{}, restWorld);
    rig.targets()[0] = targets.head, rig.targets()[1] = targets.hands[0], rig.targets()[2] = targets.hands[1];
  }
};

using avatartest::SamePose;

TEST(AvatarErrors, WeightZeroAndDisabledGiveTheAnimatedPoseExactly) {
  Fixture x;
  ASSERT_TRUE(x.rig.Add(avatartest::Settings()).ok());
  std::vector<LocalTransform> out(x.rest.size());
  // Every target at weight 0.
  for (int frame = 0; frame < 30; ++frame) {
    const float t = 6.5f + static_cast<float>(frame) / 60.0f;
    x.Aim(t);
    for (ikpd::rig::TargetPose& p : x.rig.targets()) p.weight = 0.0f;
    const std::vector<LocalTransform> in = avatartest::Animated(x.rest, t);
    ASSERT_TRUE(x.rig.Update(1.0f / 60.0f, in, LocalTransform{}, out).ok());
    EXPECT_TRUE(SamePose(in, out)) << frame;
  }
  // Weighted: it moves; disabled: it blends out to exactly the animation.
  ikpd::rig::ConstraintSettings s = avatartest::Settings();
  bool moved = false;
  for (int frame = 0; frame < 240; ++frame) {
    const float t = 6.5f + static_cast<float>(frame) / 60.0f;
    x.Aim(t);
    if (frame == 60) {
      s.common.enabled = false;
      ASSERT_TRUE(x.rig.SetSettings(0, s).ok());
    }
    const std::vector<LocalTransform> in = avatartest::Animated(x.rest, t);
    ASSERT_TRUE(x.rig.Update(1.0f / 60.0f, in, LocalTransform{}, out).ok());
    if (frame < 60) moved = moved || !SamePose(in, out);
    if (frame > 200) {
      EXPECT_TRUE(SamePose(in, out)) << frame;
    }
  }
  EXPECT_TRUE(moved);
  // Weight 0 without smoothing: at once.
  s.common.enabled = true, s.common.weight = 0.0f, s.common.settleTime = 0.0f;
  ASSERT_TRUE(x.rig.SetSettings(0, s).ok());
  x.Aim(7.0f);
  const std::vector<LocalTransform> in = avatartest::Animated(x.rest, 7.0f);
  ASSERT_TRUE(x.rig.Update(1.0f / 60.0f, in, LocalTransform{}, out).ok());
  EXPECT_TRUE(SamePose(in, out));
}

// Every tracker lost (weights to 0) mid-session: each part blends back and
// reaches the animated pose exactly (a blend-out, not an endless approach),
// at 30, 60 and 240 Hz; the trackers coming back move it again.
TEST(AvatarErrors, LostTrackersBlendBackToTheAnimationExactly) {
  for (int rate : {30, 60, 240}) {
    Fixture x;
    ASSERT_TRUE(x.rig.Add(avatartest::Settings()).ok());
    std::vector<LocalTransform> out(x.rest.size());
    const float dt = 1.0f / static_cast<float>(rate);
    bool moved = false, exact = false, back = false;
    for (int frame = 0; frame < 4 * rate; ++frame) {
      const float t = 6.5f + static_cast<float>(frame) * dt;
      x.Aim(t);
      const bool lost = frame >= rate && frame < 3 * rate;
      if (lost) for (ikpd::rig::TargetPose& p : x.rig.targets()) p.weight = 0.0f;
      const std::vector<LocalTransform> in = avatartest::Animated(x.rest, t);
      ASSERT_TRUE(x.rig.Update(dt, in, LocalTransform{}, out).ok());
      if (frame < rate) moved = moved || !SamePose(in, out);
      if (lost && frame >= 2 * rate) {
        EXPECT_TRUE(SamePose(in, out)) << rate << " Hz, frame " << frame;
      }
      if (lost && frame == 3 * rate - 1) exact = SamePose(in, out);
      if (frame >= 3 * rate + rate / 2) back = back || !SamePose(in, out);
    }
    EXPECT_TRUE(moved && exact && back) << rate << " Hz";
  }
}

TEST(AvatarErrors, AnUnreachableHandReachesFullyTowardItsTarget) {
  Fixture x;
  ikpd::rig::ConstraintSettings s = avatartest::Settings();
  s.common.settleTime = 0.0f;
  ASSERT_TRUE(x.rig.Add(s).ok());
  std::vector<LocalTransform> out(x.rest.size());
  const std::vector<LocalTransform> in = avatartest::Animated(x.rest, 0.0f);
  x.Aim(0.0f);
  const glm::vec3 far(0.5f, 1.6f, 2.0f);
  x.rig.targets()[1].position = far;
  ASSERT_TRUE(x.rig.Update(1.0f / 60.0f, in, LocalTransform{}, out).ok());
  const std::vector<World> w = Fk(avatartest::Parents(), out);
  const glm::vec3 upper = w[avatartest::kLeftUpper].position, hand = w[avatartest::kLeftHand].position;
  EXPECT_NEAR(glm::length(hand - upper), 0.5f, 1e-3f);  // straight: upper arm + forearm
  EXPECT_GT(glm::dot(glm::normalize(hand - upper), glm::normalize(far - upper)), std::cos(0.01f));
  EXPECT_EQ(x.rig.results()[0].reached, 0.0f);
  EXPECT_LT(glm::length(w[avatartest::kLeftFoot].position - Fk(avatartest::Parents(), in)[avatartest::kLeftFoot].position), 1e-3f);
}

void ExpectError(Fixture& x, const ikpd::rig::ConstraintSettings& s, const std::string& message) {
  const std::size_t before = x.rig.constraintCount();
  const ikpd::Status st = x.rig.Add(s);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(std::string(st.ok() ? "" : st.error), message);
  EXPECT_EQ(x.rig.constraintCount(), before);
}

TEST(AvatarErrors, BadSettingsAreNamed) {
  Fixture x;
  ikpd::rig::ConstraintSettings s = avatartest::Settings();
  s.joints = {1, 2, 6};
  ExpectError(x, s, "constraints[0].joints: needs the pelvis, 1 to 3 spine joints, the neck, the head (4 to 6 joints), got 3");
  s = avatartest::Settings(), s.arms.pop_back();
  ExpectError(x, s, "constraints[0].arms: needs 0, 6 or 8 joints ([shoulder?, upper arm, forearm, hand] per arm), got 7");
  s = avatartest::Settings(), s.legs = {15, 16, 17};
  ExpectError(x, s, "constraints[0].legs: needs 0 or 6 joints ([upper leg, lower leg, foot] per leg), got 3");
  s = avatartest::Settings(), s.arms[2] = 8;
  ExpectError(x, s, "constraints[0].arms[2]: must be a descendant of arms[1] (joint 8)");
  s = avatartest::Settings(), s.legs[3] = 0;
  ExpectError(x, s, "constraints[0].legs[3]: must be a descendant of joints[0] (the pelvis, joint 1)");
  s = avatartest::Settings(), s.avatar.pelvisFollow = 2.0f;
  ExpectError(x, s, "constraints[0].pelvisFollow: must be in [0, 1]");
  s = avatartest::Settings(), s.avatar.shoulderYawLimit = NAN;
  ExpectError(x, s, "constraints[0].shoulderYawLimit: must be in [0, pi/2]");
}

TEST(AvatarErrors, BadTargetsAreNamedAndChangeNothing) {
  Fixture x;
  ASSERT_TRUE(x.rig.Add(avatartest::Settings()).ok());
  std::vector<LocalTransform> out(x.rest.size());
  const std::vector<LocalTransform> in = avatartest::Animated(x.rest, 0.0f);
  x.Aim(0.0f);
  ASSERT_TRUE(x.rig.Update(1.0f / 60.0f, in, LocalTransform{}, out).ok());
  avatartest::ExpectSpoiledTargetsNamed(x.rig, [&] { x.Aim(0.0f); }, in, out, {
      {1, [](ikpd::rig::TargetPose& p) { p.position.y = NAN; }, "targets[1].position: must be finite"},
      {0, [](ikpd::rig::TargetPose& p) { p.rotation = glm::quat(0, 0, 0, 0); }, "targets[0].rotation: must be finite and non-zero"},
      {2, [](ikpd::rig::TargetPose& p) { p.weight = 1.5f; }, "targets[2].weight: must be in [0, 1]"},
      {2, [](ikpd::rig::TargetPose& p) { p.weight = NAN; }, "targets[2].weight: must be in [0, 1]"},
  });
}

}  // namespace
