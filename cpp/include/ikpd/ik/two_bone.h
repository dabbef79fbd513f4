// ikpd — two-bone (limb) IK by the law of cosines (docs/ik/two-bone.md).
#pragma once

#include <cstddef>

#include "ikpd/common.h"

namespace ikpd {

// Which way the middle joint bends about its bend axis (docs/ik/two-bone.md, bend direction).
enum class BendDirection : int {
  kAuto = 0,      // keep the side the limb is bent to now (straight limb → TwoBoneSettings::straightBend)
  kPositive = 1,  // mid turns positively about bendAxis: root (cosB, −sinB), mid (−cosC, sinC)
  kNegative = 2,  // root (cosB, sinB), mid (−cosC, −sinC)
};

// What happens to the end joint's rotation.
enum class EndRotation : int {
  kWorld = 0,     // keeps its world rotation (fixed effector orientation, docs/ik/two-bone.md)
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

// Which pole input the frames of a prepared solve carry (TwoBoneFrame::pole).
enum class TwoBonePole : int {
  kNone = 0,       // no pole: the plane of the current pose is kept; TwoBoneFrame::pole is not read
  kPoint = 1,      // TwoBoneFrame::pole is a world point (JS: pole)
  kDirection = 2,  // TwoBoneFrame::pole is a world direction (JS: poleDirection)
};

// Two-bone IK (docs/ik/two-bone.md): moves mid and end so the end (plus effectorOffset)
// reaches `target`; the root position is fixed. Bone lengths come from the
// input positions (a = |mid − root|, b = |end − mid|) and are preserved unless
// stretched. `forward` and `bendAxis` are joint-local axes shared by root and
// mid: forward points at the child joint, bendAxis is the mid joint's hinge.
// A TwoBoneJob is its frame (what changes per frame) and its settings (what
// stays fixed), below. Its Run is the all-in-one call (it validates and
// derives its settings on every Run); to solve many frames with the same
// settings, Prepare a TwoBoneSetup once and call SolveTwoBone per frame
// (below; same results bit for bit).
//
// Limb plane: with a pole (settings.pole kPoint: frame.pole is a world point
// the mid joint bends toward; kDirection: a world direction it bends toward)
// the plane contains the root, the target and the pole; otherwise the plane
// of the current pose is kept (the mid's current world bend axis, made
// perpendicular to root→target). `twist` then rotates the plane about the
// root→target axis.
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
// pole (or pole direction) on the root→target line → treated as no pole; a
// straight limb with kAuto → straightBend.

// The options that stay fixed from frame to frame (docs/ik/two-bone.md,
// prepared settings); `pole` says which pole input the frames carry.
struct TwoBoneSettings {
  TwoBonePole pole = TwoBonePole::kNone;   // JS: `pole` (kPoint) or `poleDirection` (kDirection) given
  glm::vec3 forward{1.0f, 0.0f, 0.0f};     // joint-local bone axis (three.js rigs: +Y)
  glm::vec3 bendAxis{0.0f, 0.0f, 1.0f};    // joint-local hinge axis of the mid joint (not parallel to forward)
  BendDirection bendDirection = BendDirection::kAuto;
  BendDirection straightBend = BendDirection::kPositive;  // tie-break for kAuto on a straight limb (not kAuto)
  float minAngle = 0.0f;                   // interior mid angle limits, radians, 0 <= minAngle <= maxAngle <= π
  float maxAngle = kPi;
  float soften = 0.0f;                     // [0, 1]: soft-IK zone as a fraction of the reach
  float maxStretch = 1.0f;                 // >= 1; 1 disables stretching
  float twist = 0.0f;                      // radians about the root→target axis (right-handed)
  EndRotation endRotation = EndRotation::kWorld;
  float tolerance = 1e-4f;                 // `reached` tolerance relative to the limb length, >= 0

  // Checks every setting (the errors of TwoBoneJob::Validate for these
  // fields, same text, same order; "pole: must be none, point or direction").
  // Pure: the result depends on the settings only.
  Status Validate() const;
};

// What changes per frame (per item in a batch): the joints, the target, the
// pole (a point or a direction per TwoBoneSettings::pole; unread for kNone),
// the effector offset and the weight.
struct TwoBoneFrame {
  Transform root;  // world space; rotations are normalized by the job
  Transform mid;
  Transform end;
  glm::vec3 target{0.0f};
  glm::vec3 pole{0.0f};                    // world point or direction the mid bends toward (settings.pole)
  glm::vec3 effectorOffset{0.0f};          // world offset from end joint to contact point (docs/ik/two-bone.md)
  float weight = 1.0f;                     // [0, 1]
};

struct TwoBoneJob {
  TwoBoneFrame frame;
  TwoBoneSettings settings;
  TwoBoneResult* result = nullptr;  // output

  // Checks every input; errors name the parameter as the JS API spells it.
  // Pure: depends on this job only (no hidden state).
  Status Validate() const;
  // Validates, then writes *result. On error *result is left untouched.
  // Same as Prepare(settings) → SolveTwoBone(frame).
  Status Run() const;
};

// Validated settings and everything derived from them alone (the unit rig
// axes and their frame, the limit sines, the twist's cosine and sine, …),
// computed once by Prepare. Plain data: copyable, no allocation. A
// default-constructed setup is not prepared (SolveTwoBone rejects it).
class TwoBoneSetup {
 public:
  bool prepared() const { return prepared_; }
  const TwoBoneSettings& settings() const { return settings_; }

 private:
  template <class, class>
  friend struct SetupAccess;  // fills and reads derived_ (cpp/src/ik/setup_access.h)
  alignas(16) unsigned char derived_[128] = {};  // detail::TwoBoneShared (cpp/src/ik/two_bone_kernel.h)
  TwoBoneSettings settings_;
  bool prepared_ = false;
};

// Validates `settings` (TwoBoneSettings::Validate) and derives *setup from
// them. On error *setup is left untouched. setup must not be null.
Status Prepare(const TwoBoneSettings& settings, TwoBoneSetup* setup);

// Solves one frame with prepared settings: checks the frame only ("setup: not
// prepared", then root/mid/end, target, pole, effectorOffset, weight,
// result, in TwoBoneJob's words and order), then runs the kernel. Bit for bit
// TwoBoneJob::Run with the same options and inputs. On error *result is left
// untouched. Never allocates; no hidden state (safe from any thread on a
// shared const setup).
Status SolveTwoBone(const TwoBoneSetup& setup, const TwoBoneFrame& frame, TwoBoneResult* result);

}  // namespace ikpd
