// Allocation that fails as a Status (docs/rig/rig.md, "Out of memory"): the
// rig and the rig batch allocate only in Init/Add/SetSettings, each through
// Allocating, so a full heap is an error that changes nothing.
#pragma once

#include <cstddef>
#include <new>
#include <stdexcept>

#include "ikpd/common.h"

namespace ikpd::rig {

// Runs `allocate`, whose only failure is an allocation: `message` then, and
// nothing changed (`allocate` builds into a copy and moves it in last).
// Builds without exceptions (WebAssembly) cannot catch it: there a nothrow
// probe of `bytes`, an upper bound of what `allocate` asks for at once, stands
// in for the catch first. Freed at once, the probe's block then serves the
// smaller requests that follow.
template <class Allocate>
Status Allocating(std::size_t bytes, const char* message, Allocate&& allocate) {
#if defined(__cpp_exceptions)
  (void)bytes;
  try {
    allocate();
  } catch (const std::bad_alloc&) {
    return Error(message);
  } catch (const std::length_error&) {
    return Error(message);
  }
#else
  void* probe = ::operator new(bytes, std::nothrow);
  if (probe == nullptr) return Error(message);
  ::operator delete(probe);
  allocate();
#endif
  return Ok();
}

}  // namespace ikpd::rig
