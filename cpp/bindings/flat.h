// Helpers for the flat binding convention shared by every module.
//
// JS wrappers validate shapes/types, pack inputs as float32 into the scratch
// buffer (or a batch buffer) in WASM memory, and call an Embind function that
// takes byte offsets (uintptr_t). The function returns 0 on success or a
// pointer to the static "parameter: reason" string of the failing Status;
// web/src/core.js turns that into a RangeError. No JS objects cross the
// boundary on hot paths (Embind value_object conversion costs microseconds).
//
// Entry points called once per solve (single-call IK, PD controllers) are not
// Embind functions but plain exports, `IKPD_EXPORT std::uintptr_t ikpd_name(...)`,
// listed in cpp/bindings/post.js: JS calls the WebAssembly function directly,
// without Embind's per-call invoker (type checks, table call, wire conversion).
// Their arguments and results are numbers only (pointers and handles as
// uintptr_t, flags as int).
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
