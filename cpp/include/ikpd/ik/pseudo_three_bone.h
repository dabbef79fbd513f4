// ikpd — pseudo three-bone IK (docs/ik/pseudo-three-bone.md): the two-bone solver
// (TwoBoneJob) run twice, so a third bone (foot, hand) follows the limb with a
// tunable blend.
#pragma once

#include <cstdint>

#include "ikpd/common.h"
#include "ikpd/ik/two_bone.h"

namespace ikpd {

// How step 5 rebuilds joint 3 after the first two-bone pass.
enum class PseudoThreeBoneVariant : std::uint8_t {
  kRelative = 0,   // q3' = q2_new · (q2⁻¹ · q3): keeps its rotation relative to joint 2
  kFollowMid = 1,  // q3' = q2_new: joint 3 takes joint 2's posture
};

struct PseudoThreeBoneResult {
  Transform root;
  Transform mid;
  Transform end;
  Transform tip;          // moves rigidly with `end`
  bool reached = false;   // distance <= settings.limb.tolerance × (upper + lower length)
  float distance = 0.0f;  // |tip − target| after the last pass
};

// ---- Settings and frame (docs/ik/pseudo-three-bone.md) ----------------------
// The options that stay fixed: the limb's two-bone settings (its endRotation
// is ignored: both passes keep the effector's world rotation), the variant
// and endLimit.
struct PseudoThreeBoneSettings {
  TwoBoneSettings limb;
  PseudoThreeBoneVariant variant = PseudoThreeBoneVariant::kRelative;
  float endLimit = kPi;  // [0, π]; π = no limit

  // The errors of PseudoThreeBoneJob::Validate for these fields. Pure.
  Status Validate() const;
};

// Per frame: the limb's joints, target, pole and weight (its effectorOffset
// is ignored: the tip defines the offset), the tip and the blend.
struct PseudoThreeBoneFrame {
  TwoBoneFrame limb;
  Transform tip;          // world-space tip of joint 3 (toe, fingertip)
  float blend = 0.0f;     // [0, 1]
};

// The seven steps of docs/ik/pseudo-three-bone.md, reusing the two-bone solver
// for steps 2–4:
//  1. q_diff = q2⁻¹·q3;  2. offset = tip − end;  3–4. two-bone toward
//  target − offset (the end keeps its world rotation, so the tip lands on the
//  target);  5. q3' = q2_new·q_diff (kRelative) or q2_new (kFollowMid);
//  6. q3 = slerp(q3', q3_input, blend): 0 → rebuilt, 1 → the input world
//  rotation;  7. when blend < 1, steps 2–4 again with the new joint 3.
// `endLimit` < π limits joint 3 after step 6 to that angle from its input
// rotation relative to joint 2 (q2_new·q_diff), and forces step 7 (the extra
// pass may break the limit slightly). Step 7 moves joint 2 again, so with
// blend = 0 the final q2⁻¹·q3 differs from q_diff by that corrective turn.
// Both passes solve at full weight; `frame.limb.weight` then applies once to
// the final pose, as TwoBoneJob weighs its own: each joint rotation is slerped
// from its input by `weight`, the bones are rebuilt along the weighted
// rotations' forward axes with lengths blended from input to solved, and the
// tip moves rigidly with joint 3. So weight w turns every joint w of its
// full-weight angle whether one pass ran or two (continuous in blend), weight 1
// is the full solve and weight 0 returns the input positions and rotations.
// `distance` is |tip − target| of that weighted pose. With maxStretch > 1 the
// total stretch stays within settings.limb.maxStretch.
struct PseudoThreeBoneJob {
  PseudoThreeBoneFrame frame;
  PseudoThreeBoneSettings settings;
  PseudoThreeBoneResult* result = nullptr;  // output

  // Checks every input; errors name the parameter as the JS API spells it.
  // Pure: depends on this job only.
  Status Validate() const;
  // Validates, then writes *result. On error *result is left untouched.
  // Same as Prepare(settings) → SolvePseudoThreeBone(frame).
  Status Run() const;
};

// Validated settings with the limb's two-bone setup prepared. Plain data.
class PseudoThreeBoneSetup {
 public:
  bool prepared() const { return limb_.prepared(); }
  const PseudoThreeBoneSettings& settings() const { return settings_; }
  const TwoBoneSetup& limb() const { return limb_; }

 private:
  friend Status Prepare(const PseudoThreeBoneSettings&, PseudoThreeBoneSetup*);
  TwoBoneSetup limb_;
  PseudoThreeBoneSettings settings_;
};

// Validates the settings and prepares the limb once. On error *setup is left
// untouched.
Status Prepare(const PseudoThreeBoneSettings& settings, PseudoThreeBoneSetup* setup);
// Checks the frame only (in PseudoThreeBoneJob's words and order), then the
// seven steps; bit for bit PseudoThreeBoneJob::Run. On error *result is left
// untouched. Never allocates; no hidden state.
Status SolvePseudoThreeBone(const PseudoThreeBoneSetup& setup, const PseudoThreeBoneFrame& frame,
                            PseudoThreeBoneResult* result);

}  // namespace ikpd
