// Internal: the two-bone kernel's rotations of its canonical axes, forward +X
// and hinge +Z (TwoBoneShared::canonicalAxes in two_bone_kernel.h: the
// defaults, and the rig's canonical frames).
#pragma once

#include "../simd/vec.h"

namespace ikpd::detail::two_bone_kernel {

using simd::Mask;
using simd::Q4;
using simd::V3;

// The axis rotations of canonical axes (TwoBoneShared::canonicalAxes): each
// is simd::Rotate or simd::SwingTwist with a = +X, v = +Z written out, its
// products by 0 and 1 and the sums with them left out, so the same floats
// (the sign of an exact zero aside; docs/performance.md, "Two-bone and aim").
// q·(1, 0, 0)·q*, with t = 2·(u × x̂) = (0, 2z, −2y).
template <class F>
IKPD_INLINE V3<F> RotateX(const Q4<F>& q) {
  const F ty = q.z * 2.0f, tz = -q.y * 2.0f;
  return {1.0f + (q.y * tz - q.z * ty), ty * q.w - q.x * tz, tz * q.w + q.x * ty};
}
// q·(0, 0, 1)·q*, with t = 2·(u × ẑ) = (2y, −2x, 0).
template <class F>
IKPD_INLINE V3<F> RotateZ(const Q4<F>& q) {
  const F tx = q.y * 2.0f, ty = -q.x * 2.0f;
  return {tx * q.w - q.z * ty, ty * q.w + q.z * tx, 1.0f + (q.x * ty - q.y * tx)};
}
// simd::SwingTwist(+X, +Z, b, d): s = (1 + b.x, b.y, b.z), a × b = (0, −b.z, b.y),
// v·s = s.z.
template <class F>
IKPD_INLINE Q4<F> SwingTwistXZ(const V3<F>& b, const V3<F>& d, Mask<F>* ok, F* inverseNorm) {
  const V3<F> s{1.0f + b.x, b.y, b.z};
  const F s2 = Dot(s, s);
  const F onePlus = 0.5f * s2;
  const F axisW2 = (b.z * b.z + b.y * b.y) + onePlus * onePlus;
  const V3<F> swung{-(s.x * s.z), -(s.y * s.z), onePlus - s.z * s.z};
  F tw, ts;
  simd::TwistOf(b, d, swung, s2, onePlus, axisW2, ok, inverseNorm, &tw, &ts);
  return {ts * s.x, ts * s.y - tw * b.z, tw * b.y + ts * s.z, tw * onePlus};
}

}  // namespace ikpd::detail::two_bone_kernel
