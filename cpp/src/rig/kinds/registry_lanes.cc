// The kinds RigBatch solves in lanes (lanes.h; docs/architecture.md, "Adding
// a constraint kind"): one line per kind that has a LaneOps entry, in its own
// file. Reached from RigBatch only (so ikpd-rig links no batch kernel).
#include <array>

#include "lanes.h"
#include "registry.h"

namespace ikpd::rig::detail {

namespace {

constexpr std::array<const LaneOps*, 3> kLaneKinds = {
    &kAimLanes,
    &kTwoBoneLanes,
    &kPseudoThreeBoneLanes,
};

}  // namespace

const LaneOps* FindLanes(ConstraintKind kind) {
  for (const LaneOps* lanes : kLaneKinds) {
    if (lanes->kind == kind) return lanes;
  }
  return nullptr;
}

}  // namespace ikpd::rig::detail
