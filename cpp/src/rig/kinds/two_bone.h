// The two-bone kind (docs/rig/rig.md): root, mid and end solved to the target.
#pragma once

#include "ikpd/ik/two_bone.h"
#include "kind.h"
#include "limb.h"

namespace ikpd::rig::detail {

struct TwoBoneState {
  LimbSmoothing smooth;
  TwoBoneSetup setup[2];  // prepared settings: [0] without a pole point (poleDirection or none), [1] with one
  // The kernel's frame (weight 1) and result, kept so that a solve zeroes
  // neither (every field the solve reads is written each frame).
  TwoBoneFrame frame;
  TwoBoneResult out;
};

// A limb's settings in the canonical frames (forward +X, hinge +Z), with a
// pole point (withPole) or else its poleDirection, if any (pseudo three-bone too).
TwoBoneSettings CanonicalLimb(const TwoBoneSettings& limb, bool withPole);
// The rig writes rotations only: "maxStretch: the rig does not stretch bones (must be 1)".
Status CheckNoStretch(const TwoBoneSettings& limb);
// A joint of the valid model-space limbs the options are checked on.
inline Transform SampleJoint(float x, float y) { return {glm::vec3(x, y, 0.0f), kIdentityRotation}; }
// Writes root, mid and end (a pseudo three-bone's tip follows its end).
void WritesLimb(const ConstraintSettings& s, std::vector<std::uint16_t>& out);
// Whether the limb options give a pole direction (JS poleDirection; the rig's
// pole point is a per-frame input, never an option).
inline bool HasPoleDirection(const TwoBoneSettings& limb) { return limb.pole == TwoBonePole::kDirection; }
// The pole of a frame in model space: the point, else the constraint's
// poleDirection (a vector, held in the options' limb frame).
inline glm::vec3 ModelPole(const Stage& stage, const ConstraintFrame& f, const TwoBoneSettings& limb,
                           const TwoBoneFrame& options) {
  if (f.poleSet != 0.0f) return stage.ToModel(f.pole);
  return HasPoleDirection(limb) ? stage.ToModelVector(options.pole) : glm::vec3(0.0f);
}
// Whether the limb's end keeps its model rotation (endRotation world: the
// kernel returns its input rotation).
inline bool KeepsEnd(const TwoBoneSettings& limb) { return limb.endRotation != EndRotation::kRelative; }
// The limb options' checks on a sample limb (`frame` and `settings` hold the
// options): the sample joints and target, no pole point (a per-frame input),
// weight 1.
void SampleLimb(TwoBoneFrame& frame, TwoBoneSettings& settings);

extern const KindOps kTwoBoneKind;
extern const LaneOps kTwoBoneLanes;

}  // namespace ikpd::rig::detail
