// Rig behaviour: stacking order, real rigs' bone conventions and root
// transforms, pop-free and frame-rate independent smoothing (bad input: rig_errors_test.cc).
#include <gtest/gtest.h>

#include <cstring>

#include "native/rig_test_util.h"

namespace {

using namespace rigtest;

float Angle(const glm::quat& a, const glm::quat& b) {
  const float d = std::min(1.0f, std::abs(glm::dot(glm::normalize(a), glm::normalize(b))));
  return 2.0f * std::acos(d);
}

// --------------------------------------------------------------- stacking

TEST(RigStack, EachConstraintSeesThePosePreviousOnesLeft) {
  iktest::Rng rng(2510);
  for (int i = 0; i < 200; ++i) {
    const ChainRig chain = RandomChain(rng, 6);
    const std::vector<LocalTransform> pose = RandomPose(rng, chain.rest);
    ConstraintSettings c = Settings(ConstraintKind::kChain, {1, 2, 3, 4});
    c.chain.settings.iterations = 8;
    // Rig A: the chain alone. Rig B: the chain, then an aim on the chain's tip.
    Rig a = MakeRig(chain), b = MakeRig(chain);
    ASSERT_TRUE(a.Add(c).ok());
    ASSERT_TRUE(b.Add(c).ok());
    ASSERT_TRUE(b.Add(Settings(ConstraintKind::kAim, {4})).ok());
    const glm::vec3 reach = rng.Vec(-2.0f, 2.0f), look = rng.Vec(-4.0f, 4.0f);
    a.frames()[0].target = b.frames()[0].target = reach;
    b.frames()[1].target = look;
    std::vector<LocalTransform> outA(6), outB(6);
    ASSERT_TRUE(a.Update(0.0f, pose, {}, outA).ok());
    ASSERT_TRUE(b.Update(0.0f, pose, {}, outB).ok());
    // The chain's joints agree; the aim then turned the tip, from the chain's pose.
    for (int j = 0; j < 4; ++j) EXPECT_EQ(outA[j].rotation, outB[j].rotation);
    const auto chained = Fk(chain.parents, outA);
    ikpd::AimJob job;
    glm::quat solved;
    job.frame.position = chained[4].position, job.frame.rotation = chained[4].rotation, job.frame.target = look;
    job.settings.forward = b.lookAxis(1), job.result = &solved;
    ASSERT_TRUE(job.Run().ok());
    const auto after = Fk(chain.parents, outB);
    ASSERT_LT(RotationGap(after[4].rotation, solved), 2e-5f) << "case " << i;
    EXPECT_EQ(outB[5].rotation, pose[5].rotation);  // below the tip: carried, not written
  }
}

// Three constraints each below the one before on a chain (an aim, a two-bone
// below its joint, an aim below the two-bone): the rig gives bit for bit what
// three rigs of one constraint each give, the first's output the second's input.
// The second writes a joint already below a write, so its subtree must be marked
// again: the third reads its model transforms from the two-bone's pose.
TEST(RigStack, WritesBelowAWriteEqualRigsInSequence) {
  iktest::Rng rng(4303);
  for (int i = 0; i < 200; ++i) {
    const ChainRig chain = RandomChain(rng, 8);
    const std::vector<LocalTransform> pose = RandomPose(rng, chain.rest);
    const ConstraintSettings stack[] = {Settings(ConstraintKind::kAim, {1}), Settings(ConstraintKind::kTwoBone, {3, 4, 5}),
                                        Settings(ConstraintKind::kAim, {6})};
    const glm::vec3 targets[] = {rng.Vec(-4.0f, 4.0f), rng.Vec(-2.0f, 2.0f), rng.Vec(-4.0f, 4.0f)};
    Rig all = MakeRig(chain);
    std::vector<LocalTransform> in = pose, out(8), outAll(8);
    for (int k = 0; k < 3; ++k) {
      ASSERT_TRUE(all.Add(stack[k]).ok());
      all.frames()[static_cast<std::size_t>(k)].target = targets[k];
      Rig one = MakeRig(chain);
      ASSERT_TRUE(one.Add(stack[k]).ok());
      one.frames()[0].target = targets[k];
      ASSERT_TRUE(one.Update(0.0f, in, {}, out).ok());
      in = out;
    }
    ASSERT_TRUE(all.Update(0.0f, pose, {}, outAll).ok());
    for (int j = 0; j < 8; ++j) {
      ASSERT_TRUE(outAll[j].rotation == in[j].rotation && outAll[j].translation == in[j].translation) << "case " << i << ", joint " << j;
    }
  }
}

TEST(RigStack, ChangedFlagsOnlyTheWrittenJoints) {
  iktest::Rng rng(2511);
  const ChainRig chain = RandomChain(rng, 6);
  Rig rig = MakeRig(chain);
  ASSERT_TRUE(rig.Add(Settings(ConstraintKind::kTwoBone, {2, 3, 4})).ok());
  rig.frames()[0].target = glm::vec3(0.3f, 0.2f, 0.1f);
  const std::vector<LocalTransform> pose = RandomPose(rng, chain.rest);
  std::vector<LocalTransform> out(6);
  std::vector<std::uint8_t> changed(6, 7);
  ASSERT_TRUE(rig.Update(0.0f, pose, {}, out, changed).ok());
  const std::uint8_t expected[6] = {0, 0, 1, 1, 1, 0};
  for (int j = 0; j < 6; ++j) {
    EXPECT_EQ(changed[j], expected[j]) << j;
    EXPECT_EQ(changed[j] != 0, std::memcmp(&out[j], &pose[j], sizeof(LocalTransform)) != 0) << j;
  }
}

// --------------------------------------------------------------- real rigs

struct Convention {
  const char* name;
  glm::vec3 thigh, shin, foot;  // each bone's axis in its own joint frame
};

// A leg hip → knee → ankle → toe under a scaled, rotated pelvis, bones along
// each convention's axes, random rest rotations; the root transform is a
// translation, a rotation and a uniform scale.
TEST(RigConventions, TwoBoneReachesInEveryBoneConvention) {
  const Convention conventions[] = {
      {"+Y", {0, 1, 0}, {0, 1, 0}, {0, 1, 0}},
      {"-Z", {0, 0, -1}, {0, 0, -1}, {0, 0, -1}},
      {"-Y", {0, -1, 0}, {0, -1, 0}, {0, -1, 0}},
      {"mixed", {1, 0, 0}, {0, -1, 0}, {0, 0, 1}},
  };
  iktest::Rng rng(2512);
  for (const Convention& cv : conventions) {
    for (int i = 0; i < 200; ++i) {
      const float upper = rng.Uniform(0.3f, 0.6f), lower = rng.Uniform(0.3f, 0.6f);
      std::vector<int> parents = {-1, 0, 1, 2, 3};
      std::vector<LocalTransform> rest(5);
      rest[0].rotation = rng.Rotation();
      rest[0].scale = glm::vec3(rng.Uniform(0.5f, 2.0f));  // uniformly scaled parent
      rest[1].translation = rng.Vec(-0.2f, 0.2f);
      rest[1].rotation = rng.Rotation();
      rest[2].translation = cv.thigh * upper;
      rest[2].rotation = iktest::AxisAngle(rng.Direction(), rng.Uniform(0.05f, 1.0f));  // a bent knee at rest
      rest[3].translation = cv.shin * lower;
      rest[3].rotation = rng.Rotation();
      rest[4].translation = cv.foot * 0.1f;
      Skeleton skeleton;
      ASSERT_TRUE(skeleton.Init(parents).ok());
      Rig rig;
      ASSERT_TRUE(rig.Init(skeleton, rest).ok());
      ASSERT_TRUE(rig.Add(Settings(ConstraintKind::kTwoBone, {1, 2, 3})).ok());
      LocalTransform root;
      root.translation = rng.Vec(-5.0f, 5.0f);
      root.rotation = rng.Rotation();
      root.scale = glm::vec3(rng.Uniform(0.2f, 3.0f));
      std::vector<LocalTransform> pose = rest;
      pose[2].rotation = iktest::AxisAngle(rng.Direction(), rng.Uniform(0.2f, 1.5f));
      const auto before = Fk(parents, pose, root);
      const float scale = root.scale.x * rest[0].scale.x;
      const float reach = (upper + lower) * scale;
      const float dist = rng.Uniform(std::abs(upper - lower) * scale + 0.05f * reach, 0.95f * reach);
      const glm::vec3 target = before[1].position + rng.Direction() * dist;
      rig.frames()[0].target = target;
      std::vector<LocalTransform> out(5);
      ASSERT_TRUE(rig.Update(0.0f, pose, root, out).ok());
      const auto after = Fk(parents, out, root);
      ASSERT_LT(glm::length(after[3].position - target), 1e-4f * reach) << cv.name << " case " << i;
      EXPECT_EQ(rig.results()[0].reached, 1.0f) << cv.name << " case " << i;
      // Bone lengths kept: the rig writes rotations only.
      EXPECT_NEAR(glm::length(after[2].position - after[1].position), upper * scale, 1e-4f * reach);
    }
  }
}

// A spine whose bones point along mixed axes and whose head bone's axis is
// not +Z: after settling, the head looks along the character's facing (the
// detected axis) straight at the target, under a rotated, scaled root.
TEST(RigConventions, LookAtHeadFacesTheTarget) {
  iktest::Rng rng(2513);
  for (int i = 0; i < 100; ++i) {
    std::vector<int> parents = {-1, 0, 1, 2, 3};
    std::vector<LocalTransform> rest(5);
    const glm::vec3 axes[] = {{0, 1, 0}, {0, 0, -1}, {1, 0, 0}, {0, -1, 0}};
    for (int j = 1; j < 5; ++j) {
      rest[j].translation = axes[(i + j) % 4] * 0.3f;
      rest[j].rotation = rng.Rotation();
    }
    rest[0].scale = glm::vec3(1.5f);
    Skeleton skeleton;
    ASSERT_TRUE(skeleton.Init(parents).ok());
    Rig rig;
    ASSERT_TRUE(rig.Init(skeleton, rest).ok());
    ConstraintSettings s = Settings(ConstraintKind::kLookAt, {1, 2, 3, 4});
    s.common.settleTime = 0.1f;
    ASSERT_TRUE(rig.Add(s).ok());
    LocalTransform root;
    root.translation = rng.Vec(-3.0f, 3.0f);
    root.rotation = iktest::AxisAngle({0, 1, 0}, rng.Uniform(-3.0f, 3.0f));
    root.scale = glm::vec3(0.8f);
    // In the rest pose the head looks along the character's facing, rotated with the root.
    const auto restWorld = Fk(parents, rest, root);
    const glm::vec3 facing = root.rotation * glm::vec3(0, 0, 1);
    ASSERT_LT(glm::length(restWorld[4].rotation * rig.lookAxis(0) - facing), 1e-5f);
    // A target ahead and off to the side; settle, then the head faces it.
    const glm::vec3 target = restWorld[4].position + 3.0f * facing + rng.Vec(-1.0f, 1.0f);
    rig.frames()[0].target = target;
    std::vector<LocalTransform> out(5);
    for (int frame = 0; frame < 240; ++frame) ASSERT_TRUE(rig.Update(1.0f / 60.0f, rest, root, out).ok());
    const auto after = Fk(parents, out, root);
    const glm::vec3 look = after[4].rotation * rig.lookAxis(0);
    const glm::vec3 to = glm::normalize(target - after[4].position);
    EXPECT_GT(glm::dot(look, to), std::cos(2e-3f)) << "case " << i;
    EXPECT_EQ(rig.results()[0].reached, 1.0f);
  }
}

// --------------------------------------------------------------- smoothing

struct Sample {
  std::vector<glm::quat> rotations;
};

// A two-bone arm and an aim on another branch, smoothed, run at `hz` for 2 s
// while the script toggles enabled and changes weight; returns the pose every
// 1/30 s and the largest per-frame change of any local rotation.
std::vector<Sample> RunScript(int hz, float* largestStep, float settleTime) {
  iktest::Rng rng(2514);
  ChainRig chain = RandomChain(rng, 6);
  chain.parents[5] = 0;
  Rig rig = MakeRig(chain);
  ConstraintSettings arm = Settings(ConstraintKind::kTwoBone, {1, 2, 3});
  arm.common.settleTime = settleTime;
  ConstraintSettings aim = Settings(ConstraintKind::kAim, {5});
  aim.common.settleTime = settleTime;
  EXPECT_TRUE(rig.Add(arm).ok());
  EXPECT_TRUE(rig.Add(aim).ok());
  const std::vector<LocalTransform> pose = RandomPose(rng, chain.rest);
  rig.frames()[0].target = glm::vec3(0.5f, 1.0f, 0.2f);
  rig.frames()[1].target = glm::vec3(-2.0f, 1.0f, 3.0f);
  std::vector<LocalTransform> out(6), previous = pose;
  std::vector<Sample> samples;
  *largestStep = 0.0f;
  const int frames = 2 * hz;
  for (int f = 0; f < frames; ++f) {
    const int tick = f * 30 / hz;  // the script runs on 1/30 s ticks (common to every rate)
    if (f * 30 % hz == 0) {
      if (tick == 15) { arm.common.weight = 0.3f; aim.common.weight = 0.5f; }
      if (tick == 30) { arm.common.enabled = false; aim.common.enabled = false; }
      if (tick == 45) { arm.common.enabled = true; arm.common.weight = 1.0f; aim.common.enabled = true; }
      EXPECT_TRUE(rig.SetSettings(0, arm).ok());
      EXPECT_TRUE(rig.SetSettings(1, aim).ok());
    }
    EXPECT_TRUE(rig.Update(1.0f / static_cast<float>(hz), pose, {}, out).ok());
    for (int j = 0; j < 6; ++j) *largestStep = std::max(*largestStep, Angle(out[j].rotation, previous[j].rotation));
    previous = out;
    if ((f + 1) * 30 % hz == 0) {
      Sample s;
      for (const LocalTransform& t : out) s.rotations.push_back(t.rotation);
      samples.push_back(s);
    }
  }
  return samples;
}

TEST(RigSmoothing, FrameRateIndependentAndPopFree) {
  float step30 = 0.0f, step60 = 0.0f, step240 = 0.0f;
  const auto at30 = RunScript(30, &step30, 0.25f);
  const auto at60 = RunScript(60, &step60, 0.25f);
  const auto at240 = RunScript(240, &step240, 0.25f);
  ASSERT_EQ(at30.size(), 60u);
  ASSERT_EQ(at60.size(), at30.size());
  ASSERT_EQ(at240.size(), at30.size());
  float gap = 0.0f;
  for (std::size_t s = 0; s < at30.size(); ++s) {
    for (std::size_t j = 0; j < at30[s].rotations.size(); ++j) {
      gap = std::max(gap, Angle(at30[s].rotations[j], at60[s].rotations[j]));
      gap = std::max(gap, Angle(at30[s].rotations[j], at240[s].rotations[j]));
    }
  }
  EXPECT_LT(gap, 2e-3f) << "poses at common times differ between 30, 60 and 240 Hz";
  // No pop: the largest per-frame change shrinks with the frame time, as the
  // PD's bounded angular speed allows (a pop would be the whole offset in one
  // frame at any rate).
  EXPECT_LT(step240, 0.3f * step60);
  EXPECT_LT(step60, 0.75f * step30);
  // Without smoothing the same script does pop: the test can tell.
  float raw = 0.0f;
  RunScript(240, &raw, 0.0f);
  EXPECT_GT(raw, 0.2f);
}

TEST(RigSmoothing, DisabledBlendsOutToTheAnimatedPoseExactly) {
  iktest::Rng rng(2515);
  const ChainRig chain = RandomChain(rng, 5);
  Rig rig = MakeRig(chain);
  ConstraintSettings s = Settings(ConstraintKind::kTwoBone, {1, 2, 3});
  s.common.settleTime = 0.2f;
  ASSERT_TRUE(rig.Add(s).ok());
  rig.frames()[0].target = glm::vec3(0.4f, 0.3f, 0.2f);
  const std::vector<LocalTransform> pose = RandomPose(rng, chain.rest);
  std::vector<LocalTransform> out(5);
  std::vector<std::uint8_t> changed(5);
  for (int f = 0; f < 60; ++f) ASSERT_TRUE(rig.Update(1.0f / 60.0f, pose, {}, out, changed).ok());
  EXPECT_EQ(rig.results()[0].active, 1.0f);
  s.common.enabled = false;
  ASSERT_TRUE(rig.SetSettings(0, s).ok());
  for (int f = 0; f < 120; ++f) ASSERT_TRUE(rig.Update(1.0f / 60.0f, pose, {}, out, changed).ok());
  EXPECT_EQ(rig.results()[0].active, 0.0f);
  for (int j = 0; j < 5; ++j) {
    EXPECT_EQ(std::memcmp(&out[j], &pose[j], sizeof(LocalTransform)), 0) << j;
    EXPECT_EQ(changed[j], 0) << j;
  }
}

// Turning smoothing on (settleTime 0 → 0.3) starts the weight's PD at the
// weight applied last: the joints stay where they were instead of snapping back.
TEST(RigSmoothing, TurningSmoothingOnDoesNotPop) {
  iktest::Rng rng(2519);
  const ChainRig chain = RandomChain(rng, 5);
  Rig rig = MakeRig(chain);
  ConstraintSettings s = Settings(ConstraintKind::kTwoBone, {1, 2, 3});
  ASSERT_TRUE(rig.Add(s).ok());
  rig.frames()[0].target = glm::vec3(0.4f, 0.3f, 0.2f);
  const std::vector<LocalTransform> pose = RandomPose(rng, chain.rest);
  std::vector<LocalTransform> out(5), previous(5);
  ASSERT_TRUE(rig.Update(1.0f / 60.0f, pose, {}, out).ok());
  previous = out;
  float solvedAway = 0.0f;
  for (int j = 1; j < 4; ++j) solvedAway = std::max(solvedAway, Angle(out[j].rotation, pose[j].rotation));
  ASSERT_GT(solvedAway, 0.1f);
  s.common.settleTime = 0.3f;
  ASSERT_TRUE(rig.SetSettings(0, s).ok());
  ASSERT_TRUE(rig.Update(1.0f / 60.0f, pose, {}, out).ok());
  for (int j = 1; j < 4; ++j) EXPECT_LT(Angle(out[j].rotation, previous[j].rotation), 1e-3f) << j;
}

// Changing a look-at's weight (or gains) keeps its smoothing state: the head
// moves on smoothly instead of restarting from the animated pose.
TEST(RigSmoothing, LookAtWeightChangeDoesNotReset) {
  iktest::Rng rng(2516);
  const ChainRig chain = RandomChain(rng, 5);
  Rig rig = MakeRig(chain);
  ConstraintSettings s = Settings(ConstraintKind::kLookAt, {1, 2, 3, 4});
  s.lookAt.maxYaw = ikpd::kPi;  // the target is past the default maxYaw (2 rad) of this random chain's facing
  ASSERT_TRUE(rig.Add(s).ok());
  const auto rest = Fk(chain.parents, chain.rest);
  rig.frames()[0].target = rest[4].position + glm::vec3(3.0f, 0.0f, 0.0f);
  std::vector<LocalTransform> out(5), previous(5);
  for (int f = 0; f < 120; ++f) ASSERT_TRUE(rig.Update(1.0f / 60.0f, chain.rest, {}, out).ok());
  previous = out;
  s.common.weight = 0.5f;
  s.common.settleTime = 0.4f;
  ASSERT_TRUE(rig.SetSettings(0, s).ok());
  ASSERT_TRUE(rig.Update(1.0f / 60.0f, chain.rest, {}, out).ok());
  for (int j = 1; j < 5; ++j) EXPECT_LT(Angle(out[j].rotation, previous[j].rotation), 0.05f) << j;
  // ... and it does turn back toward the half-weight pose over time.
  for (int f = 0; f < 240; ++f) ASSERT_TRUE(rig.Update(1.0f / 60.0f, chain.rest, {}, out).ok());
  EXPECT_GT(Angle(out[4].rotation, previous[4].rotation), 0.05f);
}

TEST(RigSmoothing, LookAtConfigureKeepsOffsets) {
  const float weights[3] = {0.3f, 0.5f, 1.0f};
  ikpd::LookAtSettings ls;
  ls.weights = weights;
  ikpd::LookAt look;
  ASSERT_TRUE(look.Reset(ls).ok());
  const ikpd::Transform joints[3] = {{{0, 0, 0}, {1, 0, 0, 0}}, {{0, 1, 0}, {1, 0, 0, 0}}, {{0, 2, 0}, {1, 0, 0, 0}}};
  ikpd::Transform out[3];
  for (int f = 0; f < 30; ++f) ASSERT_TRUE(look.Update(1.0f / 60.0f, joints, {3, 2, 0}, true, out).ok());
  const glm::quat before = look.offsets()[2];
  ASSERT_NE(before, glm::quat(1, 0, 0, 0));
  ls.settleTime = 0.5f;
  ASSERT_TRUE(look.Configure(ls).ok());
  EXPECT_EQ(look.offsets()[2], before);
  ASSERT_TRUE(look.Reset(ls).ok());
  EXPECT_EQ(look.offsets()[2], glm::quat(1, 0, 0, 0));
}

}  // namespace
