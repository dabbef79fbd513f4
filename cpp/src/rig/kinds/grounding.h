// The grounding kind (docs/rig/grounding.md): the pelvis (and chest) and 2 or 4
// legs kept on the ground the caller's hits give, by the Grounding job.
#pragma once

#include "ikpd/rig/grounding.h"
#include "kind.h"

namespace ikpd::rig::detail {

struct GroundingState {
  Grounding job;
};

extern const KindOps kGroundingKind;

}  // namespace ikpd::rig::detail
