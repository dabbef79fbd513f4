// Embind: §1/§2 aim and §3 two-bone IK, flat scratch convention (see flat.h).
// Layouts (float offsets from the pointer; outputs start at kOut):
//   aim:      0 position, 3 rotation, 7 target, 10 forward, 13 up, 16 pole, 19 hingeAxis,
//             22 method, 23 flags (1 pole, 2 hingeAxis), 24 weight → kOut rotation
//   two-bone: 0 root, 7 mid, 14 end (position + rotation), 21 target, 24 pole, 27 poleDirection,
//             30 forward, 33 bendAxis, 36 effectorOffset, 39 flags (1 pole, 2 poleDirection),
//             40 bendDirection, 41 straightBend, 42 minAngle, 43 maxAngle, 44 weight, 45 soften,
//             46 maxStretch, 47 twist, 48 endRotation, 49 tolerance
//             → kOut root, +7 mid, +14 end, +21 reached (0/1), +22 distance
#include <emscripten/bind.h>

#include "flat.h"
#include "ikpd/ik/aim.h"
#include "ikpd/ik/two_bone.h"

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
  job.rotation = ReadQuat(p + 3);
  job.target = ReadVec3(p + 7);
  job.forward = ReadVec3(p + 10);
  job.up = ReadVec3(p + 13);
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
  const int flags = Int(p[39]);
  TwoBoneResult out;
  TwoBoneJob job;
  job.root = ReadTransform(p);
  job.mid = ReadTransform(p + 7);
  job.end = ReadTransform(p + 14);
  job.target = ReadVec3(p + 21);
  if (flags & 1) job.pole = ReadVec3(p + 24);
  if (flags & 2) job.poleDirection = ReadVec3(p + 27);
  job.forward = ReadVec3(p + 30);
  job.bendAxis = ReadVec3(p + 33);
  job.effectorOffset = ReadVec3(p + 36);
  job.bendDirection = static_cast<BendDirection>(Int(p[40]));
  job.straightBend = static_cast<BendDirection>(Int(p[41]));
  job.minAngle = p[42];
  job.maxAngle = p[43];
  job.weight = p[44];
  job.soften = p[45];
  job.maxStretch = p[46];
  job.twist = p[47];
  job.endRotation = static_cast<EndRotation>(Int(p[48]));
  job.tolerance = p[49];
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
