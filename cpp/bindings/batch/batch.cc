// Embind classes (conventions.h): batch solvers over structure-of-arrays
// storage in WASM memory.
//
// Each batch's per-item fields are ONE list (BatchFields<BatchJob>::kFields,
// fields.h) of entries naming the described field they carry per item. From
// that list follow the storage layout (field index = position in the list),
// each field's components and fill value (the described default), the batch
// job's pointers (Wire) and, at build time, the layout JS reads
// (web/src/batch/described.js). Shared options are packed by JS into the
// scratch buffer and passed to setOptions(); solve(n) solves items [0, n) and
// returns 0 or an error (failedItem() names the item). JS owns each batch
// through its Embind handle (bindings at the end of this file).
#include <array>

#include "fields.h"
#include "../conventions.h"
#include "../packed.h"
#include "../pd/options.h"
#include "../ik/solvers.h"
#include "ikpd/batch/aim_batch.h"
#include "ikpd/batch/pd_batch.h"
#include "ikpd/batch/pseudo_three_bone_batch.h"
#include "ikpd/batch/soa.h"
#include "ikpd/batch/two_bone_batch.h"
#ifdef __EMSCRIPTEN_PTHREADS__
#include "pool.h"
#endif

namespace ikpd::bindings {
namespace {

using batch::SoaStorage;

// Common part of every batch class: storage laid out from its list
// (BatchFields<Job>), and the job it runs, kept with its field pointers wired
// once (the storage never moves) and its shared options set by setOptions.
// Each call runs a copy of that job.
template <class Job>
class BatchBase {
 public:
  using Fields = BatchFields<Job>;
  explicit BatchBase(std::uint32_t count) : storage_(kLayout<Fields>, count) {
    static_assert(FirstUndescribed<typename Fields::In, typename Fields::Out>(Fields::kFields) == Fields::kFields.size(),
                  "a batch field names a field its description lacks, or gives it another kind");
    Wire<Fields>(job_, storage_);  // null fields when the storage is empty
    job_.failedItem = &failed_;
  }
  // 0 for every field when the storage could not be allocated: JS then frees
  // this object and throws "count: out of WASM memory" (web/src/batch/).
  std::uintptr_t pointer(std::uint32_t field) const { return reinterpret_cast<std::uintptr_t>(storage_.field(field)); }
  std::uint32_t failedItem() const { return static_cast<std::uint32_t>(failed_); }

 protected:
  // Runs `job` (a copy of job_ with this call's count): split over the
  // worker pool in the threaded module (pool.h), on this thread otherwise.
  std::uintptr_t Run(const Job& job) {
#ifdef __EMSCRIPTEN_PTHREADS__
    return ToResult(pool::RunSplit(job, &failed_));
#else
    return ToResult(job.Run());
#endif
  }
  // Keeps `job`'s options when they validate.
  std::uintptr_t Configure(const Job& job) {
    const Status status = job.Validate();
    if (status) job_ = job;
    return ToResult(status);
  }
  SoaStorage storage_;
  std::size_t failed_ = 0;
  Job job_;
};

// Solver batches. Options arrive packed by JS in the scratch buffer: the
// single-item job's options (packed.h; its per-item fields unused), then
// poleMode at JobFloats<single job>() (web/src/batch/), so the batches'
// shared options are the single call's options, field for field.
template <class Job>
class SolverBatch : public BatchBase<Job> {
 public:
  using BatchBase<Job>::BatchBase;

  std::uintptr_t setOptions(std::uintptr_t offset) {
    using Single = decltype(Job::options);
    Job job = this->job_;
    const float* p = Floats(offset);
    ReadJob<FieldSet::kOptions>(p, job.options);
    job.poleMode = static_cast<PoleMode>(p[JobFloats<Single>()]);
    return this->Configure(job);
  }

  std::uintptr_t solve(std::uint32_t count) {
    Job job = this->job_;
    job.count = count;
    return this->Run(job);
  }
};

// ------------------------------------------------------------ PD
// State fields are read and written by update(dt, n); options come from the pd
// double buffer (packed by web/src/pd/, read by ReadPdSettings) plus flags.
template <class Job>
class PdBatch : public BatchBase<Job> {
 public:
  using BatchBase<Job>::BatchBase;

  // pd buffer: the PD options; `angle` only for scalar batches.
  std::uintptr_t setOptions(int angle) {
    Job job = this->job_;
    if (const Status s = ReadPdSettings(&job.settings); !s) return ToResult(s);
    if constexpr (requires { job.angle; }) job.angle = angle != 0;
    return this->Configure(job);
  }

  std::uintptr_t update(double dt, std::uint32_t count) {
    Job job = this->job_;
    job.dt = dt;
    job.count = count;
    return this->Run(job);
  }
};

// T.create(count), pointer(field), failedItem() for batch class T, named as its
// list names it. Methods inherited from a base are bound through lambdas on T:
// Embind would otherwise register them on the (unbound) base class, and they
// would never appear.
template <class T>
emscripten::class_<T> BindBatch() {
  return emscripten::class_<T>(T::Fields::kName)
      .class_function("create", &Create<T, std::uint32_t>, emscripten::allow_raw_pointers())
      .function("pointer", +[](T& t, std::uint32_t field) { return t.pointer(field); })
      .function("failedItem", +[](T& t) { return t.failedItem(); });
}

// Solver batches add setOptions(scratch offset) and solve(count).
template <class T>
void BindSolverBatch() {
  BindBatch<T>()
      .function("setOptions", +[](T& t, std::uintptr_t offset) { return t.setOptions(offset); })
      .function("solve", +[](T& t, std::uint32_t count) { return t.solve(count); });
}

// Controller batches add setOptions(angle) (options in the pd buffer) and update(dt, count).
template <class T>
void BindControllerBatch() {
  BindBatch<T>()
      .function("setOptions", +[](T& t, int angle) { return t.setOptions(angle); })
      .function("update", +[](T& t, double dt, std::uint32_t count) { return t.update(dt, count); });
}

}  // namespace
}  // namespace ikpd::bindings

IKPD_BINDINGS(batch, batch) {
  using namespace ikpd::bindings;
  BindSolverBatch<SolverBatch<ikpd::TwoBoneBatchJob>>();
  BindSolverBatch<SolverBatch<ikpd::AimBatchJob>>();
  BindSolverBatch<SolverBatch<ikpd::PseudoThreeBoneBatchJob>>();
  BindControllerBatch<PdBatch<ikpd::PdBatchJob>>();
  BindControllerBatch<PdBatch<ikpd::QuatPdBatchJob>>();
}
