// ikpd — two-bone (limb) IK by the law of cosines (docs/two-bone.md).
#pragma once

#include <optional>

#include "ikpd/common.h"

namespace ikpd {

// Which way the middle joint bends about its bend axis (docs/two-bone.md, bend direction).
enum class BendDirection : int {
  kAuto = 0,      // keep the side the limb is bent to now (straight limb → TwoBoneJob::straightBend)
  kPositive = 1,  // mid turns positively about bendAxis: root (cosB, −sinB), mid (−cosC, sinC)
  kNegative = 2,  // root (cosB, sinB), mid (−cosC, −sinC)
};

// What happens to the end joint's rotation.
enum class EndRotation : int {
  kWorld = 0,     // keeps its world rotation (fixed effector orientation, docs/two-bone.md)
  kRelative = 1,  // keeps its rotation relative to the mid joint (follows the mid like FK)
};

// Solved limb (world space). Root and mid forward axes point at their child.
struct TwoBoneResult {
  Transform root;
  Transform mid;
  Transform end;
  // Both describe the contact point as it lands in the returned (weighted)
  // pose: end.position + effectorOffset, the offset turned with the end
  // (end.rotation · input end.rotation⁻¹) under EndRotation::kRelative.
  bool reached = false;  // distance <= tolerance × (input upper + lower length)
  float distance = 0.0f;  // |contact point − target|
};

// Two-bone IK (docs/two-bone.md): moves mid and end so the end (plus effectorOffset)
// reaches `target`; the root position is fixed. Bone lengths come from the
// input positions (a = |mid − root|, b = |end − mid|) and are preserved unless
// stretched. `forward` and `bendAxis` are joint-local axes shared by root and
// mid: forward points at the child joint, bendAxis is the mid joint's hinge
// (the frame derived from them is memoized per thread for the last pair seen,
// so repeated calls on one rig skip deriving it; results never depend on it).
//
// Limb plane: with `pole` (a world point the mid joint bends toward) or
// `poleDirection` (a world direction it bends toward) the plane contains the
// root, the target and the pole; otherwise the plane of the current pose is
// kept (the mid's current world bend axis, made perpendicular to root→target).
// `twist` then rotates the plane about the root→target axis.
// Reach: c = |target − effectorOffset − root| is clamped to
// [c_min, c_max] = law-of-cosines lengths for the interior mid angle
// [minAngle, maxAngle]; `soften` (fraction of c_max) eases c toward c_max with
// an exponential (soft IK); with `maxStretch` > 1 both bones scale (up to that
// factor) so an out-of-reach end still reaches the target.
// Rotations: root = (swing so forward points at mid, keeping its roll relative
// to the limb plane) × input; mid is rebuilt from forward/bendAxis; the end per
// `endRotation`. Positions are then rebuilt from the rotations and lengths, so
// the output is always a consistent chain. `weight` slerps the root and mid
// rotations from the input (0 returns the input unchanged). Output rotations
// are unit and lie in the hemisphere of the (normalized) input rotations.
//
// Effector offset: the solve places end + effectorOffset (as given, in world
// space) at the target. Under kRelative the end then turns with the mid, so
// the offset turns too and the contact point generally misses the target;
// `distance` and `reached` report where it actually lands (use kWorld, or
// PseudoThreeBoneJob, to place a contact point that turns with the limb).
// Below weight 1 they describe the weighted pose, so a partly blended limb
// is reported as not reached unless its contact point is within tolerance.
//
// Degenerate cases give defined, finite results: target at the root → the
// limb folds toward its current direction (root→end, else the root's forward);
// zero-length bone(s) (shorter than 1e-6 of the limb) → no bend, the limb
// points straight at the target (never an error);
// pole (or poleDirection) on the root→target line → treated as no pole; a
// straight limb with kAuto → straightBend.
struct TwoBoneJob {
  Transform root;  // world space; rotations are normalized by the job
  Transform mid;
  Transform end;
  glm::vec3 target{0.0f};

  std::optional<glm::vec3> pole;           // world point the mid bends toward
  std::optional<glm::vec3> poleDirection;  // world direction the mid bends toward (not with pole)
  glm::vec3 forward{1.0f, 0.0f, 0.0f};     // joint-local bone axis (three.js rigs: +Y)
  glm::vec3 bendAxis{0.0f, 0.0f, 1.0f};    // joint-local hinge axis of the mid joint (not parallel to forward)
  BendDirection bendDirection = BendDirection::kAuto;
  BendDirection straightBend = BendDirection::kPositive;  // tie-break for kAuto on a straight limb (not kAuto)
  float minAngle = 0.0f;                   // interior mid angle limits, radians, 0 <= minAngle <= maxAngle <= π
  float maxAngle = kPi;
  glm::vec3 effectorOffset{0.0f};          // world offset from end joint to contact point (docs/two-bone.md)
  float weight = 1.0f;                     // [0, 1]
  float soften = 0.0f;                     // [0, 1]: soft-IK zone as a fraction of the reach
  float maxStretch = 1.0f;                 // >= 1; 1 disables stretching
  float twist = 0.0f;                      // radians about the root→target axis (right-handed)
  EndRotation endRotation = EndRotation::kWorld;
  float tolerance = 1e-4f;                 // `reached` tolerance relative to the limb length, >= 0

  TwoBoneResult* result = nullptr;  // output

  // Checks every input; errors name the parameter as the JS API spells it.
  Status Validate() const;
  // Validates, then writes *result. On error *result is left untouched.
  Status Run() const;
};

}  // namespace ikpd
