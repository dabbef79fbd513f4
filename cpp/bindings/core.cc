// Embind: module-wide plumbing (scratch buffer, version).
#include <emscripten/bind.h>

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
  emscripten::function("version", +[]() { return std::string(ikpd::Version()); });
}
