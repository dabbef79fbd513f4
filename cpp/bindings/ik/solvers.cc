// Embind (conventions.h): the prepared single-item solvers.
//
// A prepared solver owns one packed job (packed.h, by the description in
// cpp/src/ik/fields.h) followed by its result at kOut (the layout of its
// result description, solvers.h). JS writes every field once (new, setOptions) and then only
// the per-frame inputs before each solve(): options are read and validated by
// setOptions() alone and stay in the cached job between frames.
#include <cstring>

#include "../conventions.h"
#include "ikpd/ik/pseudo_three_bone.h"
#include "ikpd/ik/aim.h"
#include "ikpd/ik/two_bone.h"
#include "../packed.h"
#include "../../src/ik/fields.h"
#include "solvers.h"

namespace ikpd::bindings {

namespace {

// A valid limb/joint the options are validated against (setOptions checks the
// options, not whatever inputs the buffer holds before the first solve).
void SampleLimb(TwoBoneFrame& frame) {
  frame.root = {glm::vec3(0.0f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  frame.mid = {glm::vec3(1.0f, 0.0f, 0.0f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  frame.end = {glm::vec3(2.0f, 0.0f, 0.0f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  frame.target = glm::vec3(1.0f, 1.0f, 0.0f);
}
void SampleInputs(TwoBoneJob& job) { SampleLimb(job.frame); }
void SampleInputs(PseudoThreeBoneJob& job) {
  SampleLimb(job.frame.limb);
  job.frame.tip = {glm::vec3(2.0f, -1.0f, 0.0f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  job.frame.blend = 0.0f;
}
void SampleInputs(AimJob& job) {
  job.frame.position = glm::vec3(0.0f);
  job.frame.rotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  job.frame.target = glm::vec3(1.0f, 1.0f, 1.0f);
}

// How a solver keeps its options between frames: the job's settings prepared
// once by setOptions (docs/architecture.md, the job layer); solve() then
// checks and solves the frame only.
template <class Job>
struct Prepared;
template <>
struct Prepared<TwoBoneJob> {
  TwoBoneSetup setup;
  Status Set(const TwoBoneJob& job) { return Prepare(job.settings, &setup); }
  Status Solve(const TwoBoneJob& job) const { return SolveTwoBone(setup, job.frame, job.result); }
};
template <>
struct Prepared<AimJob> {
  AimSetup setup;
  Status Set(const AimJob& job) { return Prepare(job.settings, &setup); }
  Status Solve(const AimJob& job) const { return SolveAim(setup, job.frame, job.result); }
};
template <>
struct Prepared<PseudoThreeBoneJob> {
  PseudoThreeBoneSetup setup;
  Status Set(const PseudoThreeBoneJob& job) { return Prepare(job.settings, &setup); }
  Status Solve(const PseudoThreeBoneJob& job) const { return SolvePseudoThreeBone(setup, job.frame, job.result); }
};

template <class Job, class Result>
class PreparedSolver {
 public:
  PreparedSolver() {
    std::memcpy(buffer_, Defaults<Job>(), sizeof(float) * JobFloats<Job>());
    ReadJob(buffer_, job_);
    job_.result = ResultTarget(result_);
    (void)prepared_.Set(job_);  // the defaults are valid
  }
  PreparedSolver(const PreparedSolver&) = delete;
  PreparedSolver& operator=(const PreparedSolver&) = delete;

  std::uintptr_t pointer() const { return reinterpret_cast<std::uintptr_t>(buffer_); }

  // Reads the options from the buffer; keeps them when they validate.
  std::uintptr_t setOptions() {
    Job job = job_;
    ReadJob<FieldSet::kOptions>(buffer_, job);
    Job check = job;
    SampleInputs(check);
    if (const Status s = check.Validate(); !s) return ToResult(s);
    if (const Status s = prepared_.Set(job); !s) return ToResult(s);
    job_ = job;
    return 0;
  }

  // Reads the per-frame inputs, solves with the cached options, writes the result at kOut.
  std::uintptr_t solve() {
    ReadJob<FieldSet::kInputs>(buffer_, job_);
    const Status s = prepared_.Solve(job_);
    if (s) WriteJob(buffer_ + kOut, result_);
    return ToResult(s);
  }

 private:
  static_assert(JobFloats<Job>() <= kOut && JobFloats<Result>() <= 32);
  alignas(16) float buffer_[kOut + 32] = {};
  Job job_;
  Prepared<Job> prepared_;
  Result result_{};
};

using TwoBoneSolver = PreparedSolver<TwoBoneJob, TwoBoneResult>;
using AimSolver = PreparedSolver<AimJob, AimResult>;
using PseudoThreeBoneSolver = PreparedSolver<PseudoThreeBoneJob, PseudoThreeBoneResult>;

template <class T>
void BindSolver(const char* name) {
  emscripten::class_<T>(name)
      .class_function("create", &Create<T>, emscripten::allow_raw_pointers())
      .function("pointer", &T::pointer)
      .function("setOptions", &T::setOptions)
      .function("solve", &T::solve);
}

}  // namespace
}  // namespace ikpd::bindings

IKPD_BINDINGS(ik, solvers) {
  using namespace ikpd;
  using namespace ikpd::bindings;
  BindSolver<TwoBoneSolver>("TwoBoneSolver");
  BindSolver<AimSolver>("AimSolver");
  BindSolver<PseudoThreeBoneSolver>("PseudoThreeBoneSolver");
}
