// Internal: the rotation chart of the quaternion PD (docs/pd/pd.md; log map at the target,
// SO(3) left Jacobian, exp map) and its exact held-target step, written once
// over a lane type: double for pd::QuatPD (which keeps double state), float /
// simd::F4 for QuatPdBatchJob (four controllers per F4; the batch's float tail
// gives bit-identical results to its F4 lanes). The batch therefore agrees
// with QuatPD to float rounding, not bit for bit.
#pragma once

#include <type_traits>

#include "../simd/vec.h"

namespace ikpd::pd::kernel {

using simd::Q4;
using simd::Abs;
using simd::Select;
using simd::V3;

// Below this rotation angle the Jacobian coefficients use their Taylor series
// (the closed forms cancel); the series below are exact to float there, and
// double keeps the 1e-2 switch where the closed forms lose nothing.
template <class F>
inline constexpr float kSeriesBelow = std::is_same_v<F, double> ? 1e-2f : 1.0f;

// A constant rounded to the lane's precision (double stays double).
template <class F>
IKPD_INLINE F Constant(double v) {
  if constexpr (std::is_same_v<F, double>) {
    return v;
  } else {
    return F(static_cast<float>(v));
  }
}

// Angle t = |u| of a rotation vector u and the sine and cosine of t/2. Only
// their ratio matters to JInvTimes; QuatExp and JTimes need the true values.
template <class F>
struct HalfAngle {
  F t, sinHalf, cosHalf;
};

template <class F>
IKPD_INLINE HalfAngle<F> HalfAngleOf(const V3<F>& u) {
  HalfAngle<F> h;
  h.t = simd::Sqrt(Dot(u, u));
  simd::SinCos(h.t * 0.5f, &h.sinHalf, &h.cosHalf);
  return h;
}

// Rotation vector u with q = exp(u)·g (world frame), |u| <= π: g is moved to
// q's hemisphere (negated when their dot product is negative). q and g of about the same length (unit, or unit rounded to float):
// the result does not depend on it. Also returns u's half angle (its sine and
// cosine scaled by |q|·|g|).
template <class F>
IKPD_INLINE V3<F> QuatLog(const Q4<F>& q, Q4<F>* g, HalfAngle<F>* half) {
  // d = q·g*, its vector part written with e = q − g (g.v × g.v = 0), which
  // has no cancellation when q is close to g: g.w e.v − e.w g.v − e.v × g.v.
  const F w = Dot(q, *g);
  *g = Select(w < 0.0f, Q4<F>{-g->x, -g->y, -g->z, -g->w}, *g);
  const Q4<F>& gs = *g;
  const V3<F> ev{q.x - gs.x, q.y - gs.y, q.z - gs.z};
  const F ew = q.w - gs.w;
  const V3<F> gv{gs.x, gs.y, gs.z};
  const V3<F> v = ev * gs.w - gv * ew - Cross(ev, gv);
  const Q4<F> d{v.x, v.y, v.z, Abs(w)};
  const F s = simd::Sqrt(Dot(v, v));
  const F h = simd::AtanPositive(s, d.w);
  const auto turns = s > 0.0f;
  // s == 0 with v != 0 only when |v|² underflows: then atan(s/w)/s = 1/w = 1.
  const F k = Select(turns, 2.0f * h / Select(turns, s, F(1.0f)), F(2.0f));
  half->t = 2.0f * h;
  half->sinHalf = s;
  half->cosHalf = d.w;
  return v * k;
}

// sin(t/2)/t → 1/2 as t → 0.
template <class F>
IKPD_INLINE F SinHalfOverAngle(const HalfAngle<F>& h) {
  const auto turns = h.t > 0.0f;
  return Select(turns, h.sinHalf / Select(turns, h.t, F(1.0f)), F(0.5f));
}

// exp(u)·g for unit g (normalized).
template <class F>
IKPD_INLINE Q4<F> QuatExp(const V3<F>& u, const HalfAngle<F>& h, const Q4<F>& g) {
  const F k = SinHalfOverAngle(h);
  return simd::Normalize(Q4<F>{u.x * k, u.y * k, u.z * k, h.cosHalf} * g);
}

// World angular velocity of q(t) = exp(u(t))·g: J(u)·u̇ with the SO(3) left
// Jacobian J = I + A[u]× + B[u]×², A = (1 − cos t)/t², B = (t − sin t)/t³.
template <class F>
IKPD_INLINE V3<F> JTimes(const V3<F>& u, const HalfAngle<F>& h, const V3<F>& udot) {
  const F k = SinHalfOverAngle(h);
  const F a = 2.0f * k * k;  // 2 sin²(t/2)/t²: no cancellation
  const F t2 = h.t * h.t;
  const auto series = h.t < kSeriesBelow<F>;
  F b = Constant<F>(1.0 / 39916800.0);
  b = b * t2 - Constant<F>(1.0 / 362880.0);
  b = b * t2 + Constant<F>(1.0 / 5040.0);
  b = b * t2 - Constant<F>(1.0 / 120.0);
  b = b * t2 + Constant<F>(1.0 / 6.0);
  if (!simd::All(series)) {  // the closed form, only when some lane needs it
    const F tt = Select(series, F(1.0f), h.t);
    b = Select(series, b, (tt - 2.0f * h.sinHalf * h.cosHalf) / (tt * tt * tt));
  }
  const V3<F> c1 = Cross(u, udot);
  return udot + c1 * a + Cross(u, c1) * b;
}

// Its inverse: J(u)⁻¹·ω = ω − ½ u×ω + C u×(u×ω), C = 1/t² − cot(t/2)/(2t).
template <class F>
IKPD_INLINE V3<F> JInvTimes(const V3<F>& u, const HalfAngle<F>& h, const V3<F>& omega) {
  const F t2 = h.t * h.t;
  const auto series = h.t < kSeriesBelow<F>;
  F c = Constant<F>(1.0 / 47900160.0);
  c = c * t2 + Constant<F>(1.0 / 1209600.0);
  c = c * t2 + Constant<F>(1.0 / 30240.0);
  c = c * t2 + Constant<F>(1.0 / 720.0);
  c = c * t2 + Constant<F>(1.0 / 12.0);
  if (!simd::All(series)) {
    const F tt = Select(series, F(1.0f), h.t);
    const F sh = Select(series, F(1.0f), h.sinHalf);
    c = Select(series, c, (2.0f * sh - tt * h.cosHalf) / (2.0f * tt * tt * sh));
  }
  const V3<F> c1 = Cross(u, omega);
  return omega - c1 * F(0.5f) + Cross(u, c1) * c;
}

// Exact-step coefficients (pd::StepCoeffs rounded to the lane type).
template <class F>
struct StepLanes {
  F ee, ev, ve, vv;
};

// One exact step of a quaternion PD (log map, held target, no clamps or
// integral) from value q and world angular velocity omega toward target g:
// what pd::QuatPD::Update does for those settings. q and g unit (or unit
// rounded to float). Returns the new value and angular velocity.
template <class F>
IKPD_INLINE void QuatPdExactStep(const StepLanes<F>& c, const Q4<F>& q, const V3<F>& omega, Q4<F> g, Q4<F>* qOut,
                                 V3<F>* omegaOut) {
  HalfAngle<F> h0;
  const V3<F> u0 = QuatLog(q, &g, &h0);
  const V3<F> w0 = JInvTimes(u0, h0, omega);
  const V3<F> u1 = u0 * c.ee + w0 * c.ev;
  const V3<F> w1 = u0 * c.ve + w0 * c.vv;
  const HalfAngle<F> h1 = HalfAngleOf(u1);
  *qOut = QuatExp(u1, h1, g);
  *omegaOut = JTimes(u1, h1, w1);
}

}  // namespace ikpd::pd::kernel
