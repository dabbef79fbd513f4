// Embind functions (flat.h): aim and two-bone IK, single calls. Each reads its
// job packed at the pointer in the layout of job_fields.h (JobFields<AimJob>,
// JobFields<TwoBoneJob>) and writes the result at float offset kOut:
//   aim:      rotation
//   two-bone: root, +7 mid, +14 end, +21 reached (0/1), +22 distance
#include "flat.h"
#include "ikpd/ik/aim.h"
#include "ikpd/ik/two_bone.h"
#include "job_fields.h"
#include "solvers.h"

namespace ikpd::bindings {
namespace {

static_assert(JobFloats<AimJob>() <= kOut && JobFloats<TwoBoneJob>() <= kOut);

std::uintptr_t SolveAim(std::uintptr_t pointer) {
  float* p = Floats(pointer);
  glm::quat out;
  AimJob job;
  ReadJob(p, job);
  job.result = &out;
  const Status status = job.Run();
  if (status) WriteResult(p + kOut, out);
  return ToResult(status);
}

std::uintptr_t SolveTwoBone(std::uintptr_t pointer) {
  float* p = Floats(pointer);
  TwoBoneResult out;
  TwoBoneJob job;
  ReadJob(p, job);
  job.result = &out;
  const Status status = job.Run();
  if (status) WriteResult(p + kOut, out);
  return ToResult(status);
}

}  // namespace
}  // namespace ikpd::bindings

EMSCRIPTEN_BINDINGS(ikpd_ik) {
  emscripten::function("solveAim", &ikpd::bindings::SolveAim);
  emscripten::function("solveTwoBone", &ikpd::bindings::SolveTwoBone);
}
