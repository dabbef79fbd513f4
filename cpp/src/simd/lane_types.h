// Internal: the lane types the kernels are written for (see simd/lanes.h):
// one lane (`float`, `double`, masks `bool`), four lanes (`F4`, masks `M4`) and
// eight lanes (`F8` = two F4, masks `M8`), with the same operations and the same
// IEEE results for each; `Wide` is the type batches run on. Include
// simd/lanes.h, not this file.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "registers.h"

namespace ikpd::simd {

// ---- one lane: float or double / bool --------------------------------------
// `double` is for single-item code that keeps double precision (pd::QuatPD runs
// the quaternion PD kernel with F = double).

template <class T>
concept OneLane = std::is_same_v<T, float> || std::is_same_v<T, double>;

template <OneLane T>
IKPD_INLINE T Splat(T v) { return v; }
template <OneLane T>
IKPD_INLINE T Select(bool m, T a, T b) { return m ? a : b; }
template <OneLane T>
IKPD_INLINE T Min(T a, T b) { return b < a ? b : a; }
template <OneLane T>
IKPD_INLINE T Max(T a, T b) { return a < b ? b : a; }
template <OneLane T>
IKPD_INLINE T Abs(T a) { return std::fabs(a); }
template <OneLane T>
IKPD_INLINE T Sqrt(T a) { return std::sqrt(a); }
// Finite (not NaN or ±Inf).
template <OneLane T>
IKPD_INLINE bool IsFiniteLane(T a) { return a - a == T(0); }
IKPD_INLINE float Floor(float a) { return std::floor(a); }
IKPD_INLINE bool And(bool a, bool b) { return a && b; }
IKPD_INLINE bool Or(bool a, bool b) { return a || b; }
IKPD_INLINE bool Not(bool a) { return !a; }
IKPD_INLINE bool Any(bool m) { return m; }
IKPD_INLINE bool All(bool m) { return m; }
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

// ---- one lane in double: the elementary functions are the C library's, not
// the float polynomials of lane_math.h.

IKPD_INLINE double Atan2(double y, double x) { return std::atan2(y, x); }
IKPD_INLINE double AtanPositive(double y, double x) { return std::atan2(y, x); }
IKPD_INLINE void SinCos(double x, double* sinOut, double* cosOut) {
  *sinOut = std::sin(x);
  *cosOut = std::cos(x);
}

// ---- four and eight lanes -------------------------------------------------------

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

#if IKPD_LANES_AVX2
// Eight lanes in one 256-bit register (the x86-64-v3 build): the same
// operations as two F4 side by side, bit for bit.
struct M8 {
  Reg8 r;
};
struct F8 {
  Reg8 r;
  F8() = default;
  F8(float v) : r(Reg8Splat(v)) {}  // NOLINT: implicit, so constants mix with lanes
  explicit F8(Reg8 v) : r(v) {}
  F8(F4 l, F4 h) : r(Reg8Join(l.r, h.r)) {}
};
// The first and last four lanes.
IKPD_INLINE F4 Low(F8 a) { return F4(Reg8Low(a.r)); }
IKPD_INLINE F4 High(F8 a) { return F4(Reg8High(a.r)); }
#define IKPD_F8_BINARY(op, fn)                                                        \
  IKPD_INLINE F8 operator op(F8 a, F8 b) { return F8(fn(a.r, b.r)); }                 \
  IKPD_INLINE F8 operator op(F8 a, float b) { return F8(fn(a.r, Reg8Splat(b))); }     \
  IKPD_INLINE F8 operator op(float a, F8 b) { return F8(fn(Reg8Splat(a), b.r)); }
IKPD_F8_BINARY(+, Reg8Add)
IKPD_F8_BINARY(-, Reg8Sub)
IKPD_F8_BINARY(*, Reg8Mul)
IKPD_F8_BINARY(/, Reg8Div)
#undef IKPD_F8_BINARY
#define IKPD_F8_COMPARE(op, fn, x, y)                                                 \
  IKPD_INLINE M8 operator op(F8 a, F8 b) { return {fn(x.r, y.r)}; }                   \
  IKPD_INLINE M8 operator op(F8 a, float b) { return a op F8(b); }
IKPD_F8_COMPARE(<, Reg8Lt, a, b)
IKPD_F8_COMPARE(<=, Reg8Le, a, b)
IKPD_F8_COMPARE(>, Reg8Lt, b, a)
IKPD_F8_COMPARE(>=, Reg8Le, b, a)
IKPD_F8_COMPARE(==, Reg8Eq, a, b)
#undef IKPD_F8_COMPARE
IKPD_INLINE F8 operator-(F8 a) { return F8(Reg8Neg(a.r)); }
IKPD_INLINE F8 Select(M8 m, F8 a, F8 b) { return F8(Reg8Select(m.r, a.r, b.r)); }
IKPD_INLINE F8 Min(F8 a, F8 b) { return F8(Reg8Min(a.r, b.r)); }
IKPD_INLINE F8 Max(F8 a, F8 b) { return F8(Reg8Max(a.r, b.r)); }
IKPD_INLINE F8 Abs(F8 a) { return F8(Reg8Abs(a.r)); }
IKPD_INLINE F8 Sqrt(F8 a) { return F8(Reg8Sqrt(a.r)); }
IKPD_INLINE F8 Floor(F8 a) { return F8(Reg8Floor(a.r)); }
IKPD_INLINE M8 And(M8 a, M8 b) { return {Reg8And(a.r, b.r)}; }
IKPD_INLINE M8 Or(M8 a, M8 b) { return {Reg8Or(a.r, b.r)}; }
IKPD_INLINE M8 Not(M8 a) { return {Reg8Not(a.r)}; }
IKPD_INLINE bool Any(M8 m) { return Reg8Any(m.r); }
IKPD_INLINE bool All(M8 m) { return Reg8All(m.r); }
IKPD_INLINE M8 IsFiniteLane(F8 a) { return (a - a) == 0.0f; }
IKPD_INLINE F8 Pow2(F8 n) { return F8(Reg8Pow2(n.r)); }
IKPD_INLINE F8 ExponentOf(F8 a) { return F8(Reg8And(a.r, Reg8Bits(0x7F800000u))); }
IKPD_INLINE F8 InverseExponentOf(F8 a) { return F8(Reg8InverseExponent(a.r)); }
#else
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
IKPD_INLINE F4 Low(F8 a) { return a.lo; }
IKPD_INLINE F4 High(F8 a) { return a.hi; }
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
#endif
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


}  // namespace ikpd::simd
