// Internal: moving batch fields (structure of arrays) in and out of lanes, for
// every lane type of lane_types.h. Include simd/lanes.h, not this file.
#pragma once

#include <cstddef>

#include "lane_types.h"

namespace ikpd::simd {

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
  F4 lo, hi;
  Load1(field, item, &lo);
  Load1(field, item + 4, &hi);
  *v = F8(lo, hi);
}
IKPD_INLINE void Load3(const float* field, std::size_t item, F8* x, F8* y, F8* z) {
  F4 x0, y0, z0, x1, y1, z1;
  Load3(field, item, &x0, &y0, &z0);
  Load3(field, item + 4, &x1, &y1, &z1);
  *x = F8(x0, x1), *y = F8(y0, y1), *z = F8(z0, z1);
}
IKPD_INLINE void Load4(const float* field, std::size_t item, F8* x, F8* y, F8* z, F8* w) {
  F4 x0, y0, z0, w0, x1, y1, z1, w1;
  Load4(field, item, &x0, &y0, &z0, &w0);
  Load4(field, item + 4, &x1, &y1, &z1, &w1);
  *x = F8(x0, x1), *y = F8(y0, y1), *z = F8(z0, z1), *w = F8(w0, w1);
}
IKPD_INLINE void Store1(float* field, std::size_t item, F8 v) {
  Store1(field, item, Low(v));
  Store1(field, item + 4, High(v));
}
IKPD_INLINE void Store3(float* field, std::size_t item, F8 x, F8 y, F8 z) {
  Store3(field, item, Low(x), Low(y), Low(z));
  Store3(field, item + 4, High(x), High(y), High(z));
}
IKPD_INLINE void Store4(float* field, std::size_t item, F8 x, F8 y, F8 z, F8 w) {
  Store4(field, item, Low(x), Low(y), Low(z), Low(w));
  Store4(field, item + 4, High(x), High(y), High(z), High(w));
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

}  // namespace ikpd::simd
