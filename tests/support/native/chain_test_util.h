// Helpers shared by the native chain tests.
#pragma once

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include "ikpd/ikpd.h"

namespace chaintest {

// Seeded random numbers, directions and rotations for chain poses.
struct Rng {
  std::mt19937 engine;
  explicit Rng(unsigned seed) : engine(seed) {}
  float Uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(engine); }
  glm::vec3 Direction() {
    for (;;) {
      const glm::vec3 v(Uniform(-1, 1), Uniform(-1, 1), Uniform(-1, 1));
      const float l2 = glm::dot(v, v);
      if (l2 > 0.01f && l2 <= 1.0f) return v / std::sqrt(l2);
    }
  }
  glm::quat Rotation() {
    const glm::vec3 d = Direction();
    return glm::angleAxis(Uniform(-ikpd::kPi, ikpd::kPi), d);
  }
};

// Smallest rotation from unit a to unit b (not opposite), test-side reference.
inline glm::quat ArcOf(glm::vec3 a, glm::vec3 b) {
  const glm::vec3 c = glm::cross(a, b);
  return glm::normalize(glm::quat(1.0f + glm::dot(a, b), c.x, c.y, c.z));
}

// Angle between two rotations, accurate for tiny angles too (no acos near 1).
inline float Angle(const glm::quat& a, const glm::quat& b) {
  const glm::quat d = glm::conjugate(glm::normalize(a)) * glm::normalize(b);
  return 2.0f * std::atan2(glm::length(glm::vec3(d.x, d.y, d.z)), std::abs(d.w));
}

// Root fixed, finite, lengths kept, forward axis along each bone, unit rotations.
inline void ExpectWellFormed(const std::vector<ikpd::Transform>& in, const std::vector<ikpd::Transform>& out,
                             glm::vec3 forward, float scale) {
  ASSERT_EQ(in.size(), out.size());
  for (const ikpd::Transform& t : out) {
    ASSERT_TRUE(ikpd::IsFinite(t)) << "non-finite output";
    ASSERT_NEAR(glm::length(t.rotation), 1.0f, 1e-4f);
  }
  ASSERT_LT(glm::distance(in[0].position, out[0].position), 1e-6f * (1.0f + scale));
  for (std::size_t i = 0; i + 1 < in.size(); ++i) {
    const float l = glm::distance(in[i + 1].position, in[i].position);
    const glm::vec3 bone = out[i + 1].position - out[i].position;
    ASSERT_NEAR(glm::length(bone), l, 2e-5f * (1.0f + scale)) << "bone " << i;
    if (l > 1e-3f) {
      const glm::vec3 axis = out[i].rotation * glm::normalize(forward);
      ASSERT_GT(glm::dot(axis, bone / glm::length(bone)), 1.0f - 1e-4f) << "bone " << i << " forward axis off";
    }
  }
}

// A job with `method`, bone axis +Y, `target` and at most `iterations` iterations.
inline ikpd::ChainJob JobAlongY(ikpd::ChainMethod method, glm::vec3 target, int iterations) {
  ikpd::ChainJob job;
  job.settings.method = method;
  job.settings.forward = {0, 1, 0};
  job.frame.target = target;
  job.settings.iterations = iterations;
  return job;
}

// Runs the job on `in` into `out` (resized); the run must succeed.
inline ikpd::ChainResult Solve(ikpd::ChainJob job, const std::vector<ikpd::Transform>& in,
                               std::vector<ikpd::Transform>& out) {
  out.assign(in.size(), ikpd::Transform{});
  job.frame.joints = in;
  job.output = out;
  ikpd::ChainResult result;
  job.result = &result;
  EXPECT_TRUE(job.Run().ok());
  return result;
}

}  // namespace chaintest
