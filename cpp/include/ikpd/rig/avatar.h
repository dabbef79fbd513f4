// The avatar constraint's settings (docs/rig/avatar.md): a whole body from a
// head and two hand targets (VR tracking; optional pelvis and foot trackers), analytic and per part: the pelvis
// follows the head, the spine bends to it, the shoulders turn toward the
// hands, each arm and leg a two-bone solve.
#pragma once

#include "ikpd/common.h"

namespace ikpd::rig {

struct AvatarSettings {
  bool neck = true;               // joints[n − 2] is a neck (its own stiffness), else a spine joint
  float pelvisFollow = 0.5f;      // [0, 1]: share of the head's horizontal offset the pelvis follows
  float pelvisTurn = 0.5f;        // [0, 1]: share of the head's heading the pelvis turns with
  float crouchBack = 0.4f;        // [0, 2]: how far the pelvis moves back per unit the head drops
  float neckStiffness = 0.5f;     // [0, 1]: 1 keeps the neck out of the spine's bend
  float shoulderWeight = 0.5f;    // [0, 1]: share of the turn toward the hand the shoulders take
  float shoulderYawLimit = 0.45f;    // radians [0, π/2]: the shoulders' forward/back turn
  float shoulderPitchLimit = 0.35f;  // radians [0, π/2]: the shoulders' up/down turn
  float chestTurn = 0.5f;         // [0, 1]: share of the hands' heading (from the chest's) the spine turns with
  float chestTurnLimit = 0.5f;    // radians [0, π/2]: the most the chest turns with the hands
  float maxRootAngle = 0.8f;      // radians [0, π]: the most the head's heading departs from the pelvis's
  float scale = 1.0f;             // (0, 10]: avatar-to-user height ratio; target positions (model space) times it
  float armScale = 1.0f;          // (0, 10]: avatar-to-user arm span ratio; the hands' offsets from the head target times it
  // Arm stretch (docs/rig/avatar.md, "Arm stretch"): off at 1, no cost then.
  float armStretch = 1.0f;        // [1, 3]: the most an arm lengthens (forearm and hand translations) to reach a far hand target
  float armSoften = 0.1f;         // [0, 1]: with armStretch > 1, the soft zone below full reach (a fraction of it) where the arm starts to stretch
  // Procedural steps (docs/rig/avatar.md, "Steps"): the feet stay planted in
  // world space and step when the body moves or turns past these; the
  // instant the body comes still, a foot whose leg cannot reach it from
  // where the head wants the hip steps under the body (a settling step).
  bool steps = true;              // false: the feet stay where the animation puts them (clips that walk)
  float stepThreshold = 0.2f;     // world units [0, 2]: a foot this far from its place under the body steps
  float angleThreshold = 0.6f;    // radians [0, π]: a foot turned this far from the body's heading steps
  float stepPrediction = 0.2f;    // seconds [0, 1]: the thresholds measure from places led by the body's velocity times this
  float stepTime = 0.35f;         // seconds (0, 2]: how long a step takes (up to 3x less while the body outruns the steps)
  float stepHeight = 0.08f;       // world units [0, 1]: how high a step lifts the foot
  // Errors name the field ("pelvisFollow: must be in [0, 1]").
  Status Validate() const;
};

// Which of an avatar constraint's targets (Rig::targets(), six per avatar):
// the head and hands, then the optional full-body trackers (pelvis and feet;
// weight 0, the default, leaves the body to the head and the steps:
// docs/rig/avatar.md, "Full-body trackers").
enum AvatarTarget : int {
  kAvatarHead = 0, kAvatarLeftHand = 1, kAvatarRightHand = 2,
  kAvatarPelvis = 3, kAvatarLeftFoot = 4, kAvatarRightFoot = 5,
  kAvatarTargets = 6,  // the count
};

// An avatar's scales from one sample of the user (docs/rig/avatar.md, "Calibration").
struct AvatarScales {
  float scale = 1.0f;     // AvatarSettings::scale: the avatar's head height over the user's
  float armScale = 1.0f;  // AvatarSettings::armScale: the avatar's arm span over the user's hand span
};

}  // namespace ikpd::rig
