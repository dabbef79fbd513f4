// Flat float layout of TwoBoneJob's inputs, shared by the two-bone binding
// (ik.cc) and the pseudo three-bone binding (chain.cc) so both read the same
// packing (web/src/ik.js packTwoBone): float offsets from the pointer
//   0 root, 7 mid, 14 end (position + rotation), 21 target, 24 pole, 27 poleDirection,
//   30 forward, 33 bendAxis, 36 effectorOffset, 39 flags (which optional vectors are given:
//   1 pole, 2 poleDirection, 4 forward, 8 bendAxis, 16 effectorOffset; the others keep
//   TwoBoneJob's defaults and JS writes nothing for them),
//   40 bendDirection, 41 straightBend, 42 minAngle, 43 maxAngle, 44 weight, 45 soften,
//   46 maxStretch, 47 twist, 48 endRotation, 49 tolerance
#pragma once

#include "flat.h"
#include "ikpd/ik/two_bone.h"

namespace ikpd::bindings {

constexpr std::size_t kTwoBoneFloats = 50;

inline TwoBoneJob ReadTwoBoneJob(const float* p) {
  const auto flags = static_cast<int>(p[39]);
  TwoBoneJob job;
  job.root = ReadTransform(p);
  job.mid = ReadTransform(p + 7);
  job.end = ReadTransform(p + 14);
  job.target = ReadVec3(p + 21);
  if (flags & 1) job.pole = ReadVec3(p + 24);
  if (flags & 2) job.poleDirection = ReadVec3(p + 27);
  if (flags & 4) job.forward = ReadVec3(p + 30);
  if (flags & 8) job.bendAxis = ReadVec3(p + 33);
  if (flags & 16) job.effectorOffset = ReadVec3(p + 36);
  job.bendDirection = static_cast<BendDirection>(static_cast<int>(p[40]));
  job.straightBend = static_cast<BendDirection>(static_cast<int>(p[41]));
  job.minAngle = p[42];
  job.maxAngle = p[43];
  job.weight = p[44];
  job.soften = p[45];
  job.maxStretch = p[46];
  job.twist = p[47];
  job.endRotation = static_cast<EndRotation>(static_cast<int>(p[48]));
  job.tolerance = p[49];
  return job;
}

}  // namespace ikpd::bindings
