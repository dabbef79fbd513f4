// Embind functions (conventions.h): the IK single calls. Aim, two-bone and
// pseudo three-bone read their job packed at the pointer (packed.h, by the
// descriptions of cpp/src/ik/fields.h) and write the result at float offset
// kOut in the layout of its result description; the chain reads the layout of
// chain_job.h.
// toLocalRotations: n world rotations [x, y, z, w] at the pointer, then the
// parent rotation; the local rotations are written over the world ones.
#include <cstdint>
#include <span>

#include "../conventions.h"
#include "ikpd/ik/aim.h"
#include "ikpd/ik/chain.h"
#include "ikpd/ik/local_rotations.h"
#include "ikpd/ik/pseudo_three_bone.h"
#include "ikpd/ik/two_bone.h"
#include "chain_job.h"
#include "../packed.h"
#include "solvers.h"

namespace ikpd::bindings {
namespace {

static_assert(JobFloats<AimJob>() <= kOut && JobFloats<TwoBoneJob>() <= kOut);

// One solve of a packed job (packed.h) at the pointer; its result is
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

// solveChain: the chain layout of chain_job.h, m limits right after the joints.
std::uintptr_t SolveChain(std::uintptr_t offset, std::uint32_t n, std::uint32_t m) {
  // Zero-filled storage, not std::array<Transform, N>: those statics' non-zero
  // default members would be stored in the module's data segment (~1.2 KB
  // gzipped). Every slot is written before it is read (implicit-lifetime types).
  alignas(Transform) static unsigned char jointBytes[sizeof(Transform) * kMaxChainJoints];
  alignas(Transform) static unsigned char outputBytes[sizeof(Transform) * kMaxChainJoints];
  alignas(JointLimit) static unsigned char limitBytes[sizeof(JointLimit) * kMaxChainJoints];
  Transform* joints = reinterpret_cast<Transform*>(jointBytes);
  Transform* output = reinterpret_cast<Transform*>(outputBytes);
  JointLimit* limits = reinterpret_cast<JointLimit*>(limitBytes);
  if (n > kMaxChainJoints) return ToResult(Error("joints: at most 128 joints"));
  if (m > kMaxChainJoints) return ToResult(Error("limits: at most 128 entries"));
  float* f = Floats(offset);
  ChainJob job;
  ReadJob(f, job);
  float* p = f + kChainJobFloats;
  ReadTransforms(p, joints, n);
  p += 7 * n;
  for (std::uint32_t i = 0; i < m; ++i, p += kLimitFloats) ReadLimit(p, limits[i]);
  job.frame.joints = std::span<const Transform>(joints, n);
  job.settings.limits = std::span<const JointLimit>(limits, m);
  job.output = std::span<Transform>(output, n);
  ChainResult result;
  job.result = &result;
  const Status s = job.Run();
  if (s) WriteChainResult(p, output, n, result);
  return ToResult(s);
}

// solvePseudoThreeBone: the packed PseudoThreeBoneJob (packed.h) → result at
// kOut (solvers.h).
static_assert(JobFloats<PseudoThreeBoneJob>() <= kOut);
std::uintptr_t SolvePseudoThreeBone(std::uintptr_t offset) {
  float* p = Floats(offset);
  PseudoThreeBoneJob job;
  ReadJob(p, job);
  PseudoThreeBoneResult out;
  job.result = &out;
  const Status s = job.Run();
  if (s) WriteJob(p + kOut, out);
  return ToResult(s);
}

}  // namespace
}  // namespace ikpd::bindings

IKPD_BINDINGS(ik, ik) {
  emscripten::function("solveAim", &ikpd::bindings::Solve<ikpd::AimJob, ikpd::bindings::AimResult>);
  emscripten::function("solveTwoBone", &ikpd::bindings::Solve<ikpd::TwoBoneJob, ikpd::TwoBoneResult>);
  emscripten::function("toLocalRotations", &ikpd::bindings::ToLocal);
  emscripten::function("solveChain", &ikpd::bindings::SolveChain);
  emscripten::function("solvePseudoThreeBone", &ikpd::bindings::SolvePseudoThreeBone);
}
