// ikpd — shared plain-data types and the error convention used by every job.
#pragma once

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

namespace ikpd {

// A joint in world space. `rotation` is a unit quaternion (glm order: w, x, y, z
// in the constructor; x, y, z, w in memory-independent accessors).
struct Transform {
  glm::vec3 position{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
};

// The rotation that turns nothing (w = 1); the fallback of NormalizeOr for quaternions.
inline const glm::quat kIdentityRotation{1.0f, 0.0f, 0.0f, 0.0f};

// Result of Validate()/Run(). `error` is null on success, otherwise a static
// string "parameter: reason" naming the offending input with the same
// camelCase name as the JS API (e.g. "weight: must be in [0, 1]").
struct Status {
  const char* error = nullptr;
  constexpr bool ok() const { return error == nullptr; }
  constexpr explicit operator bool() const { return ok(); }
};
constexpr Status Ok() { return {}; }
constexpr Status Error(const char* message) { return {message}; }

inline bool IsFinite(float v) { return std::isfinite(v); }
inline bool IsFinite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
inline bool IsFinite(const glm::quat& q) {
  return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}
inline bool IsFinite(const Transform& t) { return IsFinite(t.position) && IsFinite(t.rotation); }

// Rotations given by users may be non-unit: every job normalizes them, and
// rejects a zero (or non-finite) quaternion with an error.
inline bool IsUsableRotation(const glm::quat& q) {
  return IsFinite(q) && glm::dot(q, q) > 1e-12f;
}

// Length of a vector or quaternion without overflow or underflow (glm::length
// squares the components: beyond ~1e19 in float, ~1e154 in double it gives Inf).
template <class V>
auto LengthSafe(const V& v) {
  using T = std::remove_cvref_t<decltype(v[0])>;
  T largest = T(0);
  for (int i = 0; i < static_cast<int>(V::length()); ++i) largest = std::max(largest, std::abs(v[i]));
  if (!(largest > T(0)) || !std::isfinite(largest)) return largest;
  const V scaled = v / largest;
  return largest * std::sqrt(glm::dot(scaled, scaled));
}

namespace detail {
// v divided by its largest |component| (so that component is ±1), or false when
// v has no direction: that component is not above `tiny`, or any is not finite.
template <class V, class T>
bool ScaleByLargest(const V& v, T tiny, V* out) {
  T largest = T(0);
  bool finite = true;
  for (int i = 0; i < static_cast<int>(V::length()); ++i) {
    largest = std::max(largest, std::abs(v[i]));
    finite = finite && std::isfinite(v[i]);
  }
  if (!finite || !(largest > tiny)) return false;
  *out = v / largest;
  return true;
}
}  // namespace detail

// The one normalization family of the library (vectors and quaternions, float or
// double). Unit vector or quaternion in the direction of `v`, computed without
// overflow or underflow (scaled by its largest component first, so components of
// 1e-30 or 1e30 keep full precision). Returns `fallback` when `v` has no
// direction: its largest component is not above `tiny` (0 by default: only an
// exact zero), or is not finite (NaN/Inf).
template <class V>
V NormalizeOr(const V& v, const V& fallback,
              std::remove_cvref_t<decltype(std::declval<V>()[0])> tiny = 0) {
  V scaled = v;
  if (!detail::ScaleByLargest(v, tiny, &scaled)) return fallback;
  return scaled / std::sqrt(glm::dot(scaled, scaled));
}

// NormalizeOr rounded as glm::normalize rounds (the scaled input times the
// reciprocal of its length, not divided by the length): the same direction,
// possibly one bit apart per component. The chain solvers and the look-at rigs
// use it, and their pinned results (tests/golden) depend on that rounding.
template <class V>
V NormalizeByReciprocalOr(const V& v, const V& fallback) {
  V scaled = v;
  if (!detail::ScaleByLargest(v, std::remove_cvref_t<decltype(v[0])>(0), &scaled)) return fallback;
  return glm::normalize(scaled);
}

// NormalizeOr with `v` itself as the fallback: a zero or non-finite input comes
// back unchanged (for callers that have validated it already).
template <class V>
V NormalizeSafe(const V& v) {
  return NormalizeOr(v, v);
}

constexpr float kPi = 3.14159265358979323846f;

}  // namespace ikpd
