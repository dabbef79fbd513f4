// Rig input errors: a bad skeleton, constraint or frame is an error naming the
// parameter and changes nothing; a body look-at checks its spine, arms and
// legs; a pose whose model transforms overflow leaves the pelvis as animated.
#include <gtest/gtest.h>

#include <cstring>

#include "native/rig_test_util.h"
#include "native/status_test_util.h"

namespace {

using namespace rigtest;
using statustest::StartsWith;

TEST(RigErrors, BadSkeletonNamesTheParent) {
  Skeleton s;
  const int bad[] = {-1, 0, 5};
  EXPECT_TRUE(StartsWith(s.Init(bad), "parents[2]:"));
  const int self[] = {-1, 1};
  EXPECT_TRUE(StartsWith(s.Init(self), "parents[1]:"));
  EXPECT_TRUE(StartsWith(s.Init({}), "parents:"));
  const int good[] = {-1, 0, 1};
  const std::string_view names[] = {"hips", "spine"};
  EXPECT_TRUE(StartsWith(s.Init(good, names), "names:"));
  const std::string_view three[] = {"hips", "spine", "head"};
  ASSERT_TRUE(s.Init(good, three).ok());
  EXPECT_EQ(s.Find("head"), 2);
  EXPECT_EQ(s.Find("tail"), -1);
}

TEST(RigErrors, BadConstraintsNameTheirParameterAndChangeNothing) {
  iktest::Rng rng(2517);
  ChainRig chain = RandomChain(rng, 5);
  chain.parents = {-1, 0, 1, 1, 3};  // joint 2 and joint 3 are siblings
  Rig rig = MakeRig(chain);
  EXPECT_TRUE(StartsWith(rig.Add(Settings(ConstraintKind::kTwoBone, {1, 2, 3})), "constraints[0].joints[2]:"));
  EXPECT_TRUE(StartsWith(rig.Add(Settings(ConstraintKind::kTwoBone, {1, 3, 9})), "constraints[0].joints[2]:"));
  EXPECT_TRUE(StartsWith(rig.Add(Settings(ConstraintKind::kTwoBone, {1, 3})), "constraints[0].joints:"));
  EXPECT_TRUE(StartsWith(rig.Add(Settings(ConstraintKind::kAim, {-1})), "constraints[0].joints[0]:"));
  ConstraintSettings s = Settings(ConstraintKind::kTwoBone, {1, 3, 4});
  s.common.weight = 2.0f;
  EXPECT_TRUE(StartsWith(rig.Add(s), "constraints[0].weight:"));
  s.common.weight = 1.0f;
  s.twoBone.settings.minAngle = -1.0f;
  EXPECT_TRUE(StartsWith(rig.Add(s), "constraints[0].minAngle:"));
  s.twoBone.settings.minAngle = 0.0f;
  s.twoBone.settings.maxStretch = 1.5f;
  EXPECT_TRUE(StartsWith(rig.Add(s), "constraints[0].maxStretch:"));
  EXPECT_EQ(rig.constraintCount(), 0u);
  s.twoBone.settings.maxStretch = 1.0f;
  ASSERT_TRUE(rig.Add(s).ok());
  s.common.settleTime = -1.0f;
  EXPECT_TRUE(StartsWith(rig.SetSettings(0, s), "constraints[0].settleTime:"));
  EXPECT_EQ(rig.settings(0).common.settleTime, 0.0f);
}

TEST(RigErrors, BadFramesNameTheInputAndChangeNothing) {
  iktest::Rng rng(2518);
  const ChainRig chain = RandomChain(rng, 5);
  Rig rig = MakeRig(chain), twin = MakeRig(chain);
  ConstraintSettings s = Settings(ConstraintKind::kTwoBone, {1, 2, 3});
  s.common.settleTime = 0.3f;
  for (Rig* r : {&rig, &twin}) {
    ASSERT_TRUE(r->Add(s).ok());
    r->frames()[0].target = glm::vec3(0.5f, 0.5f, 0.0f);
  }
  const std::vector<LocalTransform> pose = RandomPose(rng, chain.rest);
  std::vector<LocalTransform> out(5), twinOut(5), shortOut(4);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int f = 0; f < 10; ++f) {
    ASSERT_TRUE(rig.Update(1.0f / 60.0f, pose, {}, out).ok());
    ASSERT_TRUE(twin.Update(1.0f / 60.0f, pose, {}, twinOut).ok());
    // Failing calls on `rig` only.
    const std::vector<LocalTransform> before = out;
    EXPECT_TRUE(StartsWith(rig.Update(nan, pose, {}, out), "dt:"));
    EXPECT_TRUE(StartsWith(rig.Update(-1.0f, pose, {}, out), "dt:"));
    std::vector<LocalTransform> bad = pose;
    bad[3].rotation.x = nan;
    EXPECT_TRUE(StartsWith(rig.Update(0.1f, bad, {}, out), "in[3].rotation:"));
    bad = pose;
    bad[2].translation.y = std::numeric_limits<float>::infinity();
    EXPECT_TRUE(StartsWith(rig.Update(0.1f, bad, {}, out), "in[2].translation:"));
    EXPECT_TRUE(StartsWith(rig.Update(0.1f, std::span(pose).first(4), {}, out), "in:"));
    EXPECT_TRUE(StartsWith(rig.Update(0.1f, pose, {}, shortOut), "out:"));
    std::vector<std::uint8_t> flags(3);
    EXPECT_TRUE(StartsWith(rig.Update(0.1f, pose, {}, out, flags), "changed:"));
    LocalTransform root;
    root.scale.x = nan;
    EXPECT_TRUE(StartsWith(rig.Update(0.1f, pose, root, out), "root.scale:"));
    rig.frames()[0].target.z = nan;
    EXPECT_TRUE(StartsWith(rig.Update(0.1f, pose, {}, out), "frames[0].target:"));
    rig.frames()[0].target.z = 0.0f;
    EXPECT_EQ(std::memcmp(before.data(), out.data(), sizeof(LocalTransform) * out.size()), 0);
  }
  ASSERT_TRUE(rig.Update(1.0f / 60.0f, pose, {}, out).ok());
  ASSERT_TRUE(twin.Update(1.0f / 60.0f, pose, {}, twinOut).ok());
  EXPECT_EQ(std::memcmp(out.data(), twinOut.data(), sizeof(LocalTransform) * out.size()), 0);
}

TEST(RigErrors, BodyLookAtTakesSpineArmsAndLegs) {
  // pelvis 0 → spine 1 → chest 2 → neck 3 → head 4; arm 5 → 6 → 7 on the chest;
  // leg 8 → 9 → 10 on the pelvis.
  std::vector<int> parents = {-1, 0, 1, 2, 3, 2, 5, 6, 0, 8, 9};
  std::vector<LocalTransform> rest(11);
  const glm::vec3 t[11] = {{0, 1, 0},   {0, 0.2f, 0}, {0, 0.2f, 0}, {0, 0.2f, 0},  {0, 0.15f, 0}, {0.15f, 0.1f, 0},
                           {0.25f, 0, 0}, {0.25f, 0, 0}, {0.1f, -0.05f, 0}, {0, -0.45f, 0.02f}, {0, -0.45f, 0}};
  for (int j = 0; j < 11; ++j) rest[j].translation = t[j];
  Skeleton skeleton;
  ASSERT_TRUE(skeleton.Init(parents).ok());
  Rig rig;
  ASSERT_TRUE(rig.Init(skeleton, rest).ok());
  ConstraintSettings s = Settings(ConstraintKind::kBodyLookAt, {0, 1, 2, 3, 4});
  s.arms = {5, 6, 7};
  s.legs = {8, 9, 7};
  EXPECT_TRUE(StartsWith(rig.Add(s), "constraints[0].legs[2]:"));
  s.legs = {8, 9, 10, 8, 10, 9};  // the second leg's knee is below its ankle
  EXPECT_TRUE(StartsWith(rig.Add(s), "constraints[0].legs[5]: must be a descendant of legs[4]"));
  s.legs = {8, 9, 10};
  ASSERT_TRUE(rig.Add(s).ok());
  rig.frames()[0].target = glm::vec3(2.0f, 1.8f, 1.0f);
  std::vector<LocalTransform> out(11);
  for (int f = 0; f < 120; ++f) ASSERT_TRUE(rig.Update(1.0f / 60.0f, rest, {}, out).ok());
  const auto before = Fk(parents, rest), after = Fk(parents, out);
  EXPECT_EQ(rig.results()[0].active, 1.0f);
  EXPECT_NE(out[0].translation, rest[0].translation);  // the weight shift moved the pelvis
  EXPECT_LT(glm::length(after[10].position - before[10].position), 1e-3f);  // the foot stays locked
  const glm::vec3 look = after[4].rotation * rig.lookAxis(0);
  EXPECT_GT(glm::dot(look, glm::normalize(rig.frames()[0].target - after[4].position)), std::cos(0.02f));
}

// Locals that are each finite but whose model transforms overflow float (two
// translations of 3e38 in a row): the body look-at's pelvis keeps its animated
// translation instead of getting a NaN (found by rig_fuzz; every other job
// already keeps the animated pose when its input overflows).
TEST(RigRobustness, ModelOverflowLeavesThePelvisAsAnimated) {
  ikpd::rig::Skeleton skeleton;
  ASSERT_TRUE(skeleton.Init(std::vector<int>{-1, 0, 1, 2}));
  std::vector<LocalTransform> rest(4);
  for (std::size_t j = 1; j < 4; ++j) rest[j].translation = glm::vec3(0.0f, 0.3f, 0.0f);
  ikpd::rig::Rig rig;
  ASSERT_TRUE(rig.Init(skeleton, rest));
  ikpd::rig::ConstraintSettings s = ikpd::rig::DefaultSettings(ikpd::rig::ConstraintKind::kBodyLookAt);
  s.joints = {2, 3};
  ASSERT_TRUE(rig.Add(s));
  std::vector<LocalTransform> pose = rest, out(4);
  rig.frames()[0].target = glm::vec3(0.0f, 1.0f, 2.0f);
  for (int frame = 0; frame < 6; ++frame) {
    // Active first (a finite pose), then the same body far out: its model transforms overflow.
    const float far = frame < 3 ? 0.0f : 3e38f;
    pose[0].translation = glm::vec3(far, 0.0f, 0.0f);
    pose[1].translation = glm::vec3(far, 0.3f, 0.0f);
    ASSERT_TRUE(rig.Update(0.1f, pose, LocalTransform{}, out));
    for (const LocalTransform& t : out) {
      EXPECT_TRUE(ikpd::IsFinite(t.translation) && ikpd::IsFinite(t.scale) && ikpd::IsUsableRotation(t.rotation));
    }
  }
}

}  // namespace
