// Embind functions (flat.h): §1/§2 aim and §3 two-bone IK, flat scratch convention.
// Layouts (float offsets from the pointer; outputs start at kOut):
//   aim:      0 position, 3 rotation, 7 target, 10 forward, 13 up, 16 pole, 19 hingeAxis,
//             22 method, 23 flags (which optional inputs are given: 1 pole, 2 hingeAxis,
//             4 forward, 8 up, 16 rotation; the others keep AimJob's defaults), 24 weight
//             → kOut rotation
//   two-bone: the TwoBoneJob layout of two_bone_layout.h (floats 0–49)
//             → kOut root, +7 mid, +14 end, +21 reached (0/1), +22 distance
#include "flat.h"
#include "ikpd/ik/aim.h"
#include "ikpd/ik/two_bone.h"
#include "two_bone_layout.h"

namespace ikpd::bindings {
namespace {

constexpr std::size_t kOut = 64;

int Int(float v) { return static_cast<int>(v); }

std::uintptr_t SolveAim(std::uintptr_t pointer) {
  float* p = Floats(pointer);
  const int flags = Int(p[23]);
  glm::quat out;
  AimJob job;
  job.position = ReadVec3(p);
  if (flags & 16) job.rotation = ReadQuat(p + 3);
  job.target = ReadVec3(p + 7);
  if (flags & 4) job.forward = ReadVec3(p + 10);
  if (flags & 8) job.up = ReadVec3(p + 13);
  if (flags & 1) job.pole = ReadVec3(p + 16);
  if (flags & 2) job.hingeAxis = ReadVec3(p + 19);
  job.method = static_cast<AimMethod>(Int(p[22]));
  job.weight = p[24];
  job.result = &out;
  const Status status = job.Run();
  if (status) WriteQuat(p + kOut, out);
  return ToResult(status);
}

std::uintptr_t SolveTwoBone(std::uintptr_t pointer) {
  float* p = Floats(pointer);
  TwoBoneResult out;
  TwoBoneJob job = ReadTwoBoneJob(p);
  job.result = &out;
  const Status status = job.Run();
  if (status) {
    float* o = p + kOut;
    WriteTransform(o, out.root);
    WriteTransform(o + 7, out.mid);
    WriteTransform(o + 14, out.end);
    o[21] = out.reached ? 1.0f : 0.0f;
    o[22] = out.distance;
  }
  return ToResult(status);
}

}  // namespace
}  // namespace ikpd::bindings

EMSCRIPTEN_BINDINGS(ikpd_ik) {
  emscripten::function("solveAim", &ikpd::bindings::SolveAim);
  emscripten::function("solveTwoBone", &ikpd::bindings::SolveTwoBone);
}
