// The kinds RigBatch solves in lanes (docs/rig/rig-batch.md, "A frame"):
// their entries (LaneOps, listed in registry_lanes.cc) and what they share:
// running a batch job with a fallback item by item, and the limbs' (two-bone,
// pseudo three-bone) arrays, canonical options and results (limb_lanes.cc).
// A table apart from KindOps, reached from RigBatch only, so a module without
// RigBatch (WebAssembly's ikpd-rig) links no batch kernel.
#pragma once

#include <cstddef>

#include "ikpd/batch/common.h"
#include "ikpd/ik/two_bone.h"
#include "kind.h"

namespace ikpd::rig::detail {

// A kind's entry as RigBatch solves it in lanes (the aim, the limbs), in its
// own file: `solve`, its batch job over the stage's characters with the
// settings Configure prepared (weight 1), solved rotations, reached and
// distance (world units) filled, never allocating; `poleDirection`, its pole
// direction option if it has one set (true; a world vector RigBatch maps into
// each character's model space as stage.poles when no pole point is read;
// null: none).
struct LaneOps {
  ConstraintKind kind;
  void (*solve)(const LaneStage& stage, const Constraint& c);
  bool (*poleDirection)(const ConstraintSettings& s, glm::vec3* direction) = nullptr;
};
// The lane entry of a kind (registry_lanes.cc; nullptr: not solved in lanes).
const LaneOps* FindLanes(ConstraintKind kind);

// Runs `job` over its items; should it fail (an item whose model-space values
// overflow float, or settings the job cannot take), item by item, and `keep(k)`
// for each item that fails alone: that character keeps its pose (as Rig).
template <class Job, class Shift, class Keep>
void RunOrKeep(const Job& job, Shift&& shift, Keep&& keep) {
  if (job.Run()) return;
  for (std::size_t k = 0; k < job.count; ++k) {
    Job one = job;
    shift(one, k);
    one.count = 1;
    if (!one.Run()) keep(k);
  }
}

// A limb's batch arrays over the stage (slots 0, 1, 2: root, mid, end) and
// its pole mode: the point this frame, else `limb`'s poleDirection, else none.
LimbBatchArrays LimbArrays(const LaneStage& stage, const Constraint& c, const TwoBoneSettings& limb);
// The limb options as the batch job takes them: the canonical frames (forward
// +X, hinge +Z), weight 1, no effector offset, the pole from the arrays.
TwoBoneJob CanonicalOptions(const TwoBoneFrame& frame, const TwoBoneSettings& settings);
// One item's arrays of a limb job moved to item k.
void ShiftLimb(LimbBatchArrays& a, std::size_t k);
// Character ch keeps its pose: slots 0-2 as gathered, reached and distance 0.
void KeepLimb(const LaneStage& stage, std::size_t ch);
// The distances in world units (× each character's root scale, as Rig).
void LimbDistancesInWorld(const LaneStage& stage);

// A limb kind's lane solve: `job` (its arrays and options filled by the kind)
// run unless its setup is not `prepared` (settings that cannot take this pole:
// every character keeps its pose), then the distances in world units.
template <class Job, class Shift>
void SolveLimbLanes(const LaneStage& stage, bool prepared, const Job& job, Shift&& shift) {
  if (!prepared) {
    for (std::size_t ch = stage.c0; ch < stage.c1; ++ch) KeepLimb(stage, ch);
    return;
  }
  RunOrKeep(job, shift, [&](std::size_t k) { KeepLimb(stage, stage.c0 + k); });
  LimbDistancesInWorld(stage);
}

}  // namespace ikpd::rig::detail
