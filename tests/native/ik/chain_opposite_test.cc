// Shortest-arc turns between nearly opposite directions (docs/ik/chains.md,
// "Rotations"): one bone turned toward a target almost straight behind it
// lands on the target ray, and its forward axis points along it, for both
// methods, where the usual (|a||b| + a·b, a × b) formula loses its small w
// to cancellation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "ikpd/ikpd.h"
#include "native/chain_test_util.h"

namespace {

using ikpd::ChainJob;
using ikpd::ChainMethod;
using ikpd::Transform;

class ChainOpposite : public ::testing::TestWithParam<ChainMethod> {};

TEST_P(ChainOpposite, OneBoneTurnsOntoANearlyOppositeTarget) {
  chaintest::Rng rng(16);
  float worstTip = 0.0f, worstAxis = 0.0f;
  for (float delta : {3e-2f, 1e-2f, 3e-3f, 1.4e-3f, 1e-3f, 3e-4f, 1e-4f, 3e-5f, 1e-5f}) {
    for (int trial = 0; trial < 200; ++trial) {
      const glm::vec3 forward = trial % 2 == 0 ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
      const glm::quat rotation = rng.Rotation();
      const glm::vec3 bone = rotation * forward;
      const float length = rng.Uniform(0.1f, 10.0f);
      const glm::vec3 root(rng.Uniform(-5, 5), rng.Uniform(-5, 5), rng.Uniform(-5, 5));
      const std::vector<Transform> joints{{root, rotation}, {root + bone * length, rng.Rotation()}};
      // The target at angle π − delta from the bone, at the bone's length or beyond.
      const glm::vec3 side = glm::normalize(glm::cross(bone, rng.Direction()));
      const glm::vec3 direction = -bone * std::cos(delta) + side * std::sin(delta);
      const glm::vec3 target = root + direction * (length * rng.Uniform(1.0f, 2.0f));
      std::vector<Transform> out(2);
      ikpd::ChainResult r;
      ChainJob job;
      job.settings.method = GetParam();
      job.frame.joints = joints;
      job.output = out;
      job.frame.target = target;
      job.settings.forward = forward;
      job.settings.iterations = 1;
      job.settings.tolerance = 0.0f;
      job.result = &r;
      ASSERT_TRUE(job.Run().ok());
      const glm::vec3 ray = glm::normalize(target - root);
      // Relative to the coordinates' size, which sets the float rounding of the positions.
      const float scale = length + glm::length(root);
      worstTip = std::max(worstTip, glm::distance(out[1].position, root + ray * length) / scale);
      worstAxis = std::max(worstAxis, glm::distance(out[0].rotation * forward, ray));
    }
  }
  EXPECT_LT(worstTip, 3e-6f);
  EXPECT_LT(worstAxis, 3e-6f);
}

INSTANTIATE_TEST_SUITE_P(Chain, ChainOpposite, ::testing::Values(ChainMethod::kCcd, ChainMethod::kFabrik),
                         [](const auto& param_info) { return param_info.param == ChainMethod::kCcd ? "Ccd" : "Fabrik"; });

}  // namespace
