// The aim kind (docs/rig/rig.md): one joint turned to look at the target.
#pragma once

#include "ikpd/ik/aim.h"
#include "kind.h"
#include "limb.h"

namespace ikpd::rig::detail {

struct AimState {
  LimbSmoothing smooth;
  glm::vec3 look{0.0f, 0.0f, 1.0f};  // look axis, joint-local
  glm::vec3 up{0.0f, 1.0f, 0.0f};    // roll axis, joint-local
  AimSetup setup[2];                 // prepared settings: [0] without a pole point, [1] with one
};

extern const KindOps kAimKind;
extern const LaneOps kAimLanes;  // aim_lanes.cc

}  // namespace ikpd::rig::detail
