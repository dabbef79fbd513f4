// A rig with one constraint gives the single job's result (to float rounding)
// on random poses with random rest rotations: the rig only changes frames
// (canonical frames F_j, locals ↔ world), never the solve.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "native/rig_test_util.h"

namespace {

using namespace rigtest;
using ikpd::Transform;
using ikpd::rig::ConstraintKind;
using ikpd::rig::Rig;

constexpr int kCases = 1000;
constexpr float kRotationTolerance = 2e-5f;

// World joint k of the constraint as the job sees it: R·F.
Transform Canonical(const World& w, const glm::quat& f) { return {w.position, Unit(w.rotation * f)}; }

// One random case: a rig on a random chain of `joints` with the one
// constraint `settings(chain)` gives, a random pose and target, one update;
// the world joints before and after it.
struct OneUpdate {
  ChainRig chain;
  Rig rig;
  ikpd::rig::ConstraintSettings settings;
  std::vector<LocalTransform> pose, out;
  std::vector<World> before, after;

  template <class MakeSettings>
  OneUpdate(iktest::Rng& rng, std::size_t joints, MakeSettings make)
      : chain(RandomChain(rng, joints)), rig(MakeRig(chain)), settings(make()) {
    EXPECT_TRUE(rig.Add(settings).ok());
    pose = RandomPose(rng, chain.rest);
    rig.frames()[0].target = rng.Vec(-3.0f, 3.0f);
    out.resize(pose.size());
    EXPECT_TRUE(rig.Update(1.0f / 60.0f, pose, {}, out).ok());
    before = Fk(chain.parents, pose);
    after = Fk(chain.parents, out);
  }
  const glm::vec3& target() { return rig.frames()[0].target; }
};

TEST(RigEquivalence, TwoBoneEqualsTheJob) {
  iktest::Rng rng(2501);
  float worst = 0.0f;
  for (int i = 0; i < kCases; ++i) {
    OneUpdate u(rng, 5, [] { return Settings(ConstraintKind::kTwoBone, {1, 2, 3}); });
    const auto& [before, after] = std::tie(u.before, u.after);
    const auto f = u.rig.canonicalFrames(0);
    ikpd::TwoBoneJob job;
    ikpd::TwoBoneResult result;
    job.frame.root = Canonical(before[1], f[0]), job.frame.mid = Canonical(before[2], f[1]), job.frame.end = Canonical(before[3], f[2]);
    job.frame.target = u.target();
    job.result = &result;
    ASSERT_TRUE(job.Run().ok());
    const Transform solved[3] = {result.root, result.mid, result.end};
    for (int k = 0; k < 3; ++k) {
      const float gap = RotationGap(after[1 + k].rotation, solved[k].rotation * glm::conjugate(f[k]));
      worst = std::max(worst, gap);
      ASSERT_LT(gap, kRotationTolerance) << "case " << i << " joint " << k;
      ASSERT_LT(iktest::Dist(after[1 + k].position, solved[k].position), 1e-4) << "case " << i << " joint " << k;
    }
    EXPECT_NEAR(u.rig.results()[0].distance, result.distance, 1e-5f);
    // The untouched joints keep their locals; the tip below the end moves with it.
    EXPECT_EQ(u.out[0].rotation, u.pose[0].rotation);
    EXPECT_EQ(u.out[4].rotation, u.pose[4].rotation);
  }
  RecordProperty("worstRotationGap", std::to_string(worst));
}

TEST(RigEquivalence, AimEqualsTheJob) {
  iktest::Rng rng(2502);
  for (int i = 0; i < kCases; ++i) {
    OneUpdate u(rng, 3, [&] {
      ikpd::rig::ConstraintSettings s = Settings(ConstraintKind::kAim, {1});
      s.aim.settings.method = static_cast<ikpd::AimMethod>(i % 3);
      return s;
    });
    ikpd::AimJob job;
    glm::quat solved;
    job.frame.position = u.before[1].position, job.frame.rotation = u.before[1].rotation, job.frame.target = u.target();
    job.settings.forward = u.rig.lookAxis(0), job.settings.method = u.settings.aim.settings.method, job.result = &solved;
    ASSERT_TRUE(job.Run().ok());
    ASSERT_LT(RotationGap(u.after[1].rotation, solved), kRotationTolerance) << "case " << i;
    // The detected look axis is the character's facing (+Z) at rest.
    const auto rest = Fk(u.chain.parents, u.chain.rest);
    ASSERT_LT(glm::length(rest[1].rotation * u.rig.lookAxis(0) - glm::vec3(0, 0, 1)), 1e-5f);
  }
}

TEST(RigEquivalence, PseudoThreeBoneEqualsTheJob) {
  iktest::Rng rng(2503);
  for (int i = 0; i < kCases; ++i) {
    OneUpdate u(rng, 5, [&] {
      ikpd::rig::ConstraintSettings s = Settings(ConstraintKind::kPseudoThreeBone, {1, 2, 3, 4});
      s.pseudoThreeBone.frame.blend = rng.Uniform(0.0f, 1.0f);
      return s;
    });
    const auto& [before, after] = std::tie(u.before, u.after);
    const auto f = u.rig.canonicalFrames(0);
    ikpd::PseudoThreeBoneJob job = u.settings.pseudoThreeBone;
    ikpd::PseudoThreeBoneResult result;
    job.frame.limb.root = Canonical(before[1], f[0]), job.frame.limb.mid = Canonical(before[2], f[1]);
    job.frame.limb.end = Canonical(before[3], f[2]), job.frame.tip = Canonical(before[4], f[3]);
    job.frame.limb.target = u.target();
    job.result = &result;
    ASSERT_TRUE(job.Run().ok());
    const Transform solved[4] = {result.root, result.mid, result.end, result.tip};
    for (int k = 0; k < 4; ++k) {
      ASSERT_LT(RotationGap(after[1 + k].rotation, solved[k].rotation * glm::conjugate(f[k])), kRotationTolerance)
          << "case " << i << " joint " << k;
      ASSERT_LT(iktest::Dist(after[1 + k].position, solved[k].position), 1e-4) << "case " << i << " joint " << k;
    }
  }
}

TEST(RigEquivalence, ChainEqualsTheJob) {
  iktest::Rng rng(2504);
  for (int i = 0; i < kCases; ++i) {
    OneUpdate u(rng, 6, [&] {
      ikpd::rig::ConstraintSettings s = Settings(ConstraintKind::kChain, {1, 2, 3, 4, 5});
      s.chain.settings.method = i % 2 ? ikpd::ChainMethod::kCcd : ikpd::ChainMethod::kFabrik;
      s.chain.settings.iterations = 10;
      return s;
    });
    const auto& [before, after] = std::tie(u.before, u.after);
    const auto f = u.rig.canonicalFrames(0);
    std::vector<Transform> joints(5), output(5);
    for (int k = 0; k < 5; ++k) joints[k] = Canonical(before[1 + k], f[k]);
    ikpd::ChainJob job = u.settings.chain;
    ikpd::ChainResult result;
    job.frame.joints = joints, job.output = output, job.frame.target = u.target(), job.result = &result;
    ASSERT_TRUE(job.Run().ok());
    for (int k = 0; k < 5; ++k) {
      ASSERT_LT(RotationGap(after[1 + k].rotation, output[k].rotation * glm::conjugate(f[k])), 5 * kRotationTolerance)
          << "case " << i << " joint " << k;
      // The chain's own positions agree with its rotations to ~1e-5 of its length (up to 7.5 here).
      ASSERT_LT(iktest::Dist(after[1 + k].position, output[k].position), 5e-4) << "case " << i << " joint " << k;
    }
    EXPECT_EQ(u.rig.results()[0].iterations, static_cast<float>(result.iterations));
  }
}

TEST(RigEquivalence, LookAtEqualsTheRigObject) {
  iktest::Rng rng(2505);
  for (int i = 0; i < kCases; ++i) {
    const ChainRig chain = RandomChain(rng, 5);
    Rig rig = MakeRig(chain);
    ASSERT_TRUE(rig.Add(Settings(ConstraintKind::kLookAt, {1, 2, 3, 4})).ok());
    ikpd::LookAt look;
    const float weights[4] = {0.25f, 1.0f / 3.0f, 0.5f, 1.0f};
    ikpd::LookAtSettings ls;
    ls.weights = weights;
    ls.forward = rig.lookAxis(0);
    ASSERT_TRUE(look.Reset(ls).ok());
    const std::vector<LocalTransform> pose = RandomPose(rng, chain.rest);
    rig.frames()[0].target = rng.Vec(-3.0f, 3.0f);
    std::vector<LocalTransform> out(pose.size());
    const auto before = Fk(chain.parents, pose);
    std::vector<Transform> joints(4), output(4);
    for (int k = 0; k < 4; ++k) joints[k] = {before[1 + k].position, before[1 + k].rotation};
    for (int frame = 0; frame < 3; ++frame) {
      ASSERT_TRUE(rig.Update(1.0f / 60.0f, pose, {}, out).ok());
      ASSERT_TRUE(look.Update(1.0f / 60.0f, joints, rig.frames()[0].target, true, output).ok());
    }
    const auto after = Fk(chain.parents, out);
    for (int k = 0; k < 4; ++k) {
      ASSERT_LT(RotationGap(after[1 + k].rotation, output[k].rotation), kRotationTolerance) << "case " << i << " joint " << k;
      ASSERT_LT(iktest::Dist(after[1 + k].position, output[k].position), 1e-4) << "case " << i << " joint " << k;
    }
  }
}

}  // namespace

// Per-joint settle times (lookAtSettleTimes) reach the LookAt job: the rig
// follows the job with the same settleTimes over several frames, and not the
// job with one settle time for all (the head settles faster than the spine).
TEST(RigEquivalence, LookAtPerJointSettleTimesEqualTheJob) {
  iktest::Rng rng(2506);
  const float settle[4] = {0.6f, 0.45f, 0.3f, 0.1f};
  int differ = 0;
  for (int i = 0; i < kCases / 10; ++i) {
    const ChainRig chain = RandomChain(rng, 5);
    Rig rig = MakeRig(chain);
    ikpd::rig::ConstraintSettings settings = Settings(ConstraintKind::kLookAt, {1, 2, 3, 4});
    settings.lookAtSettleTimes.assign(settle, settle + 4);
    ASSERT_TRUE(rig.Add(settings).ok());
    ikpd::LookAt look, single;
    const float weights[4] = {0.25f, 1.0f / 3.0f, 0.5f, 1.0f};
    ikpd::LookAtSettings ls;
    ls.weights = weights;
    ls.forward = rig.lookAxis(0);
    ASSERT_TRUE(single.Reset(ls).ok());
    ls.settleTimes = settle;
    ASSERT_TRUE(look.Reset(ls).ok());
    const std::vector<LocalTransform> pose = RandomPose(rng, chain.rest);
    rig.frames()[0].target = rng.Vec(-3.0f, 3.0f);
    std::vector<LocalTransform> out(pose.size());
    const auto before = Fk(chain.parents, pose);
    std::vector<Transform> joints(4), output(4), singleOutput(4);
    for (int k = 0; k < 4; ++k) joints[k] = {before[1 + k].position, before[1 + k].rotation};
    float gapToSingle = 0.0f;
    for (int frame = 0; frame < 5; ++frame) {
      ASSERT_TRUE(rig.Update(1.0f / 60.0f, pose, {}, out).ok());
      ASSERT_TRUE(look.Update(1.0f / 60.0f, joints, rig.frames()[0].target, true, output).ok());
      ASSERT_TRUE(single.Update(1.0f / 60.0f, joints, rig.frames()[0].target, true, singleOutput).ok());
      const auto after = Fk(chain.parents, out);
      for (int k = 0; k < 4; ++k) {
        ASSERT_LT(RotationGap(after[1 + k].rotation, output[k].rotation), kRotationTolerance) << "case " << i << " joint " << k;
        gapToSingle = std::max(gapToSingle, RotationGap(after[1 + k].rotation, singleOutput[k].rotation));
      }
    }
    if (gapToSingle > 1e-3f) ++differ;
  }
  // A random target may need (nearly) no turn; most need one, and there the settle times show.
  EXPECT_GT(differ, kCases / 10 * 3 / 4);
}

TEST(RigEquivalence, LookAtPerJointSettleTimesAreChecked) {
  iktest::Rng rng(2507);
  const ChainRig chain = RandomChain(rng, 5);
  Rig rig = MakeRig(chain);
  ikpd::rig::ConstraintSettings settings = Settings(ConstraintKind::kLookAt, {1, 2, 3, 4});
  settings.lookAtSettleTimes = {0.3f, 0.2f};
  const ikpd::Status wrongCount = rig.Add(settings);
  ASSERT_FALSE(wrongCount.ok());
  EXPECT_NE(std::string(wrongCount.error).find("settleTime: needs one settle time per joint"), std::string::npos) << wrongCount.error;
  settings.lookAtSettleTimes = {0.3f, 0.2f, 0.0f, 0.1f};
  const ikpd::Status zero = rig.Add(settings);
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(std::string(zero.error).find("settleTime"), std::string::npos) << zero.error;
  EXPECT_EQ(rig.constraintCount(), 0u);
}
