// Internal: the aim solve (docs/ik/aim.md), written once over a lane type (float for
// AimJob, simd::Wide for AimBatchJob's groups), so the single call and every
// batch lane give bit-identical results. Inputs are validated by the callers;
// the kernel is branch-free per lane. Turns about a known axis use the
// half-angle form (1 + cos θ, sin θ) instead of atan2, sin and cos.
#pragma once

#include <new>
#include <type_traits>

#include "ikpd/ik/aim.h"
#include "../simd/vec.h"
#include "setup_access.h"

namespace ikpd::detail {

// Settings shared by every item, derived once from validated AimSettings
// (Prepare keeps them in an AimSetup; docs/architecture.md, the job layer).
struct AimShared {
  AimMethod method = AimMethod::kYawPitch;
  simd::V3<float> forward;          // unit
  simd::V3<float> pitchAxis;        // unit ⊥ forward (Y for forward = X, docs/ik/aim.md)
  simd::V3<float> yawAxis;          // forward × pitchAxis
  simd::Q4<float> frameInverse;     // kCrossProduct: inverse of FrameQuat(forward, pitchAxis)
  bool hinge = false;
  simd::V3<float> hingeAxis;        // unit
  simd::V3<float> hingeForward;     // forward made ⊥ hingeAxis, unit
  simd::V3<float> hingeSide;        // hingeAxis × hingeForward
  bool pole = false;
  simd::V3<float> up;               // up made ⊥ forward, unit
  simd::V3<float> upSide;           // forward × up
  bool offset = false;              // a non-zero AimJob::offset
  simd::V3<float> offsetHalf;       // AimJob::offset / 2
  float offsetHalfMax = 0.0f;       // its largest |component|
};

// `settings` must be valid (AimSettings::Validate).
AimShared MakeAimShared(const AimSettings& settings);

using AimSetupAccess = SetupAccess<AimSetup, AimShared>;

// The derived settings a prepared setup holds (valid only if it is prepared).
inline const AimShared& SharedOf(const AimSetup& setup) { return AimSetupAccess::SharedOf(setup); }

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
using simd::InverseExponentOf;
using simd::Mask;
using simd::Max;
using simd::MaxAbs;
using simd::Min;
using simd::Not;
using simd::PerpendicularUnit;
using simd::Q4;
using simd::Select;
using simd::Sqrt;
using simd::V3;

template <class F>
IKPD_INLINE Q4<F> Splat4(const simd::Q4<float>& q) {
  return {F(q.x), F(q.y), F(q.z), F(q.w)};
}

// The half angle of the turn θ with (cos θ, sin θ) = (c, s) / r, r = |(c, s)|,
// unnormalized: (cos θ/2, sin θ/2) ∝ (w, v) with w >= 0, from (r + c, s); for
// c < 0 from the equal (|s|, ±(r − c)), which keeps full precision near ±π.
// |(w, v)|² >= r², so (c, s) must not both be 0.
template <class F>
IKPD_INLINE void HalfTurn(F c, F s, F r, F* w, F* v) {
  const auto back = c < 0.0f;
  *w = Select(back, Abs(s), r + c);
  *v = Select(back, Select(s < 0.0f, c - r, r - c), s);
}

// The rotation about unit axis n by the angle from unit a to the direction of
// v's part perpendicular to n (a, side = n × a and n orthonormal): (cos, sin)
// ∝ (a·v, side·v), as its unnormalized half angle (w, sh): the turn is
// (n·sh, w) / |(w, sh)|. False, with no turn (w, sh) = (2, 0), when v is zero
// or within ~0.0006° of ±n. v unit, scaled to a largest component in [1, 2),
// or from DirectionOf; |(w, sh)| then lies in [1e-15, 2^17].
template <class F>
IKPD_INLINE Mask<F> TurnHalfAngle(const V3<F>& a, const V3<F>& side, const V3<F>& v, F* w, F* sh) {
  const F c = Dot(a, v), s = Dot(side, v);
  const F r2 = c * c + s * s;
  const F vv = Dot(v, v);
  const auto ok = And(vv > 1e-20f, r2 > 1e-10f * vv);
  HalfTurn(Select(ok, c, F(1.0f)), Select(ok, s, F(0.0f)), Sqrt(Select(ok, r2, F(1.0f))), w, sh);
  return ok;
}
// That turn as a unit quaternion.
template <class F>
IKPD_INLINE Mask<F> TurnToward(const V3<F>& n, const V3<F>& a, const V3<F>& side, const V3<F>& v, Q4<F>* turn) {
  F w, sh;
  const auto ok = TurnHalfAngle(a, side, v, &w, &sh);
  const F k = F(1.0f) / Sqrt(w * w + sh * sh);
  sh = sh * k;
  *turn = {n.x * sh, n.y * sh, n.z * sh, w * k};
  return ok;
}

// The direction of b − a without overflow: exact halves, scaled by a power
// of two to a largest component in [1, 2); zero when |b − a| is below ~1e-30.
template <class F>
IKPD_INLINE V3<F> DirectionScaled(const V3<F>& a, const V3<F>& b) {
  return simd::ScaleForDirection(b * F(0.5f) - a * F(0.5f));
}

// b − a itself where its squared length lies in [2^-30, 2^30] (all of the
// kernel's uses are homogeneous in it, so the power of two DirectionScaled
// would apply changes no bit), else DirectionScaled (rare: only when some
// lane needs it).
template <class F>
IKPD_INLINE V3<F> DirectionOf(const V3<F>& a, const V3<F>& b) {
  const V3<F> d = b - a;
  const F dd = Dot(d, d);
  const auto plain = And(dd >= 9.3132257e-10f, dd <= 1.0737418e9f);
  if (simd::All(plain)) return d;
  return Select(plain, d, DirectionScaled(a, b));
}

// Joint-local rotation turning unit f toward direction t (docs/ik/aim.md), t != 0
// of length len, scaled like TurnToward's v.
template <class F>
IKPD_INLINE Q4<F> LocalAim(const AimShared& s, const V3<F>& t, F len) {
  const V3<F> f = simd::Splat3<F>(simd::ToGlm(s.forward));
  const V3<F> pitchAxis = simd::Splat3<F>(simd::ToGlm(s.pitchAxis));
  const V3<F> yawAxis = simd::Splat3<F>(simd::ToGlm(s.yawAxis));
  const V3<F> d = s.method == AimMethod::kYawPitch ? t : t * (F(1.0f) / len);  // unit
  switch (s.method) {
    case AimMethod::kYawPitch: {
      // Yaw θz about the yaw axis Z, (cos, sin) ∝ (x, y); then pitch −θy about
      // the pitch axis Y, (cos, sin) ∝ (ρ, −z). Target on the yaw axis: θz = 0.
      const F x = Dot(t, f), y = Dot(t, pitchAxis), z = Dot(t, yawAxis);
      const F rho = Sqrt(x * x + y * y);
      const auto yawDefined = rho > 1e-7f * len;
      F wy, vy, wp, vp;
      HalfTurn(Select(yawDefined, x, F(1.0f)), Select(yawDefined, y, F(0.0f)), Select(yawDefined, rho, F(1.0f)), &wy,
               &vy);
      HalfTurn(rho, -z, len, &wp, &vp);
      // (vy Z, wy)·(vp Y, wp) with Z ⊥ Y and Z × Y = −f, normalized once.
      const F k = F(1.0f) / Sqrt((wy * wy + vy * vy) * (wp * wp + vp * vp));
      const F a = wy * vp * k, b = vy * wp * k, c = vy * vp * k;
      return {pitchAxis.x * a + yawAxis.x * b - f.x * c, pitchAxis.y * a + yawAxis.y * b - f.y * c,
              pitchAxis.z * a + yawAxis.z * b - f.z * c, wy * wp * k};
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
    default:
      return simd::ShortestArc(f, d, yawAxis);  // exactly behind: 180° about yaw, as kYawPitch
  }
}

// The offset construction (docs/ik/aim.md): the point on the ray o + s·f
// (s >= 0 past o's foot on the forward line) at distance |t| from the joint,
// as a unit vector. Turning it onto t puts the ray from o along forward
// through the target. False when the target lies inside the sphere the ray
// cannot reach (|t| <= distance of the forward line through o from the joint),
// or the target is at the joint in this scale (|t|² <= 1e-30).
// f unit; o and t in one scale with components at most 2.
template <class F>
IKPD_INLINE Mask<F> OffsetAimPoint(const V3<F>& f, const V3<F>& o, const V3<F>& t, V3<F>* unit) {
  const V3<F> across = o - f * Dot(f, o);
  const F across2 = Dot(across, across);
  const F r2 = Dot(t, t);
  // A target within ~1e-15 of the offset's length from the joint counts as at
  // the joint (no aim point): below that, r2 and the aim point's length
  // underflow and its normalization would divide by zero.
  const auto ok = And(r2 > across2, r2 > F(1e-30f));
  const V3<F> i = across + f * Sqrt(Select(ok, r2 - across2, F(0.0f)));
  const F ii = Dot(i, i);
  *unit = i * (F(1.0f) / Sqrt(Select(ok, ii, F(1.0f))));
  return ok;
}

// A unit axis perpendicular to unit v, from the shared frame (pitch ⊥ yaw).
template <class F>
IKPD_INLINE V3<F> HalfTurnAxisOf(const V3<F>& v, const V3<F>& pitchAxis, const V3<F>& yawAxis) {
  const V3<F> a = Cross(v, pitchAxis), b = Cross(v, yawAxis);
  const F aa = Dot(a, a), bb = Dot(b, b);  // one of them >= 1/2
  const auto useA = aa >= bb;
  return Select(useA, a, b) * (F(1.0f) / Sqrt(Select(useA, aa, bb)));
}

// The aim turn with an offset point: rotation taking the aim point of
// OffsetAimPoint onto the target direction; kShortestArc directly, the other
// methods as their turn of forward toward the target after the shortest arc
// bringing the aim point onto forward. `ok` false: identity.
template <class F>
IKPD_INLINE Q4<F> OffsetAim(const AimShared& s, const V3<F>& toTarget, F len, const V3<F>& aimPoint) {
  const V3<F> f = simd::Splat3<F>(simd::ToGlm(s.forward));
  const V3<F> halfTurn = HalfTurnAxisOf(aimPoint, simd::Splat3<F>(simd::ToGlm(s.pitchAxis)),
                                        simd::Splat3<F>(simd::ToGlm(s.yawAxis)));
  if (s.method == AimMethod::kShortestArc) {
    return simd::ShortestArc(aimPoint, toTarget * (F(1.0f) / len), halfTurn);
  }
  return LocalAim(s, toTarget, len) * simd::ShortestArc(aimPoint, f, halfTurn);
}

}  // namespace aim_kernel

template <class F>
void SolveAim(const AimShared& shared, AimLanes<F>& io) {
  using namespace aim_kernel;  // NOLINT: the kernel's own helpers
  const V3<F> f = simd::Splat3<F>(simd::ToGlm(shared.forward));
  const Q4<F> q = simd::NormalizeSafe(io.rotation);
  const V3<F> direction = DirectionOf(io.position, io.target);
  auto toTarget = [&] { return Rotate(Conjugate(q), direction); };

  Q4<F> aimed = q;
  V3<F> aimPoint = f;                        // offset: the aim point, unit (joint-local)
  Mask<F> reachable = F(1.0f) < F(0.0f);   // offset: the target lies outside the offset sphere (none yet)
  if (shared.hinge) {
    // 2D: turn about the hinge so forward's in-plane part points at the target's.
    Q4<F> turn;
    const auto ok = TurnToward(simd::Splat3<F>(simd::ToGlm(shared.hingeAxis)),
                               simd::Splat3<F>(simd::ToGlm(shared.hingeForward)),
                               simd::Splat3<F>(simd::ToGlm(shared.hingeSide)), toTarget(), &turn);
    aimed = Select(ok, q * turn, q);
  } else if (shared.offset) {
    // Target and offset in one power-of-two scale (largest component < 2).
    const V3<F> half = io.target * F(0.5f) - io.position * F(0.5f);
    const F m = Max(MaxAbs(half), F(shared.offsetHalfMax));
    const F k = Select(m > 1e-30f, InverseExponentOf(Min(m, F(8.5e37f))), F(0.0f));
    const V3<F> t = Rotate(Conjugate(q), half * k), turned = toTarget();
    const F dd = Dot(turned, turned);
    // Outside the offset sphere, and a target direction at all (dd > 0: a target
    // within ~1e-30 of the joint has none, even where the offset sets the scale).
    const auto ok = And(OffsetAimPoint(f, simd::Splat3<F>(simd::ToGlm(shared.offsetHalf)) * k, t, &aimPoint), dd > 0.0f);
    reachable = ok;
    aimed = Select(ok, q * OffsetAim(shared, turned, Sqrt(Select(ok, dd, F(1.0f))), aimPoint), q);
  } else {
    // LocalAim takes only the direction of the target (every use is homogeneous
    // in it), so where the input rotation is near unit (|q|² in [1/2, 2]) it is
    // turned by that rotation as given (scaled by |q|²), beside q's
    // normalization. (The target's length then stays in [2^-16, 2^16], where
    // LocalAim's fourth powers of it neither overflow nor underflow.)
    const F qq = Dot(io.rotation, io.rotation);
    const auto nearUnit = And(qq >= 0.5f, qq <= 2.0f);
    V3<F> t = simd::RotateScaled(Conjugate(io.rotation), direction);
    if (!simd::All(nearUnit)) t = Select(nearUnit, t, toTarget());
    const F dd = Dot(t, t);
    const auto ok = dd > 0.0f;  // target not at the joint
    aimed = Select(ok, q * LocalAim(shared, t, Sqrt(Select(ok, dd, F(1.0f)))), q);
  }

  if (shared.pole) {  // docs/ik/aim.md, up-vector: roll about forward so `up` points toward the pole.
    V3<F> n = f, up = simd::Splat3<F>(simd::ToGlm(shared.up)), side = simd::Splat3<F>(simd::ToGlm(shared.upSide));
    Mask<F> upLost = F(1.0f) < F(0.0f);  // offset: up along the joint → target axis (none yet)
    if (shared.offset && simd::Any(reachable)) {
      // With an offset the roll turns about the joint → target axis (the aim
      // point in the aimed frame), so the offset ray keeps passing through it.
      V3<F> upAcross;
      const auto upOk = PerpendicularUnit(up, aimPoint, &upAcross);
      n = Select(reachable, aimPoint, n);
      up = Select(reachable, upAcross, up);
      side = Select(reachable, Cross(aimPoint, upAcross), side);
      upLost = And(reachable, Not(upOk));
    }
    // The roll turn unnormalized: the output is normalized once, below, and
    // the slerp takes the direction of its target only.
    F w, sh;
    auto ok = TurnHalfAngle(up, side, Rotate(Conjugate(aimed), DirectionOf(io.position, io.pole)), &w, &sh);
    if (shared.offset) ok = And(ok, Not(upLost));
    aimed = Select(ok, aimed * Q4<F>{n.x * sh, n.y * sh, n.z * sh, w}, aimed);
  }

  const auto full = io.weight >= 1.0f;
  Q4<F> out = aimed;
  if (!simd::All(full)) out = Select(full, aimed, simd::SlerpToward(q, aimed, Dot(q, aimed), io.weight));
  io.outRotation = simd::Normalize(out);
}

}  // namespace ikpd::detail
