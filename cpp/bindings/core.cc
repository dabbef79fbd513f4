// Embind (flat.h): module-wide plumbing (scratch buffer, heap use, version).
#include <malloc.h>

#include <string>

#include "flat.h"
#include "ikpd/version.h"

namespace ikpd::bindings {

float* Scratch() {
  alignas(16) static float scratch[kScratchFloats];
  return scratch;
}

}  // namespace ikpd::bindings

EMSCRIPTEN_BINDINGS(ikpd_core) {
  using namespace emscripten;
  using ikpd::bindings::Scratch;
  function("scratchPointer", +[]() { return reinterpret_cast<std::uintptr_t>(Scratch()); });
  function("scratchFloats", +[]() { return static_cast<std::uint32_t>(ikpd::bindings::kScratchFloats); });
  // Bytes currently allocated with malloc/new (leak checks; see ikpd.memoryStats()).
  function("heapUsed", +[]() { return static_cast<double>(mallinfo().uordblks); });
  function("version", +[]() { return std::string(ikpd::Version()); });
}
