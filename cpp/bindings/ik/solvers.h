// Where the IK solvers' results go: a single call or prepared solver writes its
// result at float offset kOut of its buffer (after the packed job), in the
// layout of the result's description (JobFields<TwoBoneResult> and friends,
// role kOutput, in cpp/src/ik/fields.h). The same descriptions give the
// batches' out.* fields and JS's result readers (web/src/ik/described.js).
#pragma once

#include <cstddef>

#include "../conventions.h"
#include "ikpd/ik/pseudo_three_bone.h"
#include "ikpd/ik/chain.h"
#include "ikpd/ik/two_bone.h"
#include "../packed.h"
#include "../../src/ik/fields.h"

namespace ikpd::bindings {

constexpr std::size_t kOut = 64;

// Where a job writes its result: the struct itself, or the aim's rotation.
template <class Result>
Result* ResultTarget(Result& r) {
  return &r;
}
inline glm::quat* ResultTarget(AimResult& r) { return &r.rotation; }

}  // namespace ikpd::bindings
