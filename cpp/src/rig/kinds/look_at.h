// The look-at kind (docs/rig/look-at.md): a spine of 2..64 joints and 0..2 eyes
// turned toward the target by the LookAt job, smoothing included.
#pragma once

#include "ikpd/rig/look_at.h"
#include "kind.h"
#include "look.h"

namespace ikpd::rig::detail {

struct LookAtState {
  LookAt job;
  LookAxes axes;
};

extern const KindOps kLookAtKind;

}  // namespace ikpd::rig::detail
