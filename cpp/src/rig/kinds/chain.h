// The chain kind (docs/rig/rig.md): 2..256 joints solved to the target.
#pragma once

#include "ikpd/ik/chain.h"
#include "kind.h"
#include "limb.h"

namespace ikpd::rig::detail {

struct ChainState {
  LimbSmoothing smooth;
  glm::quat rootRest{1.0f, 0.0f, 0.0f, 0.0f};  // the root's rest local rotation · F_0 (local limits: identity)
  // Local limits: the bone axis every joint but the tip shares (its frames then
  // identity), else +X (the canonical frames; cone axes carried into them).
  glm::vec3 forward{1.0f, 0.0f, 0.0f};
  bool sharedAxis = false;
  std::vector<JointLimit> limits;  // the limits the job sees (settings.chainLimits, cone axes in its frames)
  // Prepared settings (limits: a view of `limits`, prepared again in the
  // solve when a copy of the constraint moved that storage).
  ChainSetup setup;
};

extern const KindOps kChainKind;

}  // namespace ikpd::rig::detail
