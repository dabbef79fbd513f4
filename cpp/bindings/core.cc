// Embind: module-wide plumbing (scratch buffer, version).
#include <emscripten/bind.h>
#include <malloc.h>

#include "flat.h"
#include "ikpd/version.h"

namespace ikpd::bindings {

float* Scratch() {
  alignas(16) static float scratch[kScratchFloats];
  return scratch;
}

}  // namespace ikpd::bindings

EMSCRIPTEN_BINDINGS(ikpd_core) {
  using namespace ikpd::bindings;
  emscripten::function("scratchPointer", +[]() { return reinterpret_cast<std::uintptr_t>(Scratch()); });
  emscripten::function("scratchFloats", +[]() { return static_cast<std::uint32_t>(kScratchFloats); });
  // Bytes currently allocated with malloc/new (leak checks; see ikpd.memoryStats()).
  emscripten::function("heapUsed", +[]() { return static_cast<double>(mallinfo().uordblks); });
  emscripten::function("version", +[]() { return std::string(ikpd::Version()); });
}
