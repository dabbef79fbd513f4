// ikpd — a character rig (docs/rig/rig.md): one object that owns a skeleton and an
// ordered stack of constraints (aim, two-bone, pseudo three-bone, chain,
// look-at, body look-at, grounding) and solves them all in one Update per frame, from
// the animated local transforms to the solved ones.
//
// Spaces. Model space is the root transform (the skeleton root's parent, in
// world space) times the joints' locals; targets and poles are given in world
// space, the space of the root transform. Each joint's model transform is
//   position = parent.position + parent.rotation · (parent.scale ⊙ local.translation)
//   rotation = parent.rotation · local.rotation
//   scale    = parent.scale ⊙ local.scale
// so parent scale applies to child translations while world rotations compose
// rotations only: exact for uniform scale (the usual case), an approximation
// under non-uniform scale. Solving happens in model space (targets are mapped
// into it), so a rotated, translated or uniformly scaled root changes nothing
// but the mapping.
//
// Axes are detected from the rest pose, never assumed (docs/rig/rig.md, axes):
// each constraint keeps per joint a canonical frame F_j (a rotation from the
// canonical frame to the joint-local one) so that the jobs, which want one
// bone axis shared by every joint, see the world rotation R_j·F_j with
// forward +X and hinge +Z: +X points from the joint to the constraint's next
// joint at rest (the last joint takes the previous bone's frame), +Z is the
// rest bend axis (upper × lower) when the limb is bent by more than 1e-3 rad,
// else the perpendicular facing × bone (then up × bone, then any). The
// `forward`/`bendAxis` options (joint-local) override detection. Aim and the
// look-ats turn a joint's look axis: the option, else the rig's `facing`
// mapped into that joint's rest frame (a real head bone's axis is rarely +Z).
// Eye joints of the look-ats are turned by the gaze about the head's up and
// left; each eye's look axis is the head's carried rigidly into the eye's rest
// frame (no eye bone axis is assumed; docs/rig/look-at.md, "Eyes").
// A solved world rotation out_j comes back as out_j·F_j⁻¹.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ikpd/ik/aim.h"
#include "ikpd/ik/chain.h"
#include "ikpd/ik/pseudo_three_bone.h"
#include "ikpd/ik/two_bone.h"
#include "ikpd/pd/controllers.h"
#include "ikpd/rig/avatar.h"
#include "ikpd/rig/body_look_at.h"
#include "ikpd/rig/grounding.h"
#include "ikpd/rig/look_at.h"
#include "ikpd/rig/skeleton.h"
#include "ikpd/rig/springs.h"
#include "ikpd/rig/twist.h"

namespace ikpd::rig {

// Every kind is one file under cpp/src/rig/kinds/, registered in one table
// (cpp/src/rig/kinds/registry.cc; docs/architecture.md, "Adding a constraint kind").
enum class ConstraintKind : std::uint8_t { kAim = 0, kTwoBone = 1, kPseudoThreeBone = 2, kChain = 3, kLookAt = 4, kBodyLookAt = 5,
                                          kGrounding = 6, kTwist = 7, kAvatar = 8, kSprings = 9 };

constexpr std::size_t kMaxConstraints = 256;

// One constraint's per-frame input (12 floats, the layout of JS rig.frames).
// `poleSet` != 0 means `pole` is used: the two-bone and pseudo three-bone pole
// point, the aim's world up target, the chain's pole. `effectorOffset` is the
// two-bone effector offset (world vector). Everything is in world space.
struct ConstraintFrame {
  glm::vec3 target{0.0f};
  glm::vec3 pole{0.0f};
  glm::vec3 effectorOffset{0.0f};
  float poleSet = 0.0f;
  float reserved[2] = {0.0f, 0.0f};
};
static_assert(sizeof(ConstraintFrame) == 12 * sizeof(float));

// One constraint's result after an Update (4 floats, JS rig.results).
//   reached: 1 when the full-weight solve reached its target (the job's own
//     test; look-ats: the head's look axis within 1e-3 rad of the target);
//   distance: the job's distance to the target (world units; look-ats: the
//     remaining angle in radians), of the full-weight solve (limbs: against
//     the smoothed target) before the weight;
//   iterations: the chain's iterations (0 for the others);
//   grounding: reached = every planted foot within 1 mm of its ground,
//     distance = the largest sole-to-ground distance of planted feet (world),
//     iterations = the number of planted feet;
//   active: 1 when the constraint changed any joint this frame (0 once
//     disabled and blended out, or at weight 0 without smoothing).
struct ConstraintResult {
  float reached = 0.0f;
  float distance = 0.0f;
  float iterations = 0.0f;
  float active = 0.0f;
};
static_assert(sizeof(ConstraintResult) == 4 * sizeof(float));

// A tracked target of a frame (8 floats, JS rig.targets): an avatar's head,
// hands, pelvis and feet (docs/rig/avatar.md). World position and rotation (the joint's own
// world rotation to take), weight in [0, 1] (0: the animated pose).
struct TargetPose {
  glm::vec3 position{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  float weight = 0.0f;
};
static_assert(sizeof(TargetPose) == 8 * sizeof(float));

// Settings every constraint has.
struct CommonSettings {
  float weight = 1.0f;      // [0, 1]
  bool enabled = true;      // false: blend out to the animated pose
  // Seconds >= 0 (docs/pd/pd.md); 0: no smoothing. Limbs: the settle time of
  // the effective weight and of the target and pole (docs/rig/rig.md).
  // Look-at: > 0 (its own default 0.3). Body look-at: unused (its groups' own).
  float settleTime = 0.0f;
  float damping = 1.0f;      // damping ratio > 0; unused by body look-at
  float blendOutTime = 0.1f; // seconds >= 0: the final linear part of a blend-out
  // Joint-local axes that override detection: the bone axis (two-bone,
  // pseudo three-bone, chain) or the look axis (aim, look-ats); the hinge
  // (two-bone, pseudo three-bone); the aim's roll axis (else the rig's up
  // mapped into the joint's rest frame).
  std::optional<glm::vec3> forward;
  std::optional<glm::vec3> bendAxis;
  std::optional<glm::vec3> up;
};

// A constraint: its kind, joints and settings. Only the fields of its kind are
// read. The jobs' structs hold the kind's options (their per-frame inputs and
// outputs are filled by the rig each frame), so an option exists here exactly
// when the single call has it.
struct ConstraintSettings {
  ConstraintKind kind = ConstraintKind::kTwoBone;
  // aim: [joint]; twoBone: [root, mid, end]; pseudoThreeBone: [root, mid, end,
  // tip]; chain: 2..256 joints; lookAt: 2..64 joints (root … head); bodyLookAt:
  // the spine (pelvis … head, 2..64). Each joint a descendant of the previous.
  std::vector<int> joints;
  // grounding: [pelvis] or [pelvis, chest] (docs/rig/grounding.md).
  // bodyLookAt: 0, 3 or 6 joints each, [upper arm, forearm, hand] and
  // [hip, knee, ankle] per limb (each limb a chain). grounding: `legs` holds 2
  // or 4 legs of grounding.legJoints joints each ([hip, knee, ankle, toe?]),
  // each leg a chain below the pelvis (four legs: 0–1 hind, 2–3 front, below
  // the chest when one is given).
  std::vector<int> arms;
  std::vector<int> legs;
  // lookAt and bodyLookAt only: 0, 1 or 2 eye joints (left, right), each a
  // descendant of the head (joints.back()) and none of the other joints. The
  // gaze turns them (docs/rig/look-at.md, "Eyes"); the eye options are the kind's
  // (lookAt.eyeYaw …, bodyLookAt.eyeYaw …).
  std::vector<int> eyes;
  CommonSettings common;
  // Options of the kind's job. Their weight is the rig's (common.weight); the
  // aim's `forward`, `up` and the two-bone's `forward`, `bendAxis` come from
  // detection or common. Two-bone `maxStretch` must be 1 (a rig writes
  // rotations only): "maxStretch: the rig does not stretch bones (must be 1)".
  AimJob aim;
  TwoBoneJob twoBone;
  PseudoThreeBoneJob pseudoThreeBone;
  ChainJob chain;                     // method, iterations, tolerance
  std::vector<JointLimit> chainLimits;  // empty, n − 1 or n (as ChainJob::limits)
  // false: chainLimits on the canonical frames (the root's relative to its rest);
  // true: on the joints' own local rotations (three.js bone.quaternion), docs/rig/rig.md, "Chain limits".
  bool chainLimitsLocal = false;
  LookAtSettings lookAt;              // offset; forward from detection or common
  std::vector<float> lookAtWeights;   // one per joint; empty: 1/n, 1/(n−1), …, 1
  std::vector<float> lookAtLimits;    // empty or one per joint
  std::vector<float> lookAtSettleTimes;  // empty (common.settleTime) or one per joint, each > 0
  BodyLookAtSettings bodyLookAt;      // spineJoints follows joints; forward/up detected
  std::vector<float> spineWeights, spineLimits, spineSettleTimes;  // empty or one per spine joint
  // grounding: legJoints (3 or 4) and the scalar options (legs, soleOffsets,
  // weight, settleTime, damping and blendOutTime come from the fields above
  // and common). soleOffsets: empty or one per leg (model units), a NaN entry
  // (or none) takes the effector's rest height above the authored ground;
  // ≤ 0 there → "legs[i]: soleOffset needed (the rest pose puts the ankle at
  // or below the ground)". NaN maxPelvisDrop / maxPelvisRise / plantHeight:
  // 0.35 / 0.1 / 0.03 × the shortest rest leg.
  GroundingSettings grounding;
  std::vector<float> soleOffsets;
  // twist: joints [first, …, last], 2..16, each a descendant of the first and
  // none below the last (docs/rig/twist.md). twistAmounts: empty (the share
  // by twist.spread) or one per joint but the last, each in [−1, 1]: the share
  // of the last joint's twist that joint turns with.
  TwistSettings twist;
  std::vector<float> twistAmounts;
  // avatar: joints [pelvis, spine (1..3), neck (avatar.neck), head]; arms 0,
  // 6 or 8 joints ([shoulder?, upper arm, forearm, hand] left then right);
  // legs 0 or 6 ([upper leg, lower leg, foot] left then right). Its per-frame
  // inputs are six targets (head, left hand, right hand, pelvis, left foot,
  // right foot: rig/avatar.h's AvatarTarget) in targets().
  AvatarSettings avatar;
  // springs (docs/rig/springs.md): joints [center] (the space the motion is
  // simulated in) or [] (the rig's root); legs: the chains' joints, chain
  // after chain (springChains: each chain's joint count, each a chain of
  // descendants), then any joints the colliders are attached to.
  // springJoints (JS jointSettings): empty (springs.joint for all) or one per chain joint.
  // springChainColliders (JS chainColliders; VRM's collider groups): empty
  // (every chain meets every collider) or one mask per chain, bit k: it meets
  // springColliders[k] (at most 64 colliders then).
  SpringsSettings springs;
  std::vector<int> springChains;
  std::vector<SpringCollider> springColliders;
  std::vector<SpringJoint> springJoints;
  std::vector<std::uint64_t> springChainColliders;
};

// Defaults for a kind (look-at: settleTime 0.3 as LookAtSettings).
ConstraintSettings DefaultSettings(ConstraintKind kind);

namespace detail {
// A joint's model transform (rig.h, "Spaces").
struct ModelTransform {
  glm::vec3 position{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};
};
// The root transform of a frame and what maps world into model space.
struct RootFrame {
  LocalTransform transform{};
  glm::quat inverse{1.0f, 0.0f, 0.0f, 0.0f};
  float scale = 1.0f;  // the mean absolute scale (model → world lengths)
};
struct Constraint;  // a prepared constraint: generic part and its kind's state (cpp/src/rig/kinds/registry.h)
}  // namespace detail

// The rig. Plain order of use: Init, Add each constraint (allocates), then
// per frame fill frames() and call Update (never allocates). An error that
// names an index ("constraints[2].…", "in[3].…") is text in the rig itself,
// valid until its next call (copy it to keep it).
class Rig {
 public:
  Rig();
  ~Rig();
  Rig(const Rig&);
  Rig& operator=(const Rig&);
  Rig(Rig&&) noexcept;
  Rig& operator=(Rig&&) noexcept;

  // Takes the skeleton and its rest pose (the axes are detected from it);
  // removes every constraint. rest: one entry per joint (empty: identity
  // locals). Errors: "rest: needs one transform per joint", "rest[i].…: must
  // be finite …". On error nothing changes.
  Status Init(const Skeleton& skeleton, std::span<const LocalTransform> rest = {});
  // New rest pose: every constraint's axes are detected again (smoothing kept).
  Status SetRest(std::span<const LocalTransform> rest);
  // Model-space character forward and up (unit after normalizing; default +Z
  // and +Y, glTF's convention). Re-detects the axes that depend on them.
  Status SetFacing(const glm::vec3& facing);
  Status SetUp(const glm::vec3& up);
  const glm::vec3& facing() const { return facing_; }
  const glm::vec3& up() const { return up_; }

  // Appends a constraint (validated; on error nothing changes). Errors name
  // it: "constraints[2].joints[1]: must be a descendant of joints[0]",
  // "constraints[0].weight: must be in [0, 1]"; "memory: out of memory" when
  // the heap cannot hold it (docs/rig/rig.md, "Out of memory"; Init too).
  // Reallocates frames() and results(): their spans and pointers are invalid after Add.
  Status Add(const ConstraintSettings& settings);
  // Replaces constraint `index`'s settings (same kind). Smoothing state is kept
  // unless the joints change. On error nothing changes.
  Status SetSettings(std::size_t index, const ConstraintSettings& settings);
  const ConstraintSettings& settings(std::size_t index) const;

  // One frame. Checks first and changes nothing on error: dt finite and >= 0
  // ("dt: ..."), in/out one entry per joint ("in: ...", "out: ..."), out not
  // aliasing in, changed empty or one per joint, locals and root finite with
  // non-zero rotations ("in[3].rotation: ..."), frames finite
  // ("frames[1].target: ..."). Then: out = in; each constraint, in order, runs
  // on the pose the previous ones left, writes its joints' local rotations
  // (body look-at also the pelvis translation) into `out`; model transforms
  // are computed lazily, only for what a later constraint reads. changed[j] =
  // 1 where out[j] differs from in[j]. Limb smoothing (docs/rig/rig.md): each
  // frame solves at full weight against the target and pole, then writes
  // out = slerp(current, desired, w). settleTime 0: the frame's target and
  // w = enabled ? weight : 0. settleTime > 0: scalar PDs smooth w (blended out
  // to exactly 0 when disabled) and the world target and pole, so weight,
  // enable and target jumps glide while a steady target is held exactly under
  // any animation; frame-rate independent (exact integrator, targets held
  // over each frame).
  Status Update(float dt, std::span<const LocalTransform> in, const LocalTransform& root,
                std::span<LocalTransform> out, std::span<std::uint8_t> changed = {});

  std::size_t size() const { return skeleton_.size(); }
  // An upper bound of the heap bytes a copy of this rig allocates (the probe
  // of builds without exceptions, docs/rig/rig.md "Out of memory").
  std::size_t HeapBound() const;
  std::size_t constraintCount() const { return frames_.size(); }  // one frame per constraint
  const Skeleton& skeleton() const { return skeleton_; }
  std::span<const LocalTransform> rest() const { return rest_; }
  std::span<ConstraintFrame> frames() { return frames_; }
  // Ground hits, one per leg of every grounding constraint and two (the
  // feet) of every avatar with legs, in constraint order (world space; filled
  // by the caller before Update, hit 0 = none: an avatar's root plane,
  // docs/rig/avatar.md, "Uneven ground").
  // Update checks them: "grounds[3].point: must be finite" (when hit != 0).
  std::span<GroundHit> grounds() { return grounds_; }
  // Where each leg's ground query goes (filled by Probe), indexed as grounds().
  std::span<const GroundProbe> probes() const { return probes_; }
  // Tracked targets of every kind that takes them (an avatar: head, left
  // hand, right hand, pelvis, left foot, right foot), in constraint order; filled by the caller before
  // Update, which checks them ("targets[1].weight: must be in [0, 1]").
  std::span<TargetPose> targets() { return targets_; }
  // Index of constraint `index`'s first target in targets().
  std::size_t targetIndex(std::size_t index) const;
  // Index of constraint `index`'s first leg in grounds()/probes() (0 for other kinds).
  std::size_t groundIndex(std::size_t index) const;
  // A grounding constraint's settings in force: its derived defaults (soleOffsets,
  // maxPelvisDrop, maxPelvisRise, plantHeight, unplantRadius) resolved from the rest pose
  // (other kinds: the defaults).
  const GroundingSettings& groundingSettings(std::size_t index) const;
  // The number of legs constraint `index` has in grounds()/probes()
  // (grounding: 2 or 4; an avatar with legs: 2; else 0).
  std::size_t groundLegs(std::size_t index) const;
  // FK of the animated pose `in` under `root`: fills probes() (the animated
  // sole and hip of every grounding leg, an avatar foot's landing place and
  // hip, world space). Checks in and root as
  // Update does ("in: ...", "in[3].rotation: ...", "root.scale: ..."), and a
  // pose whose transforms overflow float ("in: the pose is out of range (a
  // probe is not finite)"); on error probes() is unchanged. Changes no
  // constraint state.
  Status Probe(std::span<const LocalTransform> in, const LocalTransform& root);
  std::span<const ConstraintResult> results() const { return results_; }
  // The canonical frames F_j of constraint `index` (one per joint, docs/rig/rig.md).
  std::span<const glm::quat> canonicalFrames(std::size_t index) const;
  // The look axis (joint-local) an aim or look-at uses after detection (others: +Z).
  glm::vec3 lookAxis(std::size_t index) const;
  // A look-at's eyes' look axes (joint-local, one per eye): the head's look
  // axis carried into each eye's rest frame.
  std::span<const glm::vec3> eyeAxes(std::size_t index) const;

  // An avatar constraint's scales from one sample of the user standing in a
  // T-pose (docs/rig/avatar.md, "Calibration"): the head and hand target
  // positions (world) under `root` (the user's floor), against the avatar's
  // rest head height and arm span. Changes nothing (SetSettings applies them);
  // errors name the input ("head: must be above the root").
  Status CalibrateAvatar(std::size_t index, const LocalTransform& root, const glm::vec3& head, const glm::vec3& leftHand,
                         const glm::vec3& rightHand, AvatarScales* out) const;

  // Every constraint back to its first frame without rebuilding (docs/rig/rig.md,
  // "Clearing the smoothing"): limb weights blend in again from 0 and their
  // targets and poles restart at the next frame's, look-at and body look-at
  // offsets and gaze are zeroed, grounding drops its offsets and foot locks.
  // Settings, axes and frames() are kept; never allocates.
  void ClearSmoothing();

 private:
  friend class RigBatch;  // reads the prepared constraints (rig_batch.h)
  using ModelTransform = detail::ModelTransform;
  using Constraint = detail::Constraint;

  // Generic stages; each kind's own part runs through its entry in the kind
  // table (cpp/src/rig/kinds/registry.cc). rig.cc: settings; rig_check.cc:
  // checks; rig_update.cc: the frame and the ground probes.
  Status Check(const ConstraintSettings& s, std::size_t index, std::vector<int>* joints);
  Status Configure(Constraint& c, const ConstraintSettings& s, bool keepState);
  Status CheckPose(std::span<const LocalTransform> in, const LocalTransform& root);
  Status CheckFrame(float dt, std::span<const LocalTransform> in, const LocalTransform& root,
                    std::span<LocalTransform> out, std::span<std::uint8_t> changed);
  const ModelTransform& Model(std::size_t joint, std::span<const LocalTransform> out);
  void Compose(std::size_t joint, int parent, std::span<const LocalTransform> out);
  void Reuse(std::span<const LocalTransform> in);
  void Written(std::size_t joint);
  void Solve(std::size_t index, float dt, std::span<LocalTransform> out);
  void Gather(Constraint& c, std::span<const LocalTransform> out);
  bool WriteRotations(Constraint& c, float weight, std::uint32_t translations, std::span<LocalTransform> out);
  void SetRoot(const LocalTransform& root);
  Status Fail(std::size_t index, const char* field, std::size_t item, const char* message);

  Skeleton skeleton_;
  std::vector<LocalTransform> rest_;
  std::vector<ModelTransform> restModel_;
  glm::vec3 facing_{0.0f, 0.0f, 1.0f};
  glm::vec3 up_{0.0f, 1.0f, 0.0f};
  std::vector<Constraint> constraints_;
  std::vector<ConstraintFrame> frames_;
  std::vector<ConstraintResult> results_;
  std::vector<GroundHit> grounds_;
  std::vector<GroundProbe> probes_;
  std::vector<TargetPose> targets_;

  // Per-frame scratch (sized at Init/Add; Update never allocates).
  std::vector<ModelTransform> model_;
  std::vector<std::uint8_t> fresh_;
  // The animated pose's model transforms kept across frames (docs/rig/rig.md,
  // update order): the last Update's `in`, the model transforms it computed for
  // joints no write had moved yet (kept_[j] = 1), and moved_[j] = 1 once a write
  // this frame has changed j's local or an ancestor's.
  std::vector<LocalTransform> lastIn_;
  std::vector<ModelTransform> animatedModel_;
  std::vector<std::uint8_t> kept_, moved_;
  std::vector<int> walk_;
  std::vector<Transform> jobIn_, jobOut_;  // model-space joints of the constraint (canonical frames)
  std::vector<glm::quat> desired_;       // solved model rotations (actual frames)
  detail::RootFrame root_;
  char message_[160] = {};
  char kindMessage_[128] = {};  // a kind's own error text (Check prefixes it into message_)
};

}  // namespace ikpd::rig
