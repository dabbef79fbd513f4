// ikpd — many characters with one rig (docs/rig/rig-batch.md): N characters
// that share one skeleton, rest pose and constraint stack, solved side by side.
// The stack comes from a configured Rig (the template: skeleton, rest pose,
// facing, detected axes, settings); each character has its own animated
// locals, root, targets, poles, weights and smoothing state. Every stage runs
// over the characters in SIMD lanes: forward kinematics, the aim, two-bone and
// pseudo three-bone solves (the batch kernels, docs/batch/batches.md) and the
// smoothing of weights, targets and poles (the scalar PD's lane step). A
// springs constraint keeps each character's state (tails, clock, weight PD)
// and is solved per character by the kind's own solve: bit for bit the Rig's
// (docs/rig/rig-batch.md, "Kinds with state").
//
// Layout (structure of arrays, joint-major: all characters of joint 0, then of
// joint 1, …; c = character, j = joint, N = count()):
//   translations()[(j·N + c)·3 + k], rotations()[(j·N + c)·4 + k] ([x, y, z, w]),
//   scales()[(j·N + c)·3 + k]: the animated locals (frame input);
//   output()[(j·N + c)·4 + k]: the solved local rotations (a rig batch writes
//   rotations only; translations and scales stay the animated ones);
//   rootPositions()[c·3 + k], rootRotations()[c·4 + k], rootScales()[c]: each
//   character's root (world placement; uniform scale > 0);
//   per constraint i: targets(i)[c·3 + k], poles(i)[c·3 + k] (world space),
//   weights(i)[c] in [0, 1] (multiplies the constraint's weight; starts at 1),
//   poleSet()[i] != 0: the poles of constraint i are read this frame (shared by
//   all characters; aim: a world up target, two-bone/pseudo: a pole point);
//   reached(i)[c], distance(i)[c]: the results, as ConstraintResult.
//
// Each character's result is its own Rig's (the template copied per character
// and updated with the same inputs) to float rounding: settleTime 0 agrees to
// ~1e-5 rad; with smoothing the lane PD steps (float) stay within ~1e-4 rad of
// the Rig's double PDs, blend-out included (disabled constraints blend out to
// exactly the animated pose, as in Rig).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ikpd/rig/rig.h"

namespace ikpd::rig {

namespace detail {
struct CharacterState;  // a kind's per-character state (springs; cpp/src/rig/kinds/registry.h)
struct LaneOps;         // a kind solved in lanes (aim, two-bone, pseudo three-bone; cpp/src/rig/kinds/lanes.h)
}  // namespace detail

// Most characters one RigBatch holds.
constexpr std::size_t kMaxRigBatchCount = std::size_t{1} << 20;

class RigBatch {
 public:
  RigBatch();
  ~RigBatch();
  RigBatch(const RigBatch&);
  RigBatch& operator=(const RigBatch&);
  RigBatch(RigBatch&&) noexcept;
  RigBatch& operator=(RigBatch&&) noexcept;

  // Takes a copy of `rig` (skeleton, rest, facing/up, constraints) and room for
  // `count` characters; locals start at the rest pose, roots at identity,
  // targets and poles at 0, weights at 1, smoothing at rest.
  // Errors (nothing changes):
  //   "rig: not initialized (Init first)"
  //   "count: must be in [1, 1048576]"
  //   "constraints[i]: a rig batch solves aim, twoBone, pseudoThreeBone and
  //    springs constraints (lookAt: use a Rig per character)" (the kind's name)
  // A springs constraint keeps each character's spring state (tails, clock,
  // smoothing) in the batch, made here from the template's settings and
  // cleared (each character starts from its first frame's pose).
  //   "count: out of memory" (a failed allocation)
  Status Init(const Rig& rig, std::size_t count);
  // Replaces constraint `index`'s settings as Rig::SetSettings does (same kind,
  // same validation, same messages); smoothing state kept unless the joints change.
  Status SetSettings(std::size_t index, const ConstraintSettings& settings);

  // One frame for characters [first, first + count) (Update(dt): all of them).
  // Disjoint ranges touch disjoint state, so threads may run them at once.
  // Checks first and changes nothing on error (the first bad value in
  // character order, then joint/constraint order):
  //   "dt: must be finite and >= 0"
  //   "range: [first, first + count) must lie in [0, count())"
  //   "characters[c].in[j].rotation: must be finite and non-zero" (translation,
  //    scale: "must be finite")
  //   "characters[c].root.position: must be finite",
  //   "characters[c].root.rotation: must be finite and non-zero",
  //   "characters[c].root.scale: must be finite and > 0"
  //   "constraints[i].targets[c]: must be finite" (poles[c] when poleSet)
  //   "constraints[i].weights[c]: must be in [0, 1]"
  // Then, per character, exactly Rig::Update's order of stages: out = in; each
  // constraint in order solves on the pose the previous ones left and writes
  // its joints' local rotations (weight, enable and smoothing as Rig).
  // Never allocates.
  Status Update(float dt);
  Status Update(float dt, std::size_t first, std::size_t count);
  // Characters [first, first + count) back to their first frame, as
  // Rig::ClearSmoothing for each: every constraint's smoothing at rest and the
  // springs' tails restarted from the next frame's pose. Other characters keep
  // theirs. Never allocates. Errors: "range: [first, first + count) must lie
  // in [0, count())" (nothing changes).
  Status ClearSmoothing();
  Status ClearSmoothing(std::size_t first, std::size_t count);

  std::size_t count() const { return count_; }
  std::size_t jointCount() const { return template_.size(); }
  std::size_t constraintCount() const { return template_.constraintCount(); }
  const Rig& rig() const { return template_; }

  std::span<float> translations() { return translations_; }
  std::span<float> rotations() { return rotations_; }
  std::span<float> scales() { return scales_; }
  std::span<const float> output() const { return output_; }
  std::span<float> rootPositions() { return rootPositions_; }
  std::span<float> rootRotations() { return rootRotations_; }
  std::span<float> rootScales() { return rootScales_; }
  std::span<std::uint8_t> poleSet() { return poleSet_; }
  std::span<float> targets(std::size_t constraint);
  std::span<float> poles(std::size_t constraint);
  std::span<float> weights(std::size_t constraint);
  std::span<const float> reached(std::size_t constraint) const;
  std::span<const float> distance(std::size_t constraint) const;

 private:
  // One joint a constraint writes, the same for every character (from the
  // template at Init/SetSettings): its slot in the constraint, its parent and
  // the nearest written ancestor whose solved change turns that parent.
  struct Write {
    std::uint32_t joint = 0;
    std::uint32_t slot = 0;
    int parent = -1;          // skeleton parent (−1: none)
    int ancestor = -1;        // nearest written ancestor joint (−1: none)
    int ancestorWrite = -1;   // its write (index into Plan::writes)
  };
  // A joint whose model transform is computed before a constraint (stale and
  // read), with its slot in the constraint (kNoSlot: not one of its joints),
  // where Kinematics also puts it in its canonical frame.
  struct Stale {
    static constexpr std::uint32_t kNoSlot = 0xffffffffu;
    std::uint32_t joint = 0;
    std::uint32_t slot = kNoSlot;
  };
  // What a constraint's stages need, derived once.
  struct Plan {
    std::vector<Write> writes;
    std::vector<Stale> kinematics;       // ascending joints: parents first
    std::vector<std::uint32_t> gather;   // the slots Kinematics does not frame (their joints are fresh)
    pd::PdSettings smoothing;            // its smoothing PDs' settings (as Rig::Configure)
    std::size_t states = kNoStates;      // a kind with per-character state: its first in states_
    const detail::LaneOps* lanes = nullptr;  // else its lane solve
  };
  static constexpr std::size_t kNoStates = ~std::size_t{0};
  // Stages (rig_batch_stages.cc, rig_batch_locals.cc, rig_batch_smooth.cc), over characters [c0, c1).
  Status CheckRange(float dt, std::size_t first, std::size_t count);
  bool RangeValid(std::size_t first, std::size_t count) const;
  void Derive(const Rig& rig, std::size_t count, std::vector<Plan>* plans) const;
  void Chunk(float dt, std::size_t c0, std::size_t c1);
  void Kinematics(std::size_t index, std::size_t c0, std::size_t c1);
  void Inputs(std::size_t index, float dt, std::size_t c0, std::size_t c1);
  const float* Targets(std::size_t index) const;  // targets_ or, with smoothing, smoothTargets_
  const float* Poles(std::size_t index) const;
  // The locals of `joint` as constraint `index` finds them (joint-major as
  // output()): output_ once an earlier constraint wrote it this frame, else the
  // animated rotations_ (a written joint's out = in is its first write).
  const float* Pose(std::size_t index, std::uint32_t joint) const;
  void Gather(std::size_t index, std::size_t c0, std::size_t c1);
  void Solve(std::size_t index, std::size_t c0, std::size_t c1);  // the kind's LaneOps::solve
  void Locals(std::size_t index, std::size_t c0, std::size_t c1);
  void ResetSmoothing(std::size_t index);
  // A kind with per-character state (rig_batch_characters.cc): each character
  // gathered, solved on its state by its kind and written as Rig::WriteRotations.
  void SolveCharacters(std::size_t index, float dt, std::size_t c0, std::size_t c1);
  Status Fail(const char* format, ...) __attribute__((format(printf, 2, 3)));  // message_, indices filled in

  Rig template_;
  std::size_t count_ = 0;
  std::vector<float> translations_, rotations_, scales_, output_;
  std::vector<float> rootPositions_, rootRotations_, rootScales_;
  std::vector<std::uint8_t> poleSet_;
  // Per constraint i, character c: [i·N + c] (×3 for points).
  std::vector<float> targets_, poles_, weights_, reached_, distance_;
  std::vector<Plan> plans_;
  std::vector<std::uint32_t> firstWriter_;  // per joint: the first constraint that writes it (constraintCount(): none)
  // Model transforms, joint-major as the locals; rotations and scales (read by
  // the stages only) in lane blocks of rig_batch_lanes.h ([j·B·4 …], B =
  // count rounded up to whole blocks), positions as the locals (the jobs read them).
  std::vector<float> modelPositions_, modelRotations_, modelScales_;
  // Smoothing (Rig::SmoothInputs), per constraint i and character c, [i·N + c]:
  // the effective weight's PD (value, velocity, blend-out phase (pd::BlendPhase),
  // the value the linear part starts from and its elapsed time), which points
  // are held (bit 1 target, 2 pole); ×3: the smoothed targets and poles and
  // their velocities.
  std::vector<float> weightValues_, weightVelocities_, blendFrom_, blendTime_;
  std::vector<std::uint8_t> phase_, held_;
  std::vector<float> smoothTargets_, targetVelocities_, smoothPoles_, poleVelocities_;
  // Scratch per character (disjoint ranges never share it): slots k < 4 of the
  // constraint being solved ([k·N + c]: rotations in canonical frames; the jobs
  // read positions from modelPositions_ itself), the mapped target and pole,
  // the weight's goal and the effective weight of the constraint being solved.
  std::vector<float> jobRotations_, solvedRotations_, solvedPositions_;
  std::vector<float> modelTargets_, modelPoles_, weightGoals_, weightNow_;
  std::vector<float> rootUnits_;  // the unit root rotations, per chunk (every Gather reads them; lane blocks)
  // Kinds with per-character state: per such constraint (Plan::states), one
  // state per character; and per character the scratch of its solve (its
  // joints gathered, the desired rotations: [c·stateJoints_ + k]).
  std::vector<detail::CharacterState> states_;
  std::size_t stateJoints_ = 0;
  std::vector<Transform> characterIn_;
  std::vector<glm::quat> characterDesired_;
  char message_[160] = {};
};

}  // namespace ikpd::rig
