// Internal: the springs kind's lane helpers (springs_lanes.cc: the tick;
// springs_pose.cc: the Rig's gather and write-back along the chains): items
// gathered into kSpringLanes lanes one at a time and stored back, and
// rig::Unit's usual path with a mask of the lanes it holds for.
#pragma once

#include <cstddef>
#include <cstring>

#include "../rig_batch_lanes.h"
#include "springs.h"

namespace ikpd::rig::detail::spring_lanes {

using F = simd::Quad;
using M = simd::Mask<F>;
using V = simd::V3<F>;
using Q = simd::Q4<F>;
constexpr std::size_t L = kSpringLanes;
static_assert(L == simd::kLanes<F>);

IKPD_INLINE F Load(const float* p) {
  F f;
  simd::Load1(p, 0, &f);
  return f;
}
// Lanes filled one item at a time, then loaded at once.
struct GatherV {
  float x[L], y[L], z[L];
  void Set(std::size_t j, const glm::vec3& v) { x[j] = v.x, y[j] = v.y, z[j] = v.z; }
  V Get() const { return {Load(x), Load(y), Load(z)}; }
};
struct GatherQ {
  float x[L], y[L], z[L], w[L];
  void Set(std::size_t j, const glm::quat& q) { x[j] = q.x, y[j] = q.y, z[j] = q.z, w[j] = q.w; }
  Q Get() const { return {Load(x), Load(y), Load(z), Load(w)}; }
};
struct GatherF {
  float v[L];
  F Get() const { return Load(v); }
};
struct Stored {
  float v[4][L];
  void Put(const F& a, const F& b, const F& c) { simd::Store1(v[0], 0, a), simd::Store1(v[1], 0, b), simd::Store1(v[2], 0, c); }
  void Put(const Q& q) { Put(q.x, q.y, q.z), simd::Store1(v[3], 0, q.w); }
  glm::vec3 Vec(std::size_t j) const { return {v[0][j], v[1][j], v[2][j]}; }
  glm::quat Quat(std::size_t j) const { return glm::quat(v[3][j], v[0][j], v[1][j], v[2][j]); }
};

// Items whose 4 floats lie together (a quaternion; a position and the float
// after it) to and from lanes: a load or store an item and a transpose, where
// Gather*/Stored take one a float (springs_pose.cc's locals, tails' poses and
// written rotations; docs/rig/springs.md, "What comes next"). Moves only.
static_assert(sizeof(glm::quat) == 4 * sizeof(float) && offsetof(glm::quat, x) == 0 && offsetof(glm::quat, w) == 3 * sizeof(float));
IKPD_INLINE const float* Floats(const glm::quat& q) { return &q.x; }
IKPD_INLINE float* Floats(glm::quat& q) { return &q.x; }
IKPD_INLINE Q LoadRows(const float* const* p) {
#if IKPD_HAS_F4
  simd::Reg a = simd::RegLoad(p[0]), b = simd::RegLoad(p[1]), c = simd::RegLoad(p[2]), d = simd::RegLoad(p[3]);
  simd::RegTranspose4(&a, &b, &c, &d);
  return {F(a), F(b), F(c), F(d)};
#else
  return {p[0][0], p[0][1], p[0][2], p[0][3]};
#endif
}
struct Rows {
  alignas(16) float v[L][4];
  void Put(const Q& q) {
#if IKPD_HAS_F4
    simd::Reg a = q.x.r, b = q.y.r, c = q.z.r, d = q.w.r;
    simd::RegTranspose4(&a, &b, &c, &d);
    simd::RegStore(v[0], a), simd::RegStore(v[1], b), simd::RegStore(v[2], c), simd::RegStore(v[3], d);
#else
    v[0][0] = q.x, v[0][1] = q.y, v[0][2] = q.z, v[0][3] = q.w;
#endif
  }
  void To(std::size_t j, float* p) const { std::memcpy(p, v[j], sizeof v[j]); }
};

// rig::Unit's usual path (one reciprocal square root, |q|² in (0.25, 4)):
// *ok cleared in the lanes outside it (those take rig::Unit itself).
IKPD_INLINE Q UnitLanes(const Q& q, M* ok) {
  const F n = lanes::Dot(q, q);
  *ok = simd::And(*ok, simd::And(n > 0.25f, n < 4.0f));
  const F s = F(1.0f) / simd::Sqrt(n);
  return {q.x * s, q.y * s, q.z * s, q.w * s};
}

}  // namespace ikpd::rig::detail::spring_lanes
