// Internal: elementary functions over every lane type of lane_types.h, written
// once as templates (same polynomials, so a batch lane matches a single call bit
// for bit). Include simd/lanes.h, not this file.
#pragma once

#include "lane_types.h"

namespace ikpd::simd {


// ---- elementary functions (same polynomials for every lane type) -------------

// e^x, relative error < 2e-7 for x in [−87, 88]; 0 below −87.
template <class F>
IKPD_INLINE F Exp(F x) {
  const F c = Min(Max(x, F(-87.0f)), F(88.0f));
  const F n = Floor(c * 1.44269504f + 0.5f);
  const F r = (c - n * 0.693359375f) + n * 2.12194440e-4f;
  F p = F(1.9875691500e-4f);
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const F e = (p * r * r + r) + 1.0f;
  return Select(x < -87.0f, F(0.0f), e * Pow2(n));
}

// sin and cos of r in [−π/4, π/4] (minimax polynomials).
template <class F>
IKPD_INLINE void SinCosReduced(F r, F* sinOut, F* cosOut) {
  const F r2 = r * r;
  F s = F(-1.9515295891e-4f);
  s = s * r2 + 8.3321608736e-3f;
  s = s * r2 - 1.6666654611e-1f;
  *sinOut = s * r2 * r + r;
  F c = F(2.443315711809948e-5f);
  c = c * r2 - 1.388731625493765e-3f;
  c = c * r2 + 4.166664568298827e-2f;
  *cosOut = c * r2 * r2 - 0.5f * r2 + 1.0f;
}

// sin and cos of x; absolute error < 1e-7 for |x| <= 8192 (Cody–Waite
// reduction by π/2, then minimax polynomials on [−π/4, π/4]). When every lane
// is in quadrant 0 the reduction is skipped (it is exact there: r = x).
template <class F>
IKPD_INLINE void SinCos(F x, F* sinOut, F* cosOut) {
  const F v = x * 0.636619772f + 0.5f;
  if (All(And(v >= 0.0f, v < 1.0f))) {
    SinCosReduced(x, sinOut, cosOut);
    return;
  }
  const F q = Floor(v);
  const F r = ((x - q * 1.5703125f) - q * 4.83751296997e-4f) - q * 7.54978995489e-8f;
  F s, c;
  SinCosReduced(r, &s, &c);
  // Quadrant q mod 4: 0 (s, c), 1 (c, −s), 2 (−s, −c), 3 (−c, s).
  const F m = q - 4.0f * Floor(q * 0.25f);
  const auto swap = Or(m == 1.0f, m == 3.0f);
  const F sv = Select(swap, c, s);
  const F cv = Select(swap, s, c);
  *sinOut = Select(Or(m == 2.0f, m == 3.0f), -sv, sv);
  *cosOut = Select(Or(m == 1.0f, m == 2.0f), -cv, cv);
}

// atan2(y, x) for y, x >= 0: in [0, π/2], absolute error < 2e-7; (0, 0) gives 0.
template <class F>
IKPD_INLINE F AtanPositive(F y, F x) {
  const F hi = Max(x, y), lo = Min(x, y);
  // atan(t) for t = lo / hi in [0, 1] ((0, 0) divides 0 by 1); above tan(π/8)
  // reduced with atan(t) = π/4 + atan((t − 1)/(t + 1)) = π/4 + atan((lo − hi)/(lo + hi)),
  // a division beside the first, not after it (only when some lane needs it).
  const auto big = lo > 0.414213562f * hi;
  F u = lo / Select(hi > 0.0f, hi, F(1.0f));
  if (Any(big)) u = Select(big, (lo - hi) / (lo + hi), u);
  const F u2 = u * u;
  F p = F(8.05374449538e-2f);
  p = p * u2 - 1.38776856032e-1f;
  p = p * u2 + 1.99777106478e-1f;
  p = p * u2 - 3.33329491539e-1f;
  F a = p * u2 * u + u;
  a = Select(big, a + 0.785398163f, a);
  return Select(y > x, 1.57079633f - a, a);
}

// atan2(y, x) in [−π, π], absolute error < 2e-7; atan2(0, 0) = 0.
template <class F>
IKPD_INLINE F Atan2(F y, F x) {
  const F a = AtanPositive(Abs(y), Abs(x));
  const F b = Select(x < 0.0f, 3.14159265f - a, a);
  return Select(y < 0.0f, -b, b);
}

}  // namespace ikpd::simd
