// The avatar's angles (avatar_solve.cc, avatar_steps.cc, avatar_ground.cc):
// the lanes' arctangent (simd/lane_math.h: within 2e-7 rad of std::atan2, a
// polynomial in a third of its instructions) for the headings, the chest's
// and the shoulders' turns and the body's heading.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "../rig_math.h"

namespace ikpd::rig::detail {

// The signed angle from a to b about unit n (a, b normal to n, any lengths).
inline float SignedAngle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& n) {
  return simd::Atan2(glm::dot(n, glm::cross(a, b)), glm::dot(a, b));
}

// The turn of q about unit `up` (its twist), radians in [−π, π]: q and −q are
// one rotation, so with w ≥ 0 twice the arctangent is in range (no wrap:
// no std::remainder after it).
inline float Twist(const glm::quat& q, const glm::vec3& up) {
  const float s = glm::dot(glm::vec3(q.x, q.y, q.z), up);
  return q.w < 0.0f ? 2.0f * simd::Atan2(-s, -q.w) : 2.0f * simd::Atan2(s, q.w);
}

}  // namespace ikpd::rig::detail
