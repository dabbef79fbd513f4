// Embind (conventions.h): RigBatch (docs/rig/rig-batch.md), N characters that
// share one rig, owned by a JS handle (web/src/rig/rigBatch.js). Coarse: init
// copies a Rig handle's rig (rig.cc, address()), pointer(field, constraint)
// gives the storage JS views, set() takes settings packed as for a Rig
// (constraint_settings.h), update(dt) solves every character, clearSmoothing
// restarts a range of characters. In the threaded
// module update() splits the characters over the worker pool (pool.h).
#include <algorithm>
#include <cstdint>

#include "constraint_settings.h"
#include "../conventions.h"
#include "ikpd/rig/rig_batch.h"
#ifdef __EMSCRIPTEN_PTHREADS__
#include "../batch/pool.h"
#endif

namespace ikpd::bindings {
namespace {

using rig::RigBatch;

// pointer(field, constraint): the storage JS views (web/src/rig/rigBatch.js, FIELDS).
enum Field : std::uint32_t {
  kTranslations, kRotations, kScales, kOutput, kRootPositions, kRootRotations, kRootScales, kPoleSet,
  kTargets, kPoles, kWeights, kReached, kDistance,
};

class RigBatchHandle {
 public:
  // Copies the rig at `rig` (a Rig handle's address()) for `count` characters.
  std::uintptr_t Init(std::uintptr_t rig, std::uint32_t count) {
    return kept_.Keep(batch_.Init(*reinterpret_cast<const rig::Rig*>(rig), count));
  }

  std::uintptr_t Set(std::uint32_t index, std::uintptr_t offset) {
    if (!Headroom(64 * 1024)) return ToResult(Error("memory: out of WebAssembly memory"));  // the packed lists (rig.cc)
    return kept_.Keep(SetPacked(batch_, batch_.rig(), index, offset));
  }

  // 0 for a constraint index out of range (JS asks only for those it has).
  std::uintptr_t Pointer(std::uint32_t field, std::uint32_t constraint) {
    const auto at = [](auto span) { return reinterpret_cast<std::uintptr_t>(span.data()); };
    const bool has = constraint < batch_.constraintCount();
    switch (field) {
      case kTranslations: return at(batch_.translations());
      case kRotations: return at(batch_.rotations());
      case kScales: return at(batch_.scales());
      case kOutput: return at(batch_.output());
      case kRootPositions: return at(batch_.rootPositions());
      case kRootRotations: return at(batch_.rootRotations());
      case kRootScales: return at(batch_.rootScales());
      case kPoleSet: return at(batch_.poleSet());
      case kTargets: return has ? at(batch_.targets(constraint)) : 0;
      case kPoles: return has ? at(batch_.poles(constraint)) : 0;
      case kWeights: return has ? at(batch_.weights(constraint)) : 0;
      case kReached: return has ? at(batch_.reached(constraint)) : 0;
      case kDistance: return has ? at(batch_.distance(constraint)) : 0;
      default: return 0;
    }
  }

  // Characters [first, first + count) back to their first frame (RigBatch::ClearSmoothing).
  std::uintptr_t ClearSmoothing(std::uint32_t first, std::uint32_t count) { return kept_.Keep(batch_.ClearSmoothing(first, count)); }

  std::uintptr_t Update(float dt) {
#ifdef __EMSCRIPTEN_PTHREADS__
    return kept_.Keep(Split(dt));
#else
    return kept_.Keep(batch_.Update(dt));
#endif
  }

 private:
#ifdef __EMSCRIPTEN_PTHREADS__
  // Characters [0, count) as Threads() contiguous parts of whole SIMD groups;
  // each part checks and solves its own characters (a bad value stops only
  // its part, docs/batch/batches.md "Threads"). Small batches: one call.
  struct Parts {
    RigBatch* batch;
    float dt;
    std::size_t step;
    Status status[pool::kMaxThreads];
  };
  static void Part(void* context, unsigned k) {
    auto& run = *static_cast<Parts*>(context);
    const std::size_t n = run.batch->count(), first = std::min(n, k * run.step);
    run.status[k] = run.batch->Update(run.dt, first, std::min(run.step, n - first));
  }
  Status Split(float dt) {
    const unsigned threads = pool::Threads();
    const std::size_t n = batch_.count();
    if (threads < 2 || n < kMinParallelCharacters) return batch_.Update(dt);
    Parts run{&batch_, dt, 0, {}};
    const std::size_t lanes = (n + pool::kLane - 1) / pool::kLane;
    run.step = (lanes + threads - 1) / threads * pool::kLane;
    pool::Run(threads, &Part, &run);
    for (unsigned k = 0; k < threads; ++k) {
      if (!run.status[k]) return run.status[k];
    }
    return Ok();
  }
  // A character costs several batch items (one per constraint joint solved).
  static constexpr std::size_t kMinParallelCharacters = 256;
#endif

  RigBatch batch_;
  KeptMessage kept_;  // the text of the last error
};

}  // namespace
}  // namespace ikpd::bindings

IKPD_BINDINGS(batch, rig_batch) {
  using namespace emscripten;
  using namespace ikpd::bindings;
  class_<RigBatchHandle>("RigBatch")
      .class_function("create", &Create<RigBatchHandle>, allow_raw_pointers())
      .function("init", &RigBatchHandle::Init)
      .function("set", &RigBatchHandle::Set)
      .function("pointer", &RigBatchHandle::Pointer)
      .function("clearSmoothing", &RigBatchHandle::ClearSmoothing)
      .function("update", &RigBatchHandle::Update);
}
