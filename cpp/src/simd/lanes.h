// Internal: the lane types the batch kernels are written for (not public API).
//
// A kernel is a template over its lane type F: `float` (one item, used by the
// single-item jobs and batch tails) or `F4` (four items of a structure-of-arrays
// batch side by side, WebAssembly SIMD128 or SSE2). Every function here has the
// same IEEE semantics for both, so a batch lane gives bit-identical results to
// the single-item call on the same input. Masks are `bool` / `M4`; combine them
// with And/Or/Not and pick values with Select (kernels are branch-free).
// GLM has no lane-parallel vector type (ozz-animation keeps its own SoA math
// for the same reason), so this header is the one place that wraps intrinsics.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

// Define IKPD_NO_SIMD to build the batches one item at a time (other CPUs
// than x86-64 and WebAssembly SIMD128 do that already).
#if defined(IKPD_NO_SIMD)
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define IKPD_LANES_WASM 1
#elif defined(__SSE2__)
#include <emmintrin.h>
#define IKPD_LANES_SSE2 1
#endif

// Lane helpers are tiny and called in hot loops: always inline them.
#if defined(__GNUC__) || defined(__clang__)
#define IKPD_INLINE inline __attribute__((always_inline))
#else
#define IKPD_INLINE inline
#endif

namespace ikpd::simd {

// ---- one lane: float / bool -------------------------------------------------

IKPD_INLINE float Splat(float v) { return v; }
IKPD_INLINE float Select(bool m, float a, float b) { return m ? a : b; }
IKPD_INLINE float Min(float a, float b) { return b < a ? b : a; }
IKPD_INLINE float Max(float a, float b) { return a < b ? b : a; }
IKPD_INLINE float Abs(float a) { return std::fabs(a); }
IKPD_INLINE float Sqrt(float a) { return std::sqrt(a); }
IKPD_INLINE float Floor(float a) { return std::floor(a); }
IKPD_INLINE bool And(bool a, bool b) { return a && b; }
IKPD_INLINE bool Or(bool a, bool b) { return a || b; }
IKPD_INLINE bool Not(bool a) { return !a; }
IKPD_INLINE bool Any(bool m) { return m; }
IKPD_INLINE bool All(bool m) { return m; }
// Finite (not NaN or ±Inf).
IKPD_INLINE bool IsFiniteLane(float a) { return a - a == 0.0f; }
// The bits of a float and back.
IKPD_INLINE std::uint32_t BitsOf(float a) {
  std::uint32_t bits;
  std::memcpy(&bits, &a, sizeof bits);
  return bits;
}
IKPD_INLINE float FloatFromBits(std::uint32_t bits) {
  float out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}
// 2^n for an integral n in [−126, 127].
IKPD_INLINE float Pow2(float n) {
  return FloatFromBits(static_cast<std::uint32_t>(static_cast<std::int32_t>(n) + 127) << 23);
}
// The power of two with a's exponent (a finite and > 0; 0 for denormals).
IKPD_INLINE float ExponentOf(float a) { return FloatFromBits(BitsOf(a) & 0x7F800000u); }
// 1 / ExponentOf(a) without a division, for a finite a in [2^-126, 2^127).
IKPD_INLINE float InverseExponentOf(float a) { return FloatFromBits(0x7F000000u - (BitsOf(a) & 0x7F800000u)); }

// ---- one lane in double: single-item code that keeps double precision ---------
// (pd::QuatPD runs the quaternion PD kernel with F = double; the elementary
// functions below are the C library's, not the float polynomials.)

IKPD_INLINE double Splat(double v) { return v; }
IKPD_INLINE double Select(bool m, double a, double b) { return m ? a : b; }
IKPD_INLINE double Min(double a, double b) { return b < a ? b : a; }
IKPD_INLINE double Max(double a, double b) { return a < b ? b : a; }
IKPD_INLINE double Abs(double a) { return std::fabs(a); }
IKPD_INLINE double Sqrt(double a) { return std::sqrt(a); }
IKPD_INLINE bool IsFiniteLane(double a) { return a - a == 0.0; }
IKPD_INLINE double Atan2(double y, double x) { return std::atan2(y, x); }
IKPD_INLINE double AtanPositive(double y, double x) { return std::atan2(y, x); }
IKPD_INLINE void SinCos(double x, double* sinOut, double* cosOut) {
  *sinOut = std::sin(x);
  *cosOut = std::cos(x);
}

// ---- four lanes ---------------------------------------------------------------

#if IKPD_LANES_WASM
using Reg = v128_t;
IKPD_INLINE Reg RegSplat(float v) { return wasm_f32x4_splat(v); }
IKPD_INLINE Reg RegAdd(Reg a, Reg b) { return wasm_f32x4_add(a, b); }
IKPD_INLINE Reg RegSub(Reg a, Reg b) { return wasm_f32x4_sub(a, b); }
IKPD_INLINE Reg RegMul(Reg a, Reg b) { return wasm_f32x4_mul(a, b); }
IKPD_INLINE Reg RegDiv(Reg a, Reg b) { return wasm_f32x4_div(a, b); }
IKPD_INLINE Reg RegNeg(Reg a) { return wasm_f32x4_neg(a); }
IKPD_INLINE Reg RegMin(Reg a, Reg b) { return wasm_f32x4_pmin(a, b); }  // b < a ? b : a
IKPD_INLINE Reg RegMax(Reg a, Reg b) { return wasm_f32x4_pmax(a, b); }  // a < b ? b : a
IKPD_INLINE Reg RegAbs(Reg a) { return wasm_f32x4_abs(a); }
IKPD_INLINE Reg RegSqrt(Reg a) { return wasm_f32x4_sqrt(a); }
IKPD_INLINE Reg RegFloor(Reg a) { return wasm_f32x4_floor(a); }
IKPD_INLINE Reg RegLt(Reg a, Reg b) { return wasm_f32x4_lt(a, b); }
IKPD_INLINE Reg RegLe(Reg a, Reg b) { return wasm_f32x4_le(a, b); }
IKPD_INLINE Reg RegEq(Reg a, Reg b) { return wasm_f32x4_eq(a, b); }
IKPD_INLINE Reg RegAnd(Reg a, Reg b) { return wasm_v128_and(a, b); }
IKPD_INLINE Reg RegOr(Reg a, Reg b) { return wasm_v128_or(a, b); }
IKPD_INLINE Reg RegNot(Reg a) { return wasm_v128_not(a); }
IKPD_INLINE Reg RegSelect(Reg m, Reg a, Reg b) { return wasm_v128_bitselect(a, b, m); }
IKPD_INLINE bool RegAny(Reg m) { return wasm_v128_any_true(m); }
IKPD_INLINE bool RegAll(Reg m) { return wasm_i32x4_all_true(m); }
IKPD_INLINE Reg RegBits(std::uint32_t b) { return wasm_i32x4_splat(static_cast<std::int32_t>(b)); }
IKPD_INLINE Reg RegPow2(Reg n) {
  return wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127)), 23);
}
IKPD_INLINE Reg RegInverseExponent(Reg a) {
  return wasm_i32x4_sub(RegBits(0x7F000000u), wasm_v128_and(a, RegBits(0x7F800000u)));
}
IKPD_INLINE Reg RegSet(float a, float b, float c, float d) { return wasm_f32x4_make(a, b, c, d); }
IKPD_INLINE Reg RegLoad(const float* p) { return wasm_v128_load(p); }
IKPD_INLINE void RegStore(float* p, Reg a) { wasm_v128_store(p, a); }
// (x0 y0 z0 x1)(y1 z1 x2 y2)(z2 x3 y3 z3) <-> (x0..x3)(y0..y3)(z0..z3).
IKPD_INLINE void RegLoad3x4(const float* p, Reg* x, Reg* y, Reg* z) {
  const Reg a = wasm_v128_load(p), b = wasm_v128_load(p + 4), c = wasm_v128_load(p + 8);
  *x = wasm_i32x4_shuffle(a, wasm_i32x4_shuffle(b, c, 2, 5, 2, 5), 0, 3, 4, 5);
  *y = wasm_i32x4_shuffle(wasm_i32x4_shuffle(a, b, 1, 4, 1, 4), wasm_i32x4_shuffle(b, c, 3, 6, 3, 6), 0, 1, 4, 5);
  *z = wasm_i32x4_shuffle(wasm_i32x4_shuffle(a, b, 2, 5, 2, 5), c, 0, 1, 4, 7);
}
IKPD_INLINE void RegStore3x4(float* p, Reg x, Reg y, Reg z) {
  wasm_v128_store(p, wasm_i32x4_shuffle(wasm_i32x4_shuffle(x, y, 0, 4, 1, 5), z, 0, 1, 4, 2));
  wasm_v128_store(p + 4, wasm_i32x4_shuffle(wasm_i32x4_shuffle(y, z, 1, 5, 2, 6), x, 0, 1, 6, 2));
  wasm_v128_store(p + 8, wasm_i32x4_shuffle(wasm_i32x4_shuffle(x, y, 3, 7, 3, 7), z, 6, 0, 1, 7));
}
IKPD_INLINE void RegTranspose4(Reg* a, Reg* b, Reg* c, Reg* d) {
  const Reg t0 = wasm_i32x4_shuffle(*a, *b, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(*c, *d, 0, 4, 1, 5);
  const Reg t2 = wasm_i32x4_shuffle(*a, *b, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(*c, *d, 2, 6, 3, 7);
  *a = wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5);
  *b = wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7);
  *c = wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5);
  *d = wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7);
}
#elif IKPD_LANES_SSE2
using Reg = __m128;
IKPD_INLINE Reg RegSplat(float v) { return _mm_set1_ps(v); }
IKPD_INLINE Reg RegAdd(Reg a, Reg b) { return _mm_add_ps(a, b); }
IKPD_INLINE Reg RegSub(Reg a, Reg b) { return _mm_sub_ps(a, b); }
IKPD_INLINE Reg RegMul(Reg a, Reg b) { return _mm_mul_ps(a, b); }
IKPD_INLINE Reg RegDiv(Reg a, Reg b) { return _mm_div_ps(a, b); }
IKPD_INLINE Reg RegNeg(Reg a) { return _mm_xor_ps(a, _mm_set1_ps(-0.0f)); }
IKPD_INLINE Reg RegMin(Reg a, Reg b) { return _mm_min_ps(b, a); }  // b < a ? b : a
IKPD_INLINE Reg RegMax(Reg a, Reg b) { return _mm_max_ps(b, a); }  // a < b ? b : a
IKPD_INLINE Reg RegAbs(Reg a) { return _mm_andnot_ps(_mm_set1_ps(-0.0f), a); }
IKPD_INLINE Reg RegSqrt(Reg a) { return _mm_sqrt_ps(a); }
IKPD_INLINE Reg RegLt(Reg a, Reg b) { return _mm_cmplt_ps(a, b); }
IKPD_INLINE Reg RegLe(Reg a, Reg b) { return _mm_cmple_ps(a, b); }
IKPD_INLINE Reg RegEq(Reg a, Reg b) { return _mm_cmpeq_ps(a, b); }
IKPD_INLINE Reg RegAnd(Reg a, Reg b) { return _mm_and_ps(a, b); }
IKPD_INLINE Reg RegOr(Reg a, Reg b) { return _mm_or_ps(a, b); }
IKPD_INLINE Reg RegNot(Reg a) { return _mm_xor_ps(a, _mm_castsi128_ps(_mm_set1_epi32(-1))); }
IKPD_INLINE Reg RegSelect(Reg m, Reg a, Reg b) { return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)); }
IKPD_INLINE bool RegAny(Reg m) { return _mm_movemask_ps(m) != 0; }
IKPD_INLINE bool RegAll(Reg m) { return _mm_movemask_ps(m) == 0xF; }
IKPD_INLINE Reg RegBits(std::uint32_t b) { return _mm_castsi128_ps(_mm_set1_epi32(static_cast<int>(b))); }
IKPD_INLINE Reg RegFloor(Reg a) {
  // Exact for |a| < 2^31; larger floats are integers already.
  const Reg big = RegLe(RegSplat(2147483648.0f), RegAbs(a));
  const Reg t = _mm_cvtepi32_ps(_mm_cvttps_epi32(a));
  const Reg f = _mm_sub_ps(t, _mm_and_ps(_mm_cmplt_ps(a, t), _mm_set1_ps(1.0f)));
  return RegSelect(big, a, f);
}
IKPD_INLINE Reg RegPow2(Reg n) {
  return _mm_castsi128_ps(_mm_slli_epi32(_mm_add_epi32(_mm_cvttps_epi32(n), _mm_set1_epi32(127)), 23));
}
IKPD_INLINE Reg RegInverseExponent(Reg a) {
  return _mm_castsi128_ps(_mm_sub_epi32(_mm_set1_epi32(0x7F000000),
                                        _mm_castps_si128(_mm_and_ps(a, RegBits(0x7F800000u)))));
}
IKPD_INLINE Reg RegSet(float a, float b, float c, float d) { return _mm_setr_ps(a, b, c, d); }
IKPD_INLINE Reg RegLoad(const float* p) { return _mm_loadu_ps(p); }
IKPD_INLINE void RegStore(float* p, Reg a) { _mm_storeu_ps(p, a); }
// (x0 y0 z0 x1)(y1 z1 x2 y2)(z2 x3 y3 z3) <-> (x0..x3)(y0..y3)(z0..z3).
IKPD_INLINE void RegLoad3x4(const float* p, Reg* x, Reg* y, Reg* z) {
  const Reg a = _mm_loadu_ps(p), b = _mm_loadu_ps(p + 4), c = _mm_loadu_ps(p + 8);
  *x = _mm_shuffle_ps(a, _mm_shuffle_ps(b, c, _MM_SHUFFLE(0, 1, 0, 2)), _MM_SHUFFLE(2, 0, 3, 0));
  *y = _mm_shuffle_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 0, 1)), _mm_shuffle_ps(b, c, _MM_SHUFFLE(0, 2, 0, 3)),
                      _MM_SHUFFLE(2, 0, 2, 0));
  *z = _mm_shuffle_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 1, 0, 2)), c, _MM_SHUFFLE(3, 0, 2, 0));
}
IKPD_INLINE void RegStore3x4(float* p, Reg x, Reg y, Reg z) {
  _mm_storeu_ps(p, _mm_shuffle_ps(_mm_shuffle_ps(x, y, _MM_SHUFFLE(1, 0, 1, 0)),
                                  _mm_shuffle_ps(z, x, _MM_SHUFFLE(1, 1, 0, 0)), _MM_SHUFFLE(2, 0, 2, 0)));
  _mm_storeu_ps(p + 4, _mm_shuffle_ps(_mm_shuffle_ps(y, z, _MM_SHUFFLE(1, 1, 1, 1)),
                                      _mm_shuffle_ps(x, y, _MM_SHUFFLE(2, 2, 2, 2)), _MM_SHUFFLE(2, 0, 2, 0)));
  _mm_storeu_ps(p + 8, _mm_shuffle_ps(_mm_shuffle_ps(z, x, _MM_SHUFFLE(3, 3, 2, 2)),
                                      _mm_shuffle_ps(y, z, _MM_SHUFFLE(3, 3, 3, 3)), _MM_SHUFFLE(2, 0, 2, 0)));
}
IKPD_INLINE void RegTranspose4(Reg* a, Reg* b, Reg* c, Reg* d) { _MM_TRANSPOSE4_PS(*a, *b, *c, *d); }
#endif

#if IKPD_LANES_WASM || IKPD_LANES_SSE2
struct M4 {
  Reg r;
};
struct F4 {
  Reg r;
  F4() = default;
  F4(float v) : r(RegSplat(v)) {}  // NOLINT: implicit, so constants mix with lanes
  explicit F4(Reg v) : r(v) {}
};
IKPD_INLINE F4 operator+(F4 a, F4 b) { return F4(RegAdd(a.r, b.r)); }
IKPD_INLINE F4 operator-(F4 a, F4 b) { return F4(RegSub(a.r, b.r)); }
IKPD_INLINE F4 operator*(F4 a, F4 b) { return F4(RegMul(a.r, b.r)); }
IKPD_INLINE F4 operator/(F4 a, F4 b) { return F4(RegDiv(a.r, b.r)); }
IKPD_INLINE F4 operator-(F4 a) { return F4(RegNeg(a.r)); }
IKPD_INLINE F4 operator+(F4 a, float b) { return a + F4(b); }
IKPD_INLINE F4 operator-(F4 a, float b) { return a - F4(b); }
IKPD_INLINE F4 operator*(F4 a, float b) { return a * F4(b); }
IKPD_INLINE F4 operator/(F4 a, float b) { return a / F4(b); }
IKPD_INLINE F4 operator+(float a, F4 b) { return F4(a) + b; }
IKPD_INLINE F4 operator-(float a, F4 b) { return F4(a) - b; }
IKPD_INLINE F4 operator*(float a, F4 b) { return F4(a) * b; }
IKPD_INLINE F4 operator/(float a, F4 b) { return F4(a) / b; }
IKPD_INLINE F4& operator+=(F4& a, F4 b) { return a = a + b; }
IKPD_INLINE F4& operator-=(F4& a, F4 b) { return a = a - b; }
IKPD_INLINE F4& operator*=(F4& a, F4 b) { return a = a * b; }
IKPD_INLINE M4 operator<(F4 a, F4 b) { return {RegLt(a.r, b.r)}; }
IKPD_INLINE M4 operator<=(F4 a, F4 b) { return {RegLe(a.r, b.r)}; }
IKPD_INLINE M4 operator>(F4 a, F4 b) { return {RegLt(b.r, a.r)}; }
IKPD_INLINE M4 operator>=(F4 a, F4 b) { return {RegLe(b.r, a.r)}; }
IKPD_INLINE M4 operator==(F4 a, F4 b) { return {RegEq(a.r, b.r)}; }
IKPD_INLINE M4 operator<(F4 a, float b) { return a < F4(b); }
IKPD_INLINE M4 operator<=(F4 a, float b) { return a <= F4(b); }
IKPD_INLINE M4 operator>(F4 a, float b) { return a > F4(b); }
IKPD_INLINE M4 operator>=(F4 a, float b) { return a >= F4(b); }
IKPD_INLINE M4 operator==(F4 a, float b) { return a == F4(b); }
IKPD_INLINE M4 Splat(bool m) { return {RegBits(m ? 0xFFFFFFFFu : 0u)}; }
IKPD_INLINE F4 Select(M4 m, F4 a, F4 b) { return F4(RegSelect(m.r, a.r, b.r)); }
IKPD_INLINE F4 Min(F4 a, F4 b) { return F4(RegMin(a.r, b.r)); }
IKPD_INLINE F4 Max(F4 a, F4 b) { return F4(RegMax(a.r, b.r)); }
IKPD_INLINE F4 Abs(F4 a) { return F4(RegAbs(a.r)); }
IKPD_INLINE F4 Sqrt(F4 a) { return F4(RegSqrt(a.r)); }
IKPD_INLINE F4 Floor(F4 a) { return F4(RegFloor(a.r)); }
IKPD_INLINE M4 And(M4 a, M4 b) { return {RegAnd(a.r, b.r)}; }
IKPD_INLINE M4 Or(M4 a, M4 b) { return {RegOr(a.r, b.r)}; }
IKPD_INLINE M4 Not(M4 a) { return {RegNot(a.r)}; }
IKPD_INLINE bool Any(M4 m) { return RegAny(m.r); }
IKPD_INLINE bool All(M4 m) { return RegAll(m.r); }
IKPD_INLINE M4 IsFiniteLane(F4 a) { return (a - a) == 0.0f; }
IKPD_INLINE F4 Pow2(F4 n) { return F4(RegPow2(n.r)); }
IKPD_INLINE F4 ExponentOf(F4 a) { return F4(RegAnd(a.r, RegBits(0x7F800000u))); }
IKPD_INLINE F4 InverseExponentOf(F4 a) { return F4(RegInverseExponent(a.r)); }

// Eight lanes as two F4 side by side: twice the independent work per step,
// which hides the latency of the long div/sqrt chains of the kernels.
struct M8 {
  M4 lo, hi;
};
struct F8 {
  F4 lo, hi;
  F8() = default;
  F8(float v) : lo(v), hi(v) {}  // NOLINT: implicit, so constants mix with lanes
  F8(F4 l, F4 h) : lo(l), hi(h) {}
};
#define IKPD_F8_BINARY(op)                                                                \
  IKPD_INLINE F8 operator op(F8 a, F8 b) { return {a.lo op b.lo, a.hi op b.hi}; }        \
  IKPD_INLINE F8 operator op(F8 a, float b) { return {a.lo op F4(b), a.hi op F4(b)}; }   \
  IKPD_INLINE F8 operator op(float a, F8 b) { return {F4(a) op b.lo, F4(a) op b.hi}; }
IKPD_F8_BINARY(+)
IKPD_F8_BINARY(-)
IKPD_F8_BINARY(*)
IKPD_F8_BINARY(/)
#undef IKPD_F8_BINARY
#define IKPD_F8_COMPARE(op)                                                              \
  IKPD_INLINE M8 operator op(F8 a, F8 b) { return {a.lo op b.lo, a.hi op b.hi}; }        \
  IKPD_INLINE M8 operator op(F8 a, float b) { return {a.lo op F4(b), a.hi op F4(b)}; }
IKPD_F8_COMPARE(<)
IKPD_F8_COMPARE(<=)
IKPD_F8_COMPARE(>)
IKPD_F8_COMPARE(>=)
IKPD_F8_COMPARE(==)
#undef IKPD_F8_COMPARE
IKPD_INLINE F8 operator-(F8 a) { return {-a.lo, -a.hi}; }
IKPD_INLINE F8 Select(M8 m, F8 a, F8 b) { return {Select(m.lo, a.lo, b.lo), Select(m.hi, a.hi, b.hi)}; }
IKPD_INLINE F8 Min(F8 a, F8 b) { return {Min(a.lo, b.lo), Min(a.hi, b.hi)}; }
IKPD_INLINE F8 Max(F8 a, F8 b) { return {Max(a.lo, b.lo), Max(a.hi, b.hi)}; }
IKPD_INLINE F8 Abs(F8 a) { return {Abs(a.lo), Abs(a.hi)}; }
IKPD_INLINE F8 Sqrt(F8 a) { return {Sqrt(a.lo), Sqrt(a.hi)}; }
IKPD_INLINE F8 Floor(F8 a) { return {Floor(a.lo), Floor(a.hi)}; }
IKPD_INLINE M8 And(M8 a, M8 b) { return {And(a.lo, b.lo), And(a.hi, b.hi)}; }
IKPD_INLINE M8 Or(M8 a, M8 b) { return {Or(a.lo, b.lo), Or(a.hi, b.hi)}; }
IKPD_INLINE M8 Not(M8 a) { return {Not(a.lo), Not(a.hi)}; }
IKPD_INLINE bool Any(M8 m) { return Any(Or(m.lo, m.hi)); }
IKPD_INLINE bool All(M8 m) { return All(And(m.lo, m.hi)); }
IKPD_INLINE M8 IsFiniteLane(F8 a) { return {IsFiniteLane(a.lo), IsFiniteLane(a.hi)}; }
IKPD_INLINE F8 Pow2(F8 n) { return {Pow2(n.lo), Pow2(n.hi)}; }
IKPD_INLINE F8 ExponentOf(F8 a) { return {ExponentOf(a.lo), ExponentOf(a.hi)}; }
IKPD_INLINE F8 InverseExponentOf(F8 a) { return {InverseExponentOf(a.lo), InverseExponentOf(a.hi)}; }
#define IKPD_HAS_F4 1
#endif

// The lane type batches run their kernels on, and how many items it holds.
#if IKPD_HAS_F4
using Wide = F8;
inline constexpr std::size_t kWide = 8;
#else
using Wide = float;
inline constexpr std::size_t kWide = 1;
#endif

// ---- structure-of-arrays access ---------------------------------------------
// Batch fields keep an item's components together: field[item * n + k]
// (n = 1, 3 or 4). Load* read items item .. item + lanes − 1 of a field into
// one lane value per component; Store* write them back.

IKPD_INLINE void Load1(const float* field, std::size_t item, float* v) { *v = field[item]; }
IKPD_INLINE void Load3(const float* field, std::size_t item, float* x, float* y, float* z) {
  const float* p = field + 3 * item;
  *x = p[0], *y = p[1], *z = p[2];
}
IKPD_INLINE void Load4(const float* field, std::size_t item, float* x, float* y, float* z, float* w) {
  const float* p = field + 4 * item;
  *x = p[0], *y = p[1], *z = p[2], *w = p[3];
}
IKPD_INLINE void Store1(float* field, std::size_t item, float v) { field[item] = v; }
IKPD_INLINE void Store3(float* field, std::size_t item, float x, float y, float z) {
  float* p = field + 3 * item;
  p[0] = x, p[1] = y, p[2] = z;
}
IKPD_INLINE void Store4(float* field, std::size_t item, float x, float y, float z, float w) {
  float* p = field + 4 * item;
  p[0] = x, p[1] = y, p[2] = z, p[3] = w;
}
#if IKPD_HAS_F4
IKPD_INLINE void Load1(const float* field, std::size_t item, F4* v) { v->r = RegLoad(field + item); }
IKPD_INLINE void Load3(const float* field, std::size_t item, F4* x, F4* y, F4* z) {
  RegLoad3x4(field + 3 * item, &x->r, &y->r, &z->r);
}
IKPD_INLINE void Load4(const float* field, std::size_t item, F4* x, F4* y, F4* z, F4* w) {
  const float* p = field + 4 * item;
  x->r = RegLoad(p), y->r = RegLoad(p + 4), z->r = RegLoad(p + 8), w->r = RegLoad(p + 12);
  RegTranspose4(&x->r, &y->r, &z->r, &w->r);
}
IKPD_INLINE void Store1(float* field, std::size_t item, F4 v) { RegStore(field + item, v.r); }
IKPD_INLINE void Store3(float* field, std::size_t item, F4 x, F4 y, F4 z) { RegStore3x4(field + 3 * item, x.r, y.r, z.r); }
IKPD_INLINE void Store4(float* field, std::size_t item, F4 x, F4 y, F4 z, F4 w) {
  RegTranspose4(&x.r, &y.r, &z.r, &w.r);
  float* p = field + 4 * item;
  RegStore(p, x.r), RegStore(p + 4, y.r), RegStore(p + 8, z.r), RegStore(p + 12, w.r);
}
IKPD_INLINE void Load1(const float* field, std::size_t item, F8* v) {
  Load1(field, item, &v->lo);
  Load1(field, item + 4, &v->hi);
}
IKPD_INLINE void Load3(const float* field, std::size_t item, F8* x, F8* y, F8* z) {
  Load3(field, item, &x->lo, &y->lo, &z->lo);
  Load3(field, item + 4, &x->hi, &y->hi, &z->hi);
}
IKPD_INLINE void Load4(const float* field, std::size_t item, F8* x, F8* y, F8* z, F8* w) {
  Load4(field, item, &x->lo, &y->lo, &z->lo, &w->lo);
  Load4(field, item + 4, &x->hi, &y->hi, &z->hi, &w->hi);
}
IKPD_INLINE void Store1(float* field, std::size_t item, F8 v) {
  Store1(field, item, v.lo);
  Store1(field, item + 4, v.hi);
}
IKPD_INLINE void Store3(float* field, std::size_t item, F8 x, F8 y, F8 z) {
  Store3(field, item, x.lo, y.lo, z.lo);
  Store3(field, item + 4, x.hi, y.hi, z.hi);
}
IKPD_INLINE void Store4(float* field, std::size_t item, F8 x, F8 y, F8 z, F8 w) {
  Store4(field, item, x.lo, y.lo, z.lo, w.lo);
  Store4(field, item + 4, x.hi, y.hi, z.hi, w.hi);
}
#endif

// True when the n floats at p are all finite (no NaN or ±Inf): a fast check
// over raw batch fields, four at a time (0·x is ±0 unless x is not finite).
IKPD_INLINE bool AllFinite(const float* p, std::size_t n) {
  std::size_t i = 0;
  bool ok = true;
#if IKPD_HAS_F4
  const Reg zero = RegSplat(0.0f);
  Reg sum = zero;
  for (; i + 4 <= n; i += 4) sum = RegAdd(sum, RegMul(RegLoad(p + i), zero));
  ok = RegAll(RegEq(sum, zero));
#endif
  for (; i < n; ++i) ok = ok && IsFiniteLane(p[i]);
  return ok;
}

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
  const F t = Select(hi > 0.0f, lo / Select(hi > 0.0f, hi, F(1.0f)), F(0.0f));  // in [0, 1]
  // atan on [0, 1]: reduce t > tan(π/8) with atan(t) = π/4 + atan((t − 1)/(t + 1))
  // (the division only when some lane needs it).
  const auto big = t > 0.414213562f;
  F u = t;
  if (Any(big)) u = Select(big, (t - 1.0f) / (t + 1.0f), t);
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
