// N-bone chains (CCD, FABRIK) under joint limits (docs/ik/chains.md, "Limits"):
// cone and Euler limits hold on random targets, and a limited chain still
// reaches a target its limits allow.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/mat3x3.hpp>

#include "ikpd/ikpd.h"
#include "native/chain_test_util.h"

namespace {

using ikpd::ChainJob;
using ikpd::ChainMethod;
using ikpd::JointLimit;
using ikpd::Transform;

using chaintest::ExpectWellFormed;
using chaintest::JobAlongY;
using chaintest::Rng;
using chaintest::Solve;

glm::vec3 EulerXYZ(const glm::quat& q) {  // three.js Euler.setFromRotationMatrix, order 'XYZ'
  const glm::mat3 m = glm::mat3_cast(q);
  const float m13 = m[2][0];
  const float y = std::asin(std::clamp(m13, -1.0f, 1.0f));
  if (std::abs(m13) < 0.9999999f) return {std::atan2(-m[2][1], m[2][2]), y, std::atan2(-m[1][0], m[0][0])};
  return {std::atan2(m[1][2], m[1][1]), y, 0.0f};
}


class ChainLimits : public ::testing::TestWithParam<ChainMethod> {};

TEST_P(ChainLimits, ConeLimitsRespected) {
  Rng rng(5);
  const glm::vec3 forward(0, 1, 0);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<float> lengths{1.0f, 1.0f, 1.0f, 1.0f, 1.0f};
    // Start straight up the Y axis (within every limit), then chase a random target.
    std::vector<Transform> in(6);
    for (std::size_t i = 0; i < 6; ++i) in[i].position = {0, static_cast<float>(i), 0};
    std::vector<JointLimit> limits(5);
    for (JointLimit& l : limits) {
      l.kind = JointLimit::Kind::kCone;
      l.angle = rng.Uniform(0.1f, 1.2f);
    }
    limits[0].axis = {0, 0, 0};  // default axis = forward
    ChainJob job = JobAlongY(GetParam(), rng.Direction() * rng.Uniform(0.0f, 6.0f), 50);
    job.settings.limits = limits;
    std::vector<Transform> out;
    Solve(job, in, out);
    ExpectWellFormed(in, out, forward, 5.0f);
    glm::quat parent(1, 0, 0, 0);
    for (std::size_t i = 0; i < 5; ++i) {
      const glm::vec3 d = (glm::conjugate(parent) * out[i].rotation) * forward;
      const float angle = std::acos(std::clamp(glm::dot(d, forward), -1.0f, 1.0f));
      ASSERT_LE(angle, limits[i].angle + 2e-3f) << "trial " << trial << " joint " << i;
      parent = out[i].rotation;
    }
  }
}

TEST_P(ChainLimits, EulerLimitsRespected) {
  Rng rng(9);
  const glm::vec3 forward(0, 1, 0);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<float> lengths(4, 1.0f);
    std::vector<Transform> in(5);
    for (std::size_t i = 0; i < 5; ++i) in[i].position = {0, static_cast<float>(i), 0};
    std::vector<JointLimit> limits(5);  // one per joint; the tip's is ignored
    for (JointLimit& l : limits) {
      l.kind = JointLimit::Kind::kEuler;
      l.min = {-rng.Uniform(0.0f, 1.0f), 0.0f, -rng.Uniform(0.0f, 1.0f)};
      l.max = {rng.Uniform(0.0f, 1.0f), 0.0f, trial % 2 ? 0.0f : rng.Uniform(0.0f, 1.0f)};  // some hinges
    }
    ChainJob job = JobAlongY(GetParam(), rng.Direction() * rng.Uniform(0.5f, 4.0f), 50);
    job.settings.limits = limits;
    std::vector<Transform> out;
    Solve(job, in, out);
    ExpectWellFormed(in, out, forward, 4.0f);
    glm::quat parent(1, 0, 0, 0);
    for (std::size_t i = 0; i < 4; ++i) {
      const glm::vec3 e = EulerXYZ(glm::conjugate(parent) * out[i].rotation);
      ASSERT_GE(e.x, limits[i].min.x - 2e-3f);
      ASSERT_LE(e.x, limits[i].max.x + 2e-3f);
      ASSERT_NEAR(e.y, 0.0f, 2e-3f);
      ASSERT_GE(e.z, limits[i].min.z - 2e-3f);
      ASSERT_LE(e.z, limits[i].max.z + 2e-3f);
      parent = out[i].rotation;
    }
  }
}

TEST_P(ChainLimits, ReachWithinLimitsWhenThePoseAllowsIt) {
  // A planar hinge chain (Z rotation only, ±60°) and a target it can reach.
  std::vector<Transform> in(4);
  for (std::size_t i = 0; i < 4; ++i) in[i].position = {0, static_cast<float>(i), 0};
  std::vector<JointLimit> limits(3);
  for (JointLimit& l : limits) {
    l.kind = JointLimit::Kind::kEuler;
    l.min = {0, 0, -1.05f};
    l.max = {0, 0, 1.05f};
  }
  ChainJob job = JobAlongY(GetParam(), {1.5f, 2.0f, 0.0f}, 200);
  job.settings.limits = limits;
  std::vector<Transform> out;
  const ikpd::ChainResult r = Solve(job, in, out);
  EXPECT_TRUE(r.reached) << r.distance;
  for (const Transform& t : out) EXPECT_NEAR(t.position.z, 0.0f, 1e-5f);
}

INSTANTIATE_TEST_SUITE_P(Chain, ChainLimits, ::testing::Values(ChainMethod::kCcd, ChainMethod::kFabrik),
                         [](const auto& param_info) { return param_info.param == ChainMethod::kCcd ? "Ccd" : "Fabrik"; });

}  // namespace
