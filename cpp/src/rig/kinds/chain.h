// The chain kind (docs/rig/rig.md): 2..256 joints solved to the target.
#pragma once

#include "ikpd/ik/chain.h"
#include "kind.h"
#include "limb.h"

namespace ikpd::rig::detail {

struct ChainState {
  LimbSmoothing smooth;
  glm::quat rootRest{1.0f, 0.0f, 0.0f, 0.0f};  // the root's rest local rotation · F_0
  // Prepared settings (limits: a view of settings.chainLimits, prepared again
  // in the solve when a copy of the constraint moved that storage).
  ChainSetup setup;
};

extern const KindOps kChainKind;

}  // namespace ikpd::rig::detail
