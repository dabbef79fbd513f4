// Private rotation helpers shared by the chain solvers (docs/ik/chains.md).
#pragma once

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ikpd/common.h"

namespace ikpd::chain_detail {

// Below this value of 1 + cos θ (θ > ~168.5°) the usual formula's w is
// cancelled too far for a turn accurate to float precision; Arc then goes
// through a perpendicular vector instead.
inline constexpr float kNearOpposite = 0.02f;

// Smallest rotation taking direction a to direction b (any lengths). Accurate
// for tiny angles (no acos / cos dead zone, unlike glm::rotation) and for
// nearly opposite vectors (see ArcNearOpposite); identity when either vector
// is zero; a half turn about a stable perpendicular axis when they are opposite.
inline glm::quat Arc(const glm::vec3& a, const glm::vec3& b);

// The smallest rotation from unit ua to unit ub when they are nearly or
// exactly opposite. The usual formula (|a||b| + a·b, a × b) loses the small w
// to cancellation there, so the arc is taken in two well-conditioned steps
// through m, the unit vector perpendicular to ua in the plane of ua and ub:
// Arc(m, ub)·Arc(ua, m), both about the same axis, which lands on ub to float
// precision. Exactly opposite (no plane): a half turn about a fixed
// perpendicular axis.
inline glm::quat ArcNearOpposite(const glm::vec3& ua, const glm::vec3& ub) {
  const glm::vec3 m = ub - ua * glm::dot(ua, ub);
  const float mm = glm::dot(m, m);
  if (!(mm > 1e-12f)) {
    glm::vec3 axis = glm::cross(ua, glm::vec3(1.0f, 0.0f, 0.0f));
    if (glm::dot(axis, axis) < 1e-4f) axis = glm::cross(ua, glm::vec3(0.0f, 1.0f, 0.0f));
    axis = glm::normalize(axis);
    return glm::quat(0.0f, axis.x, axis.y, axis.z);
  }
  const glm::vec3 um = m / std::sqrt(mm);
  return glm::normalize(Arc(um, ub) * Arc(ua, um));
}

inline glm::quat Arc(const glm::vec3& a, const glm::vec3& b) {
  const float aa = glm::dot(a, a);
  const float bb = glm::dot(b, b);
  const float ab = std::sqrt(aa * bb);  // |a|·|b|
  if (!(ab > 1e-30f) || !std::isfinite(ab)) {
    if (!(aa > 1e-40f) || !(bb > 1e-40f) || !std::isfinite(aa) || !std::isfinite(bb)) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    return Arc(a / std::sqrt(aa), b / std::sqrt(bb));  // tiny or huge: retry with unit vectors
  }
  const float w = ab + glm::dot(a, b);  // |a||b|(1 + cos θ)
  if (w < kNearOpposite * ab) return ArcNearOpposite(a / std::sqrt(aa), b / std::sqrt(bb));
  const glm::vec3 c = glm::cross(a, b);
  return glm::normalize(glm::quat(w, c.x, c.y, c.z));
}

// q with non-negative w (same rotation), so angle and blending are well defined.
inline glm::quat Positive(const glm::quat& q) { return q.w < 0.0f ? -q : q; }

// Rotation angle of a unit quaternion, in [0, pi].
inline float AngleOf(const glm::quat& q) {
  const float s = glm::length(glm::vec3(q.x, q.y, q.z));
  return 2.0f * std::atan2(s, std::abs(q.w));
}

}  // namespace ikpd::chain_detail
