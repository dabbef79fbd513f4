// Embind classes (flat.h): batch solvers over structure-of-arrays storage in WASM memory.
//
// Each batch class owns a SoaStorage whose layout (field names, components,
// fill values) is defined here once and reported to JS by `layout()` as
// "in.name:components,...,out.name:components"; JS builds Float32Array views
// over `pointer(i)`. Shared options are packed by JS into the scratch buffer
// and passed to setOptions(); solve(n) solves items [0, n) and returns 0 or an
// error (failedItem() names the item). JS owns each batch through its Embind
// handle (bindings at the end of this file).
#include <array>
#include <cstring>
#include <string>

#include "flat.h"
#include "job_fields.h"
#include "pd_settings.h"
#include "ikpd/batch/aim_batch.h"
#include "ikpd/batch/pd_batch.h"
#include "ikpd/batch/pseudo_three_bone_batch.h"
#include "ikpd/batch/soa.h"
#include "ikpd/batch/two_bone_batch.h"

namespace ikpd::bindings {
namespace {

using batch::Field;
using batch::SoaStorage;

constexpr float kIdentity[4] = {0.0f, 0.0f, 0.0f, 1.0f};
constexpr Field Vec3Field(const char* name) { return {name, 3, {0.0f, 0.0f, 0.0f, 0.0f}}; }
constexpr Field QuatField(const char* name) { return {name, 4, {kIdentity[0], kIdentity[1], kIdentity[2], kIdentity[3]}}; }
constexpr Field ScalarField(const char* name, float fill) { return {name, 1, {fill, 0.0f, 0.0f, 0.0f}}; }

// Writes "name:components,..." to `out` (NUL-terminated; components are 1–4).
template <std::size_t N>
void WriteLayout(const std::array<Field, N>& fields, char* out, std::size_t size) {
  std::size_t at = 0;
  for (const Field& f : fields) {
    const std::size_t length = std::strlen(f.name);
    if (at + length + 4 > size) break;
    if (at > 0) out[at++] = ',';
    std::memcpy(out + at, f.name, length);
    at += length;
    out[at++] = ':';
    out[at++] = static_cast<char>('0' + f.components);
  }
  out[at] = '\0';
}

// Common part of every batch class: storage, and the job it runs, kept with
// its field pointers wired once (Derived::Wire; the storage never moves) and
// its shared options set by setOptions. Each call runs a copy of that job.
template <class Job, class Derived>
class BatchBase {
 public:
  explicit BatchBase(std::uint32_t count) : storage_(Derived::kFields, count) {
    Derived::Wire(job_, storage_);
    job_.failedItem = &failed_;
  }
  std::uintptr_t pointer(std::uint32_t field) const { return reinterpret_cast<std::uintptr_t>(storage_.field(field)); }
  std::uint32_t failedItem() const { return static_cast<std::uint32_t>(failed_); }
  // Static text, built on the first call (no heap allocation).
  static const char* layout() {
    static char text[1024] = {};
    if (text[0] == '\0') WriteLayout(Derived::kFields, text, sizeof(text));
    return text;
  }

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

// The limb fields the two-bone and pseudo three-bone batches share (same names in both).
template <class Batch, class Job>
void WireLimb(Job& job, const SoaStorage& s) {
  job.rootPosition = s.field(Batch::kRootPosition);
  job.rootRotation = s.field(Batch::kRootRotation);
  job.midPosition = s.field(Batch::kMidPosition);
  job.midRotation = s.field(Batch::kMidRotation);
  job.endPosition = s.field(Batch::kEndPosition);
  job.endRotation = s.field(Batch::kEndRotation);
  job.target = s.field(Batch::kTarget);
  job.pole = s.field(Batch::kPole);
  job.weight = s.field(Batch::kWeight);
  job.outRootRotation = s.field(Batch::kOutRootRotation);
  job.outMidPosition = s.field(Batch::kOutMidPosition);
  job.outMidRotation = s.field(Batch::kOutMidRotation);
  job.outEndPosition = s.field(Batch::kOutEndPosition);
  job.outEndRotation = s.field(Batch::kOutEndRotation);
  job.outReached = s.field(Batch::kOutReached);
  job.outDistance = s.field(Batch::kOutDistance);
}

// ------------------------------------------------------------ two-bone
class TwoBoneBatch : public SolverBatch<TwoBoneBatchJob, TwoBoneBatch> {
 public:
  enum : std::size_t {
    kRootPosition, kRootRotation, kMidPosition, kMidRotation, kEndPosition, kEndRotation,
    kTarget, kPole, kEffectorOffset, kWeight,
    kOutRootRotation, kOutMidPosition, kOutMidRotation, kOutEndPosition, kOutEndRotation, kOutReached, kOutDistance,
  };
  static constexpr std::array<Field, 17> kFields = {
      Vec3Field("in.rootPosition"), QuatField("in.rootRotation"), Vec3Field("in.midPosition"),
      QuatField("in.midRotation"), Vec3Field("in.endPosition"), QuatField("in.endRotation"),
      Vec3Field("in.target"), Vec3Field("in.pole"), Vec3Field("in.effectorOffset"), ScalarField("in.weight", 1.0f),
      QuatField("out.rootRotation"), Vec3Field("out.midPosition"), QuatField("out.midRotation"),
      Vec3Field("out.endPosition"), QuatField("out.endRotation"), ScalarField("out.reached", 0.0f),
      ScalarField("out.distance", 0.0f)};

  using SolverBatch::SolverBatch;

  static void Wire(TwoBoneBatchJob& job, const SoaStorage& s) {
    WireLimb<TwoBoneBatch>(job, s);
    job.effectorOffset = s.field(kEffectorOffset);
  }
};

// ------------------------------------------------------------ pseudo three-bone
class PseudoThreeBoneBatch : public SolverBatch<PseudoThreeBoneBatchJob, PseudoThreeBoneBatch> {
 public:
  enum : std::size_t {
    kRootPosition, kRootRotation, kMidPosition, kMidRotation, kEndPosition, kEndRotation, kTipPosition,
    kTipRotation, kTarget, kPole, kWeight, kBlend,
    kOutRootRotation, kOutMidPosition, kOutMidRotation, kOutEndPosition, kOutEndRotation, kOutTipPosition,
    kOutTipRotation, kOutReached, kOutDistance,
  };
  static constexpr std::array<Field, 21> kFields = {
      Vec3Field("in.rootPosition"), QuatField("in.rootRotation"), Vec3Field("in.midPosition"),
      QuatField("in.midRotation"), Vec3Field("in.endPosition"), QuatField("in.endRotation"),
      Vec3Field("in.tipPosition"), QuatField("in.tipRotation"), Vec3Field("in.target"), Vec3Field("in.pole"),
      ScalarField("in.weight", 1.0f), ScalarField("in.blend", 0.0f),
      QuatField("out.rootRotation"), Vec3Field("out.midPosition"), QuatField("out.midRotation"),
      Vec3Field("out.endPosition"), QuatField("out.endRotation"), Vec3Field("out.tipPosition"),
      QuatField("out.tipRotation"), ScalarField("out.reached", 0.0f), ScalarField("out.distance", 0.0f)};

  using SolverBatch::SolverBatch;

  static void Wire(PseudoThreeBoneBatchJob& job, const SoaStorage& s) {
    WireLimb<PseudoThreeBoneBatch>(job, s);
    job.tipPosition = s.field(kTipPosition);
    job.tipRotation = s.field(kTipRotation);
    job.blend = s.field(kBlend);
    job.outTipPosition = s.field(kOutTipPosition);
    job.outTipRotation = s.field(kOutTipRotation);
  }
};

// ------------------------------------------------------------ aim
class AimBatch : public SolverBatch<AimBatchJob, AimBatch> {
 public:
  enum : std::size_t { kPosition, kRotation, kTarget, kPole, kWeight, kOutRotation };
  static constexpr std::array<Field, 6> kFields = {
      Vec3Field("in.position"), QuatField("in.rotation"), Vec3Field("in.target"),
      Vec3Field("in.pole"),     ScalarField("in.weight", 1.0f), QuatField("out.rotation")};

  using SolverBatch::SolverBatch;

  static void Wire(AimBatchJob& job, const SoaStorage& s) {
    job.position = s.field(kPosition);
    job.rotation = s.field(kRotation);
    job.target = s.field(kTarget);
    job.pole = s.field(kPole);
    job.weight = s.field(kWeight);
    job.outRotation = s.field(kOutRotation);
  }
};

// ------------------------------------------------------------ PD
// State fields are read and written by update(dt, n); options come from the pd
// double buffer (packed by web/src/pd.js, read by ReadSettings) plus flags.
template <class Job, class Derived>
class PdBatchBase : public BatchBase<Job, Derived> {
 public:
  using BatchBase<Job, Derived>::BatchBase;

  static void Wire(Job& job, const SoaStorage& s) {
    job.value = s.field(0);
    job.velocity = s.field(1);
    job.target = s.field(2);
  }

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

class PdBatch : public PdBatchBase<PdBatchJob, PdBatch> {
 public:
  static constexpr std::array<Field, 3> kFields = {ScalarField("state.value", 0.0f),
                                                   ScalarField("state.velocity", 0.0f),
                                                   ScalarField("in.target", 0.0f)};
  using PdBatchBase::PdBatchBase;
};

class QuatPdBatch : public PdBatchBase<QuatPdBatchJob, QuatPdBatch> {
 public:
  static constexpr std::array<Field, 3> kFields = {QuatField("state.value"), Vec3Field("state.velocity"),
                                                   QuatField("in.target")};
  using PdBatchBase::PdBatchBase;
};

// new T(count), T.layout(), pointer(field), failedItem() for batch class T. Methods
// inherited from a base are bound through lambdas on T: Embind would otherwise
// register them on the (unbound) base class, and they would never appear.
template <class T>
emscripten::class_<T> BindBatch(const char* name) {
  return emscripten::class_<T>(name)
      .template constructor<std::uint32_t>()
      .class_function("layout", +[]() { return std::string(T::layout()); })
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
