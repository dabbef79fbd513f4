// The constraint kind interface (docs/architecture.md, "Adding a constraint
// kind"): what a kind tells the rig's generic stages, one table entry per kind
// (registry.cc). A kind's functions see the rig through Setup (settings time)
// and Stage (a frame); its state lives in the constraint's KindState.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "../rig_math.h"
#include "ikpd/rig/rig.h"

namespace ikpd::rig::detail {

// What a kind reads of the rig while settings are checked and prepared.
struct Setup {
  const Skeleton& skeleton;
  const ModelTransform* rest;  // per skeleton joint: the rest pose in model space
  glm::vec3 facing, up;       // the character's (model space, unit)
  char* text;                 // a kind's formatted error text (the rig prefixes "constraints[i].")
  std::size_t textSize;
  const ModelTransform& Rest(int joint) const { return rest[static_cast<std::size_t>(joint)]; }
};

// What a kind reads and writes during a frame (Update, Probe), after the rig
// gathered the constraint's joints: jobIn[k] is joint k (c.joints order) in
// model space in its canonical frame; model[] is fresh for those joints and
// their parents. The solve leaves desired[k] (solved model rotations, actual
// frames) for the slots it writes, and jobOut[0].position for a moved pelvis.
struct Stage {
  const Skeleton* skeleton;
  const ModelTransform* model;
  Transform* jobIn;
  Transform* jobOut;
  glm::quat* desired;
  const GroundHit* grounds;  // every grounding leg's hit (Rig::grounds())
  const TargetPose* targets; // the constraint's own targets (Rig::targets() from its targetIndex)
  RootFrame root;
  glm::vec3 facing, up;

  glm::vec3 ToModel(const glm::vec3& world) const {
    return (root.inverse * (world - root.transform.translation)) / root.transform.scale;
  }
  glm::vec3 ToModelVector(const glm::vec3& world) const { return (root.inverse * world) / root.transform.scale; }
  Transform ToWorld(const Transform& inModel) const {
    const LocalTransform& r = root.transform;
    return {r.translation + r.rotation * (r.scale * inModel.position), glm::normalize(r.rotation * inModel.rotation)};
  }
};

// The pose as a kind that gathers and writes its own joints sees it
// (KindOps::solvePose): `out` (the pose so far), the model transform of any
// joint in it (Rig::Model: computed lazily; read them all before the first
// write) and the rig told of each local the kind changed (its subtree stale).
struct PoseAccess {
  std::span<LocalTransform> out;
  void* rig;
  const ModelTransform& (*model)(void* rig, std::size_t joint, std::span<const LocalTransform> out);
  void (*written)(void* rig, std::size_t joint);
  const ModelTransform& Model(std::size_t joint) const { return model(rig, joint, out); }
  void Written(std::size_t joint) const { written(rig, joint); }
};

// What a solve asks the rig to write: nothing (the animated pose stands), or
// the desired rotations slerped by `weight` (1: exactly desired), and the
// translations of the slots in `translations` (bits; slots below 32): each
// slot's jobOut[k].position (model space, its weights already in it) taken as
// the joint's translation, written in slot order after the rotations (a
// slot's parent before it). KindOps::movesPelvis adds slot 0 every frame
// (docs/rig/rig.md; the avatar's arm stretch: docs/rig/avatar.md).
struct Outcome {
  bool write = false;
  float weight = 1.0f;
  std::uint32_t translations = 0;
};

// What a kind solved in lanes by a RigBatch (LaneOps, lanes.h) reads and
// writes for characters [c0, c1) of one constraint, after the batch gathered
// it (docs/rig/rig-batch.md, "A frame"); N = count, c = character, k = slot
// (index into c.joints), j = joint. A character the kind cannot solve keeps
// its pose: its solved rotations are its gathered ones.
struct LaneStage {
  std::size_t count, c0, c1;
  bool pole;                 // the poles are read this frame (RigBatch::poleSet())
  const float* positions;    // model positions, joint-major: [(j·N + c)·3]
  const float* rotations;    // slot k's gathered model rotation in its canonical frame: [(k·N + c)·4]
  const float* targets;      // the (smoothed) target in each character's model space: [c·3]
  const float* poles;        // the pole point, or the kind's poleDirection, mapped as the target: [c·3]
  const float* rootScales;   // [c]
  float* solved;             // slot k's solved model rotation (canonical frame): [(k·N + c)·4]
  float* moved;              // scratch positions of slot k: [(k·N + c)·3]
  float* reached;            // the constraint's results (ConstraintResult): [c]
  float* distance;

  // Slot k's (joint j's) arrays at character c0.
  const float* Position(int joint) const { return positions + (static_cast<std::size_t>(joint) * count + c0) * 3; }
  const float* Rotation(std::size_t k) const { return rotations + (k * count + c0) * 4; }
  float* Solved(std::size_t k) const { return solved + (k * count + c0) * 4; }
  float* Moved(std::size_t k) const { return moved + (k * count + c0) * 3; }
};

struct Constraint;
struct CharacterState;  // one character's copy of a kind's state in a RigBatch (registry.h)
struct LaneOps;         // a kind's entry as a RigBatch solves it in lanes (lanes.h)

// One kind's entry in the table. Every function is given; a kind without a
// part uses the shared ones (limb.h, look.h) or the defaults below.
struct KindOps {
  ConstraintKind kind;
  const char* name;             // as JS names it (errors, RigBatch)
  std::size_t minJoints, maxJoints;
  bool eyes;                    // takes eye joints (docs/rig/look-at.md, "Eyes")
  bool positiveSettleTime;      // settleTime must be > 0
  bool batch;                   // a RigBatch solves it (docs/rig/rig-batch.md)
  bool movesPelvis;             // writes joints[0]'s translation too (jobOut[0].position; Outcome::translations bit 0 every frame)
  // Settings: the kind's defaults over ConstraintSettings{}; its arms and legs
  // checked (after the joints); its options checked (after the common ones).
  // Both return the text after "constraints[i]." (formatted into setup.text).
  void (*defaults)(ConstraintSettings& s);
  Status (*checkLimbs)(const Setup& setup, const ConstraintSettings& s);
  Status (*checkOptions)(const Setup& setup, const ConstraintSettings& s);
  // Prepare: the canonical frames and axes from the rest pose (c.frames is
  // identity per joint on entry), the slots it writes (indices into c.joints;
  // the eyes are added after them), then its state (keepState: smoothing kept).
  void (*detectAxes)(const Setup& setup, Constraint& c);
  void (*writes)(const ConstraintSettings& s, std::vector<std::uint16_t>& out);
  Status (*configure)(const Setup& setup, Constraint& c, bool keepState);
  // Back to the first frame (Rig::ClearSmoothing); never allocates.
  void (*clearSmoothing)(Constraint& c);
  // A frame: solve on stage.jobIn, fill the result.
  Outcome (*solve)(const Stage& stage, Constraint& c, float dt, const ConstraintFrame& f, ConstraintResult& r);
  // Ground queries: legs in grounds()/probes(), and where leg i queries (stage.model fresh for c.joints, animated pose).
  std::size_t (*groundLegs)(const Constraint& c);
  GroundProbe (*probe)(const Stage& stage, const Constraint& c, std::size_t leg);
  std::size_t targets = 0;      // its tracked targets in Rig::targets() (avatar: head, left hand, right hand)
  // A batch kind with per-character state (springs; docs/rig/rig-batch.md,
  // "Kinds with state"): RigBatch keeps one CharacterState per character (the
  // configured c.state, cleared) and solves each character with
  // solveCharacter: the kind's solve on that state, with `common` (the
  // character's weight folded in) for c.settings.common. Its stage has no
  // model, grounds, targets or jobOut (null): the kind reads jobIn and root
  // only and writes desired. clearCharacter: one character back to its first
  // frame (Rig::ClearSmoothing); never allocates. Null: the batch solves the
  // kind in lanes.
  Outcome (*solveCharacter)(const Stage& stage, const Constraint& c, const CommonSettings& common, CharacterState& state,
                            float dt, ConstraintResult& r) = nullptr;
  void (*clearCharacter)(CharacterState& state) = nullptr;
  // A kind that reads its joints and writes their locals itself (springs:
  // along its chains, in lanes), called by Rig instead of its gather, solve
  // and write: the floats those gave before the write took each parent
  // unnormalized (docs/performance.md, the write-back; RigBatch's per-character
  // write keeps the springs' formulas). stage.jobIn and jobOut are
  // scratch (not filled); desired holds the solved rotations. Returns whether
  // a local changed (ConstraintResult::active). Null: the rig's stages.
  bool (*solvePose)(const Stage& stage, const PoseAccess& pose, Constraint& c, float dt, const ConstraintFrame& f,
                    ConstraintResult& r) = nullptr;
  // The limbs' solve: desired holds products of unit rotations, not normalized
  // (BackDirect), which RigBatch::Locals mirrors (the rig's write takes every
  // kind's desired as it is: its locals' own normalization absorbs the norms;
  // docs/performance.md, "three.js path", the limbs' round trip and the write-back).
  bool directWrites = false;
  // The slots (bits; slots below 32) whose written rotation is the joint's
  // model rotation as gathered, exactly, whatever the solve left in desired
  // (a two-bone end that keeps its world rotation): the rig's write
  // (Rig::WriteRotations) and RigBatch::Locals take it as the solved rotation,
  // not normalized again. Read once per settings (Constraint::keptRotations).
  // Null: none.
  std::uint32_t (*keptRotations)(const ConstraintSettings& s) = nullptr;
  // A grounding constraint's settings in force, its derived defaults resolved
  // (Rig::groundingSettings). Null: the kind has none (Rig gives the defaults).
  const GroundingSettings* (*groundingSettings)(const Constraint& c) = nullptr;
};

// Defaults for the parts a kind does not have.
inline void NoDefaults(ConstraintSettings&) {}
// The common smoothing defaults taken from a job's own (look-at, grounding).
template <class Job>
void SmoothingDefaultsOf(const Job& job, CommonSettings& common) {
  common.settleTime = job.settleTime, common.damping = job.damping, common.blendOutTime = job.blendOutTime;
}
Status NoArmsOrLegs(const Setup& setup, const ConstraintSettings& s);
inline std::size_t NoGroundLegs(const Constraint&) { return 0; }
inline GroundProbe NoProbe(const Stage&, const Constraint&, std::size_t) { return {}; }
// Writes joints[0, n − 1) (chains: the tip keeps its rotation relative to its parent) or all.
void WritesAllButTip(const ConstraintSettings& s, std::vector<std::uint16_t>& out);
void WritesAll(const ConstraintSettings& s, std::vector<std::uint16_t>& out);
// Each joint a valid index and a descendant of the one before; errors name
// field[first + k] ("legs[4]: must be a descendant of legs[3] (joint 7)").
Status CheckChain(const Setup& setup, std::span<const int> joints, const char* field, std::size_t first = 0);
// Formats an item's error ("legs[1][2]: must be ...") into setup.text.
Status FailText(const Setup& setup, const char* format, ...);

}  // namespace ikpd::rig::detail
