// Joint limits of the chain solvers (see docs/ik/chains.md).
#include <algorithm>
#include <cmath>

#include <glm/mat3x3.hpp>

#include "rotation.h"
#include "solver.h"

namespace ikpd::chain_detail {
namespace {

// three.js Euler 'XYZ' (R = Rx·Ry·Rz) from a unit quaternion.
glm::vec3 EulerXYZ(const glm::quat& q) {
  const glm::mat3 m = glm::mat3_cast(q);  // m[column][row]
  const float m13 = m[2][0];
  const float y = std::asin(std::clamp(m13, -1.0f, 1.0f));
  if (std::abs(m13) < 0.9999999f) {
    return {std::atan2(-m[2][1], m[2][2]), y, std::atan2(-m[1][0], m[0][0])};
  }
  return {std::atan2(m[1][2], m[1][1]), y, 0.0f};
}

glm::quat FromEulerXYZ(const glm::vec3& e) {
  return glm::angleAxis(e.x, glm::vec3(1.0f, 0.0f, 0.0f)) * glm::angleAxis(e.y, glm::vec3(0.0f, 1.0f, 0.0f)) *
         glm::angleAxis(e.z, glm::vec3(0.0f, 0.0f, 1.0f));
}

// The local rotation `local` with `limit` applied.
glm::quat ApplyLimit(const JointLimit& limit, const glm::quat& local, const glm::vec3& forward) {
  switch (limit.kind) {
    case JointLimit::Kind::kCone: {
      const glm::vec3 axis = NormalizeByReciprocalOr(limit.axis, forward);
      const glm::vec3 d = local * forward;
      const float c = glm::dot(d, axis);
      const float cosMax = std::cos(limit.angle);
      if (c >= cosMax) return local;
      glm::vec3 perp = d - axis * c;
      float lp = glm::length(perp);
      if (lp < 1e-6f) {  // pointing straight away from the axis: pick any side
        perp = glm::cross(axis, glm::vec3(1.0f, 0.0f, 0.0f));
        if (glm::dot(perp, perp) < 1e-4f) perp = glm::cross(axis, glm::vec3(0.0f, 1.0f, 0.0f));
        lp = glm::length(perp);
      }
      const glm::vec3 limited = axis * cosMax + (perp / lp) * std::sin(limit.angle);
      return glm::normalize(Arc(d, limited) * local);
    }
    case JointLimit::Kind::kEuler: {
      const glm::vec3 e = EulerXYZ(local);
      const glm::vec3 clamped = glm::clamp(e, limit.min, limit.max);
      if (clamped == e) return local;
      return FromEulerXYZ(clamped);
    }
    case JointLimit::Kind::kNone:
      break;
  }
  return local;
}

}  // namespace

const JointLimit* Chain::Limit(std::size_t i) const {
  if (i >= settings.limits.size() || settings.limits[i].kind == JointLimit::Kind::kNone) return nullptr;
  return &settings.limits[i];
}

bool Chain::HasLimits() const {
  for (std::size_t i = 0; i + 1 < n && i < settings.limits.size(); ++i) {
    if (settings.limits[i].kind != JointLimit::Kind::kNone) return true;
  }
  return false;
}

glm::quat Chain::Limited(std::size_t i, const glm::quat& parentRotation, const glm::quat& rotation) const {
  const JointLimit* limit = Limit(i);
  if (!limit) return rotation;
  return glm::normalize(parentRotation * ApplyLimit(*limit, glm::conjugate(parentRotation) * rotation, forward));
}

}  // namespace ikpd::chain_detail
