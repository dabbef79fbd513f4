// Helpers shared by the native chain tests.
#pragma once

#include <cmath>
#include <random>

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

}  // namespace chaintest
