// The chain job split into settings, frame and result (docs/ik/prepared-solvers.md):
// Prepare once, SolveChain per frame gives ChainJob::Run's output bit for bit
// (both methods, limits, poles, parent rotations, huge and tiny chains);
// Validate is pure; errors name the parameter and leave the output untouched.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "ikpd/ikpd.h"
#include "native/chain_test_util.h"
#include "native/rig_test_util.h"

namespace {

using chaintest::Rng;
using ikpd::ChainFrame;
using ikpd::ChainJob;
using ikpd::ChainResult;
using ikpd::ChainSettings;
using ikpd::ChainSetup;
using ikpd::JointLimit;
using ikpd::Transform;
using LocalTransformAlias = ikpd::rig::LocalTransform;

bool Same(const std::vector<Transform>& a, const std::vector<Transform>& b) {
  return std::memcmp(a.data(), b.data(), sizeof(Transform) * a.size()) == 0;
}

TEST(ChainPrepared, SolveChainEqualsRunBitForBit) {
  Rng rng(2501);
  for (int t = 0; t < 4000; ++t) {
    const std::size_t n = 2 + static_cast<std::size_t>(rng.Uniform(0.0f, 9.0f));
    const float scale = t % 7 == 0 ? 1e6f : t % 11 == 0 ? 1e-5f : 1.0f;
    std::vector<Transform> joints(n);
    for (std::size_t i = 0; i < n; ++i) {
      joints[i].position = (i == 0 ? glm::vec3(rng.Uniform(-2, 2), rng.Uniform(-2, 2), rng.Uniform(-2, 2))
                                   : joints[i - 1].position / scale + rng.Direction() * rng.Uniform(0.0f, 1.0f)) * scale;
      joints[i].rotation = rng.Rotation() * rng.Uniform(0.5f, 2.0f);
    }
    std::vector<JointLimit> limits;
    if (t % 3 == 0) {
      limits.resize(t % 2 == 0 ? n : n - 1);
      for (JointLimit& l : limits) {
        if (rng.Uniform(0.0f, 1.0f) < 0.5f) {
          l.kind = JointLimit::Kind::kCone, l.angle = rng.Uniform(0.0f, 2.0f);
        } else {
          l.kind = JointLimit::Kind::kEuler, l.min = glm::vec3(-rng.Uniform(0.0f, 1.0f)), l.max = glm::vec3(rng.Uniform(0.0f, 1.0f));
        }
      }
    }
    ChainJob job;
    job.frame.joints = joints;
    job.frame.target = rng.Direction() * rng.Uniform(0.0f, 3.0f) * scale + joints[0].position;
    job.settings.method = t % 2 == 0 ? ikpd::ChainMethod::kCcd : ikpd::ChainMethod::kFabrik;
    job.settings.iterations = static_cast<int>(rng.Uniform(0.0f, 40.0f));
    job.settings.tolerance = t % 5 == 0 ? 0.0f : 1e-4f;
    job.settings.limits = limits;
    if (t % 4 == 0) job.frame.pole = rng.Direction() * 5.0f * scale;
    job.settings.forward = rng.Direction() * rng.Uniform(0.1f, 3.0f);
    job.frame.parentRotation = rng.Rotation();
    std::vector<Transform> expected(n), actual(n, Transform{glm::vec3(7.0f), glm::quat(1, 0, 0, 0)});
    ChainResult r1, r2;
    job.output = expected;
    job.result = &r1;
    ASSERT_TRUE(job.Run().ok());

    ChainSetup setup;
    ASSERT_TRUE(ikpd::Prepare(job.settings, &setup).ok());
    ASSERT_TRUE(setup.prepared());
    ASSERT_TRUE(ikpd::SolveChain(setup, job.frame, actual, &r2).ok());
    ASSERT_TRUE(Same(expected, actual)) << "case " << t;
    EXPECT_EQ(r1.reached, r2.reached);
    EXPECT_EQ(std::memcmp(&r1.distance, &r2.distance, sizeof(float)), 0);
    EXPECT_EQ(r1.iterations, r2.iterations);
    // A second frame with the same setup: the setup holds no state.
    ASSERT_TRUE(ikpd::SolveChain(setup, job.frame, actual, nullptr).ok());
    ASSERT_TRUE(Same(expected, actual)) << "case " << t;
  }
}

TEST(ChainPrepared, ValidateIsPure) {
  std::vector<Transform> joints(3), out(3);
  for (int i = 0; i < 3; ++i) joints[i].position = glm::vec3(static_cast<float>(i), 0, 0);
  ChainJob job;
  job.frame.joints = joints;
  job.output = out;
  job.frame.target = glm::vec3(1, 1, 0);
  for (int k = 0; k < 3; ++k) EXPECT_TRUE(job.Validate().ok());
  job.settings.tolerance = -1.0f;
  for (int k = 0; k < 3; ++k) EXPECT_STREQ(job.Validate().error, "tolerance: must be a finite number >= 0");
  job.settings.tolerance = 1e-4f;
  EXPECT_TRUE(job.Validate().ok());
}

TEST(ChainPrepared, ErrorsNameTheParameterAndChangeNothing) {
  ChainSettings s;
  ChainSetup setup;
  s.iterations = -1;
  EXPECT_STREQ(ikpd::Prepare(s, &setup).error, "iterations: must be in [0, 10000]");
  EXPECT_FALSE(setup.prepared());
  s.iterations = 20;
  s.forward = glm::vec3(0.0f);
  EXPECT_STREQ(ikpd::Prepare(s, &setup).error, "forward: must be a finite non-zero vector");
  s.forward = glm::vec3(0, 2, 0);
  JointLimit bad;
  bad.kind = JointLimit::Kind::kCone, bad.angle = 4.0f;
  s.limits = std::span<const JointLimit>(&bad, 1);
  EXPECT_STREQ(ikpd::Prepare(s, &setup).error, "limits: cone angle must be in [0, pi]");
  EXPECT_FALSE(setup.prepared());

  std::vector<Transform> joints(4), out(4, Transform{glm::vec3(7.0f), glm::quat(1, 0, 0, 0)});
  for (int i = 0; i < 4; ++i) joints[i].position = glm::vec3(0, static_cast<float>(i), 0);
  ChainFrame frame{joints, glm::vec3(1, 1, 0), std::nullopt, glm::quat(1, 0, 0, 0)};
  EXPECT_STREQ(ikpd::SolveChain(setup, frame, out).error, "setup: not prepared (Prepare first)");
  const JointLimit two[2] = {};
  s.limits = two;  // 2 entries for 4 joints
  ASSERT_TRUE(ikpd::Prepare(s, &setup).ok());
  EXPECT_EQ(setup.unitForward(), glm::vec3(0, 1, 0));
  EXPECT_STREQ(ikpd::SolveChain(setup, frame, out).error, "limits: needs one entry per joint (or per bone)");
  s.limits = {};
  ASSERT_TRUE(ikpd::Prepare(s, &setup).ok());
  frame.pole = glm::vec3(NAN);
  EXPECT_STREQ(ikpd::SolveChain(setup, frame, out).error, "pole: must be finite");
  frame.pole.reset();
  frame.parentRotation = glm::quat(0, 0, 0, 0);
  EXPECT_STREQ(ikpd::SolveChain(setup, frame, out).error, "parentRotation: must be finite and non-zero");
  frame.parentRotation = glm::quat(1, 0, 0, 0);
  EXPECT_STREQ(ikpd::SolveChain(setup, frame, std::span<Transform>(out.data(), 3)).error, "output: needs one entry per joint");
  for (const Transform& t : out) EXPECT_EQ(t.position, glm::vec3(7.0f));
  ASSERT_TRUE(ikpd::SolveChain(setup, frame, out).ok());
  EXPECT_NE(out[0].position, glm::vec3(7.0f));
}

// The rig's chain constraint solves with settings prepared at configure time;
// a copy of a rig (its limits in new storage) solves like the original after
// the original is gone.
TEST(ChainPrepared, RigChainPreparedOnceAndCopiesWork) {
  iktest::Rng rng(2502);
  const rigtest::ChainRig chain = rigtest::RandomChain(rng, 6);
  std::vector<LocalTransformAlias> out1(6), out2(6);
  ikpd::rig::ConstraintSettings s = rigtest::Settings(ikpd::rig::ConstraintKind::kChain, {1, 2, 3, 4, 5});
  s.chainLimits.resize(4);
  for (JointLimit& l : s.chainLimits) l.kind = JointLimit::Kind::kCone, l.angle = 0.5f;
  s.chain.settings.method = ikpd::ChainMethod::kCcd;
  auto original = std::make_unique<ikpd::rig::Rig>(rigtest::MakeRig(chain));
  ASSERT_TRUE(original->Add(s).ok());
  ikpd::rig::Rig fresh = rigtest::MakeRig(chain);
  ASSERT_TRUE(fresh.Add(s).ok());
  ikpd::rig::Rig copy = *original;
  original.reset();
  const std::vector<LocalTransformAlias> pose = rigtest::RandomPose(rng, chain.rest);
  copy.frames()[0].target = fresh.frames()[0].target = glm::vec3(0.5f, 1.0f, 0.5f);
  for (int f = 0; f < 3; ++f) {
    ASSERT_TRUE(copy.Update(1.0f / 60.0f, pose, {}, out1).ok());
    ASSERT_TRUE(fresh.Update(1.0f / 60.0f, pose, {}, out2).ok());
    ASSERT_EQ(std::memcmp(out1.data(), out2.data(), sizeof(LocalTransformAlias) * out1.size()), 0);
  }
  EXPECT_NE(out1[1].rotation, pose[1].rotation);
}

}  // namespace
