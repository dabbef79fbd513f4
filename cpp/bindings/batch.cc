// Embind classes (flat.h): batch solvers over structure-of-arrays storage in WASM memory.
//
// Each batch's per-item fields are ONE list (kFields below) of BatchField
// entries. An entry names the field of a description it carries per item: a
// field of the single job's description (job_fields.h) for in.*, of the
// result's description (solvers.h) for out.*, of the PD item's for the PD
// batches, and which part of it (a transform's position or rotation, an
// optional vector's x, y, z, or all of it). From that list follow the storage
// layout (field index = position in the list), each field's components and
// fill value (the described default: the single job's own defaults, a
// default-constructed result), the batch job's pointers (Wire) and the text
// `layout()` reports to JS: "in.name:components:source:start,..." (source: the
// described field, start: the first of its floats the batch field carries).
// A static_assert rejects an entry whose field the description lacks or
// gives another kind, so the batches and the single calls cannot drift.
// Shared options are packed by JS into the scratch buffer and passed to
// setOptions(); solve(n) solves items [0, n) and returns 0 or an error
// (failedItem() names the item). JS owns each batch through its Embind handle
// (bindings at the end of this file).
#include <array>
#include <string>

#include "batch_fields.h"
#include "flat.h"
#include "job_fields.h"
#include "pd_settings.h"
#include "solvers.h"
#include "ikpd/batch/aim_batch.h"
#include "ikpd/batch/pd_batch.h"
#include "ikpd/batch/pseudo_three_bone_batch.h"
#include "ikpd/batch/soa.h"
#include "ikpd/batch/two_bone_batch.h"

namespace ikpd::bindings {
namespace {

using batch::SoaStorage;

// Common part of every batch class: storage laid out from Derived::kFields,
// and the job it runs, kept with its field pointers wired once (the storage
// never moves) and its shared options set by setOptions. Each call runs a copy
// of that job. Derived names its list (kFields) and the descriptions the
// list's entries name (In: the single job or PD item; Out: the result).
template <class Job, class Derived>
class BatchBase {
 public:
  explicit BatchBase(std::uint32_t count) : storage_(kLayout<Derived>, count) {
    static_assert(FirstUndescribed<typename Derived::In, typename Derived::Out>(Derived::kFields) ==
                      Derived::kFields.size(),
                  "a batch field names a field its description lacks, or gives it another kind");
    Wire<Derived>(job_, storage_);  // null fields when the storage is empty
    job_.failedItem = &failed_;
  }
  // 0 for every field when the storage could not be allocated: JS then frees
  // this object and throws "count: out of WASM memory" (web/src/batch.js).
  std::uintptr_t pointer(std::uint32_t field) const { return reinterpret_cast<std::uintptr_t>(storage_.field(field)); }
  std::uint32_t failedItem() const { return static_cast<std::uint32_t>(failed_); }
  // Address of the NUL-terminated layout text (JS reads it from WASM memory).
  static std::uintptr_t layout() { return reinterpret_cast<std::uintptr_t>(kLayoutText<Derived>.data()); }

 protected:
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
// single-item job's options (job_fields.h; its per-item fields unused), then
// poleMode at JobFloats<single job>() (web/src/batch.js), so the batches'
// shared options are the single call's options, field for field.
template <class Job, class Derived>
class SolverBatch : public BatchBase<Job, Derived> {
 public:
  using BatchBase<Job, Derived>::BatchBase;

  std::uintptr_t setOptions(std::uintptr_t offset) {
    using Single = decltype(Job::options);
    Job job = this->job_;
    const float* p = Floats(offset);
    ReadJob(p, job.options, Which::kOptions);
    job.poleMode = static_cast<PoleMode>(p[JobFloats<Single>()]);
    return this->Configure(job);
  }

  std::uintptr_t solve(std::uint32_t count) {
    Job job = this->job_;
    job.count = count;
    return ToResult(job.Run());
  }
};

// ------------------------------------------------------------ two-bone
class TwoBoneBatch : public SolverBatch<TwoBoneBatchJob, TwoBoneBatch> {
 public:
  using In = TwoBoneJob;
  using Out = TwoBoneResult;
  using F = BatchField<TwoBoneBatchJob>;
  static constexpr auto kFields = Join(
      LimbJoints<TwoBoneBatchJob>(), LimbTarget<TwoBoneBatchJob>(),
      std::array{F::In("in.effectorOffset", "effectorOffset", "vec3", Part::kWhole, &TwoBoneBatchJob::effectorOffset),
                 F::In("in.weight", "weight", "number", Part::kWhole, &TwoBoneBatchJob::weight)},
      LimbOutputs<TwoBoneBatchJob>(), LimbSummary<TwoBoneBatchJob>());

  using SolverBatch::SolverBatch;
};

// ------------------------------------------------------------ pseudo three-bone
class PseudoThreeBoneBatch : public SolverBatch<PseudoThreeBoneBatchJob, PseudoThreeBoneBatch> {
 public:
  using In = PseudoThreeBoneJob;
  using Out = PseudoThreeBoneResult;
  using J = PseudoThreeBoneBatchJob;
  using F = BatchField<J>;
  static constexpr auto kFields =
      Join(LimbJoints<J>(),
           std::array{F::In("in.tipPosition", "tip", "transform", Part::kPosition, &J::tipPosition),
                      F::In("in.tipRotation", "tip", "transform", Part::kRotation, &J::tipRotation)},
           LimbTarget<J>(),
           std::array{F::In("in.weight", "weight", "number", Part::kWhole, &J::weight),
                      F::In("in.blend", "blend", "number", Part::kWhole, &J::blend)},
           LimbOutputs<J>(),
           std::array{F::Out("out.tipPosition", "tip", "transform", Part::kPosition, &J::outTipPosition),
                      F::Out("out.tipRotation", "tip", "transform", Part::kRotation, &J::outTipRotation)},
           LimbSummary<J>());

  using SolverBatch::SolverBatch;
};

// ------------------------------------------------------------ aim
class AimBatch : public SolverBatch<AimBatchJob, AimBatch> {
 public:
  using In = AimJob;
  using Out = AimResult;
  using F = BatchField<AimBatchJob>;
  static constexpr std::array kFields = {
      F::In("in.position", "position", "vec3", Part::kWhole, &AimBatchJob::position),
      F::In("in.rotation", "rotation", "quat", Part::kWhole, &AimBatchJob::rotation),
      F::In("in.target", "target", "vec3", Part::kWhole, &AimBatchJob::target),
      F::In("in.pole", "pole", "optionalVec3", Part::kVector, &AimBatchJob::pole),
      F::In("in.weight", "weight", "number", Part::kWhole, &AimBatchJob::weight),
      F::Out("out.rotation", "rotation", "quat", Part::kWhole, &AimBatchJob::outRotation)};

  using SolverBatch::SolverBatch;
};

// ------------------------------------------------------------ PD
// State fields are read and written by update(dt, n); options come from the pd
// double buffer (packed by web/src/pd.js, read by ReadSettings) plus flags.
template <class Job, class Derived>
class PdBatchBase : public BatchBase<Job, Derived> {
 public:
  using BatchBase<Job, Derived>::BatchBase;

  // pd buffer: the PD options; `angle` only for scalar batches.
  std::uintptr_t setOptions(int angle) {
    Job job = this->job_;
    if (const Status s = ReadSettings(&job.settings); !s) return ToResult(s);
    if constexpr (requires { job.angle; }) job.angle = angle != 0;
    return this->Configure(job);
  }

  std::uintptr_t update(double dt, std::uint32_t count) {
    Job job = this->job_;
    job.dt = dt;
    job.count = count;
    return ToResult(job.Run());
  }
};

// The PD batches' fields: the item's state (written by update) and target.
template <class J>
constexpr std::array<BatchField<J>, 3> PdFields(const char* value, const char* velocity) {
  using F = BatchField<J>;
  return {F::Out("state.value", "value", value, Part::kWhole, &J::value),
          F::Out("state.velocity", "velocity", velocity, Part::kWhole, &J::velocity),
          F::In("in.target", "target", value, Part::kWhole, &J::target)};
}

class PdBatch : public PdBatchBase<PdBatchJob, PdBatch> {
 public:
  using In = ScalarPdItem;
  using Out = ScalarPdItem;
  static constexpr auto kFields = PdFields<PdBatchJob>("number", "number");
  using PdBatchBase::PdBatchBase;
};

class QuatPdBatch : public PdBatchBase<QuatPdBatchJob, QuatPdBatch> {
 public:
  using In = QuatPdItem;
  using Out = QuatPdItem;
  static constexpr auto kFields = PdFields<QuatPdBatchJob>("quat", "vec3");
  using PdBatchBase::PdBatchBase;
};

// T.create(count), T.layout(), pointer(field), failedItem() for batch class T. Methods
// inherited from a base are bound through lambdas on T: Embind would otherwise
// register them on the (unbound) base class, and they would never appear.
template <class T>
emscripten::class_<T> BindBatch(const char* name) {
  return emscripten::class_<T>(name)
      .class_function("create", &Create<T, std::uint32_t>, emscripten::allow_raw_pointers())
      .class_function("layout", &T::layout)
      .function("pointer", +[](T& t, std::uint32_t field) { return t.pointer(field); })
      .function("failedItem", +[](T& t) { return t.failedItem(); });
}

// Solver batches add setOptions(scratch offset) and solve(count).
template <class T>
void BindSolverBatch(const char* name) {
  BindBatch<T>(name)
      .function("setOptions", +[](T& t, std::uintptr_t offset) { return t.setOptions(offset); })
      .function("solve", +[](T& t, std::uint32_t count) { return t.solve(count); });
}

// Controller batches add setOptions(angle) (options in the pd buffer) and update(dt, count).
template <class T>
void BindControllerBatch(const char* name) {
  BindBatch<T>(name)
      .function("setOptions", +[](T& t, int angle) { return t.setOptions(angle); })
      .function("update", +[](T& t, double dt, std::uint32_t count) { return t.update(dt, count); });
}

}  // namespace
}  // namespace ikpd::bindings

EMSCRIPTEN_BINDINGS(ikpd_batch) {
  using namespace ikpd::bindings;
  BindSolverBatch<TwoBoneBatch>("TwoBoneBatch");
  BindSolverBatch<AimBatch>("AimBatch");
  BindSolverBatch<PseudoThreeBoneBatch>("PseudoThreeBoneBatch");
  BindControllerBatch<PdBatch>("PdBatch");
  BindControllerBatch<QuatPdBatch>("QuatPdBatch");
}
