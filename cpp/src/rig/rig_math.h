// Internal: the small formulas the Rig and the RigBatch share (docs/rig/rig.md),
// one definition so both round alike.
#pragma once

#include <algorithm>
#include <cmath>

#include "../simd/vec.h"
#include "ikpd/common.h"

// The rig's per-frame helpers (model transforms, gather, writes): natively
// every glm operation inlined into them (GCC otherwise calls out for each
// quaternion product; docs/performance.md, "three.js path"); WebAssembly
// keeps its smaller code.
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__EMSCRIPTEN__)
#define IKPD_RIG_FLATTEN __attribute__((flatten))
#else
#define IKPD_RIG_FLATTEN
#endif

namespace ikpd::rig {

// The unit quaternion of a usable one: one reciprocal square root when its
// norm is moderate (products of unit rotations, typical locals), else the
// overflow-safe NormalizeOr (locals of any finite size).
inline glm::quat Unit(const glm::quat& q) {
  const float n = glm::dot(q, q);
  if (n > 0.25f && n < 4.0f) return q * (1.0f / std::sqrt(n));
  return NormalizeOr(q, kIdentityRotation);
}

// The angle between unit vectors a and b, atan2(|a × b|, a · b) with the lanes'
// arctangent: exact to float rounding at small angles too, where the arc
// cosine of a float cosine steps 0, 3.45e-4, 4.88e-4 rad.
template <class F>
IKPD_INLINE F AngleOfUnits(const simd::V3<F>& a, const simd::V3<F>& b) {
  const simd::V3<F> c = simd::Cross(a, b);
  return simd::Atan2(simd::Sqrt(simd::Dot(c, c)), simd::Dot(a, b));
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
  return AngleOfUnits(simd::FromGlm(look), simd::FromGlm(direction));
}

// A written local weighted, over any lane type (RigBatch's lanes, Rig's one):
// `desired` at weight >= 1, `current` at weight <= 0, between them
// simd::Slerp (no acos of a cosine, so accurate at small angles too).
template <class F>
IKPD_INLINE simd::Q4<F> Weighted(F weight, const simd::Q4<F>& current, const simd::Q4<F>& desired) {
  const auto full = weight >= 1.0f, none = weight <= 0.0f;
  const simd::Q4<F> ends = simd::Select(full, desired, current);
  if (simd::All(simd::Or(full, none))) return ends;
  return simd::Select(simd::Or(full, none), ends, simd::Slerp(current, desired, weight));
}
inline glm::quat Weighted(float weight, const glm::quat& current, const glm::quat& desired) {
  return simd::ToGlm(Weighted(weight, simd::FromGlm(current), simd::FromGlm(desired)));
}

}  // namespace ikpd::rig
