// Internal: the small formulas the Rig and the RigBatch share (docs/rig/rig.md),
// one definition so both round alike.
#pragma once

#include <algorithm>
#include <cmath>

#include "ikpd/common.h"

namespace ikpd::rig {

// The unit quaternion of a usable one: one reciprocal square root when its
// norm is moderate (products of unit rotations, typical locals), else the
// overflow-safe NormalizeOr (locals of any finite size).
inline glm::quat Unit(const glm::quat& q) {
  const float n = glm::dot(q, q);
  if (n > 0.25f && n < 4.0f) return q * (1.0f / std::sqrt(n));
  return NormalizeOr(q, kIdentityRotation);
}

// The angle between a look axis and the direction to a target (0 when the
// target is at the eye, or so far that its direction overflows float).
inline float LookError(const Transform& head, const glm::vec3& axis, const glm::vec3& target) {
  const glm::vec3 to = target - head.position;
  const float length = glm::length(to);
  if (!(length > 0.0f)) return 0.0f;
  const glm::vec3 direction = std::isfinite(length) ? to / length : NormalizeOr(to, glm::vec3(0.0f));
  glm::vec3 look = glm::normalize(head.rotation * axis);
  if (!IsFinite(look)) look = NormalizeOr(head.rotation * axis, glm::vec3(0.0f));  // a tiny axis (underflow)
  if (direction == glm::vec3(0.0f) || look == glm::vec3(0.0f)) return 0.0f;
  const float c = glm::dot(look, direction);
  return std::acos(std::clamp(c, -1.0f, 1.0f));
}

}  // namespace ikpd::rig
