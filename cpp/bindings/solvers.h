// Results of the single-item solvers in packed floats, shared by the single
// calls (ik.cc) and the prepared solvers (solvers.cc): a solver's result is
// written at float offset kOut of its buffer (after the packed job).
#pragma once

#include <cstddef>

#include "flat.h"
#include "ikpd/chain/pseudo_three_bone.h"
#include "ikpd/ik/two_bone.h"

namespace ikpd::bindings {

constexpr std::size_t kOut = 64;

// Aim: rotation [x, y, z, w].
inline void WriteResult(float* o, const glm::quat& rotation) { WriteQuat(o, rotation); }

// Two-bone: root, +7 mid, +14 end, +21 reached (0/1), +22 distance.
inline void WriteResult(float* o, const TwoBoneResult& r) {
  WriteTransform(o, r.root);
  WriteTransform(o + 7, r.mid);
  WriteTransform(o + 14, r.end);
  o[21] = r.reached ? 1.0f : 0.0f;
  o[22] = r.distance;
}

// Pseudo three-bone: root, +7 mid, +14 end, +21 tip, +28 reached (0/1), +29 distance.
inline void WriteResult(float* o, const PseudoThreeBoneResult& r) {
  WriteTransform(o, r.root);
  WriteTransform(o + 7, r.mid);
  WriteTransform(o + 14, r.end);
  WriteTransform(o + 21, r.tip);
  o[28] = r.reached ? 1.0f : 0.0f;
  o[29] = r.distance;
}

}  // namespace ikpd::bindings
