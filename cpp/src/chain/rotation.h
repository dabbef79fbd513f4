// Private rotation helpers shared by the chain module's solvers.
#pragma once

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ikpd/common.h"

namespace ikpd::chain_detail {

// Smallest rotation taking direction a to direction b (any lengths). Accurate
// for tiny angles (no acos / cos dead zone, unlike glm::rotation); identity
// when either vector is zero; a half turn about a stable perpendicular axis
// when they are opposite.
inline glm::quat Arc(const glm::vec3& a, const glm::vec3& b) {
  const float aa = glm::dot(a, a);
  const float bb = glm::dot(b, b);
  const float ab = std::sqrt(aa * bb);  // |a|·|b|
  if (!(ab > 1e-30f) || !std::isfinite(ab)) {
    if (!(aa > 1e-40f) || !(bb > 1e-40f) || !std::isfinite(aa) || !std::isfinite(bb)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    return Arc(a / std::sqrt(aa), b / std::sqrt(bb));  // tiny or huge: retry with unit vectors
  }
  const float w = ab + glm::dot(a, b);  // |a||b|(1 + cos θ)
  if (w < 1e-6f * ab) {
    const glm::vec3 ua = a / std::sqrt(aa);
    glm::vec3 axis = glm::cross(ua, glm::vec3(1.0f, 0.0f, 0.0f));
    if (glm::dot(axis, axis) < 1e-4f) axis = glm::cross(ua, glm::vec3(0.0f, 1.0f, 0.0f));
    axis = glm::normalize(axis);
    return glm::quat(0.0f, axis.x, axis.y, axis.z);
  }
  const glm::vec3 c = glm::cross(a, b);
  return glm::normalize(glm::quat(w, c.x, c.y, c.z));
}

// Unit quaternion from any usable (finite, non-zero) one, huge components included.
inline glm::quat SafeNormalize(const glm::quat& q) {
  const float m = std::max(std::max(std::abs(q.x), std::abs(q.y)), std::max(std::abs(q.z), std::abs(q.w)));
  if (!(m > 0.0f) || !std::isfinite(m)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  return glm::normalize(glm::quat(q.w / m, q.x / m, q.y / m, q.z / m));
}

// Unit vector from any finite non-zero one (huge or tiny components included);
// `fallback` when it is zero.
inline glm::vec3 SafeNormalize(const glm::vec3& v, const glm::vec3& fallback) {
  const float m = std::max(std::abs(v.x), std::max(std::abs(v.y), std::abs(v.z)));
  if (!(m > 0.0f) || !std::isfinite(m)) return fallback;
  return glm::normalize(v / m);
}

// q with non-negative w (same rotation), so angle and blending are well defined.
inline glm::quat Positive(const glm::quat& q) { return q.w < 0.0f ? -q : q; }

// Rotation angle of a unit quaternion, in [0, pi].
inline float AngleOf(const glm::quat& q) {
  const float s = glm::length(glm::vec3(q.x, q.y, q.z));
  return 2.0f * std::atan2(s, std::abs(q.w));
}

}  // namespace ikpd::chain_detail
