// Embind (conventions.h): module-wide plumbing (scratch buffer, heap use, version).
#include <malloc.h>

#include <cstdlib>
#include <new>
#include <string>

#include "conventions.h"
#include "ikpd/version.h"

namespace ikpd::bindings {

float* Scratch() {
  alignas(16) static float scratch[kScratchFloats];
  return scratch;
}

}  // namespace ikpd::bindings

// The nothrow operator new, replaced: without exceptions Emscripten's calls
// the throwing one, whose bad_alloc becomes abort(), so running out of memory
// killed the module even where ikpd checks for null (Buffer, Create in
// conventions.h). These return null instead; the default operator delete frees them.
// The plain operator new still aborts: no allocation of ikpd uses it on a path
// JS reaches with a size it chooses.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return std::malloc(size > 0 ? size : 1); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return std::malloc(size > 0 ? size : 1); }

EMSCRIPTEN_BINDINGS(ikpd_core) {
  using namespace emscripten;
  using ikpd::bindings::Scratch;
  function("scratchPointer", +[]() { return reinterpret_cast<std::uintptr_t>(Scratch()); });
  function("scratchFloats", +[]() { return static_cast<std::uint32_t>(ikpd::bindings::kScratchFloats); });
  // Bytes currently allocated with malloc/new (leak checks; see ikpd.memoryStats()).
  function("heapUsed", +[]() { return static_cast<double>(mallinfo().uordblks); });
  function("version", +[]() { return std::string(ikpd::Version()); });
}
