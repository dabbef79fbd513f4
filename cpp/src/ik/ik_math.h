// Internal helpers shared by the IK jobs (not installed, not public API).
#pragma once

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "ikpd/common.h"

namespace ikpd::detail {

// Largest component below which an axis given to an IK job has no direction:
// NormalizeOr(v, glm::vec3(0.0f), kNoDirection) is then zero (a unit vector never is).
inline constexpr float kNoDirection = 1e-30f;

// True when unit vectors a and b are (anti)parallel within ~0.006°.
inline bool Parallel(const glm::vec3& a, const glm::vec3& b) {
  return glm::dot(glm::cross(a, b), glm::cross(a, b)) < 1e-8f;
}

// Component of v perpendicular to unit vector n, normalized; false when v is
// zero or within ~0.0006° of ±n (float rounding would make the direction noise).
inline bool PerpendicularUnit(const glm::vec3& v, const glm::vec3& n, glm::vec3* out) {
  const glm::vec3 unit = NormalizeOr(v, glm::vec3(0.0f), kNoDirection);
  if (unit == glm::vec3(0.0f)) return false;
  const glm::vec3 perp = unit - glm::dot(unit, n) * n;
  if (glm::dot(perp, perp) <= 1e-10f) return false;
  *out = glm::normalize(perp);
  return true;
}

// A stable unit vector perpendicular to unit vector n: the coordinate axis after
// the one that dominates n (X→Y, Y→Z, Z→X), made perpendicular to n.
inline glm::vec3 StablePerpendicular(const glm::vec3& n) {
  const glm::vec3 a = glm::abs(n);
  glm::vec3 axis(0.0f);
  if (a.x >= a.y && a.x >= a.z) {
    axis.y = 1.0f;
  } else if (a.y >= a.z) {
    axis.z = 1.0f;
  } else {
    axis.x = 1.0f;
  }
  glm::vec3 out(0.0f);
  PerpendicularUnit(axis, n, &out);  // never parallel: axis is not n's dominant axis
  return out;
}

// Rotation taking the orthonormal frame (f, u, f×u) to (F, U, F×U). All unit,
// f ⊥ u and F ⊥ U.
inline glm::quat FrameToFrame(const glm::vec3& f, const glm::vec3& u, const glm::vec3& F, const glm::vec3& U) {
  const glm::mat3 from(f, u, glm::cross(f, u));
  const glm::mat3 to(F, U, glm::cross(F, U));
  return glm::normalize(glm::quat_cast(to * glm::transpose(from)));
}

// Rotation by `angle` about unit `axis`.
inline glm::quat AxisAngle(const glm::vec3& axis, float angle) {
  const float h = 0.5f * angle;
  const float s = std::sin(h);
  return glm::quat(std::cos(h), axis.x * s, axis.y * s, axis.z * s);
}

// Signed angle from a to b about unit n (a, b perpendicular to n, any length).
inline float SignedAngle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& n) {
  return std::atan2(glm::dot(n, glm::cross(a, b)), glm::dot(a, b));
}

}  // namespace ikpd::detail
