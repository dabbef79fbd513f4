// The body look-at kind (docs/rig/body-look-at.md): the spine, arms, legs and
// eyes of a full-body look by the BodyLookAt job.
#pragma once

#include <vector>

#include "ikpd/rig/body_look_at.h"
#include "kind.h"

namespace ikpd::rig::detail {

struct BodyLookAtState {
  BodyLookAt job;
  glm::vec3 look{0.0f, 0.0f, 1.0f};  // the head's look axis, joint-local
  std::vector<glm::vec3> eyeAxes;    // each eye's look axis, joint-local
};

extern const KindOps kBodyLookAtKind;

}  // namespace ikpd::rig::detail
