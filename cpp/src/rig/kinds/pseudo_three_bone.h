// The pseudo three-bone kind (docs/rig/rig.md): a two-bone limb whose tip follows its end.
#pragma once

#include "ikpd/ik/pseudo_three_bone.h"
#include "kind.h"
#include "limb.h"

namespace ikpd::rig::detail {

struct PseudoThreeBoneState {
  LimbSmoothing smooth;
  PseudoThreeBoneSetup setup[2];  // prepared settings: [0] without a pole point, [1] with one
};

extern const KindOps kPseudoThreeBoneKind;
extern const LaneOps kPseudoThreeBoneLanes;

}  // namespace ikpd::rig::detail
