// Internal: the Rig's quaternion formulas (glm's, operation for operation, so a
// lane gives the scalar result bit for bit) on simd lanes, and the loop that
// runs a RigBatch stage over characters in groups of simd::kWide.
#pragma once

#include <cstddef>

#include "../simd/vec.h"
#include "rig_math.h"

namespace ikpd::rig::lanes {

using simd::Q4;
using simd::V3;

// glm::dot(a, b) for quaternions: (w·w + x·x) + (y·y + z·z).
template <class F>
IKPD_INLINE F Dot(const Q4<F>& a, const Q4<F>& b) {
  return (a.w * b.w + a.x * b.x) + (a.y * b.y + a.z * b.z);
}
// glm's p * q.
template <class F>
IKPD_INLINE Q4<F> Mul(const Q4<F>& p, const Q4<F>& q) {
  return {p.w * q.x + p.x * q.w + p.y * q.z - p.z * q.y, p.w * q.y + p.y * q.w + p.z * q.x - p.x * q.z,
          p.w * q.z + p.z * q.w + p.x * q.y - p.y * q.x, p.w * q.w - p.x * q.x - p.y * q.y - p.z * q.z};
}
// glm's q * v: v + ((u × v)·w + u × (u × v))·2.
template <class F>
IKPD_INLINE V3<F> Rotate(const Q4<F>& q, const V3<F>& v) {
  const V3<F> u{q.x, q.y, q.z};
  const V3<F> uv = simd::Cross(u, v), uuv = simd::Cross(u, uv);  // glm's cross: the same products
  return {v.x + (uv.x * q.w + uuv.x) * F(2.0f), v.y + (uv.y * q.w + uuv.y) * F(2.0f), v.z + (uv.z * q.w + uuv.z) * F(2.0f)};
}
template <class F>
IKPD_INLINE V3<F> Mul(const V3<F>& a, const V3<F>& b) {
  return {a.x * b.x, a.y * b.y, a.z * b.z};
}
template <class F>
IKPD_INLINE Q4<F> Splat(const glm::quat& q) {
  return {F(q.x), F(q.y), F(q.z), F(q.w)};
}

// rig::Unit: one reciprocal square root when |q|² is in (0.25, 4); a lane
// outside that range makes the group fail (false: the caller runs it item by
// item, where Unit takes the overflow-safe path).
template <class F>
IKPD_INLINE bool Unit(Q4<F>* q) {
  const F n = lanes::Dot(*q, *q);
  if (!simd::All(simd::And(n > 0.25f, n < 4.0f))) return false;
  const F s = F(1.0f) / simd::Sqrt(n);
  *q = {q->x * s, q->y * s, q->z * s, q->w * s};
  return true;
}
template <>
IKPD_INLINE bool Unit<float>(Q4<float>* q) {
  *q = simd::FromGlm(rig::Unit(simd::ToGlm(*q)));
  return true;
}

// What a written joint's output becomes: `final`, or the pose's local as it
// was where the weighted local is exactly its unit local `current` (nothing
// changed: Rig writes only the locals that change).
template <class F>
IKPD_INLINE Q4<F> Written(const Q4<F>& pose, const Q4<F>& current, const Q4<F>& final) {
  const auto same = simd::And(simd::And(final.x == current.x, final.y == current.y), simd::And(final.z == current.z, final.w == current.w));
  return simd::Select(same, pose, final);
}

// rig::LookError on lanes for the usual case, the same float: the same
// cosine (glm's operations in glm's order) and AngleOfCosine. False when some
// lane has its target at the eye or past float's range, or a look axis that
// does not normalize plainly: those take rig::LookError itself.
template <class F>
IKPD_INLINE bool LookError(const V3<F>& eye, const Q4<F>& rotation, const glm::vec3& axis, const V3<F>& target, F* error) {
  const V3<F> to = target - eye;
  const V3<F> turned = lanes::Rotate(rotation, simd::Splat3<F>(axis));
  const F toLength2 = simd::Dot(to, to), lookLength2 = simd::Dot(turned, turned);
  if (!simd::All(simd::And(simd::And(toLength2 > 1e-30f, toLength2 < 1e30f), simd::And(lookLength2 > 1e-30f, lookLength2 < 1e30f)))) {
    return false;
  }
  const F length = simd::Sqrt(toLength2), inverse = F(1.0f) / simd::Sqrt(lookLength2);
  const V3<F> direction{to.x / length, to.y / length, to.z / length};
  *error = AngleOfCosine(simd::Min(simd::Max(simd::Dot(turned * inverse, direction), F(-1.0f)), F(1.0f)));
  return true;
}

// Characters [c0, c1): `run(simd::Wide{}, c)` for each full group of kWide
// (false: that group again with `run(0.0f, c + k)` item by item), the rest item by item.
template <class Run>
void ForCharacters(std::size_t c0, std::size_t c1, Run&& run) {
  std::size_t c = c0;
  if constexpr (simd::kWide > 1) {
    for (; c + simd::kWide <= c1; c += simd::kWide) {
      if (run(simd::Wide{}, c)) continue;
      for (std::size_t k = 0; k < simd::kWide; ++k) run(0.0f, c + k);
    }
  }
  for (; c < c1; ++c) run(0.0f, c);
}

}  // namespace ikpd::rig::lanes
