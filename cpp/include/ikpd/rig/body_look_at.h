// ikpd — full-body look-at (docs/rig/body-look-at.md): the upper-body look-at of
// LookAt (docs/rig/look-at.md) with three effects layered on it, one after the other:
//   1. spine: pelvis → … → head turn toward the target, the head leading
//      (per-joint settle times grow from the head down to the pelvis);
//   2. weight shift: the pelvis translates against the head's lean and turn;
//   3. arm reaction: each upper arm lags the chest's rotation and springs back;
//   4. foot lock: two-bone IK puts each ankle back where the animation has it.
// Every effect is smoothed by a PD controller with the exact integrator, so the
// result does not depend on the update rate, and turning the rig off blends
// every effect out to exactly the animated pose.
#pragma once

#include <array>
#include <cstddef>
#include <limits>
#include <span>

#include "ikpd/buffer.h"
#include "ikpd/rig/look_at.h"
#include "ikpd/common.h"
#include "ikpd/pd/controllers.h"

namespace ikpd {

// The spine: joints pelvis → … → head (root first). Empty spans take defaults
// made for the joint count (see DefaultBodyLookAtWeights and friends).
struct BodyLookAtSpineSettings {
  // Fraction of the remaining turn each joint takes, in [0, 1] (as LookAtSettings::weights).
  std::span<const float> weights;
  // Per-joint limit on the offset angle, radians in [0, π].
  std::span<const float> limits;
  // Per-joint PD settle time, seconds > 0. Empty: linear from headSettleTime
  // (head) to pelvisSettleTime (pelvis), so the head leads.
  std::span<const float> settleTimes;
  float headSettleTime = 0.2f;    // seconds > 0
  float pelvisSettleTime = 0.6f;  // seconds > 0
  float damping = 1.0f;           // damping ratio > 0 (1: critical)
  // As LookAtSettings: each joint's turn speed cap (rad/s), target motion, integral gain.
  float maxSpeed = 8.0f;
  pd::TargetMotion targetMotion = pd::TargetMotion::kHold;
  float ki = 0.0f;
};

// Pelvis translation against the head. `amount` is in metres per radian: a head
// that leans by θ (its up axis tilting) moves the pelvis by amount·θ the other
// way, horizontally; a head that turns by ψ (its look direction swinging
// sideways) moves it by amount·ψ away from the new look direction. For large
// angles the chord 2·sin(angle/2) stands in for the angle.
struct BodyLookAtWeightShiftSettings {
  float amount = 0.05f;      // metres per radian, finite and >= 0 (0: off)
  float limit = 0.06f;       // metres, finite and >= 0: the largest shift (keeps the feet in reach)
  float settleTime = 0.6f;   // seconds > 0
  float damping = 1.0f;      // damping ratio > 0
};

// Upper arms lag the chest: each arm's PD tracks the chest's look-at rotation,
// and the arm turns by that lagging rotation (rather than rigidly with the chest).
struct BodyLookAtArmReactionSettings {
  float amount = 0.7f;       // [0, 1]: 0 arms glued to the chest, 1 the full lag
  float settleTime = 0.4f;   // seconds > 0
  float damping = 0.5f;      // damping ratio > 0 (< 1: the arm swings past and springs back)
  int chest = -1;            // spine index the arms hang from; -1: spineJoints − 3 (at least 0)
};

struct BodyLookAtSettings {
  std::size_t spineJoints = 6;           // pelvis, spine ×3, neck, head; >= 2
  glm::vec3 forward{0.0f, 0.0f, 1.0f};   // the head's look axis, head-local (three.js: +Z)
  glm::vec3 up{0.0f, 1.0f, 0.0f};        // world up: weight shift stays in the plane normal to it
  // Head-local point that must lie on the look line (the eyes); see LookAtSettings::offset.
  glm::vec3 offset{0.0f, 0.0f, 0.0f};
  BodyLookAtSpineSettings spine;
  BodyLookAtWeightShiftSettings weightShift;
  BodyLookAtArmReactionSettings armReaction;
  bool footLock = true;  // keep each ankle at its animated world position and rotation
  float blendOutTime = 0.1f;  // seconds >= 0: the final linear part of turning off (every effect)
  // Yaw/pitch limits in the character's frame, targets behind, and the gaze:
  // as LookAtSettings (docs/rig/look-at.md).
  float maxYaw = 2.0f;
  float maxPitchUp = 1.2f;
  float maxPitchDown = 1.2f;
  LookBehind behind = LookBehind::kKeep;
  float eyeYaw = 0.6f;
  float eyePitchUp = 0.4f;
  float eyePitchDown = 0.5f;
  float eyeSettleTime = 0.05f;

  // Errors name the JS option: "spine.weights: needs one weight per spine joint", ….
  Status Validate() const;
};

// Defaults for n >= 2 spine joints (root first), written to out[0..n):
// weights: each joint's share of the turn grows as (i + 1)², the head finishing it;
// limits: pelvis 0.35, torso 0.45, neck 0.9, head 1.2 radians;
// settle times: linear from the pelvis's to the head's.
void DefaultBodyLookAtWeights(std::span<float> out);
void DefaultBodyLookAtLimits(std::span<float> out);
void DefaultBodyLookAtSettleTimes(float head, float pelvis, std::span<float> out);

// One update's input: the animated pose in world space. `arms` and `legs` hold
// 0, 3 or 6 joints: [upper, lower, hand] per arm and [hip, knee, ankle] per leg.
struct BodyLookAtInput {
  std::span<const Transform> spine;  // spineJoints joints, pelvis first, head last
  std::span<const Transform> arms;
  std::span<const Transform> legs;
  glm::vec3 target{0.0f};            // world point to look at
  bool enabled = true;               // false: blend every effect out
  std::span<const Transform> eyes{};  // 0, 1 or 2 eye joints (left, right), turned by the gaze
};

// The solved pose, same sizes as the input; must not alias it.
struct BodyLookAtOutput {
  std::span<Transform> spine;
  std::span<Transform> arms;
  std::span<Transform> legs;
  std::span<Transform> eyes{};  // one per input eye
};

// Each Update, in order:
//  (1) spine: LookAt on the spine joints (offsets smoothed per joint), aiming
//      at the target minus the current pelvis shift, so that the shifted head
//      looks at the target once the shift has settled;
//  (2) weight shift: from the head's smoothed world rotation change Q (final ·
//      animated⁻¹): lean = H(Q·up − up), turn = H(Q·f − f) with f the animated
//      horizontal look direction and H dropping the up component; the pelvis
//      offset tracks −amount·(lean + turn), at most `limit` long, through a vector PD (one scalar
//      controller per world axis, same gains: the isotropic linear spring) and
//      translates the whole spine;
//  (3) arms: the chest's world rotation change D is tracked by one QuatPD per
//      arm (value L); the upper arm rotates by slerp(D, L, amount) about its
//      own joint, which the chest carries; forearm and hand follow rigidly;
//  (4) legs: carried by the pelvis (rotation and shift); with footLock,
//      TwoBoneJob puts the ankle back at its animated position, the knee bent
//      toward the carried animated knee, the ankle keeping its animated world
//      rotation (a straight animated leg bends its knee toward the head's
//      facing). The leg's own bone axes do not matter (the limb is solved in a
//      frame built from its joint positions).
// Turning off: the spine offsets blend out (LookAt); the shift and arm PDs keep
// tracking the spine while it blends, then blend out themselves; once every
// effect is exactly zero the output is the input, bit for bit.
//
// Guarantees: finite output for finite input; bone lengths kept; with footLock
// each ankle within 1e-4 × leg length of its animated position while reachable
// (a pelvis shift beyond the leg's reach leaves the foot at the closest point);
// frame-rate independent for a still target and pose (exact integrator); no
// allocation in Update. Degenerate input: target at the head or eye → no new
// turn; a straight leg (bent by less than 1e-3 rad) → its knee bends toward
// the animated head's horizontal facing; zero-length bones → kept, never an error; arms or legs
// missing in one update → their controllers are not advanced.
// On error nothing changes (state, output) and the Status names the input:
// "dt", "target", "spine", "arms", "legs", "output.spine", "output.arms", "output.legs".
class BodyLookAt {
 public:
  static constexpr std::size_t kMaxLimbs = 2;

  // Validates and allocates; every effect starts at zero.
  Status Reset(const BodyLookAtSettings& settings);
  // As Reset, but with the same spineJoints every effect keeps its smoothing
  // state (no pop when weights, amounts or gains change); another count resets.
  // On error nothing changes.
  Status Configure(const BodyLookAtSettings& settings);
  // One frame: checks the input (see above), then runs the four effects in order
  // and writes `output`. Never allocates.
  Status Update(float dt, const BodyLookAtInput& input, const BodyLookAtOutput& output);
  // Zeroes every effect at once (no blend).
  void Clear();

  std::size_t spineJoints() const { return look_.size(); }
  // Smoothed spine offsets (joint-local, root first), as LookAt::offsets.
  std::span<const glm::quat> spineOffsets() const { return look_.offsets(); }
  // Current pelvis translation from the weight shift (world, metres), before
  // the drop that keeps the feet in reach.
  glm::vec3 pelvisShift() const;
  // How far the body was lowered in the last update so that every leg reaches
  // its animated ankle (metres along −up; docs/rig/body-look-at.md, "Foot lock").
  float pelvisDrop() const { return drop_; }
  // The smoothed gaze (radians, relative to the head), as LookAt::gazeYaw/gazePitch.
  float gazeYaw() const { return look_.gazeYaw(); }
  float gazePitch() const { return look_.gazePitch(); }
  // Current lagging chest rotation per arm (world delta, before `amount`).
  glm::quat armLag(std::size_t arm) const { return arms_[arm].valuef(); }
  // False once every effect is exactly zero (then Update copies the input).
  bool active() const;
  // The settings of the last successful Reset, forward and up normalized; the
  // spine spans are empty (the rig keeps its own copies of the values).
  const BodyLookAtSettings& settings() const { return settings_; }

 private:
  Status Apply(const BodyLookAtSettings& settings, bool keepState);
  Status CheckInput(float dt, const BodyLookAtInput& in, const BodyLookAtOutput& out) const;
  Status ShiftPelvis(float dt, const BodyLookAtInput& in, bool tracking, const BodyLookAtOutput& out);
  Status ReactArms(float dt, const BodyLookAtInput& in, bool tracking, const BodyLookAtOutput& out);
  void LockFeet(const BodyLookAtInput& in, const BodyLookAtOutput& out) const;
  float ReachDrop(const BodyLookAtInput& in, const BodyLookAtOutput& out) const;

  BodyLookAtSettings settings_{};  // spans cleared; the values live below
  Buffer<float> weights_, limits_, settleTimes_;
  LookAt look_;
  std::array<pd::ScalarPD, 3> shift_{};
  std::array<pd::QuatPD, kMaxLimbs> arms_{};
  std::size_t chest_ = 0;
  float drop_ = 0.0f;  // the last update's ReachDrop
};

}  // namespace ikpd
