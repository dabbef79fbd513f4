// Embind: a rig constraint's settings as JS packs them for add()/set() (the
// rig and rig batch bindings share the format).
//
// Packed at `p`:
//   [0] joints J, [1] arms A, [2] legs L, then J + A + L joint indices
//   | common[17]: weight enabled settleTime damping blendOutTime
//                 forward(x y z given) bendAxis(x y z given) up(x y z given)
//   | the kind's packed job (its description in cpp/src/ik/fields.h or cpp/src/rig/fields.h:
//     only its options are read)
//   | extras: pseudoThreeBone blend; chain limitsLocal (0 or 1), M then M × 11 limit floats
//     (chain_job.h); lookAt and bodyLookAt hasWeights hasLimits
//     hasSettleTimes then J each given;
//     both look-ats then E (0..2) and E eye joint indices.
//     grounding: its block is kGroundingFloats (legJoints, then its described
//     options, cpp/src/rig/fields.h; NaN: the derived default), then hasSoleOffsets and
//     one sole offset per leg when given (NaN: from the rest pose).
#pragma once

#include "../conventions.h"
#include "ikpd/rig/rig.h"

namespace ikpd::bindings {

// A ConstraintKind value the readers know (one per registered kind).
bool KnownKind(std::uint32_t kind);

// Reads joints, common settings, the kind's options and extras into `s`
// (defaults first); false when the counts do not fit (JS checks them first).
bool ReadConstraintSettings(const float* p, rig::ConstraintKind kind, rig::ConstraintSettings& s);

// set(index, offset) of the rig and rig batch handles: constraint `index` of
// `rig` gets the settings packed at `offset`, applied by target.SetSettings
// (`target` is the rig itself, or a RigBatch whose template it is).
template <class Target>
Status SetPacked(Target& target, const rig::Rig& rig, std::uint32_t index, std::uintptr_t offset) {
  if (index >= rig.constraintCount()) return Error("index: no constraint with that index");
  rig::ConstraintSettings s;
  if (!ReadConstraintSettings(Floats(offset), rig.settings(index).kind, s)) return Error("joints: too many");
  return target.SetSettings(index, s);
}

}  // namespace ikpd::bindings
