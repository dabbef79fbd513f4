// The look-at kind (docs/rig/look-at.md): a spine of 2..64 joints and 0..2 eyes
// turned toward the target by the LookAt job, smoothing included.
#pragma once

#include <vector>

#include "ikpd/rig/look_at.h"
#include "kind.h"

namespace ikpd::rig::detail {

struct LookAtState {
  LookAt job;
  glm::vec3 look{0.0f, 0.0f, 1.0f};  // the head's look axis, joint-local
  std::vector<glm::vec3> eyeAxes;    // each eye's look axis, joint-local
};

extern const KindOps kLookAtKind;

}  // namespace ikpd::rig::detail
