// The avatar kind (docs/rig/avatar.md): a whole body from a head and two hand
// targets, per part like Final IK's VRIK: the pelvis follows the head, the
// spine bends to it, the shoulders turn toward the hands, each arm and leg a
// two-bone solve (the two-bone job's kernel).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "ikpd/ik/two_bone.h"
#include "ikpd/rig/avatar.h"
#include "kind.h"
#include "limb.h"

namespace ikpd::rig::detail {

constexpr std::size_t kMaxAvatarJoints = 20;  // 6 spine + 8 arm + 6 leg joints

// One arm or leg: slots into the constraint's joints (−1: none).
struct AvatarLimb {
  int shoulder = -1, upper = -1, lower = -1, end = -1;
  int parent = 0;            // the nearest spine slot above the limb (its shoulder's frame; the limb rides on it)
  std::uint32_t carried = 0; // the limb's slots the spine stages leave to CarryLimb (bits; a leg's hip is carried at once)
  glm::vec3 bend{0.0f};      // the rest bend direction (elbow, knee) in the end joint's canonical frame
  glm::vec3 up{0.0f, 1.0f, 0.0f};  // arms: the character's up in the parent slot's rest frame
  glm::vec3 fold{0.0f};      // arms: where a folded elbow points (out, down and back) in the parent slot's rest frame (ArmPole)
  float reach = 0.0f;        // upper + lower rest length
};

// A foot's thresholds judged in full at the end of a frame (DueAt): how far
// inside them its plant was, to bound a later frame's end with the same
// stamp (AvatarSteps) without its place (avatar_path.h, Frame::Clear).
struct AvatarPastRef {
  Transform to;            // the body then (world)
  glm::vec3 calm{0.0f};    // its smoothed velocity then (world)
  float inside = -1.0f;    // stepThreshold less the led place's distance from the plant
  float apart = -1.0f;     // the place's distance outside the other foot's gap (< 0: kept out by it)
  float lever = 0.0f;      // the place's distance from the other foot's plant
  float turn = -1.0f;      // |w|·sin(θ/2) − |s|·cos(θ/2) of the plant's turn to the place, θ = angleThreshold (< 0: past)
  float size = 0.0f;       // the foot's offset from the body (world)
  float slack = 0.0f;      // the judgement's rounding (world)
};

// The procedural steps' state (avatar_steps.cc; docs/rig/avatar.md, "Steps"),
// world space: each foot's plant, the step under way, the body last frame.
struct AvatarSteps {
  bool planted = false;         // false: plant both feet where they are next frame
  Transform feet[2];            // each foot's plant (world)
  int stepping = -1;            // the foot taking a step (−1: none)
  float progress = 0.0f;        // [0, 1] of that step
  Transform from;               // where that foot lifted off (world)
  Transform body;               // last frame's body: the pelvis on the ground and its heading (world)
  float height = 0.0f;          // last frame's pelvis (where the head wants it) above the ground (model units)
  glm::vec3 chord{0.0f};        // last frame's mean velocity of the body (world)
  float chordTime = 0.0f;       // last frame's length (0: none since planting)
  glm::vec3 chordBefore{0.0f};  // the frame before last's mean velocity of the body (world)
  float chordTimeBefore = 0.0f; // its length (0: none since planting)
  glm::vec3 calm{0.0f};         // the body's velocity smoothed along a line through the frames' mean velocities (world)
  bool still = false;           // the body was all but still at the end of last frame (its settling checked)
  bool settle[2] = {false, false};  // a foot whose leg stood straight when the body came still, not yet stepped
  bool held[2] = {false, false};  // a foot tracker in full: its plant follows it until its weight is 0
  // Each foot's thresholds judged at the end of last frame (DueAt): the next
  // frame's start is the same instant, so its judgement there is that one
  // while `stamp` is unchanged: no plant moved (planting, a landing, a
  // tracker's hold) and nothing else it reads did (`seen`: an animated pose
  // that has not changed, no clip under the avatar).
  std::uint64_t stamp = 1, pastStamp[2] = {0, 0};
  bool past[2] = {false, false};
  AvatarPastRef ref[2];           // the last judgement in full at a frame's end, valid at refStamp == stamp
  std::uint64_t refStamp[2] = {0, 0};
  struct {
    bool known = false;     // the animated pelvis and feet below seen once since the state was made
    Transform pelvis, feet[2];  // the animated pelvis and feet they came from (model)
    glm::quat back{1.0f, 0.0f, 0.0f, 0.0f};  // conj(the animated body's rotation)
    Transform offsets[2];  // each foot from the animated body (avatar_path.h, Frame)
    glm::vec3 up{0.0f};
    float scale = 0.0f, threshold = 0.0f, prediction = 0.0f, angle = 0.0f;  // angle: angleThreshold
    float cosHalf = 1.0f, sinHalf = 0.0f;  // of angle / 2 (Frame::TurnedPast)
    float dt = 0.0f, fade = 1.0f;          // the last frame's length and exp(−dt / the velocity's smoothing) (Frame::fadeEnd)
  } seen;
};

struct AvatarState {
  LimbSmoothing smooth;                  // the constraint's weight (common settings)
  pd::ScalarPD targetPds[kAvatarTargets];  // each target's weight, smoothed by the common settings
  bool targetsHeld = false;
  std::array<std::uint32_t, kMaxAvatarJoints> below{};  // per slot: the slots in its subtree (bits)
  int head = 0, neck = -1;               // slots; the bending slots are [1, head)
  glm::vec3 pelvisFacing{0.0f, 0.0f, 1.0f};  // the character's facing in the pelvis's rest frame
  glm::quat pelvisRest{1.0f, 0.0f, 0.0f, 0.0f}, headRest{1.0f, 0.0f, 0.0f, 0.0f};  // rest model rotations
  glm::quat headToPelvis{1.0f, 0.0f, 0.0f, 0.0f};  // conj(headRest) · pelvisRest (PelvisStage's headings from rest)
  std::uint32_t framed = 0;              // the slots with canonical frames: the limbs' upper and lower joints (bits)
  int chest = -1;                        // the arms' spine slot (−1: no arms)
  glm::vec3 chestFacing{0.0f, 0.0f, 1.0f};   // the character's facing in the chest's rest frame
  AvatarLimb arms[2], legs[2];
  int armCount = 0, legCount = 0;
  TwoBoneSetup limb;                     // every arm and leg: canonical frames, a pole direction, end kept
  AvatarSteps steps;
  // Arm stretch (avatar_stretch.cc): armStretch − 1 and the soften in force,
  // each smoothed by the common settings; both 0: off (the plain solve).
  pd::ScalarPD stretchPds[2];
  float stretchNow[2] = {0.0f, 0.0f};
  bool stretchRest = true;  // both exactly 0 and still: off costs nothing more (StretchFrame)
  // Per frame (avatar_solve.cc, CarryLimb): the limbs' slots the pelvis and
  // spine stages have not carried yet (bits), and each limb's parent slot as
  // it was when they stopped (arms 0–1, legs 2–3).
  std::uint32_t lazy = 0;
  Transform anchors[4];
};

extern const KindOps kAvatarKind;

// The solve's stages (avatar_solve.cc), each on the working pose (model space,
// canonical frames) that the rig writes back.
struct AvatarGoals {
  // The head's goal is blended from the animated head by its weight; each hand's is its
  // whole target until ArmStage blends it from where the stages before carried the hand.
  Transform head, hands[2];
  float headWeight = 0.0f, handWeights[2] = {0.0f, 0.0f};
  Transform feet[2];  // where each leg puts its foot (model space; StepFeet, blended by the constraint's weight)
  // The full-body trackers (docs/rig/avatar.md, "Full-body trackers"): the
  // pelvis's and each foot's whole target (model space) and weight (0: untracked).
  Transform pelvis, footTargets[2];
  float pelvisWeight = 0.0f, footWeights[2] = {0.0f, 0.0f};
  // With steps (and no pelvis tracker) the pelvis's last move toward the head
  // goal, left by SpineStage for StepFeet: the steps follow the body the head
  // wants, then the pelvis makes this move and drops as far as its feet's places need.
  glm::vec3 pelvisMove{0.0f};
};
// The rotation `w` of the way from `from` to unit `to` (slerp): at w = 1 (a
// part tracked in full, the common case) `to` itself, without the slerp's arc cosine.
inline glm::quat Toward(const glm::quat& from, const glm::quat& to, float w) {
  return w == 1.0f ? to : Unit(glm::slerp(from, to, w));
}

void PelvisStage(const Stage& stage, const Constraint& c, const AvatarGoals& goals, Transform* pose);
void PelvisTargetStage(const Constraint& c, const AvatarGoals& goals, Transform* pose);
void SpineStage(const Stage& stage, const Constraint& c, AvatarGoals& goals, Transform* pose);
// The shoulders carry their arms (CarryLimbs) as they turn.
void ShoulderStage(const Stage& stage, Constraint& c, const AvatarGoals& goals, Transform* pose);
// Returns the slots whose translations a stretched arm changed (bits: Outcome::translations).
std::uint32_t ArmStage(const Constraint& c, AvatarGoals* goals, Transform* pose);
// Arm stretch (avatar_stretch.cc; docs/rig/avatar.md, "Arm stretch"): the
// smoothed settings for this frame (first: Reset them to the settings); off
// and blended out (the default), nothing to do.
void StretchBlend(AvatarState& a, const AvatarSettings& s, const CommonSettings& common, float dt, bool first);
inline void StretchFrame(AvatarState& a, const AvatarSettings& s, const CommonSettings& common, float dt, bool first) {
  if (!(s.armStretch <= 1.0f && a.stretchRest)) StretchBlend(a, s, common, dt, first);
}
inline bool Stretching(const AvatarState& a) { return a.stretchNow[0] != 0.0f || a.stretchNow[1] != 0.0f; }
// While Stretching(a): an arm's setup, a.limb's settings with the stretch in
// force times the hand's weight (ArmStage's stretched arms, avatar_limbs.cc).
Status StretchSetup(const AvatarState& a, float handWeight, TwoBoneSetup* setup);
void FitFeet(const Stage& stage, const AvatarState& a, const Transform* feet, Transform* pose, float share);
void ReachFeet(const Stage& stage, const AvatarState& a, const Transform* feet, Transform* pose, const glm::vec3& move);
void StepFeet(const Stage& stage, Constraint& c, float dt, Transform* pose, AvatarGoals* goals);
void LegStage(const Constraint& c, const AvatarGoals& goals, Transform* pose);
// The steps on uneven ground (avatar_ground.cc; docs/rig/avatar.md, "Steps"):
// two ground legs with legs (KindOps::groundLegs), each probing where its foot
// would land this frame; whether leg `side` has a hit this frame; a place
// raised to the hit's plane (unchanged without one); the swing's lift.
std::size_t AvatarGroundLegs(const Constraint& c);
GroundProbe AvatarProbe(const Stage& stage, const Constraint& c, std::size_t leg);
bool AvatarGrounded(const Stage& stage, const Constraint& c, int side);
// `base`: a point on the root's ground plane at the place's instant (the
// body there; null: the root now).
void AvatarOnGround(const Stage& stage, const Constraint& c, int side, Transform* place, const glm::vec3* base = nullptr);
float AvatarLift(const Stage& stage, const Constraint& c, int side, const glm::vec3& from, const glm::vec3& to,
                 const glm::vec3& eased, const glm::vec3& up, float progress);
// The limbs ride on their parent slots through the pelvis and spine stages:
// LeaveLimbs marks them lazy (Turn and Move skip them), CarryLimbs moves each
// by its parent's motion since (arms before the shoulders, legs before the legs).
void LeaveLimbs(AvatarState& a, const Transform* pose);
void CarryLimbs(AvatarState& a, Transform* pose, int first, int count);

}  // namespace ikpd::rig::detail
