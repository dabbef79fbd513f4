// Private: the character frame the look-at rigs measure yaw and pitch in
// (docs/rig/look-at.md, "Yaw and pitch limits"): world up, and the facing, a
// head-local look axis turned by a head rotation and made horizontal.
#pragma once

#include <cmath>
#include <limits>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ikpd/common.h"
#include "../simd/lanes.h"

namespace ikpd::look_detail {

// The angles below take the lanes' float arctangent (simd::Atan2, absolute
// error < 2e-7 rad, as the avatar's), not libm's atan2f: one polynomial
// inline instead of a call (docs/rig/look-at.md, "Stage 1").

struct Frame {
  glm::vec3 up;      // unit
  glm::vec3 facing;  // unit, normal to up: yaw 0
  glm::vec3 left;    // up × facing: yaw +π/2
};

// Any unit vector normal to unit `up`.
inline glm::vec3 NormalTo(const glm::vec3& up) {
  const glm::vec3 c = glm::cross(up, std::abs(up.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0));
  return glm::normalize(c);
}

// The frame with `up` (unit) and facing = `look` made normal to it; a look
// along up (no horizontal part) faces a fixed normal direction.
inline Frame FrameOf(const glm::vec3& look, const glm::vec3& up) {
  glm::vec3 f = look - glm::dot(look, up) * up;
  const float ff = glm::dot(f, f);
  f = ff > 1e-12f && std::isfinite(ff) ? f / std::sqrt(ff) : NormalTo(up);
  return {up, f, glm::cross(up, f)};
}

// Yaw (about up, from facing toward left) and pitch (above the plane normal
// to up) of a direction d; yaw 0 for a d along up.
inline float YawOf(const Frame& frame, const glm::vec3& d) {
  const float x = glm::dot(d, frame.facing);
  const float y = glm::dot(d, frame.left);
  return x == 0.0f && y == 0.0f ? 0.0f : simd::Atan2(y, x);
}
inline float PitchOf(const Frame& frame, const glm::vec3& d) {
  const float x = glm::dot(d, frame.facing);
  const float y = glm::dot(d, frame.left);
  return simd::Atan2(glm::dot(d, frame.up), std::sqrt(x * x + y * y));
}

// The unit direction with that yaw and pitch.
inline glm::vec3 DirectionOf(const Frame& frame, float yaw, float pitch) {
  const float c = std::cos(pitch);
  return c * (std::cos(yaw) * frame.facing + std::sin(yaw) * frame.left) + std::sin(pitch) * frame.up;
}

// A rotation as an angle in [0, π] and a unit axis (any axis at angle 0).
struct Turn {
  float angle = 0.0f;
  glm::vec3 axis{1.0f, 0.0f, 0.0f};
};

// The smallest rotation taking unit `a` to the direction of `b`, as
// chain_detail::Arc gives it (that arc's angle and axis): none for a zero b; a
// half turn about Arc's fixed perpendicular axis for b opposite to a. The
// angle from atan2 is accurate near 0 and near π alike.
inline Turn TurnBetween(const glm::vec3& a, glm::vec3 b) {
  float bb = glm::dot(b, b);
  if (!(bb > 1e-40f) || !std::isfinite(bb)) return {};
  if (bb < 1e-20f || bb > 1e20f) b /= std::sqrt(bb), bb = 1.0f;  // the cross product's square stays a normal float
  const glm::vec3 c = glm::cross(a, b);
  const float cc = glm::dot(c, c), ab = glm::dot(a, b);
  if (ab < 0.0f ? !(cc > 1e-12f * bb) : !(cc > 0.0f)) {
    if (ab >= 0.0f) return {};
    glm::vec3 axis = glm::cross(a, glm::vec3(1.0f, 0.0f, 0.0f));
    if (glm::dot(axis, axis) < 1e-4f) axis = glm::cross(a, glm::vec3(0.0f, 1.0f, 0.0f));
    return {kPi, glm::normalize(axis)};
  }
  const float s = std::sqrt(cc);
  return {simd::Atan2(s, ab), c / s};
}

// The angle and axis of a unit quaternion (the shorter way round).
inline Turn TurnOf(const glm::quat& q) {
  const glm::vec3 v(q.x, q.y, q.z);
  const float s = glm::length(v);
  if (!(s > 0.0f)) return {};
  return {2.0f * simd::Atan2(s, std::abs(q.w)), (q.w < 0.0f ? -v : v) / s};
}

// The limits' common case without an arctangent: Inside(y, x, InsideSlope(limit))
// holds only where |atan2(y, x)| <= limit, with 1e-5 rad to spare (x > 0 and
// |y| / x under the tangent of the limit less the margin); otherwise measure.
inline float InsideSlope(float limit) {
  const float a = limit - 1e-5f;
  if (!(a > 0.0f)) return -1.0f;  // never inside
  return a >= kPi / 2.0f ? std::numeric_limits<float>::infinity() : std::tan(a);
}
inline bool Inside(float y, float x, float slope) { return x > 0.0f && std::abs(y) <= x * slope; }

}  // namespace ikpd::look_detail
