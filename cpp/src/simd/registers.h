// Internal: the only file that includes intrinsic headers (SSE2, AVX2,
// WebAssembly SIMD128). It picks the platform (IKPD_LANES_WASM /
// IKPD_LANES_SSE2, none under IKPD_NO_SIMD; IKPD_LANES_AVX2 as well in the
// x86-64-v3 build, docs/performance.md) and wraps the 128-bit (and there
// 256-bit) register operations the lane types of lane_types.h are built on.
// Include simd/lanes.h, not this file.
#pragma once

#include <cstdint>

// Define IKPD_NO_SIMD to build the batches one item at a time (other CPUs
// than x86-64 and WebAssembly SIMD128 do that already).
#if defined(IKPD_NO_SIMD)
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define IKPD_LANES_WASM 1
#elif defined(__SSE2__)
#include <emmintrin.h>
#define IKPD_LANES_SSE2 1
#if defined(__AVX2__)
#include <immintrin.h>
#define IKPD_LANES_AVX2 1
#endif
#endif

// Lane helpers are tiny and called in hot loops: always inline them.
#if defined(__GNUC__) || defined(__clang__)
#define IKPD_INLINE inline __attribute__((always_inline))
#else
#define IKPD_INLINE inline
#endif

// For the one function of a single-item job that runs its kernel: natively
// the kernel is inlined there, so the frame it reads and the result it
// writes stay in registers (docs/performance.md); WebAssembly keeps one
// shared copy of each kernel (module size).
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__EMSCRIPTEN__)
#define IKPD_KERNEL_CALLER __attribute__((flatten, noinline))
#else
#define IKPD_KERNEL_CALLER
#endif

namespace ikpd::simd {

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
// Every shuffle takes its first two lanes from one input and its last two from
// the other (the SSE2 sequence below, lane for lane), a form engines lower to
// one shufps.
IKPD_INLINE void RegLoad3x4(const float* p, Reg* x, Reg* y, Reg* z) {
  const Reg a = wasm_v128_load(p), b = wasm_v128_load(p + 4), c = wasm_v128_load(p + 8);
  *x = wasm_i32x4_shuffle(a, wasm_i32x4_shuffle(b, c, 2, 0, 5, 4), 0, 3, 4, 6);
  *y = wasm_i32x4_shuffle(wasm_i32x4_shuffle(a, b, 1, 0, 4, 4), wasm_i32x4_shuffle(b, c, 3, 0, 6, 4), 0, 2, 4, 6);
  *z = wasm_i32x4_shuffle(wasm_i32x4_shuffle(a, b, 2, 0, 5, 4), c, 0, 2, 4, 7);
}
IKPD_INLINE void RegStore3x4(float* p, Reg x, Reg y, Reg z) {
  wasm_v128_store(p, wasm_i32x4_shuffle(wasm_i32x4_shuffle(x, y, 0, 1, 4, 5), wasm_i32x4_shuffle(z, x, 0, 0, 5, 5), 0, 2, 4, 6));
  wasm_v128_store(p + 4, wasm_i32x4_shuffle(wasm_i32x4_shuffle(y, z, 1, 1, 5, 5), wasm_i32x4_shuffle(x, y, 2, 2, 6, 6), 0, 2, 4, 6));
  wasm_v128_store(p + 8, wasm_i32x4_shuffle(wasm_i32x4_shuffle(z, x, 2, 2, 7, 7), wasm_i32x4_shuffle(y, z, 3, 3, 7, 7), 0, 2, 4, 6));
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

#if IKPD_LANES_AVX2
// Eight lanes in one 256-bit register (the x86-64-v3 build). Every operation
// is the same IEEE operation as its 128-bit twin, so results are bit-identical
// to the SSE2 build's (the build turns floating-point contraction off).
using Reg8 = __m256;
IKPD_INLINE Reg8 Reg8Splat(float v) { return _mm256_set1_ps(v); }
IKPD_INLINE Reg8 Reg8Add(Reg8 a, Reg8 b) { return _mm256_add_ps(a, b); }
IKPD_INLINE Reg8 Reg8Sub(Reg8 a, Reg8 b) { return _mm256_sub_ps(a, b); }
IKPD_INLINE Reg8 Reg8Mul(Reg8 a, Reg8 b) { return _mm256_mul_ps(a, b); }
IKPD_INLINE Reg8 Reg8Div(Reg8 a, Reg8 b) { return _mm256_div_ps(a, b); }
IKPD_INLINE Reg8 Reg8Neg(Reg8 a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }
IKPD_INLINE Reg8 Reg8Min(Reg8 a, Reg8 b) { return _mm256_min_ps(b, a); }  // b < a ? b : a
IKPD_INLINE Reg8 Reg8Max(Reg8 a, Reg8 b) { return _mm256_max_ps(b, a); }  // a < b ? b : a
IKPD_INLINE Reg8 Reg8Abs(Reg8 a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
IKPD_INLINE Reg8 Reg8Sqrt(Reg8 a) { return _mm256_sqrt_ps(a); }
IKPD_INLINE Reg8 Reg8Lt(Reg8 a, Reg8 b) { return _mm256_cmp_ps(a, b, _CMP_LT_OS); }
IKPD_INLINE Reg8 Reg8Le(Reg8 a, Reg8 b) { return _mm256_cmp_ps(a, b, _CMP_LE_OS); }
IKPD_INLINE Reg8 Reg8Eq(Reg8 a, Reg8 b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
IKPD_INLINE Reg8 Reg8And(Reg8 a, Reg8 b) { return _mm256_and_ps(a, b); }
IKPD_INLINE Reg8 Reg8Or(Reg8 a, Reg8 b) { return _mm256_or_ps(a, b); }
IKPD_INLINE Reg8 Reg8Bits(std::uint32_t b) { return _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(b))); }
IKPD_INLINE Reg8 Reg8Not(Reg8 a) { return _mm256_xor_ps(a, Reg8Bits(0xFFFFFFFFu)); }
IKPD_INLINE Reg8 Reg8Select(Reg8 m, Reg8 a, Reg8 b) { return _mm256_blendv_ps(b, a, m); }
IKPD_INLINE bool Reg8Any(Reg8 m) { return _mm256_movemask_ps(m) != 0; }
IKPD_INLINE bool Reg8All(Reg8 m) { return _mm256_movemask_ps(m) == 0xFF; }
IKPD_INLINE Reg8 Reg8Floor(Reg8 a) {
  // As RegFloor (SSE2), bit for bit: also for −0 and NaN, where rounding would differ.
  const Reg8 big = Reg8Le(Reg8Splat(2147483648.0f), Reg8Abs(a));
  const Reg8 t = _mm256_cvtepi32_ps(_mm256_cvttps_epi32(a));
  const Reg8 f = _mm256_sub_ps(t, _mm256_and_ps(Reg8Lt(a, t), _mm256_set1_ps(1.0f)));
  return Reg8Select(big, a, f);
}
IKPD_INLINE Reg8 Reg8Pow2(Reg8 n) {
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(_mm256_cvttps_epi32(n), _mm256_set1_epi32(127)), 23));
}
IKPD_INLINE Reg8 Reg8InverseExponent(Reg8 a) {
  return _mm256_castsi256_ps(_mm256_sub_epi32(_mm256_set1_epi32(0x7F000000),
                                              _mm256_castps_si256(_mm256_and_ps(a, Reg8Bits(0x7F800000u)))));
}
IKPD_INLINE Reg8 Reg8Join(Reg lo, Reg hi) { return _mm256_insertf128_ps(_mm256_castps128_ps256(lo), hi, 1); }
IKPD_INLINE Reg Reg8Low(Reg8 a) { return _mm256_castps256_ps128(a); }
IKPD_INLINE Reg Reg8High(Reg8 a) { return _mm256_extractf128_ps(a, 1); }
#endif

}  // namespace ikpd::simd
