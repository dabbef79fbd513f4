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
//
// The parts: registers.h (the intrinsics), lane_types.h (one, four and eight
// lanes), lane_fields.h (batch fields in and out of lanes), lane_math.h
// (exp, sin/cos, atan2).
#pragma once

#include "registers.h"
#include "lane_types.h"
#include "lane_fields.h"
#include "lane_math.h"
