// Internal: the Rig's quaternion formulas (glm's, operation for operation, so a
// lane gives the scalar result bit for bit) on simd lanes, and the loop that
// runs a RigBatch stage over characters in groups of kLanes.
#pragma once

#include <cstddef>
#include <type_traits>

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
// was where nothing changed (Rig writes only the locals that change): at full
// weight where `final` equals the pose's local, else where the weighted local
// is exactly its unit local `current`.
template <class F>
IKPD_INLINE Q4<F> Written(const Q4<F>& pose, const Q4<F>& current, const Q4<F>& final, simd::Mask<F> full) {
  const auto equal = [&](const Q4<F>& a) {
    return simd::And(simd::And(final.x == a.x, final.y == a.y), simd::And(final.z == a.z, final.w == a.w));
  };
  const auto same = simd::Or(simd::And(full, equal(pose)), simd::And(simd::Not(full), equal(current)));
  return simd::Select(same, pose, final);
}

// rig::LookError on lanes for the usual case, the same float: the same
// unit vectors (glm's operations in glm's order) and AngleOfUnits. False when some
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
  *error = AngleOfUnits(turned * inverse, direction);
  return true;
}

// The lane type the RigBatch stages run on (the batch kernels run on
// simd::Wide): four lanes in WebAssembly, where F8 is two v128 and the stages'
// many live quaternions spill (F4 measured 4 % faster on the crowd frame,
// Node 20, and 35 % with the lane blocks below), simd::Wide natively (eight:
// ~4 % faster than four).
#if IKPD_LANES_WASM
using Lane = simd::F4;
inline constexpr std::size_t kLanes = 4;
#else
using Lane = simd::Wide;
inline constexpr std::size_t kLanes = simd::kWide;
#endif

// Characters [c0, c1): `run(Lane{}, c)` for each full group of kLanes that
// starts at a multiple of kLanes (false: that group again with `run(0.0f, c + k)`
// item by item), the characters before the first and after the last group
// item by item. Groups are whole lane blocks (below).
template <class Run>
void ForCharacters(std::size_t c0, std::size_t c1, Run&& run) {
  std::size_t c = c0;
  if constexpr (kLanes > 1) {
    for (; c < c1 && c % kLanes != 0; ++c) run(0.0f, c);
    for (; c + kLanes <= c1; c += kLanes) {
      if (run(Lane{}, c)) continue;
      for (std::size_t k = 0; k < kLanes; ++k) run(0.0f, c + k);
    }
  }
  for (; c < c1; ++c) run(0.0f, c);
}

// Lane blocks: the per-character arrays only the stages read (model rotations
// and scales, unit roots, the pose's locals) keep characters in blocks of
// kLanes, each component of a block contiguous (the block's x, then y, z, w),
// so a group of ForCharacters moves in and out of lanes without shuffles. A
// field of K components for n characters takes Blocked(n)·K floats; a range of
// characters writes only its own floats (threads stay apart).
inline std::size_t Blocked(std::size_t n) { return (n + kLanes - 1) / kLanes * kLanes; }
template <std::size_t K, class F>
IKPD_INLINE void LoadBlock(const float* field, std::size_t c, F* v) {
  if constexpr (std::is_same_v<F, float>) {
    const float* p = field + (c / kLanes) * kLanes * K + c % kLanes;
    for (std::size_t k = 0; k < K; ++k) v[k] = p[k * kLanes];
  } else {
    for (std::size_t k = 0; k < K; ++k) simd::Load1(field + c * K + k * kLanes, 0, &v[k]);  // c: a block's first
  }
}
template <std::size_t K, class F>
IKPD_INLINE void StoreBlock(float* field, std::size_t c, const F* v) {
  if constexpr (std::is_same_v<F, float>) {
    float* p = field + (c / kLanes) * kLanes * K + c % kLanes;
    for (std::size_t k = 0; k < K; ++k) p[k * kLanes] = v[k];
  } else {
    for (std::size_t k = 0; k < K; ++k) simd::Store1(field + c * K + k * kLanes, 0, v[k]);
  }
}
template <class F>
IKPD_INLINE Q4<F> LoadBlockQ4(const float* field, std::size_t c) {
  F v[4];
  LoadBlock<4>(field, c, v);
  return {v[0], v[1], v[2], v[3]};
}
template <class F>
IKPD_INLINE V3<F> LoadBlockV3(const float* field, std::size_t c) {
  F v[3];
  LoadBlock<3>(field, c, v);
  return {v[0], v[1], v[2]};
}
template <class F>
IKPD_INLINE void StoreBlockQ4(float* field, std::size_t c, const Q4<F>& q) {
  const F v[4] = {q.x, q.y, q.z, q.w};
  StoreBlock<4>(field, c, v);
}
template <class F>
IKPD_INLINE void StoreBlockV3(float* field, std::size_t c, const V3<F>& q) {
  const F v[3] = {q.x, q.y, q.z};
  StoreBlock<3>(field, c, v);
}

}  // namespace ikpd::rig::lanes
