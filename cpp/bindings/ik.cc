// Embind functions (flat.h): aim and two-bone IK, single calls. Each reads its
// job packed at the pointer in the layout of job_fields.h (JobFields<AimJob>,
// JobFields<TwoBoneJob>) and writes the result at float offset kOut in the
// layout of its result description (solvers.h).
// toLocalRotations: n world rotations [x, y, z, w] at the pointer, then the
// parent rotation; the local rotations are written over the world ones.
#include <span>

#include "flat.h"
#include "ikpd/ik/aim.h"
#include "ikpd/ik/local_rotations.h"
#include "ikpd/ik/two_bone.h"
#include "job_fields.h"
#include "solvers.h"

namespace ikpd::bindings {
namespace {

static_assert(JobFloats<AimJob>() <= kOut && JobFloats<TwoBoneJob>() <= kOut);

// One solve of a packed job (job_fields.h) at the pointer; its result is
// written after the job's floats, at p + kOut.
template <class Job, class Result>
std::uintptr_t Solve(std::uintptr_t pointer) {
  float* p = Floats(pointer);
  Result out;
  Job job;
  ReadJob(p, job);
  job.result = ResultTarget(out);
  const Status status = job.Run();
  if (status) WriteJob(p + kOut, out);
  return ToResult(status);
}

std::uintptr_t ToLocal(std::uintptr_t pointer, std::uint32_t n) {
  // Zero-filled statics (no data segment); every slot used is written first.
  static glm::quat rotations[kScratchFloats / 4];
  if (n >= kScratchFloats / 4) return ToResult(Error("joints: too many joints for one call"));
  float* p = Floats(pointer);
  for (std::uint32_t i = 0; i < n; ++i) rotations[i] = ReadQuat(p + 4 * i);
  const std::span<glm::quat> span(rotations, n);
  const Status status = ToLocalRotations(span, span, ReadQuat(p + 4 * n));
  if (status) {
    for (std::uint32_t i = 0; i < n; ++i) WriteQuat(p + 4 * i, rotations[i]);
  }
  return ToResult(status);
}

}  // namespace
}  // namespace ikpd::bindings

EMSCRIPTEN_BINDINGS(ikpd_ik) {
  emscripten::function("solveAim", &ikpd::bindings::Solve<ikpd::AimJob, ikpd::bindings::AimResult>);
  emscripten::function("solveTwoBone", &ikpd::bindings::Solve<ikpd::TwoBoneJob, ikpd::TwoBoneResult>);
  emscripten::function("toLocalRotations", &ikpd::bindings::ToLocal);
}
