// Embind (flat.h): prepared single-item solvers and the job descriptions.
//
// A prepared solver owns one packed job (job_fields.h layout) followed by its
// result at kOut. JS writes every field once (new, setOptions) and then only
// the per-frame inputs before each solve(): options are read and validated by
// setOptions() alone and stay in the cached job between frames.
#include <cstring>
#include <string>

#include "flat.h"
#include "ikpd/chain/pseudo_three_bone.h"
#include "ikpd/ik/aim.h"
#include "ikpd/ik/two_bone.h"
#include "job_fields.h"
#include "chain_fields.h"
#include "pd_fields.h"
#include "rig_fields.h"
#include "solvers.h"

namespace ikpd::bindings {

namespace {

// A number as "x" and the 16 hex digits of its IEEE-754 bits.
void AppendNumber(std::string& out, double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  out += 'x';
  for (int shift = 60; shift >= 0; shift -= 4) out += "0123456789abcdef"[(bits >> shift) & 0xF];
}

const char* RoleName(Role role) {
  switch (role) {
    case Role::kInput: return ":input";
    case Role::kInputOrDefault: return ":inputOrDefault";
    case Role::kOutput: return ":output";
    default: return ":option";
  }
}

}  // namespace

void DescribeRecords(std::string& out, const char* name, std::size_t floats, const void* defaults, bool doubles,
                     const FieldRecord* fields, std::size_t count) {
  out += name;
  out += '=';
  out += std::to_string(floats);
  out += '@';
  out += std::to_string(reinterpret_cast<std::uintptr_t>(defaults));
  out += doubles ? "@64|" : "@32|";
  for (std::size_t i = 0; i < count; ++i) {
    const FieldRecord& f = fields[i];
    if (i) out += ',';
    out += f.name;
    out += ':';
    out += f.kind;
    out += ':';
    out += std::to_string(f.offset);
    out += RoleName(f.role);
    if (f.enumNames != nullptr) {
      out += ':';
      out += std::to_string(f.enumFirst);
      out += ':';
      out += f.enumNames;
    }
    if (f.flags & FieldRecord::kHasRange) {
      out += f.flags & FieldRecord::kMinOpen ? ":(" : ":[";
      AppendNumber(out, f.min);
      out += ' ';
      AppendNumber(out, f.max);
      out += f.flags & FieldRecord::kMaxOpen ? ')' : ']';
    }
    if (f.presets != nullptr) {
      out += ":~";
      for (int k = 0; k < 4 && f.presets->names[k] != nullptr; ++k) {
        if (k) out += '|';
        out += f.presets->names[k];
        out += '=';
        AppendNumber(out, f.presets->values[k]);
      }
    }
    if (f.flags & FieldRecord::kHasFallback) {
      out += ":=";
      AppendNumber(out, f.fallback);
    }
  }
}

namespace {

// A valid limb/joint the options are validated against (setOptions checks the
// options, not whatever inputs the buffer holds before the first solve).
void SampleInputs(TwoBoneJob& job) {
  job.root = {glm::vec3(0.0f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  job.mid = {glm::vec3(1.0f, 0.0f, 0.0f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  job.end = {glm::vec3(2.0f, 0.0f, 0.0f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  job.target = glm::vec3(1.0f, 1.0f, 0.0f);
}
void SampleInputs(PseudoThreeBoneJob& job) {
  SampleInputs(job.limb);
  job.tip = {glm::vec3(2.0f, -1.0f, 0.0f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  job.blend = 0.0f;
}
void SampleInputs(AimJob& job) {
  job.position = glm::vec3(0.0f);
  job.rotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  job.target = glm::vec3(1.0f, 1.0f, 1.0f);
}

template <class Job, class Result>
class PreparedSolver {
 public:
  PreparedSolver() {
    std::memcpy(buffer_, Defaults<Job>(), sizeof(float) * JobFloats<Job>());
    ReadJob(buffer_, job_);
    job_.result = ResultTarget(result_);
  }
  PreparedSolver(const PreparedSolver&) = delete;
  PreparedSolver& operator=(const PreparedSolver&) = delete;

  std::uintptr_t pointer() const { return reinterpret_cast<std::uintptr_t>(buffer_); }

  // Reads the options from the buffer; keeps them when they validate.
  std::uintptr_t setOptions() {
    Job job = job_;
    ReadJob(buffer_, job, Which::kOptions);
    Job check = job;
    SampleInputs(check);
    if (const Status s = check.Validate(); !s) return ToResult(s);
    job_ = job;
    return 0;
  }

  // Reads the per-frame inputs, solves with the cached options, writes the result at kOut.
  std::uintptr_t solve() {
    ReadJob(buffer_, job_, Which::kInputs);
    const Status s = job_.Run();
    if (s) WriteResult(buffer_ + kOut, result_);
    return ToResult(s);
  }

 private:
  static_assert(JobFloats<Job>() <= kOut && JobFloats<Result>() <= 32);
  alignas(16) float buffer_[kOut + 32] = {};
  Job job_;
  Result result_{};
};

using TwoBoneSolver = PreparedSolver<TwoBoneJob, TwoBoneResult>;
using AimSolver = PreparedSolver<AimJob, AimResult>;
using PseudoThreeBoneSolver = PreparedSolver<PseudoThreeBoneJob, PseudoThreeBoneResult>;

template <class T>
void BindSolver(const char* name) {
  emscripten::class_<T>(name)
      .template constructor<>()
      .function("pointer", &T::pointer)
      .function("setOptions", &T::setOptions)
      .function("solve", &T::solve);
}

}  // namespace
}  // namespace ikpd::bindings

EMSCRIPTEN_BINDINGS(ikpd_solvers) {
  using namespace ikpd;
  using namespace ikpd::bindings;
  // Every job description, ";"-separated (web/src/fields.js parses it once in init()).
  emscripten::function("jobDescriptions", +[]() {
    return DescribeJobs<TwoBoneJob, AimJob, PseudoThreeBoneJob, ChainJob, PdOptions, LookAtSettings, Tentacle2DSettings,
                        BodyLookAtSettings, TwoBoneResult, AimResult, PseudoThreeBoneResult, ChainResult>();
  });
  BindSolver<TwoBoneSolver>("TwoBoneSolver");
  BindSolver<AimSolver>("AimSolver");
  BindSolver<PseudoThreeBoneSolver>("PseudoThreeBoneSolver");
}
