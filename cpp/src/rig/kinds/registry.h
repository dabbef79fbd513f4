// The kind registry (docs/architecture.md, "Adding a constraint kind"): every
// kind's state in one variant, the prepared constraint that holds it, and the
// table of kinds (registry.cc), indexed by ConstraintKind.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <variant>
#include <vector>

#include "aim.h"
#include "avatar.h"
#include "body_look_at.h"
#include "chain.h"
#include "grounding.h"
#include "kind.h"
#include "look_at.h"
#include "pseudo_three_bone.h"
#include "springs.h"
#include "twist.h"
#include "two_bone.h"

namespace ikpd::rig::detail {

// One alternative per kind, in ConstraintKind's order (registry.cc checks it).
using KindState = std::variant<AimState, TwoBoneState, PseudoThreeBoneState, ChainState, LookAtState, BodyLookAtState,
                               GroundingState, TwistState, AvatarState, SpringsState>;

// A constraint as the rig prepared it: what every kind has, then its own state.
struct Constraint {
  ConstraintSettings settings;
  std::vector<int> joints;            // every joint it reads (spine, arms, legs, eyes)
  std::vector<glm::quat> frames;      // F_j per joint (rig.h, "Axes")
  // Per joint: the last gathered model rotation and its canonical frame Unit(R·F_j)
  // (kept animated transforms repeat it every frame); canonicalSet 0 until then.
  std::vector<glm::quat> canonicalFrom, canonical;
  std::vector<std::uint8_t> canonicalSet;
  std::vector<std::uint16_t> writes;  // slots whose rotation the constraint writes
  std::vector<int> writeAncestors;    // per write: the write (index into writes) of its nearest written ancestor (−1: none)
  std::uint32_t keptRotations = 0;    // slots written with their gathered model rotation (bits; KindOps::keptRotations)
  // Per write, what Rig::WriteRotations reads (from writes, joints, writeAncestors and the skeleton).
  struct WriteStep {
    std::uint32_t slot = 0;
    int joint = 0, parent = -1;        // its joint and the joint's parent (−1: none)
    int ancestorSlot = -1;             // the slot of its nearest written ancestor (−1: none)
    int ancestorJoint = -1;            // that ancestor's joint
  };
  std::vector<WriteStep> writeSteps;
  std::size_t groundFirst = 0;        // first leg in grounds()/probes()
  std::size_t targetFirst = 0;        // first target in targets()
  KindState state;
};

// One character's state of a kind with per-character state in a RigBatch
// (KindOps::solveCharacter): a copy of the configured constraint's state.
struct CharacterState {
  KindState state;
};

// The table entry of a kind (nullptr: not a kind), and of a constraint.
const KindOps* FindKind(ConstraintKind kind);
inline const KindOps& Kind(const Constraint& c) { return *FindKind(c.settings.kind); }
// Every registered kind, in ConstraintKind's order.
std::size_t KindCount();
const KindOps& KindAt(std::size_t index);
// c.state holds `kind`'s default state (unless it already held that kind's).
void EnsureState(Constraint& c, ConstraintKind kind);

// The look axis an aim or look-at detected (others: +Z), and a look-at's eye axes.
glm::vec3 LookAxis(const Constraint& c);
std::span<const glm::vec3> EyeAxes(const Constraint& c);

// A limb kind's clearSmoothing entry (aim, two-bone, pseudo three-bone, chain):
// its state's smoothing back to the first frame.
template <class State>
void ClearLimbSmoothing(Constraint& c) {
  ClearSmoothing(std::get<State>(c.state).smooth);
}

// The solved model rotation of slot k (canonical frame) back in the joint's own frame.
inline void Back(const Stage& stage, const Constraint& c, std::size_t k, const glm::quat& solved) {
  stage.desired[k] = Unit(solved * glm::conjugate(c.frames[k]));
}
// The same, not normalized (Outcome::direct: the local's own normalization
// follows); RigBatch::Locals takes the same product.
inline void BackDirect(const Stage& stage, const Constraint& c, std::size_t k, const glm::quat& solved) {
  stage.desired[k] = solved * glm::conjugate(c.frames[k]);
}

}  // namespace ikpd::rig::detail
