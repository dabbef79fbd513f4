// Internal: the §1/§2 aim solve, written once over a lane type (float for
// AimJob, simd::Wide for AimBatchJob's groups), so the single call and every
// batch lane give bit-identical results. Inputs are validated by the callers;
// the kernel is branch-free per lane. Turns about a known axis use the
// half-angle form (1 + cos θ, sin θ) instead of atan2, sin and cos.
#pragma once

#include "ikpd/ik/aim.h"
#include "../simd/vec.h"
#include "two_bone_kernel.h"  // PerpendicularUnit, ScaleForDirection, Slerp (lane helpers)

namespace ikpd::detail {

// Settings shared by every item, derived once from a validated AimJob.
struct AimShared {
  AimMethod method = AimMethod::kYawPitch;
  simd::V3<float> forward;          // unit
  simd::V3<float> pitchAxis;        // unit ⊥ forward (the seed's Y for forward = X)
  simd::V3<float> yawAxis;          // forward × pitchAxis
  simd::Q4<float> frameInverse;     // kCrossProduct: inverse of FrameQuat(forward, pitchAxis)
  bool hinge = false;
  simd::V3<float> hingeAxis;        // unit
  simd::V3<float> hingeForward;     // forward made ⊥ hingeAxis, unit
  bool pole = false;
  simd::V3<float> up;               // up made ⊥ forward, unit
};

// `job` must be valid; `pole` says whether the items carry a pole point.
AimShared MakeAimShared(const AimJob& job, bool pole);

template <class F>
struct AimLanes {
  simd::V3<F> position, target, pole;
  simd::Q4<F> rotation;
  F weight;
  simd::Q4<F> outRotation;  // unit
};

namespace aim_kernel {

using simd::Abs;
using simd::And;
using simd::Mask;
using simd::Q4;
using simd::Select;
using simd::Sqrt;
using simd::V3;

template <class F>
IKPD_INLINE Q4<F> Splat4(const simd::Q4<float>& q) {
  return {F(q.x), F(q.y), F(q.z), F(q.w)};
}

// The rotation about unit axis n by the angle θ with (cos θ, sin θ) ∝ (c, s)
// (any positive scale), as the unit quaternion (n sin θ/2, cos θ/2) with
// cos θ/2 >= 0: (r + c, s) normalized, r = |(c, s)|; for c < 0, the equal
// (|s|, ±(r − c)) keeps full precision near θ = ±π.
template <class F>
IKPD_INLINE Q4<F> TurnAbout(const V3<F>& n, F c, F s) {
  const F r = Sqrt(c * c + s * s);
  const auto back = c < 0.0f;
  const F w = Select(back, Abs(s), r + c);
  const F v = Select(back, Select(s < 0.0f, c - r, r - c), s);
  const F len2 = w * w + v * v;
  const auto turns = len2 > 0.0f;
  const F k = F(1.0f) / Sqrt(Select(turns, len2, F(1.0f)));
  const F sinHalf = Select(turns, v * k, F(0.0f));
  return {n.x * sinHalf, n.y * sinHalf, n.z * sinHalf, Select(turns, w * k, F(1.0f))};
}

// Unit direction of b − a without overflow (exact halves first; the
// direction is scale-free) and whether it has one (|b − a| > ~1e-30).
template <class F>
IKPD_INLINE V3<F> DirectionScaled(const V3<F>& a, const V3<F>& b) {
  return two_bone_kernel::ScaleForDirection(b * F(0.5f) - a * F(0.5f));
}

// Joint-local rotation turning unit f toward unit direction d (SPEC §1).
template <class F>
IKPD_INLINE Q4<F> LocalAim(const AimShared& s, const V3<F>& d) {
  const V3<F> f = simd::Splat3<F>(simd::ToGlm(s.forward));
  const V3<F> pitchAxis = simd::Splat3<F>(simd::ToGlm(s.pitchAxis));
  const V3<F> yawAxis = simd::Splat3<F>(simd::ToGlm(s.yawAxis));
  switch (s.method) {
    case AimMethod::kYawPitch: {
      // Yaw θz about the yaw axis, (cos, sin) ∝ (x, y); then pitch −θy about the
      // pitch axis, (cos, sin) ∝ (ρ, −z). Target on the yaw axis: θz = 0.
      const F x = Dot(d, f), y = Dot(d, pitchAxis), z = Dot(d, yawAxis);
      const F rho = Sqrt(x * x + y * y);
      const auto yawDefined = rho > 1e-7f;
      const Q4<F> yaw = TurnAbout(yawAxis, Select(yawDefined, x, F(1.0f)), Select(yawDefined, y, F(0.0f)));
      return yaw * TurnAbout(pitchAxis, rho, -z);
    }
    case AimMethod::kCrossProduct: {
      // New axes: X' = d, Y' = yaw × d (horizontal), Z' = X' × Y'; target on the
      // yaw axis: Y' = the pitch axis, as kYawPitch.
      const V3<F> c = Cross(yawAxis, d);
      const F cc = Dot(c, c);
      const auto defined = cc >= 1e-14f;
      const V3<F> newPitch = Select(defined, c * (F(1.0f) / Sqrt(Select(defined, cc, F(1.0f)))), pitchAxis);
      const Q4<F> turn = simd::FrameQuat(d, newPitch) * Splat4<F>(s.frameInverse);
      return Select(turn.w < 0.0f, Q4<F>{-turn.x, -turn.y, -turn.z, -turn.w}, turn);  // w >= 0, as kYawPitch
    }
    case AimMethod::kShortestArc:
    default: {
      // normalize(1 + cos θ, f × d), with 1 + cos θ = sin²θ / (1 − cos θ) when
      // cos θ < 0 (full precision nearly behind); exactly behind: 180° about yaw.
      const F c = Dot(f, d);
      const V3<F> axis = Cross(f, d);
      const F sin2 = Dot(axis, axis);
      const auto behind = And(c < 0.0f, sin2 < 1e-14f);
      const F onePlusCos = Select(c >= 0.0f, 1.0f + c, sin2 / (1.0f - Select(c >= 0.0f, F(0.0f), c)));
      const Q4<F> arc = simd::Normalize(Q4<F>{axis.x, axis.y, axis.z, Select(behind, F(1.0f), onePlusCos)});
      return Select(behind, Q4<F>{yawAxis.x, yawAxis.y, yawAxis.z, F(0.0f)}, arc);
    }
  }
}

}  // namespace aim_kernel

template <class F>
void SolveAim(const AimShared& shared, AimLanes<F>& io) {
  using namespace aim_kernel;  // NOLINT: the kernel's own helpers
  const V3<F> f = simd::Splat3<F>(simd::ToGlm(shared.forward));
  const Q4<F> q = simd::NormalizeSafe(io.rotation);
  const V3<F> toTarget = Rotate(Conjugate(q), DirectionScaled(io.position, io.target));

  Q4<F> aimed = q;
  if (shared.hinge) {
    // 2D: turn about the hinge so forward's in-plane part points at the target's.
    const V3<F> h = simd::Splat3<F>(simd::ToGlm(shared.hingeAxis));
    const V3<F> fp = simd::Splat3<F>(simd::ToGlm(shared.hingeForward));
    V3<F> dp;
    const auto ok = two_bone_kernel::PerpendicularUnit(toTarget, h, &dp);
    aimed = Select(ok, q * TurnAbout(h, Dot(fp, dp), Dot(h, Cross(fp, dp))), q);
  } else {
    const F dd = Dot(toTarget, toTarget);
    const auto ok = dd > 0.0f;  // target not at the joint
    const V3<F> d = toTarget * (F(1.0f) / Sqrt(Select(ok, dd, F(1.0f))));
    aimed = Select(ok, q * LocalAim(shared, d), q);
  }

  if (shared.pole) {  // SPEC §2: roll about forward so `up` points toward the pole.
    const V3<F> u = simd::Splat3<F>(simd::ToGlm(shared.up));
    V3<F> p;
    const auto ok = two_bone_kernel::PerpendicularUnit(Rotate(Conjugate(aimed), DirectionScaled(io.position, io.pole)),
                                                       f, &p);
    aimed = Select(ok, aimed * TurnAbout(f, Dot(u, p), Dot(f, Cross(u, p))), aimed);
  }

  const auto full = io.weight >= 1.0f;
  Q4<F> out = aimed;
  if (!simd::All(full)) out = Select(full, aimed, two_bone_kernel::Slerp(q, aimed, io.weight));
  io.outRotation = simd::Normalize(out);
}

}  // namespace ikpd::detail
