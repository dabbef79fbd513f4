// FABRIK without limits (the positions-only path of ChainJob): rotations
// rebuilt from the final pose, the closed-form out-of-reach case, the
// extrapolation's iteration counts, and bone lengths kept at any iteration cap.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "ikpd/ikpd.h"
#include "native/chain_test_util.h"

namespace {

using ikpd::ChainJob;
using ikpd::ChainMethod;
using ikpd::Transform;

using chaintest::ArcOf;
using chaintest::Rng;

ikpd::ChainResult Fabrik(const std::vector<Transform>& in, glm::vec3 target, int iterations, std::vector<Transform>& out,
                         glm::vec3 forward = {0, 1, 0}) {
  out.assign(in.size(), Transform{});
  ikpd::ChainResult result;
  ChainJob job;
  job.frame.joints = in;
  job.output = out;
  job.result = &result;
  job.settings.method = ChainMethod::kFabrik;
  job.settings.forward = forward;
  job.frame.target = target;
  job.settings.iterations = iterations;
  job.settings.tolerance = 1e-4f;
  EXPECT_TRUE(job.Run().ok());
  return result;
}

TEST(ChainFabrik, RotationsAreTheInputTurnedByTheSmallestArc) {
  Rng rng(5);
  const glm::vec3 forward = glm::normalize(glm::vec3(0.3f, 1.0f, -0.2f));
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = 2 + static_cast<std::size_t>(trial % 12);
    std::vector<Transform> in(n);
    float length = 0.0f;
    for (std::size_t i = 0; i < n; ++i) {
      // Unaligned, non-unit input rotations.
      in[i].rotation = rng.Rotation() * rng.Uniform(0.5f, 3.0f);
      if (i > 0) {
        const float l = rng.Uniform(0.1f, 1.0f);
        in[i].position = in[i - 1].position + rng.Direction() * l;
        length += l;
      }
    }
    const glm::vec3 target = rng.Direction() * rng.Uniform(0.2f, 0.9f) * length;
    std::vector<Transform> out;
    Fabrik(in, target, 50, out, forward * 2.0f);
    auto unit = [](const glm::quat& q) { return glm::normalize(q); };
    for (std::size_t i = 0; i + 1 < n; ++i) {
      const glm::quat q = unit(in[i].rotation);
      const glm::vec3 bone = glm::normalize(out[i + 1].position - out[i].position);
      const glm::quat expected = glm::normalize(ArcOf(q * forward, bone) * q);
      ASSERT_GT(std::abs(glm::dot(expected, out[i].rotation)), 1.0f - 1e-5f) << "trial " << trial << " bone " << i;
    }
    // The tip keeps its rotation relative to the last bone's aligned input rotation.
    const glm::quat parent = unit(in[n - 2].rotation);
    const glm::quat aligned = glm::normalize(
        ArcOf(parent * forward, glm::normalize(in[n - 1].position - in[n - 2].position)) * parent);
    const glm::quat before = glm::conjugate(aligned) * unit(in[n - 1].rotation);
    const glm::quat after = glm::conjugate(out[n - 2].rotation) * out[n - 1].rotation;
    ASSERT_GT(std::abs(glm::dot(before, after)), 1.0f - 1e-5f) << "trial " << trial;
  }
}

TEST(ChainFabrik, OutOfReachIsTheStraightLineInOneIteration) {
  Rng rng(8);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<Transform> in(5);
    const glm::vec3 root(rng.Uniform(-5, 5), rng.Uniform(-5, 5), rng.Uniform(-5, 5));
    in[0].position = root;
    const float lengths[4] = {1.0f, 0.5f, 0.75f, 0.25f};
    for (std::size_t i = 1; i < 5; ++i) in[i].position = in[i - 1].position + rng.Direction() * lengths[i - 1];
    const glm::vec3 u = rng.Direction();
    const glm::vec3 target = root + u * rng.Uniform(2.5f, 50.0f);
    std::vector<Transform> out;
    const ikpd::ChainResult r = Fabrik(in, target, 20, out);
    EXPECT_EQ(r.iterations, 1);
    EXPECT_FALSE(r.reached);
    EXPECT_NEAR(r.distance, glm::distance(target, root) - 2.5f, 1e-4f * glm::distance(target, root));
    float along = 0.0f;
    for (std::size_t i = 1; i < 5; ++i) {
      along += lengths[i - 1];
      EXPECT_LT(glm::distance(out[i].position, root + u * along), 1e-5f * (1.0f + glm::length(root))) << i;
    }
  }
  // Zero iterations leave the input pose as it is.
  std::vector<Transform> in(3), out;
  in[1].position = {0, 1, 0};
  in[2].position = {0, 2, 0};
  const ikpd::ChainResult r = Fabrik(in, {10, 0, 0}, 0, out);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(out[2].position, in[2].position);
}

// The benchmark problem (bench/run.mjs): 10 bones of 0.1 along +Y, reset each
// solve, targets at 20–95 % of the reach. Plain FABRIK needs 7.6 iterations on
// average there (worst 51); the extrapolation brings that to about 3.4.
TEST(ChainFabrik, ConvergesInAFewIterationsNearFullReach) {
  Rng rng(12);
  std::vector<Transform> in(11);
  for (std::size_t i = 0; i < in.size(); ++i) in[i].position = {0, 0.1f * static_cast<float>(i), 0};
  int total = 0, worst = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const glm::vec3 target = rng.Direction() * rng.Uniform(0.2f, 0.95f);
    std::vector<Transform> out;
    const ikpd::ChainResult r = Fabrik(in, target, 200, out);
    ASSERT_TRUE(r.reached) << "trial " << trial;
    total += r.iterations;
    worst = std::max(worst, r.iterations);
  }
  EXPECT_LE(total, 4 * 500) << "mean iterations " << total / 500.0;
  EXPECT_LE(worst, 20);
}

// Any iteration cap ends right after a FABRIK iteration (never after an
// extrapolation), so bone lengths and forward axes hold; very unequal bones
// exercise the direct recomputation of the squared distances.
TEST(ChainFabrik, LengthsHoldAtEveryIterationCap) {
  Rng rng(13);
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t n = 3 + static_cast<std::size_t>(trial % 9);
    std::vector<Transform> in(n);
    std::vector<float> lengths(n - 1);
    float length = 0.0f;
    for (std::size_t i = 1; i < n; ++i) {
      lengths[i - 1] = std::pow(10.0f, rng.Uniform(-4.0f, 0.0f));
      length += lengths[i - 1];
      in[i].position = in[i - 1].position + (trial % 3 == 0 ? glm::vec3(0, 1, 0) : rng.Direction()) * lengths[i - 1];
    }
    const glm::vec3 target = rng.Direction() * rng.Uniform(0.0f, 1.2f) * length;
    std::vector<Transform> out;
    Fabrik(in, target, trial % 12, out);
    for (std::size_t i = 0; i + 1 < n; ++i) {
      ASSERT_TRUE(ikpd::IsFinite(out[i]));
      const glm::vec3 bone = out[i + 1].position - out[i].position;
      ASSERT_NEAR(glm::length(bone), lengths[i], 2e-6f * (1.0f + length)) << "trial " << trial << " bone " << i;
      if (lengths[i] > 1e-3f * length) {
        ASSERT_GT(glm::dot(out[i].rotation * glm::vec3(0, 1, 0), bone / glm::length(bone)), 1.0f - 1e-4f);
      }
    }
    ASSERT_EQ(out[0].position, in[0].position);
  }
}

}  // namespace
