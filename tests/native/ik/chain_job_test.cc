// N-bone chains (CCD, FABRIK): reach, lengths, rotations consistent with
// positions, pole, degenerate input, validation (limits: chain_limits_test.cc).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "ikpd/ikpd.h"
#include "native/chain_test_util.h"

namespace {

using ikpd::ChainJob;
using ikpd::ChainMethod;
using ikpd::JointLimit;
using ikpd::Transform;

const glm::quat kId(1.0f, 0.0f, 0.0f, 0.0f);

using chaintest::ArcOf;
using chaintest::ExpectWellFormed;
using chaintest::JobAlongY;
using chaintest::Rng;
using chaintest::Solve;

// A chain from `root` along random directions; rotations random (not aligned) unless `aligned`.
std::vector<Transform> RandomChain(Rng& rng, const std::vector<float>& lengths, glm::vec3 root, bool aligned,
                                   glm::vec3 forward = {0, 1, 0}) {
  std::vector<Transform> joints(lengths.size() + 1);
  joints[0].position = root;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const glm::vec3 d = rng.Direction();
    joints[i + 1].position = joints[i].position + d * lengths[i];
    joints[i].rotation = aligned ? ArcOf(forward, d) : rng.Rotation();
  }
  joints.back().rotation = rng.Rotation();
  return joints;
}

float Total(const std::vector<float>& lengths) {
  float s = 0;
  for (float l : lengths) s += l;
  return s;
}

class ChainMethods : public ::testing::TestWithParam<ChainMethod> {};

TEST_P(ChainMethods, ReachesReachableTargetsKeepingLengths) {
  Rng rng(7);
  int reached = 0, total = 0;
  float worst = 0.0f;
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t bones = 2 + static_cast<std::size_t>(trial % 11);
    std::vector<float> lengths(bones);
    for (float& l : lengths) l = rng.Uniform(0.2f, 1.5f);
    const glm::vec3 root(rng.Uniform(-1, 1), rng.Uniform(-1, 1), rng.Uniform(-1, 1));
    const std::vector<Transform> in = RandomChain(rng, lengths, root, trial % 2 == 0);
    const glm::vec3 target = RandomChain(rng, lengths, root, true).back().position;  // reachable by construction
    const float length = Total(lengths);
    ChainJob job = JobAlongY(GetParam(), target, 500);
    job.settings.tolerance = 1e-4f;
    std::vector<Transform> out;
    const ikpd::ChainResult r = Solve(job, in, out);
    ExpectWellFormed(in, out, job.settings.forward, length);
    EXPECT_NEAR(r.distance, glm::distance(out.back().position, target), 1e-6f);
    EXPECT_EQ(r.reached, r.distance <= job.settings.tolerance * length);
    reached += r.reached;
    ++total;
    worst = std::max(worst, r.distance / length);
  }
  // Both methods converge for random reachable targets; allow rare slow cases but bound them.
  EXPECT_GE(reached, total * 99 / 100) << "reached " << reached << " of " << total;
  EXPECT_LT(worst, 1e-2f);
}

TEST_P(ChainMethods, TenBonesReachQuickly) {
  Rng rng(11);
  std::vector<float> lengths(10, 0.5f);
  int maxIterations = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const std::vector<Transform> in = RandomChain(rng, lengths, {0, 0, 0}, true);
    // A target anywhere within 90% of the reach (the usual animation case).
    const glm::vec3 target = rng.Direction() * rng.Uniform(0.5f, 4.5f);
    ChainJob job = JobAlongY(GetParam(), target, 50);
    job.settings.tolerance = 1e-4f;
    std::vector<Transform> out;
    const ikpd::ChainResult r = Solve(job, in, out);
    ASSERT_TRUE(r.reached) << "trial " << trial << " distance " << r.distance;
    maxIterations = std::max(maxIterations, r.iterations);
  }
  RecordProperty("maxIterations", maxIterations);
}

TEST_P(ChainMethods, UnreachableTargetStretchesStraightTowardIt) {
  Rng rng(3);
  std::vector<float> lengths{1.0f, 0.5f, 0.75f, 0.25f};
  for (int trial = 0; trial < 100; ++trial) {
    const std::vector<Transform> in = RandomChain(rng, lengths, {0, 0, 0}, trial % 2 == 0);
    const glm::vec3 target = rng.Direction() * rng.Uniform(2.6f, 10.0f);
    ChainJob job = JobAlongY(GetParam(), target, 200);
    std::vector<Transform> out;
    const ikpd::ChainResult r = Solve(job, in, out);
    ExpectWellFormed(in, out, job.settings.forward, 2.5f);
    EXPECT_FALSE(r.reached);
    EXPECT_NEAR(r.distance, glm::length(target) - 2.5f, 2e-3f);
    for (std::size_t i = 1; i < out.size(); ++i) {
      EXPECT_GT(glm::dot(glm::normalize(out[i].position), glm::normalize(target)), 1.0f - 1e-4f);
    }
  }
}

TEST_P(ChainMethods, DegenerateInputStaysFinite) {
  const glm::vec3 forward(0, 1, 0);
  // Coincident joints (zero-length bones), target at the root, all joints at one point.
  std::vector<std::vector<Transform>> chains;
  chains.push_back({{{0, 0, 0}, kId}, {{0, 0, 0}, kId}, {{0, 1, 0}, kId}, {{0, 1, 0}, kId}, {{0, 2, 0}, kId}});
  chains.push_back({{{1, 1, 1}, kId}, {{1, 1, 1}, kId}, {{1, 1, 1}, kId}});
  chains.push_back({{{0, 0, 0}, kId}, {{0, 1, 0}, kId}, {{0, 2, 0}, kId}, {{0, 3, 0}, kId}});
  const glm::vec3 targets[] = {{0, 0, 0}, {1, 1, 1}, {0, 3, 0}, {0, -3, 0}, {0, -1, 0}, {0, 0, 1e-30f}};
  for (const auto& in : chains) {
    for (const glm::vec3& target : targets) {
      for (int limited = 0; limited < 2; ++limited) {
        std::vector<JointLimit> limits(in.size());
        if (limited) {
          for (JointLimit& l : limits) {
            l.kind = JointLimit::Kind::kCone;
            l.angle = 0.5f;
          }
        }
        ChainJob job;
        job.settings.method = GetParam();
        job.settings.forward = {0, 1, 0};
        job.frame.target = target;
        job.settings.limits = limits;
        job.frame.pole = {0, 10, 0};  // on the chain's axis: collinear pole
        std::vector<Transform> out;
        Solve(job, in, out);
        ExpectWellFormed(in, out, forward, 3.0f);
      }
    }
  }
}

TEST_P(ChainMethods, LeavesACollinearChainAndTarget) {
  // Straight chain with the target on its own line, inside the reach: every joint's
  // turn is 0 or 180°, which by itself never leaves the line.
  for (const float along : {0.6001f, 0.0f, -0.9f, 2.5f}) {
    std::vector<Transform> in(6);
    for (std::size_t i = 0; i < 6; ++i) in[i].position = {0, 0.2f * static_cast<float>(i), 0};
    ChainJob job = JobAlongY(GetParam(), {0, along, 0}, 1000);
    std::vector<Transform> out;
    const ikpd::ChainResult r = Solve(job, in, out);
    ExpectWellFormed(in, out, job.settings.forward, 1.0f);
    if (along < 1.0f) {
      EXPECT_TRUE(r.reached) << "target at " << along << ", distance " << r.distance;
    } else {
      EXPECT_NEAR(r.distance, along - 1.0f, 1e-5f);  // out of reach: straight toward it
    }
  }
}

TEST_P(ChainMethods, HugeAndTinyMagnitudesScaleExactly) {
  Rng rng(13);
  std::vector<float> lengths{1.0f, 0.7f, 0.5f};
  const std::vector<Transform> unit = RandomChain(rng, lengths, {0.5f, -0.25f, 1.0f}, false);
  const glm::vec3 target(1.0f, 1.0f, 0.2f);
  ChainJob job;
  job.settings.method = GetParam();
  job.settings.forward = {0, 1, 0};
  job.settings.iterations = 30;
  job.frame.pole = {0, 0, 3};
  std::vector<Transform> reference;
  job.frame.target = target;
  Solve(job, unit, reference);
  for (const float scale : {1e30f, 1e-30f, 3e38f / 4.0f}) {
    std::vector<Transform> in = unit;
    for (Transform& t : in) t.position *= scale;
    job.frame.target = target * scale;
    job.frame.pole = glm::vec3(0, 0, 3) * scale;
    std::vector<Transform> out;
    const ikpd::ChainResult r = Solve(job, in, out);
    for (std::size_t i = 0; i < in.size(); ++i) {
      ASSERT_TRUE(ikpd::IsFinite(out[i]));
      EXPECT_LT(glm::distance(out[i].position / scale, reference[i].position), 1e-4f) << "scale " << scale;
      EXPECT_GT(std::abs(glm::dot(out[i].rotation, reference[i].rotation)), 1.0f - 1e-5f);
    }
    EXPECT_TRUE(std::isfinite(r.distance));
  }
  // Huge spread that cannot be represented after solving: clamped, never Inf/NaN.
  std::vector<Transform> wide{{{3e38f, 0, 0}, kId}, {{-3e38f, 0, 0}, kId}, {{3e38f, 0, 0}, kId}};
  job.frame.target = {-3e38f, 3e38f, 0};
  job.frame.pole.reset();
  std::vector<Transform> out;
  Solve(job, wide, out);
  for (const Transform& t : out) EXPECT_TRUE(ikpd::IsFinite(t));
}

TEST_P(ChainMethods, PoleChoosesTheBendSide) {
  // Straight 4-bone chain, target closer than full reach: it must bend; the pole picks the side.
  std::vector<Transform> in(5);
  for (std::size_t i = 0; i < 5; ++i) in[i].position = {0.01f * static_cast<float>(i % 2), static_cast<float>(i), 0};
  for (const glm::vec3& pole : {glm::vec3(0, 2, 5), glm::vec3(0, 2, -5), glm::vec3(-5, 2, 0)}) {
    ChainJob job = JobAlongY(GetParam(), {0, 3, 0}, 100);
    job.frame.pole = pole;
    std::vector<Transform> out;
    const ikpd::ChainResult r = Solve(job, in, out);
    EXPECT_TRUE(r.reached);
    ExpectWellFormed(in, out, job.settings.forward, 4.0f);
    // Every inner joint is off the root→target axis on the pole's side.
    const glm::vec3 side = glm::normalize(glm::vec3(pole.x, 0, pole.z));
    glm::vec3 bend(0.0f);
    for (std::size_t i = 1; i < 4; ++i) bend += glm::vec3(out[i].position.x, 0, out[i].position.z);
    EXPECT_GT(glm::dot(glm::normalize(bend), side), 0.999f);
  }
}

// Found by chain_fuzz: a pole far from a tiny chain must not set the
// normalization scale (the chain would underflow and the straight-line escape
// give NaN with the target at the root). Only the pole's direction counts.
TEST_P(ChainMethods, FarPoleActsLikeANearOneInTheSameDirection) {
  std::vector<Transform> in(4);
  for (std::size_t i = 0; i < 4; ++i) in[i].position = {0, static_cast<float>(i), 0};
  for (const glm::vec3& target : {glm::vec3(0, 0, 0), glm::vec3(0, 2, 0), glm::vec3(1, 1, 0)}) {
    std::vector<Transform> nearOut, farOut;
    ChainJob job = JobAlongY(GetParam(), target, 50);
    job.frame.pole = {0, 1, 2};
    Solve(job, in, nearOut);
    job.frame.pole = glm::vec3(0, 1, 2) * 1e30f;  // same direction from the root
    Solve(job, in, farOut);
    ExpectWellFormed(in, farOut, job.settings.forward, 3.0f);
    for (std::size_t i = 0; i < in.size(); ++i) {
      EXPECT_LT(glm::distance(nearOut[i].position, farOut[i].position), 1e-3f) << "joint " << i;
    }
  }
  // The fuzzer's input, scaled: a 1e-7 chain with a pole 1e16 away, target at the root.
  std::vector<Transform> tiny = {{{-1e-7f, -1e-7f, 0}, glm::quat(-0.416f, 0, -0.909f, 0)},
                                 {{-2e-7f, -2e-7f, -2e-7f}, kId},
                                 {{-4e-7f, -4e-7f, -0.56e-7f}, glm::quat(7.1f, -1.0f, 0, -1.95f)}};
  std::vector<JointLimit> limits(3);
  limits[0].kind = JointLimit::Kind::kCone;
  limits[0].angle = 0.3f;
  ChainJob job;
  job.settings.method = GetParam();
  job.settings.forward = {-1, 0, 0};
  job.frame.target = {0, 0, 0};
  job.settings.iterations = 6;
  job.settings.limits = limits;
  job.frame.pole = {0, 2e9f, -1.5e16f};
  std::vector<Transform> out;
  Solve(job, tiny, out);
  for (const Transform& t : out) EXPECT_TRUE(ikpd::IsFinite(t));
}

TEST_P(ChainMethods, ForwardAxisIsConfigurable) {
  Rng rng(21);
  const glm::vec3 forward(1, 0, 0);
  std::vector<float> lengths{1.0f, 1.0f, 1.0f};
  const std::vector<Transform> in = RandomChain(rng, lengths, {0, 0, 0}, true, forward);
  ChainJob job;
  job.settings.method = GetParam();
  job.settings.forward = forward * 3.0f;  // need not be unit
  job.frame.target = {1.0f, 1.0f, 0.5f};
  job.settings.iterations = 100;
  std::vector<Transform> out;
  EXPECT_TRUE(Solve(job, in, out).reached);
  ExpectWellFormed(in, out, forward, 3.0f);
  // Already aligned input with zero iterations comes back unchanged.
  job.settings.iterations = 0;
  Solve(job, in, out);
  for (std::size_t i = 0; i < in.size(); ++i) {
    EXPECT_LT(glm::distance(in[i].position, out[i].position), 1e-6f);
    EXPECT_GT(std::abs(glm::dot(in[i].rotation, out[i].rotation)), 1.0f - 1e-6f);
  }
}

TEST_P(ChainMethods, TipKeepsItsRotationRelativeToItsParent) {
  Rng rng(4);
  std::vector<float> lengths{1.0f, 1.0f};
  const std::vector<Transform> in = RandomChain(rng, lengths, {0, 0, 0}, true);
  ChainJob job;
  job.settings.method = GetParam();
  job.settings.forward = {0, 1, 0};
  job.frame.target = {0.5f, 0.5f, 0.5f};
  std::vector<Transform> out;
  Solve(job, in, out);
  const glm::quat before = glm::conjugate(in[1].rotation) * in[2].rotation;
  const glm::quat after = glm::conjugate(out[1].rotation) * out[2].rotation;
  EXPECT_GT(std::abs(glm::dot(before, after)), 1.0f - 1e-5f);
}

INSTANTIATE_TEST_SUITE_P(Chain, ChainMethods, ::testing::Values(ChainMethod::kCcd, ChainMethod::kFabrik),
                         [](const auto& param_info) { return param_info.param == ChainMethod::kCcd ? "Ccd" : "Fabrik"; });

TEST(ChainJob, NonUnitRotationsAreNormalized) {
  std::vector<Transform> in{{{0, 0, 0}, glm::quat(2, 0, 0, 0)}, {{0, 1, 0}, glm::quat(0, 0, 0, 3)}, {{0, 2, 0}, kId}};
  ChainJob job;
  job.settings.forward = {0, 1, 0};
  job.frame.target = {1, 1, 0};
  std::vector<Transform> out;
  Solve(job, in, out);
  ExpectWellFormed(in, out, job.settings.forward, 2.0f);
}

TEST(ChainJob, Validation) {
  std::vector<Transform> in(3), out(3);
  in[1].position = {0, 1, 0};
  in[2].position = {0, 2, 0};
  ChainJob job;
  job.frame.joints = in;
  job.output = out;
  EXPECT_TRUE(job.Validate().ok());
  job.frame.joints = std::span<const Transform>(in.data(), 1);
  EXPECT_STREQ(job.Run().error, "joints: needs at least 2 joints");
  std::vector<Transform> many(ikpd::kMaxChainJoints + 1), manyOut(ikpd::kMaxChainJoints + 1);
  for (std::size_t i = 0; i < many.size(); ++i) many[i].position = {0, static_cast<float>(i), 0};
  job.frame.joints = std::span<const Transform>(many.data(), ikpd::kMaxChainJoints);
  job.output = std::span<Transform>(manyOut.data(), ikpd::kMaxChainJoints);
  EXPECT_TRUE(job.Run().ok());
  job.frame.joints = many;
  job.output = manyOut;
  EXPECT_STREQ(job.Run().error, "joints: at most 256 joints");
  job.output = out;
  job.frame.joints = in;
  job.output = std::span<Transform>(out.data(), 2);
  EXPECT_STREQ(job.Run().error, "output: needs one entry per joint");
  job.output = out;
  in[1].position.x = INFINITY;
  EXPECT_STREQ(job.Run().error, "joints: positions must be finite");
  in[1].position.x = 0;
  in[1].rotation = glm::quat(0, 0, 0, 0);
  EXPECT_STREQ(job.Run().error, "joints: rotations must be finite and non-zero");
  in[1].rotation = glm::quat(1, 0, 0, 0);
  job.frame.target.y = NAN;
  EXPECT_STREQ(job.Run().error, "target: must be finite");
  job.frame.target.y = 0;
  job.settings.iterations = -1;
  EXPECT_STREQ(job.Run().error, "iterations: must be in [0, 10000]");
  job.settings.iterations = 10001;
  EXPECT_STREQ(job.Run().error, "iterations: must be in [0, 10000]");
  job.settings.iterations = 10;
  job.settings.tolerance = -1;
  EXPECT_STREQ(job.Run().error, "tolerance: must be a finite number >= 0");
  job.settings.tolerance = 0;
  std::vector<JointLimit> limits(1);
  job.settings.limits = limits;
  EXPECT_STREQ(job.Run().error, "limits: needs one entry per joint (or per bone)");
  limits.resize(2);
  job.settings.limits = limits;
  limits[1].kind = JointLimit::Kind::kCone;
  limits[1].angle = 4;
  EXPECT_STREQ(job.Run().error, "limits: cone angle must be in [0, pi]");
  limits[1].kind = JointLimit::Kind::kEuler;
  limits[1].min = {1, 0, 0};
  limits[1].max = {0, 0, 0};
  EXPECT_STREQ(job.Run().error, "limits: min must be <= max");
  limits[1] = JointLimit{};
  job.frame.pole = {NAN, 0, 0};
  EXPECT_STREQ(job.Run().error, "pole: must be finite");
  job.frame.pole.reset();
  job.settings.forward = {0, 0, 0};
  EXPECT_STREQ(job.Run().error, "forward: must be a finite non-zero vector");
  job.settings.forward = {0, 1, 0};
  job.frame.parentRotation = glm::quat(0, 0, 0, 0);
  EXPECT_STREQ(job.Run().error, "parentRotation: must be finite and non-zero");
  // Outputs are untouched on error.
  out[0].position = {9, 9, 9};
  EXPECT_FALSE(job.Run().ok());
  EXPECT_EQ(out[0].position, glm::vec3(9, 9, 9));
}

}  // namespace
