// Internal: vectors and quaternions over a lane type (see lanes.h) for the
// batch kernels. For F = float they convert to and from GLM, which the rest
// of the library uses.
#pragma once

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <type_traits>

#include "lanes.h"

namespace ikpd::simd {

template <class F>
using Mask = decltype(F() < F());

template <class F>
struct V3 {
  F x, y, z;
};
template <class F>
struct Q4 {
  F x, y, z, w;
};

template <class F>
IKPD_INLINE V3<F> operator+(const V3<F>& a, const V3<F>& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class F>
IKPD_INLINE V3<F> operator-(const V3<F>& a, const V3<F>& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class F>
IKPD_INLINE V3<F> operator-(const V3<F>& a) {
  return {-a.x, -a.y, -a.z};
}
template <class F>
IKPD_INLINE V3<F> operator*(const V3<F>& a, F s) {
  return {a.x * s, a.y * s, a.z * s};
}
template <class F>
IKPD_INLINE V3<F> operator*(F s, const V3<F>& a) {
  return a * s;
}
template <class F>
IKPD_INLINE F Dot(const V3<F>& a, const V3<F>& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
template <class F>
IKPD_INLINE V3<F> Cross(const V3<F>& a, const V3<F>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <class F>
IKPD_INLINE F MaxAbs(const V3<F>& a) {
  return Max(Max(Abs(a.x), Abs(a.y)), Abs(a.z));
}
template <class F>
IKPD_INLINE V3<F> Select(Mask<F> m, const V3<F>& a, const V3<F>& b) {
  return {Select(m, a.x, b.x), Select(m, a.y, b.y), Select(m, a.z, b.z)};
}
template <class F>
IKPD_INLINE V3<F> Splat3(const glm::vec3& v) {
  return {F(v.x), F(v.y), F(v.z)};
}
template <class F>
IKPD_INLINE Mask<F> IsFinite3(const V3<F>& a) {
  return And(And(IsFiniteLane(a.x), IsFiniteLane(a.y)), IsFiniteLane(a.z));
}
// v / |v| for a v whose squared length is a normal float (callers guard zero).
template <class F>
IKPD_INLINE V3<F> Normalize(const V3<F>& v) {
  return v * (F(1.0f) / Sqrt(Dot(v, v)));
}

template <class F>
IKPD_INLINE Q4<F> operator*(const Q4<F>& a, const Q4<F>& b) {
  return {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
}
template <class F>
IKPD_INLINE Q4<F> Conjugate(const Q4<F>& q) {
  return {-q.x, -q.y, -q.z, q.w};
}
template <class F>
IKPD_INLINE Q4<F> Select(Mask<F> m, const Q4<F>& a, const Q4<F>& b) {
  return {Select(m, a.x, b.x), Select(m, a.y, b.y), Select(m, a.z, b.z), Select(m, a.w, b.w)};
}
template <class F>
IKPD_INLINE F Dot(const Q4<F>& a, const Q4<F>& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
template <class F>
IKPD_INLINE Mask<F> IsFinite4(const Q4<F>& q) {
  return And(And(IsFiniteLane(q.x), IsFiniteLane(q.y)), And(IsFiniteLane(q.z), IsFiniteLane(q.w)));
}
// q / |q| for a q of about unit length (a product of unit quaternions).
template <class F>
IKPD_INLINE Q4<F> Normalize(const Q4<F>& q) {
  const F n = F(1.0f) / Sqrt(Dot(q, q));
  return {q.x * n, q.y * n, q.z * n, q.w * n};
}
// The lane member of the NormalizeOr family (ikpd/common.h): per lane, the unit
// quaternion of a finite non-zero q, without overflow or underflow for any
// component size (rescaled first only in lanes that need it), like NormalizeSafe
// there. A zero or non-finite lane gives NaN, so callers validate first.
template <class F>
IKPD_INLINE Q4<F> NormalizeSafe(const Q4<F>& q) {
  const F qq = Dot(q, q);
  const auto plain = And(qq > 1e-30f, qq < 1e30f);
  const Q4<F> fast = Normalize(q);  // garbage in lanes that are not plain; replaced below
  if (simd::All(plain)) return fast;
  const F m = Max(Max(Abs(q.x), Abs(q.y)), Max(Abs(q.z), Abs(q.w)));
  const F inv = F(1.0f) / m;
  return Select(plain, fast, Normalize(Q4<F>{q.x * inv, q.y * inv, q.z * inv, q.w * inv}));
}
// q v q* for a unit q.
template <class F>
IKPD_INLINE V3<F> Rotate(const Q4<F>& q, const V3<F>& v) {
  const V3<F> u{q.x, q.y, q.z};
  const V3<F> t = Cross(u, v) * F(2.0f);
  return v + t * q.w + Cross(u, t);
}
// q v q* for any q: v rotated by q's rotation and scaled by |q|²
// ((w² − |u|²)·v + 2(u·v)·u + 2w·(u × v), u = q's vector part).
template <class F>
IKPD_INLINE V3<F> RotateScaled(const Q4<F>& q, const V3<F>& v) {
  const V3<F> u{q.x, q.y, q.z};
  const F uv2 = 2.0f * Dot(u, v), w2 = 2.0f * q.w;
  return v * (q.w * q.w - Dot(u, u)) + u * uv2 + Cross(u, v) * w2;
}
// The unit quaternion of rotation matrix m (m[row][col], orthonormal).
// Shepperd's method, the pivot chosen per lane.
template <class F>
IKPD_INLINE Q4<F> MatrixQuat(F m00, F m01, F m02, F m10, F m11, F m12, F m20, F m21, F m22) {
  const F tw = 1.0f + m00 + m11 + m22;
  const F tx = 1.0f + m00 - m11 - m22;
  const F ty = 1.0f - m00 + m11 - m22;
  const F tz = 1.0f - m00 - m11 + m22;
  const auto pickW = And(tw >= tx, And(tw >= ty, tw >= tz));
  const auto pickX = And(Not(pickW), And(tx >= ty, tx >= tz));
  const auto pickY = And(Not(Or(pickW, pickX)), ty >= tz);
  const F dx = m21 - m12, dy = m02 - m20, dz = m10 - m01;
  const F sxy = m01 + m10, sxz = m02 + m20, syz = m12 + m21;
  // pivot z by default, then override.
  Q4<F> q{sxz, syz, tz, dz};
  q = Select(pickY, Q4<F>{sxy, ty, syz, dy}, q);
  q = Select(pickX, Q4<F>{tx, sxy, sxz, dx}, q);
  q = Select(pickW, Q4<F>{dx, dy, dz, tw}, q);
  const F t = Select(pickW, tw, Select(pickX, tx, Select(pickY, ty, tz)));
  const F k = F(0.5f) / Sqrt(t);
  return {q.x * k, q.y * k, q.z * k, q.w * k};
}
// The rotation whose matrix has columns (f, u, f × u); f, u unit and perpendicular.
template <class F>
IKPD_INLINE Q4<F> FrameQuat(const V3<F>& f, const V3<F>& u) {
  const V3<F> s = Cross(f, u);
  return MatrixQuat(f.x, u.x, s.x, f.y, u.y, s.y, f.z, u.z, s.z);
}
// The rotation taking frame (f, u, f × u) to (F, U, F × U) (each orthonormal).
template <class F>
IKPD_INLINE Q4<F> FrameToFrame(const V3<F>& f, const V3<F>& u, const V3<F>& to, const V3<F>& up) {
  const V3<F> s = Cross(f, u), t = Cross(to, up);
  // R = to·fᵀ + up·uᵀ + t·sᵀ
  auto r = [&](F ti, F ui, F wi, F fj, F uj, F sj) { return ti * fj + ui * uj + wi * sj; };
  return MatrixQuat(r(to.x, up.x, t.x, f.x, u.x, s.x), r(to.x, up.x, t.x, f.y, u.y, s.y), r(to.x, up.x, t.x, f.z, u.z, s.z),
                    r(to.y, up.y, t.y, f.x, u.x, s.x), r(to.y, up.y, t.y, f.y, u.y, s.y), r(to.y, up.y, t.y, f.z, u.z, s.z),
                    r(to.z, up.z, t.z, f.x, u.x, s.x), r(to.z, up.z, t.z, f.y, u.y, s.y), r(to.z, up.z, t.z, f.z, u.z, s.z));
}

// SwingTwist's twist (its half angle (tw, ts), *ok and *inverseNorm) from the
// swung v, for callers that build the swing's parts themselves (the two-bone
// kernel's axes +X and +Z).
template <class F>
IKPD_INLINE void TwistOf(const V3<F>& b, const V3<F>& d, const V3<F>& swung, F s2, F onePlus, F axisW2, Mask<F>* ok,
                         F* inverseNorm, F* tw, F* ts) {
  const F c = Dot(swung, d), sn = Dot(b, Cross(swung, d));
  const F r2 = c * c + sn * sn;
  *ok = And(onePlus > 0.01f, r2 > 1e-6f * (onePlus * onePlus));
  const F r = Sqrt(r2);
  // Half of the twist angle, (cos, sin) ∝ (r + c, sn); for c < 0 the equal
  // (|sn|, ±(r − c)) keeps full precision near a half turn.
  const auto back = c < 0.0f;
  *tw = Select(back, Abs(sn), r + c);
  *ts = Select(back, Select(sn < 0.0f, c - r, r - c), sn);
  *inverseNorm = F(1.0f) / Sqrt(Select(*ok, *tw * *tw * axisW2 + *ts * *ts * s2, F(1.0f)));
}

// The rotation taking unit `a` to unit `b` and turning `v` (unit, with a part
// ⊥ a) so that its part ⊥ a lands along unit `d` ⊥ b: FrameToFrame(a, v⊥a, b, d)
// without a matrix, as a swing (the shortest arc a → b) then a twist about b
// (docs/performance.md, lean kernels). Returned unnormalized, with
// *inverseNorm = 1 / its length from its parts (below; callers scale it
// once, after any product, without waiting on a dot product). Every term
// carries the factor 1 + a·b, so there is no division. With s = a + b the
// swing sends v to v − s·(v·s)/(1 + a·b) plus a part along b (which the twist
// ignores), and twist ⊗ swing = (tw·(a × b) + ts·s, tw·(1 + a·b)) for the
// twist's half angle (tw, ts) of (cos, sin) ∝ (c, sn), r = |(c, sn)|. Its
// squared length is tw²·(|a × b|² + (1 + a·b)²) + ts²·|s|², since (a × b) ⊥ s
// for any a and b: exact to rounding even where a and b are a few ulps off
// unit (the shorter 4(1 + a·b)·r·(r + |c|) assumes them unit, and its error
// grows as 1/(1 + a·b) near a half turn).
// Valid where a·b > −0.99 and |v ⊥ a|² > 1e-6 (*ok); elsewhere callers take
// the frame-to-frame construction.
template <class F>
IKPD_INLINE Q4<F> SwingTwist(const V3<F>& a, const V3<F>& v, const V3<F>& b, const V3<F>& d, Mask<F>* ok,
                             F* inverseNorm) {
  // 1 + a·b as |a + b|²/2: equal for unit a and b, and for a and b a few ulps
  // off unit still the swing's exact scalar part to first order, so that
  // rounding in them is amplified by about 1/√(1 + a·b) near a half turn
  // instead of 1/(1 + a·b).
  const V3<F> s = a + b;
  const F s2 = Dot(s, s);
  const F onePlus = 0.5f * s2;
  const V3<F> axis = Cross(a, b);
  const F axisW2 = Dot(axis, axis) + onePlus * onePlus;
  const V3<F> swung = v * onePlus - s * Dot(v, s);  // × (1 + a·b)
  F tw, ts;
  TwistOf(b, d, swung, s2, onePlus, axisW2, ok, inverseNorm, &tw, &ts);
  return {tw * axis.x + ts * s.x, tw * axis.y + ts * s.y, tw * axis.z + ts * s.z, tw * onePlus};
}

// q·k, turned into the hemisphere of a unit quaternion whose dot with q is
// `dot` (the result's dot with it is then >= 0), for k > 0.
template <class F>
IKPD_INLINE Q4<F> ScaleNear(const Q4<F>& q, F k, F dot) {
  const F signedK = Select(dot < 0.0f, -k, k);
  return {q.x * signedK, q.y * signedK, q.z * signedK, q.w * signedK};
}

// v scaled by a power of two so its largest component lies in [1, 2) (zero
// and vectors below 1e-30 give zero): a direction without overflow/underflow.
template <class F>
IKPD_INLINE V3<F> ScaleForDirection(const V3<F>& v) {
  const F m = MaxAbs(v);
  // (A largest component of 2^126 or more is scaled into [2, 8) instead.)
  return v * Select(m > 1e-30f, InverseExponentOf(Min(m, F(8.5e37f))), F(0.0f));
}

// Unit component of v perpendicular to unit n; false when v is zero (|v|² ≤
// 1e-20) or within ~0.0006° of ±n. v must be unit or scaled to a largest
// component in [1, 2) (see simd::ScaleForDirection).
template <class F>
IKPD_INLINE Mask<F> PerpendicularUnit(const V3<F>& v, const V3<F>& n, V3<F>* out) {
  const F vv = Dot(v, v);
  V3<F> perp = v - n * Dot(v, n);
  perp = perp - n * Dot(perp, n);  // twice: v near ±n leaves rounding along n after one pass
  const F pp = Dot(perp, perp);
  const auto ok = And(vv > 1e-20f, pp > 1e-10f * vv);
  *out = perp * (F(1.0f) / Sqrt(Select(ok, pp, F(1.0f))));
  return ok;
}

// The shortest-arc rotation taking unit `from` to unit `to`:
// normalize(from × to, 1 + cos θ), with 1 + cos θ = sin²θ / (1 − cos θ) when
// cos θ < 0 (full precision nearly behind). Nearly behind, the cross
// product's rounding (~1e-7) is large against its length sin θ and would
// tilt the axis off perpendicular to `from`, turning `from` past `to` by
// up to degrees; so there the axis is first made exactly perpendicular to
// `from` (its remaining error then lies along `to`, where it does no harm).
// Exactly behind (sin²θ < 1e-14): the half turn about `halfTurnAxis` (unit,
// perpendicular to `from`).
template <class F>
IKPD_INLINE Q4<F> ShortestArc(const V3<F>& from, const V3<F>& to, const V3<F>& halfTurnAxis) {
  const F c = Dot(from, to);
  V3<F> axis = Cross(from, to);
  if (Any(c < 0.0f)) axis = Select(c < 0.0f, axis - from * Dot(axis, from), axis);
  const F sin2 = Dot(axis, axis);
  const auto behind = And(c < 0.0f, sin2 < 1e-14f);
  const F onePlusCos = Select(c >= 0.0f, 1.0f + c, sin2 / (1.0f - Select(c >= 0.0f, F(0.0f), c)));
  const Q4<F> arc = Normalize(Q4<F>{axis.x, axis.y, axis.z, Select(behind, F(1.0f), onePlusCos)});
  return Select(behind, Q4<F>{halfTurnAxis.x, halfTurnAxis.y, halfTurnAxis.z, F(0.0f)}, arc);
}

// Slerp from unit q by t in [0, 1] toward the rotation of r along the
// shortest arc, given qr = Dot(q, r): q·cos(tθ) + ê·sin(tθ), with ê the unit
// part of r orthogonal to q. The arc and ê depend on r's direction only, so r
// may have any length > 0 (an unnormalized product: the slerp need not wait
// for its normalization). The arc is at most π/2, so tθ/2 needs no range
// reduction; the result is unit to float rounding (it is not renormalized).
template <class F>
IKPD_INLINE Q4<F> SlerpToward(const Q4<F>& q, const Q4<F>& r, F qr, F t) {
  const F sign = Select(qr < 0.0f, F(-1.0f), F(1.0f));
  const F d = qr * sign;
  const Q4<F> e{r.x * sign - q.x * d, r.y * sign - q.y * d, r.z * sign - q.z * d, r.w * sign - q.w * d};
  const F s = Sqrt(Dot(e, e));
  const auto turns = s > 1e-20f;
  const F inverseS = F(1.0f) / Select(turns, s, F(1.0f));  // beside the arctangent, not after it
  F sinHalf, cosHalf;
  SinCosReduced(AtanPositive(s, d) * (t * 0.5f), &sinHalf, &cosHalf);
  const F sinT = 2.0f * sinHalf * cosHalf, cosT = 1.0f - 2.0f * sinHalf * sinHalf;
  const F k = Select(turns, sinT * inverseS, t);
  return {q.x * cosT + e.x * k, q.y * cosT + e.y * k, q.z * cosT + e.z * k, q.w * cosT + e.w * k};
}
// Slerp from unit q to unit r by t in [0, 1] along the shortest arc.
template <class F>
IKPD_INLINE Q4<F> Slerp(const Q4<F>& q, const Q4<F>& r, F t) {
  return SlerpToward(q, r, Dot(q, r), t);
}

IKPD_INLINE V3<float> FromGlm(const glm::vec3& v) { return {v.x, v.y, v.z}; }
IKPD_INLINE Q4<float> FromGlm(const glm::quat& q) { return {q.x, q.y, q.z, q.w}; }
IKPD_INLINE glm::vec3 ToGlm(const V3<float>& v) { return {v.x, v.y, v.z}; }
IKPD_INLINE glm::quat ToGlm(const Q4<float>& q) { return glm::quat(q.w, q.x, q.y, q.z); }
IKPD_INLINE V3<double> FromGlm(const glm::dvec3& v) { return {v.x, v.y, v.z}; }
IKPD_INLINE Q4<double> FromGlm(const glm::dquat& q) { return {q.x, q.y, q.z, q.w}; }
IKPD_INLINE glm::dvec3 ToGlm(const V3<double>& v) { return {v.x, v.y, v.z}; }
IKPD_INLINE glm::dquat ToGlm(const Q4<double>& q) { return glm::dquat(q.w, q.x, q.y, q.z); }

}  // namespace ikpd::simd

namespace ikpd::simd {

template <class F>
IKPD_INLINE F Load1(const float* field, std::size_t item) {
  F v;
  Load1(field, item, &v);
  return v;
}
template <class F>
IKPD_INLINE V3<F> LoadV3(const float* field, std::size_t item) {
  V3<F> v;
  Load3(field, item, &v.x, &v.y, &v.z);
  return v;
}
// An optional batch field: its items, or `fallback` in every lane when the
// field is null (the batch's shared option).
template <class F>
IKPD_INLINE F Load1Or(const float* field, std::size_t item, float fallback) {
  return field ? Load1<F>(field, item) : F(fallback);
}
template <class F>
IKPD_INLINE V3<F> LoadV3Or(const float* field, std::size_t item, const glm::vec3& fallback) {
  return field ? LoadV3<F>(field, item) : Splat3<F>(fallback);
}
// Quaternions are stored [x, y, z, w] (three.js order).
template <class F>
IKPD_INLINE Q4<F> LoadQ4(const float* field, std::size_t item) {
  Q4<F> q;
  Load4(field, item, &q.x, &q.y, &q.z, &q.w);
  return q;
}
template <class F>
IKPD_INLINE void StoreV3(float* field, std::size_t item, const V3<F>& v) {
  Store3(field, item, v.x, v.y, v.z);
}
template <class F>
IKPD_INLINE void StoreQ4(float* field, std::size_t item, const Q4<F>& q) {
  Store4(field, item, q.x, q.y, q.z, q.w);
}

}  // namespace ikpd::simd

// ---- lanes gathered from and scattered to GLM values --------------------------
// For kernels over items that are not stored as a structure of arrays: lane j
// of a lane value holds item j, kLanes<F> items in all. `Quad` is the four-lane
// type where SIMD exists (float elsewhere).

namespace ikpd::simd {

template <class F>
inline constexpr std::size_t kLanes = 1;
template <class F>
IKPD_INLINE Q4<F> GatherQ4(const glm::quat* q);
template <class F>
IKPD_INLINE V3<F> GatherV3(const glm::vec3* v);
template <>
IKPD_INLINE Q4<float> GatherQ4<float>(const glm::quat* q) {
  return FromGlm(q[0]);
}
template <>
IKPD_INLINE V3<float> GatherV3<float>(const glm::vec3* v) {
  return FromGlm(v[0]);
}
IKPD_INLINE void Scatter(const Q4<float>& q, glm::quat* out) { out[0] = ToGlm(q); }
IKPD_INLINE void Scatter(bool m, bool* out) { out[0] = m; }

#if IKPD_HAS_F4
using Quad = F4;
template <>
inline constexpr std::size_t kLanes<F4> = 4;
template <>
IKPD_INLINE Q4<F4> GatherQ4<F4>(const glm::quat* q) {
  return {F4(RegSet(q[0].x, q[1].x, q[2].x, q[3].x)), F4(RegSet(q[0].y, q[1].y, q[2].y, q[3].y)),
          F4(RegSet(q[0].z, q[1].z, q[2].z, q[3].z)), F4(RegSet(q[0].w, q[1].w, q[2].w, q[3].w))};
}
template <>
IKPD_INLINE V3<F4> GatherV3<F4>(const glm::vec3* v) {
  return {F4(RegSet(v[0].x, v[1].x, v[2].x, v[3].x)), F4(RegSet(v[0].y, v[1].y, v[2].y, v[3].y)),
          F4(RegSet(v[0].z, v[1].z, v[2].z, v[3].z))};
}
IKPD_INLINE void Scatter(const Q4<F4>& q, glm::quat* out) {
  alignas(16) float x[4], y[4], z[4], w[4];
  RegStore(x, q.x.r);
  RegStore(y, q.y.r);
  RegStore(z, q.z.r);
  RegStore(w, q.w.r);
  for (std::size_t j = 0; j < 4; ++j) out[j] = glm::quat(w[j], x[j], y[j], z[j]);
}
IKPD_INLINE void Scatter(M4 m, bool* out) {
  alignas(16) float lane[4];
  RegStore(lane, Select(m, F4(1.0f), F4(0.0f)).r);
  for (std::size_t j = 0; j < 4; ++j) out[j] = lane[j] != 0.0f;
}
#else
using Quad = float;
#endif

}  // namespace ikpd::simd
