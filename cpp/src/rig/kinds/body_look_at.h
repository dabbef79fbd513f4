// The body look-at kind (docs/rig/body-look-at.md): the spine, arms, legs and
// eyes of a full-body look by the BodyLookAt job.
#pragma once

#include "ikpd/rig/body_look_at.h"
#include "kind.h"
#include "look.h"

namespace ikpd::rig::detail {

struct BodyLookAtState {
  BodyLookAt job;
  LookAxes axes;
};

extern const KindOps kBodyLookAtKind;

}  // namespace ikpd::rig::detail
