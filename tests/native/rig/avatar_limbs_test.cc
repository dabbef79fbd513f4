// The avatar's limbs ride on their parent joints through the pelvis and spine
// stages and are carried once before their own (docs/performance.md,
// "Avatar"): the pose the rig writes puts each hand, the head and the planted
// feet where the kind's own pose had them, with and without shoulders, at
// 30, 60, 90 and 240 Hz over the scripted session's first 12 s.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "native/avatar_test_util.h"

namespace {

using namespace rigtest;

void RunSession(const ikpd::rig::ConstraintSettings& s, float hz, const std::string& label) {
  SCOPED_TRACE(label + " at " + std::to_string(static_cast<int>(hz)) + " Hz");
  const std::vector<LocalTransform> rest = avatartest::Rest(true);  // random bone axes
  const std::vector<World> restWorld = Fk(avatartest::Parents(), rest);
  Skeleton skeleton;
  ASSERT_TRUE(skeleton.Init(avatartest::Parents()).ok());
  Rig rig;
  ASSERT_TRUE(rig.Init(skeleton, rest).ok());
  ASSERT_TRUE(rig.Add(s).ok());
  std::vector<LocalTransform> out(rest.size());
  const float dt = 1.0f / hz;
  glm::vec3 firstFeet[2];
  const int frames = static_cast<int>(avatartest::kSession * hz);
  float worstHand = 0.0f, worstSlide = 0.0f;
  for (int frame = 0; frame < frames; ++frame) {
    const float t = static_cast<float>(frame) * dt;
    const avatartest::Targets targets = avatartest::Script(t, LocalTransform{}, restWorld);
    rig.targets()[0] = targets.head, rig.targets()[1] = targets.hands[0], rig.targets()[2] = targets.hands[1];
    ASSERT_TRUE(rig.Update(dt, avatartest::Animated(rest, t), LocalTransform{}, out).ok());
    const std::vector<World> w = Fk(avatartest::Parents(), out);
    // The kind reports its own pose's largest miss; the written pose misses by no more (+ 1 mm):
    // a limb carried from the wrong place would solve from there and land elsewhere.
    const float reported = rig.results()[0].distance;
    const float settled = t > 1.0f ? 1.0f : 0.0f;  // the targets' weights settle first (settleTime 0.2 s)
    for (const auto& [joint, target] : {std::pair{avatartest::kLeftHand, targets.hands[0]}, std::pair{avatartest::kRightHand, targets.hands[1]},
                                        std::pair{avatartest::kHead, targets.head}}) {
      const float miss = glm::length(w[static_cast<std::size_t>(joint)].position - target.position);
      worstHand = std::max(worstHand, settled * (miss - reported));
    }
    // 0–2 s the body stands (looking around): the planted feet stay where they were.
    const int feet[2] = {avatartest::kLeftFoot, avatartest::kRightFoot};
    for (int side = 0; side < 2; ++side) {
      const glm::vec3 at = w[static_cast<std::size_t>(feet[side])].position;
      if (frame == 0) firstFeet[side] = at;
      if (t < 2.0f) worstSlide = std::max(worstSlide, glm::length(at - firstFeet[side]));
    }
    for (const World& joint : w) ASSERT_TRUE(std::isfinite(joint.position.x + joint.position.y + joint.position.z));
  }
  EXPECT_LT(worstHand, 1e-3f);
  EXPECT_LT(worstSlide, 1e-3f);
}

TEST(AvatarLimbs, TheWrittenPoseKeepsTheKindsLimbsAtEveryRate) {
  for (float hz : {30.0f, 60.0f, 90.0f, 240.0f}) {
    RunSession(avatartest::Settings(), hz, "with shoulders");
    ikpd::rig::ConstraintSettings noShoulders = avatartest::Settings();
    noShoulders.arms = {8, 9, 10, 12, 13, 14};
    RunSession(noShoulders, hz, "without shoulders");
  }
}

}  // namespace
