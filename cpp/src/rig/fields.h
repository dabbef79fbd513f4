// The rig area's descriptions (cpp/src/describe/fields.h): a constraint's
// common settings, the look-at's and the full-body look-at's scalar options.
// Their per-joint arrays (weights, limits, settle times) are packed after them
// by the JS wrappers and checked by C++. The body look-at's groups name their
// fields "group.option" as JS spells them; JS gives spine.settleTime as one
// number for both ends (or an array per joint), and C++ names both ends
// "spine.settleTime" in its errors.
#pragma once

#include <cstddef>

#include "../describe/checks.h"
#include "../describe/fields.h"
#include "ikpd/rig/body_look_at.h"
#include "ikpd/rig/grounding.h"
#include "ikpd/rig/look_at.h"
#include "ikpd/rig/rig.h"
#include "../pd/fields.h"

namespace ikpd::describe {

// Every constraint's common settings (ikpd/rig/rig.h, CommonSettings), packed
// by JS (web/src/rig/rigSettings.js) between a constraint's joint lists and
// its kind's block. A kind without smoothing keeps settleTime's and damping's
// defaults; the look-at needs settleTime > 0 (its kind's own rule, checked by
// the rig); which axes a kind takes is its kind file's.
template <>
struct JobFields<rig::CommonSettings> {
  static constexpr const char* kName = "common";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::CommonSettings;
    f(Role::kOption, "weight", &S::weight, Closed(0.0, 1.0), Doc{"Blend from the animated pose (0) to the full solve (1)."});
    f(Role::kOption, "enabled", &S::enabled,
      Doc{"`false` blends the constraint out to exactly the animated pose (over `blendOutTime` at the end)."});
    f(Role::kOption, "settleTime", &S::settleTime, AtLeast(0.0),
      Doc{"Seconds for weight, enable and target/pole jumps to settle (a steady target is held exactly);\n"
          "0: no smoothing (they apply at once)."});
    f(Role::kOption, "damping", &S::damping, Above(0.0), kDampingPresets,
      Doc{"Damping ratio of the smoothing, or a preset: `'critical'` (1), `'responsive'`, `'over'`."});
    f(Role::kOption, "blendOutTime", &S::blendOutTime, AtLeast(0.0), Doc{"Seconds of the final linear part of a blend-out."});
    f(Role::kOption, "forward", &S::forward, Doc{"Joint-local bone (or look) axis. Not given: detected from the rest pose."});
    f(Role::kOption, "bendAxis", &S::bendAxis,
      Doc{"Joint-local hinge axis of a limb's middle joint. Not given: detected from the rest pose."});
    f(Role::kOption, "up", &S::up,
      Doc{"Joint-local roll axis of an aim. Not given: detected, the rig's `up` in the joint's rest frame."});
  }
};

template <>
struct JobFields<LookAtSettings> {
  static constexpr const char* kName = "lookAt";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOption, "settleTime", &LookAtSettings::settleTime, Above(0.0),
      Doc{"PD settle time in seconds of every joint's offset."});
    f(Role::kOption, "damping", &LookAtSettings::damping, Above(0.0), kDampingPresets,
      Doc{"Damping ratio of every joint's PD, or a preset: `'critical'` (1), `'responsive'`, `'over'`."});
    f(Role::kOption, "blendOutTime", &LookAtSettings::blendOutTime, AtLeast(0.0),
      Doc{"Seconds of the final linear part of turning off."});
    f(Role::kOption, "forward", &LookAtSettings::forward,
      Doc{"The head's look axis in its local frame (three.js `Object3D.lookAt` convention: +Z)."});
    f(Role::kOption, "offset", &LookAtSettings::offset,
      Doc{"Head-local point that must lie on the look line (the eyes in front of the head joint), as\n"
          "`AimOptions.offset`: the ray from it along `forward` passes through the target once settled."});
    f(Role::kOption, "up", &LookAtSettings::up,
      Doc{"World up: the character's frame measures yaw about it and pitch from the plane normal to it."});
    f(Role::kOption, "maxYaw", &LookAtSettings::maxYaw, Closed(0.0, kPi),
      Doc{"Largest yaw of the look direction either side of the character's facing (the animated head's\n"
          "look axis made horizontal), radians. Past it, `behind` decides."});
    f(Role::kOption, "maxPitchUp", &LookAtSettings::maxPitchUp, Closed(0.0, kPi / 2.0f),
      Doc{"Largest pitch above the horizontal, radians."});
    f(Role::kOption, "maxPitchDown", &LookAtSettings::maxPitchDown, Closed(0.0, kPi / 2.0f),
      Doc{"Largest pitch below the horizontal, radians."});
    f(Role::kOption, "behind", &LookAtSettings::behind, EnumNames{"keep|front|follow", 0},
      Doc{"A target past `maxYaw`: `'keep'` holds the limit on the side the target left from (it\n"
          "crosses behind without the head sweeping through the front), `'front'` looks straight\n"
          "ahead, `'follow'` holds the limit on the target's current side."});
    f(Role::kOption, "maxSpeed", &LookAtSettings::maxSpeed, Range{0.0, kInfinity, true, false},
      Doc{"rad/s (`Infinity`: no cap): the look direction's yaw moves at most this fast where the\n"
          "`behind` policy moves it (a target coming back in front on the other side), and each joint's\n"
          "offset turns at most this fast."});
    f(Role::kOption, "targetMotion", &LookAtSettings::targetMotion, EnumNames{"hold|linear", 0},
      Doc{"`'hold'`: each update's aim is a new target; `'linear'`: it moves linearly from the last one\n"
          "and its velocity is fed forward, so a moving target is followed without lag."});
    f(Role::kOption, "ki", &LookAtSettings::ki, AtLeast(0.0), Doc{"Integral gain (PID) of every joint's controller."});
    f(Role::kOption, "eyeYaw", &LookAtSettings::eyeYaw, Closed(0.0, kPi / 2.0f),
      Doc{"The eyes' largest yaw relative to the head, radians."});
    f(Role::kOption, "eyePitchUp", &LookAtSettings::eyePitchUp, Closed(0.0, kPi / 2.0f),
      Doc{"The eyes' largest pitch up relative to the head, radians."});
    f(Role::kOption, "eyePitchDown", &LookAtSettings::eyePitchDown, Closed(0.0, kPi / 2.0f),
      Doc{"The eyes' largest pitch down relative to the head, radians."});
    f(Role::kOption, "eyeSettleTime", &LookAtSettings::eyeSettleTime, Above(0.0),
      Doc{"Settle time of the gaze in seconds: short, so the eyes lead the head."});
  }
};

// The most spine joints a BodyLookAt handle takes (its per-joint arrays and
// each update's joints travel through the scratch buffer).
constexpr std::size_t kMaxSpineJoints = 64;

template <>
struct JobFields<BodyLookAtSettings> {
  static constexpr const char* kName = "bodyLookAt";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = BodyLookAtSettings;
    const auto spine = [](auto member) { return Nest(&S::spine, member); };
    const auto shift = [](auto member) { return Nest(&S::weightShift, member); };
    const auto arms = [](auto member) { return Nest(&S::armReaction, member); };
    f(Role::kOption, "spineJoints", &S::spineJoints, Closed(2.0, static_cast<double>(kMaxSpineJoints)),
      Doc{"Spine joints, pelvis to head."});
    f(Role::kOption, "forward", &S::forward, Doc{"The head's look axis, head-local."});
    f(Role::kOption, "up", &S::up, Doc{"World up: the weight shift stays in the plane normal to it."});
    f(Role::kOption, "offset", &S::offset,
      Doc{"Head-local point that must lie on the look line (the eyes), as `AimOptions.offset`."});
    f(Role::kOption, "footLock", &S::footLock,
      Doc{"Keep each ankle at its animated world position and rotation (two-bone IK on the legs)."});
    f(Role::kOption, "blendOutTime", &S::blendOutTime, AtLeast(0.0),
      Doc{"Seconds of the final linear part of turning off, for every effect."});
    f(Role::kOption, "maxYaw", &S::maxYaw, Closed(0.0, kPi),
      Doc{"Largest yaw either side of the character's facing (the animated head's, horizontal), radians."});
    f(Role::kOption, "maxPitchUp", &S::maxPitchUp, Closed(0.0, kPi / 2.0f), Doc{"Largest pitch above the horizontal, radians."});
    f(Role::kOption, "maxPitchDown", &S::maxPitchDown, Closed(0.0, kPi / 2.0f),
      Doc{"Largest pitch below the horizontal, radians."});
    f(Role::kOption, "behind", &S::behind, EnumNames{"keep|front|follow", 0},
      Doc{"A target past `maxYaw`: `'keep'` the side it left from, `'front'` straight ahead, `'follow'` its side."});
    f(Role::kOption, "eyeYaw", &S::eyeYaw, Closed(0.0, kPi / 2.0f), Doc{"The eyes' largest yaw relative to the head, radians."});
    f(Role::kOption, "eyePitchUp", &S::eyePitchUp, Closed(0.0, kPi / 2.0f),
      Doc{"The eyes' largest pitch up relative to the head, radians."});
    f(Role::kOption, "eyePitchDown", &S::eyePitchDown, Closed(0.0, kPi / 2.0f),
      Doc{"The eyes' largest pitch down relative to the head, radians."});
    f(Role::kOption, "eyeSettleTime", &S::eyeSettleTime, Above(0.0),
      Doc{"Settle time of the gaze in seconds: short, so the eyes lead the head."});
    f(Role::kOption, "spine.headSettleTime", spine(&BodyLookAtSpineSettings::headSettleTime), Above(0.0),
      Doc{"PD settle time in seconds of the head (the spine's settle times are linear from the pelvis's to it)."});
    f(Role::kOption, "spine.pelvisSettleTime", spine(&BodyLookAtSpineSettings::pelvisSettleTime), Above(0.0),
      Doc{"PD settle time in seconds of the pelvis."});
    f(Role::kOption, "spine.damping", spine(&BodyLookAtSpineSettings::damping), Above(0.0), kDampingPresets,
      Doc{"Damping ratio of the spine's PDs, or a preset: `'critical'` (1), `'responsive'`, `'over'`."});
    f(Role::kOption, "spine.maxSpeed", spine(&BodyLookAtSpineSettings::maxSpeed), Range{0.0, kInfinity, true, false},
      Doc{"rad/s (`Infinity`: no cap): the look yaw where `behind` moves it, and each joint's offset\n"
          "(the head's too), as `LookAtOptions.maxSpeed`."});
    f(Role::kOption, "spine.targetMotion", spine(&BodyLookAtSpineSettings::targetMotion), EnumNames{"hold|linear", 0},
      Doc{"`'linear'`: the aim moves linearly between updates and is fed forward (no lag behind a moving target)."});
    f(Role::kOption, "spine.ki", spine(&BodyLookAtSpineSettings::ki), AtLeast(0.0),
      Doc{"Integral gain (PID) of every joint's controller."});
    f(Role::kOption, "weightShift.amount", shift(&BodyLookAtWeightShiftSettings::amount), AtLeast(0.0),
      Doc{"Metres of pelvis shift per radian of head lean or turn (0: off)."});
    f(Role::kOption, "weightShift.limit", shift(&BodyLookAtWeightShiftSettings::limit), AtLeast(0.0),
      Doc{"Largest shift in metres: keeps the feet in reach."});
    f(Role::kOption, "weightShift.settleTime", shift(&BodyLookAtWeightShiftSettings::settleTime), Above(0.0),
      Doc{"Seconds for the shift to settle."});
    f(Role::kOption, "weightShift.damping", shift(&BodyLookAtWeightShiftSettings::damping), Above(0.0), kDampingPresets,
      Doc{"Damping ratio of the shift's PD, or a preset: `'critical'` (1), `'responsive'`, `'over'`."});
    f(Role::kOption, "armReaction.amount", arms(&BodyLookAtArmReactionSettings::amount), Closed(0.0, 1.0),
      Doc{"0 keeps the arms glued to the chest, 1 gives the full lag."});
    f(Role::kOption, "armReaction.settleTime", arms(&BodyLookAtArmReactionSettings::settleTime), Above(0.0),
      Doc{"Seconds for the arms to settle."});
    f(Role::kOption, "armReaction.damping", arms(&BodyLookAtArmReactionSettings::damping), Above(0.0), kDampingPresets,
      Doc{"Damping ratio (< 1: the arm swings past and springs back) or a preset name."});
    // -1 or a spine index: Validate also checks it against spineJoints.
    f(Role::kOption, "armReaction.chest", arms(&BodyLookAtArmReactionSettings::chest), AtLeast(-1.0),
      Doc{"Spine index the arms hang from; -1: spineJoints − 3 (at least 0)."});
  }
};

// The grounding constraint's scalar options (the rig packs them after the
// legs' joint count; docs/rig/grounding.md). Its weight and smoothing are the
// rig's common settings; its leg layout and sole offsets are the rig's extras.
template <>
struct JobFields<rig::GroundingSettings> {
  static constexpr const char* kName = "grounding";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::GroundingSettings;
    f(Role::kOption, "groundHeight", &S::groundHeight, kFinite,
      Doc{"The authored ground: the character's own y = groundHeight plane (along the rig's `up`)."});
    f(Role::kOption, "maxPelvisDrop", &S::maxPelvisDrop, AtLeast(0.0), Derived{},
      Doc{"Largest pelvis drop; null: 0.35 × the shortest leg."});
    f(Role::kOption, "maxPelvisRise", &S::maxPelvisRise, AtLeast(0.0), Derived{},
      Doc{"Largest pelvis rise; null: 0.1 × the shortest leg."});
    f(Role::kOption, "maxFootPitch", &S::maxFootPitch, Closed(0.0, kPi / 2.0f),
      Doc{"Largest sole pitch toward the ground normal, radians (four legs: also the body pitch)."});
    f(Role::kOption, "maxFootRoll", &S::maxFootRoll, Closed(0.0, kPi / 2.0f),
      Doc{"Largest sole roll toward the ground normal, radians."});
    f(Role::kOption, "plantSpeed", &S::plantSpeed, AtLeast(0.0),
      Doc{"An auto-detected stance foot moves slower than this plus half its speed against a moving root (model units/s)."});
    f(Role::kOption, "plantHeight", &S::plantHeight, AtLeast(0.0), Derived{},
      Doc{"… and its sole is at most this high above the authored ground; null: 0.03 × the shortest leg."});
    f(Role::kOption, "soften", &S::soften, Closed(0.0, 1.0),
      Doc{"Two-bone soft-IK zone near full reach, as a fraction of the reach (a leg the animation straightens\n"
          "further is solved as straight)."});
    f(Role::kOption, "unplantRadius", &S::unplantRadius, AtLeast(0.0), Derived{},
      Doc{"How far (horizontally) a planted foot's lock may trail its animated sole before it follows;\n"
          "null: 0.15 × the shortest leg."});
  }
};

// The twist constraint's options (docs/rig/twist.md); its per-joint amounts
// are the rig's extras, its weight and smoothing the common settings.
template <>
struct JobFields<rig::TwistSettings> {
  static constexpr const char* kName = "twist";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::TwistSettings;
    f(Role::kOption, "spread", &S::spread, EnumNames{"even|length", 0},
      Doc{"How the twist is shared when no `amounts` are given: joint k of the n before the last turns with\n"
          "(k + 1) / n of it (`'even'`), or with the share of the line up to the next joint (`'length'`)."});
  }
};

// The avatar constraint's options (docs/rig/avatar.md); its targets are the
// rig's targets(), its weight and smoothing the common settings.
template <>
struct JobFields<rig::AvatarSettings> {
  static constexpr const char* kName = "avatar";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::AvatarSettings;
    f(Role::kOption, "neck", &S::neck, Doc{"Whether the joint before the head is a neck (bent by `neckStiffness`), else a spine joint."});
    f(Role::kOption, "pelvisFollow", &S::pelvisFollow, Closed(0.0, 1.0),
      Doc{"Share of the head target's horizontal offset from the animated head the pelvis follows."});
    f(Role::kOption, "pelvisTurn", &S::pelvisTurn, Closed(0.0, 1.0),
      Doc{"Share of the head target's heading (its turn about up from the animated head's) the pelvis turns with."});
    f(Role::kOption, "crouchBack", &S::crouchBack, Closed(0.0, 2.0),
      Doc{"How far the pelvis moves back for each unit the head target is below the animated head (crouching)."});
    f(Role::kOption, "neckStiffness", &S::neckStiffness, Closed(0.0, 1.0),
      Doc{"1 keeps the neck out of the spine's bend toward the head target; 0 bends it as a spine joint."});
    f(Role::kOption, "shoulderWeight", &S::shoulderWeight, Closed(0.0, 1.0),
      Doc{"Share of the turn from the animated hand toward the hand target that each shoulder takes (within its limits)."});
    f(Role::kOption, "shoulderYawLimit", &S::shoulderYawLimit, Closed(0.0, 1.5707963267948966),
      Doc{"Radians: the most a shoulder turns forward or back (about the chest's up) from the animation."});
    f(Role::kOption, "shoulderPitchLimit", &S::shoulderPitchLimit, Closed(0.0, 1.5707963267948966),
      Doc{"Radians: the most a shoulder turns up or down from the animation."});
    f(Role::kOption, "chestTurn", &S::chestTurn, Closed(0.0, 1.0),
      Doc{"Share of the hands' mean heading (from the chest's, about up) the spine turns with, shared over its joints."});
    f(Role::kOption, "chestTurnLimit", &S::chestTurnLimit, Closed(0.0, 1.5707963267948966),
      Doc{"Radians: the most the chest turns with the hands."});
    f(Role::kOption, "maxRootAngle", &S::maxRootAngle, Closed(0.0, 3.141592653589793),
      Doc{"Radians: the most the head target's heading departs from the pelvis's; beyond it the pelvis turns with the head."});
    f(Role::kOption, "scale", &S::scale, Range{0.0, 10.0, true, false},
      Doc{"Avatar-to-user height ratio: every target's position from the root (model space) is multiplied by it."});
    f(Role::kOption, "armScale", &S::armScale, Range{0.0, 10.0, true, false},
      Doc{"Avatar-to-user arm span ratio: each hand target's offset from the head target is multiplied by it\n"
          "(instead of `scale`)."});
    f(Role::kOption, "armStretch", &S::armStretch, Closed(1.0, 3.0),
      Doc{"The most an arm lengthens (its forearm's and hand's translations scaled along the bones) to reach a hand\n"
          "target beyond its reach, as a ratio of its length; 1: off (docs/rig/avatar.md, \"Arm stretch\")."});
    f(Role::kOption, "armSoften", &S::armSoften, Closed(0.0, 1.0),
      Doc{"With `armStretch` > 1: the soft zone below full reach, a fraction of the arm's reach, where the arm starts to\n"
          "stretch instead of snapping straight (the two-bone `soften`)."});
    f(Role::kOption, "steps", &S::steps,
      Doc{"Whether the feet stay planted and take procedural steps (and, the instant the body stops, a settling step for\n"
          "a foot whose leg it left straight); false: they stay where the animation puts them (a clip that walks)."});
    f(Role::kOption, "stepThreshold", &S::stepThreshold, Closed(0.0, 2.0),
      Doc{"World units: a planted foot farther than this (along the ground) from its place under the body takes a step."});
    f(Role::kOption, "angleThreshold", &S::angleThreshold, Closed(0.0, kPi),
      Doc{"Radians: a planted foot turned farther than this from its place under the body (about up) takes a step."});
    f(Role::kOption, "stepPrediction", &S::stepPrediction, Closed(0.0, 1.0),
      Doc{"Seconds: a moving body starts steps sooner: the places the thresholds measure lead by its smoothed velocity times this (at most `stepThreshold`); steps land on the places themselves."});
    f(Role::kOption, "stepTime", &S::stepTime, Range{0.0, 2.0, true, false},
      Doc{"Seconds a procedural step takes; up to 3x less while the body moves faster than 2.5 x `stepThreshold` / `stepTime` (a quick side step: docs/rig/avatar.md, \"Steps\")."});
    f(Role::kOption, "stepHeight", &S::stepHeight, Closed(0.0, 1.0),
      Doc{"World units: how high a procedural step lifts the foot at its middle."});
  }
};

template <>
struct RecordFields<rig::TargetPose> {
  static constexpr const char* kName = "targetPose";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::TargetPose;
    f("position", &S::position);
    f("rotation", &S::rotation);
    f("weight", &S::weight);
  }
};

// The springs constraint's options (docs/rig/springs.md): the joints'
// VRMC_springBone parameters (each joint's unless the per-joint `joints`
// override them), the wind and the tip; chains, center and colliders are the
// rig's extras, weight and smoothing the common settings.
template <>
struct JobFields<rig::SpringsSettings> {
  static constexpr const char* kName = "springs";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::SpringsSettings;
    using J = rig::SpringJoint;
    const auto joint = [](auto member) { return Nest(&S::joint, member); };
    f(Role::kOption, "stiffness", joint(&J::stiffness), Closed(0.0, 1e4),
      Doc{"Pull back toward the animated direction, VRM's units (a 60 Hz frame moves the tail stiffness/60 along it)."});
    f(Role::kOption, "dragForce", joint(&J::dragForce), Closed(0.0, 1.0),
      Doc{"Share of the velocity lost per 60 Hz tick, as VRM's."});
    f(Role::kOption, "gravityPower", joint(&J::gravityPower), Closed(0.0, 1e4), Doc{"Pull along `gravityDir`, VRM's units."});
    f(Role::kOption, "gravityDir", joint(&J::gravityDir), Doc{"World direction of gravity (normalized; zero: none)."});
    f(Role::kOption, "hitRadius", joint(&J::hitRadius), Closed(0.0, 1e4), Doc{"The tail's radius against the colliders (model units)."});
    f(Role::kOption, "wind", &S::wind, Doc{"A world vector added to `gravityDir · gravityPower` (the same units)."});
    f(Role::kOption, "tipLength", &S::tipLength, Closed(0.0, 1e4),
      Doc{"> 0: each chain's last joint swings too, with a virtual tail this long along the line from its parent;\n"
          "0: the last joint is the chain's end (VRM 1.0)."});
  }
};

// A springs collider's shape (ikpd/rig/springs.h, SpringCollider; docs/rig/springs.md,
// "Colliders"): packed by JS after its joint, one per collider.
template <>
struct JobFields<rig::SpringCollider> {
  static constexpr const char* kName = "springCollider";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::SpringCollider;
    f(Role::kOption, "shape", &S::shape, EnumNames{"sphere|capsule|plane|insideSphere|insideCapsule", 0},
      Doc{"`'sphere'` and `'capsule'` keep tails outside, `'plane'` on the side `normal` points to,\n"
          "`'insideSphere'` and `'insideCapsule'` inside (VRMC_springBone_extended_collider)."});
    f(Role::kOption, "offset", &S::offset, Doc{"The sphere's centre, the capsule's first end, a point of the plane (the joint's frame)."});
    f(Role::kOption, "tail", &S::tail, Doc{"The capsule's other end (the joint's frame)."});
    f(Role::kOption, "normal", &S::normal, Doc{"The plane's free side (the joint's frame; non-zero, need not be unit)."});
    f(Role::kOption, "radius", &S::radius, AtLeast(0.0), Doc{"The sphere's or capsule's radius (model units; a plane has none)."});
  }
};

// The records the rig shares with JS by memory (RecordFields above; the
// layouts docs/rig/rig.md describes).
template <>
struct RecordFields<rig::LocalTransform> {
  static constexpr const char* kName = "localTransform";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::LocalTransform;
    f("translation", &S::translation);
    f("rotation", &S::rotation);
    f("scale", &S::scale);
  }
};

template <>
struct RecordFields<rig::ConstraintFrame> {
  static constexpr const char* kName = "constraintFrame";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::ConstraintFrame;
    f("target", &S::target);
    f("pole", &S::pole);
    f("effectorOffset", &S::effectorOffset);
    f("poleSet", &S::poleSet);
  }
};

template <>
struct RecordFields<rig::ConstraintResult> {
  static constexpr const char* kName = "constraintResult";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::ConstraintResult;
    f("reached", &S::reached);
    f("distance", &S::distance);
    f("iterations", &S::iterations);
    f("active", &S::active);
  }
};

template <>
struct RecordFields<rig::GroundHit> {
  static constexpr const char* kName = "groundHit";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::GroundHit;
    f("point", &S::point);
    f("normal", &S::normal);
    f("hit", &S::hit);
    f("plant", &S::plant);
    f("edge", &S::edge);
  }
};

template <>
struct RecordFields<rig::GroundProbe> {
  static constexpr const char* kName = "groundProbe";
  template <class F>
  static constexpr void Visit(F&& f) {
    using S = rig::GroundProbe;
    f("sole", &S::sole);
    f("hip", &S::hip);
  }
};

}  // namespace ikpd::describe
