// Helpers for the flat binding convention shared by every module.
//
// JS wrappers validate shapes/types, pack inputs as float32 into the scratch
// buffer (or a batch buffer) in WASM memory, and call a C++ entry point that
// takes byte offsets (uintptr_t). It returns 0 on success or a pointer to the
// static "parameter: reason" string of the failing Status; web/src/core.js
// turns that into a RangeError. No JS objects cross the boundary.
//
// Entry points are plain exports, `IKPD_EXPORT std::uintptr_t ikpd_name(...)`,
// listed in cpp/bindings/post.js; JS gets them from core.exports and calls the
// WebAssembly function directly, without Embind's per-call invoker (type
// checks, a table call, wire conversion: 50–150 ns, more for class methods).
// Arguments and results are numbers only: pointers and handles as uintptr_t
// (JS reads returned pointers with `>>> 0`), flags as int, values as
// float/double. Stateful objects (controllers, batches, ...) are C++ objects
// owned by JS through their address (ikpd_<kind>_new / _delete). The module
// does not use Embind at all: no registration work in init(), no runtime code
// generation (new Function), a smaller glue.
#pragma once

#include <emscripten/em_macros.h>

#include <cstddef>
#include <cstdint>

#include "ikpd/common.h"

#define IKPD_EXPORT extern "C" EMSCRIPTEN_KEEPALIVE

namespace ikpd::bindings {

// Scratch floats shared by all single-call wrappers (not re-entrant; JS is single-threaded).
constexpr std::size_t kScratchFloats = 4096;
float* Scratch();

inline float* Floats(std::uintptr_t offset) { return reinterpret_cast<float*>(offset); }

inline glm::vec3 ReadVec3(const float* p) { return {p[0], p[1], p[2]}; }
// Quaternions cross the boundary in three.js order [x, y, z, w].
inline glm::quat ReadQuat(const float* p) { return glm::quat(p[3], p[0], p[1], p[2]); }
inline Transform ReadTransform(const float* p) { return {ReadVec3(p), ReadQuat(p + 3)}; }

inline void WriteVec3(float* p, const glm::vec3& v) { p[0] = v.x; p[1] = v.y; p[2] = v.z; }
inline void WriteQuat(float* p, const glm::quat& q) { p[0] = q.x; p[1] = q.y; p[2] = q.z; p[3] = q.w; }
inline void WriteTransform(float* p, const Transform& t) { WriteVec3(p, t.position); WriteQuat(p + 3, t.rotation); }

inline std::uintptr_t ToResult(Status s) { return reinterpret_cast<std::uintptr_t>(s.error); }

}  // namespace ikpd::bindings
