// Internal: the springs kind's lane helpers (springs_lanes.cc: the tick;
// springs_pose.cc: the Rig's gather and write-back along the chains): items
// gathered into kSpringLanes lanes one at a time and stored back, and
// rig::Unit's usual path with a mask of the lanes it holds for.
#pragma once

#include <cstddef>

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

// rig::Unit's usual path (one reciprocal square root, |q|² in (0.25, 4)):
// *ok cleared in the lanes outside it (those take rig::Unit itself).
IKPD_INLINE Q UnitLanes(const Q& q, M* ok) {
  const F n = lanes::Dot(q, q);
  *ok = simd::And(*ok, simd::And(n > 0.25f, n < 4.0f));
  const F s = F(1.0f) / simd::Sqrt(n);
  return {q.x * s, q.y * s, q.z * s, q.w * s};
}

}  // namespace ikpd::rig::detail::spring_lanes
