// Plain exports (flat.h): module-wide plumbing (scratch buffer, heap use, version).
#include <malloc.h>

#include "flat.h"
#include "ikpd/version.h"

namespace ikpd::bindings {

float* Scratch() {
  alignas(16) static float scratch[kScratchFloats];
  return scratch;
}

}  // namespace ikpd::bindings

IKPD_EXPORT std::uintptr_t ikpd_scratch_pointer() { return reinterpret_cast<std::uintptr_t>(ikpd::bindings::Scratch()); }
IKPD_EXPORT std::uint32_t ikpd_scratch_floats() { return static_cast<std::uint32_t>(ikpd::bindings::kScratchFloats); }
// Bytes currently allocated with malloc/new (leak checks; see ikpd.memoryStats()).
IKPD_EXPORT double ikpd_heap_used() { return static_cast<double>(mallinfo().uordblks); }
// NUL-terminated version string (static).
IKPD_EXPORT std::uintptr_t ikpd_version() { return reinterpret_cast<std::uintptr_t>(ikpd::Version()); }
