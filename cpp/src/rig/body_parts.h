// Private: the small geometry helpers the full-body look-at's stages share
// (docs/rig/body-look-at.md).
#pragma once

#include <cmath>
#include <cstddef>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ikpd/common.h"

namespace ikpd::body_detail {

inline const glm::quat kIdentity(1.0f, 0.0f, 0.0f, 0.0f);
inline constexpr std::size_t kLimbJoints = 3;

// The component of v normal to unit `up`.
inline glm::vec3 Horizontal(const glm::vec3& v, const glm::vec3& up) { return v - glm::dot(v, up) * up; }

// to + delta·(p − from), in doubles: a bone vector near the float limit must
// not overflow while it turns.
inline glm::vec3 Moved(const glm::vec3& p, const glm::quat& delta, const glm::vec3& from, const glm::vec3& to) {
  return glm::vec3(glm::dvec3(to) + glm::dquat(delta) * (glm::dvec3(p) - glm::dvec3(from)));
}

// Rigid move of `joint` by `delta` about `from`, landing at `to` (world).
inline Transform Carry(const Transform& joint, const glm::quat& delta, const glm::vec3& from, const glm::vec3& to) {
  return {Moved(joint.position, delta, from, to), glm::normalize(delta * NormalizeByReciprocalOr(joint.rotation, kIdentityRotation))};
}

// Rotation whose +X points along `x` (unit) and +Z along `zHint` made normal to it.
inline glm::quat FrameOf(const glm::vec3& x, const glm::vec3& zHint) {
  glm::vec3 z = zHint - glm::dot(zHint, x) * x;
  if (glm::dot(z, z) < 1e-12f) z = glm::cross(x, std::abs(x.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0));
  z = glm::normalize(z);
  return glm::normalize(glm::quat_cast(glm::mat3(x, glm::cross(z, x), z)));
}

}  // namespace ikpd::body_detail
