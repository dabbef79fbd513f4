// Embind (conventions.h): module-wide plumbing (scratch buffer, heap use, version).
#include <malloc.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "conventions.h"
#include "ikpd/version.h"

namespace ikpd::bindings {

float* Scratch() {
  alignas(16) static float scratch[kScratchFloats];
  return scratch;
}

namespace {

// Every area's binding blocks (IKPD_BINDINGS, conventions.h), filled by the
// static initializers before main; constant-initialized, so their order
// does not matter.
constexpr std::size_t kMaxAreaBlocks = 32;
struct AreaBlock {
  const char* area;
  BindBlock block;
  bool bound;
};
AreaBlock areaBlocks[kMaxAreaBlocks] = {};
std::size_t areaBlockCount = 0;

// Binding a block allocates Embind's small per-method records (a copy of
// each member-function pointer). They come from this static arena, not the
// heap, so an area binds on first use even when the heap is full (an object
// that cannot be allocated still gets its RangeError); they live as long as
// the module, as Embind's own do. 4 KiB holds every area's (1.3 KiB:
// tests/js/bind-areas.test.js binds them all with the heap full).
constexpr std::size_t kArenaBytes = 4096;
alignas(16) char arena[kArenaBytes];
std::size_t arenaUsed = 0;
#ifdef __EMSCRIPTEN_PTHREADS__
thread_local  // the threaded module: only the thread that binds takes from the arena
#endif
bool binding = false;

void* FromArena(std::size_t size) {
  const std::size_t rounded = (size + 15) & ~std::size_t{15};
  if (!binding || rounded > kArenaBytes - arenaUsed) return nullptr;
  void* p = arena + arenaUsed;
  arenaUsed += rounded;
  return p;
}

bool InArena(const void* p) {
  const char* c = static_cast<const char*>(p);
  return c >= arena && c < arena + kArenaBytes;
}

// Runs the blocks of the area named at `name` (a NUL-terminated ASCII name in
// WASM memory, so that binding passes no string through the heap; "*": every
// area) not yet run; returns how many blocks the area has (0: no such area,
// which JS reports).
int BindArea(std::uintptr_t name) {
  const char* area = reinterpret_cast<const char*>(name);
  const bool all = std::strcmp(area, "*") == 0;
  int blocks = 0;
  binding = true;
  for (std::size_t i = 0; i < areaBlockCount; ++i) {
    AreaBlock& b = areaBlocks[i];
    if (!all && std::strcmp(b.area, area) != 0) continue;
    ++blocks;
    if (!b.bound) {
      b.bound = true;
      b.block();
    }
  }
  binding = false;
  return blocks;
}

}  // namespace

bool AddAreaBlock(const char* area, BindBlock block) {
  if (areaBlockCount == kMaxAreaBlocks) return false;
  areaBlocks[areaBlockCount++] = {area, block, false};
  return true;
}

}  // namespace ikpd::bindings

// The nothrow operator new, replaced: without exceptions Emscripten's calls
// the throwing one, whose bad_alloc becomes abort(), so running out of memory
// killed the module even where ikpd checks for null (Buffer, Create in
// conventions.h). These return null instead.
// The plain operator new still aborts: no allocation of ikpd uses it on a path
// JS reaches with a size it chooses. While an area binds, it takes Embind's
// records from the arena above; operator delete leaves arena memory alone.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return std::malloc(size > 0 ? size : 1); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return std::malloc(size > 0 ? size : 1); }
void* operator new(std::size_t size) {
  if (void* p = ikpd::bindings::FromArena(size)) return p;
  if (void* p = std::malloc(size > 0 ? size : 1)) return p;
  std::abort();
}
void operator delete(void* p) noexcept {
  if (!ikpd::bindings::InArena(p)) std::free(p);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }

EMSCRIPTEN_BINDINGS(ikpd_core) {
  using namespace emscripten;
  using ikpd::bindings::Scratch;
  function("scratchPointer", +[]() { return reinterpret_cast<std::uintptr_t>(Scratch()); });
  function("scratchFloats", +[]() { return static_cast<std::uint32_t>(ikpd::bindings::kScratchFloats); });
  // Bytes currently allocated with malloc/new (leak checks; see ikpd.memoryStats()).
  function("heapUsed", +[]() { return static_cast<double>(mallinfo().uordblks); });
  function("version", +[]() { return std::string(ikpd::Version()); });
  // bindArea(name): registers the area's bindings ("ik", "rig", "pd", "hdr",
  // "batch"; "*": all) the first time (web/src/core.js Core.area, module.js
  // bindAllAreas); arenaUsed() → bytes of the binding arena in use (tests).
  function("arenaUsed", +[]() { return static_cast<std::uint32_t>(ikpd::bindings::arenaUsed); });
  function("bindArea", &ikpd::bindings::BindArea);
}
