// The binding conventions every Embind module follows, and their helpers.
//
// JS wrappers validate shapes/types, pack inputs as float32 into the scratch
// buffer (or a batch/solver buffer) in WASM memory, and call one Embind
// binding: a `function` for a stateless operation, a `class_` method for an
// object that owns state or memory (controllers, batches, solvers, ...).
// Hot-path arguments are numbers only: byte offsets as uintptr_t, flags as
// int, values as float/double; no `val` and no JS arrays cross per call.
// Fallible calls return 0 on success or the address of the failing Status's
// static "parameter: reason" string; web/src/core.js turns it into a
// RangeError. Bindings are coarse (one per object or operation): each costs
// start-up time where it is registered.
//
// Areas register on first use (docs/loading.md, "Start-up"): a block
// IKPD_BINDINGS(batch, two_bone_batch) { ... } is an EMSCRIPTEN_BINDINGS block
// of one area that runs when JS first asks for the area (web/src/core.js
// Core.area → bindArea("batch"), cpp/bindings/core.cc), not while the module
// starts; only core.cc's plumbing (and the threads' pool) is bound at start.
#pragma once

#include <emscripten/bind.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <span>

#include "ikpd/common.h"
#include "packed.h"

namespace ikpd::bindings {

// Scratch floats shared by all single-call wrappers (not re-entrant; JS is single-threaded).
constexpr std::size_t kScratchFloats = 4096;
float* Scratch();

inline float* Floats(std::uintptr_t offset) { return reinterpret_cast<float*>(offset); }

// Optional per-joint arrays packed one after another (n floats each, only the
// given ones): Take(given) returns the next array, or an empty span.
struct PackedArrays {
  const float* at;
  std::size_t n;
  std::span<const float> Take(bool given) {
    if (!given) return {};
    const std::span<const float> values(at, n);
    at += n;
    return values;
  }
};

// An area's binding block, run once by BindArea(area). Returns false when the
// fixed table is full (a build error in practice: raise kMaxAreaBlocks).
using BindBlock = void (*)();
bool AddAreaBlock(const char* area, BindBlock block);

// Each block also names its area in the module's "ikpd.areas" custom
// section: wasm-ld joins the pieces of every file linked, so the section
// lists exactly the areas a module has bindings for ("ik\0ik\0pd\0" ..., an
// area once per block). init() reads it before instantiating, to refuse a
// .wasm that is not the module its glue belongs to (web/src/module.js).
// (Module-level assembly: a data array placed in that section is dropped by wasm-ld.)
#define IKPD_BINDINGS(area, name)                                                               \
  __asm__(".section .custom_section.ikpd.areas,\"\",@\n.asciz \"" #area "\"\n.text\n");       \
  static void ikpd_bind_##name();                                                               \
  [[maybe_unused]] static const bool ikpd_bindings_##name = ::ikpd::bindings::AddAreaBlock(#area, \
                                                                                            &ikpd_bind_##name); \
  static void ikpd_bind_##name()

inline std::uintptr_t ToResult(Status s) { return reinterpret_cast<std::uintptr_t>(s.error); }

// An error text that lives in the object that made it (a rig's indexed
// messages, valid until its next call), copied into the handle that JS reads
// it from: Keep(s) is ToResult for such a Status.
class KeptMessage {
 public:
  std::uintptr_t Keep(Status s) {
    if (s) return 0;
    std::strncpy(text_, s.error, sizeof(text_) - 1);
    return reinterpret_cast<std::uintptr_t>(text_);
  }

 private:
  char text_[192] = {};
};

// Every object JS owns is made by a factory, `T.create(...)` (JS checks for
// null: "name: out of WASM memory"): new T, or null when the memory cannot be
// had. Embind's constructor<> would construct through the null pointer that
// operator new returns without exceptions.
template <class T, class... Args>
T* Create(Args... args) {
  return new (std::nothrow) T(args...);
}

// Whether `bytes` can be allocated now (a nothrow probe, freed at once): the
// check before code that allocates less than that through operator new, which
// aborts on failure in this build (no exceptions).
inline bool Headroom(std::size_t bytes) {
  void* probe = ::operator new(bytes, std::nothrow);
  if (probe == nullptr) return false;
  ::operator delete(probe);
  return true;
}

}  // namespace ikpd::bindings
