// What the looking kinds (aim, look-at, body look-at) share: the look axis
// detected from the rest pose, the eyes (docs/rig/look-at.md, "Eyes") and the
// result of a look.
#pragma once

#include <vector>

#include "kind.h"

namespace ikpd::rig::detail {

// A look-at's or body look-at's axes (joint-local): the head's look axis and each eye's.
struct LookAxes {
  glm::vec3 look{0.0f, 0.0f, 1.0f};
  std::vector<glm::vec3> eyeAxes;
};
// Both from the rest pose: the head is joints.back().
void DetectLookAxes(const Setup& setup, const ConstraintSettings& s, LookAxes& axes);

// The look axis of joints[looker] (joint-local): common.forward, else the
// character's facing in its rest frame; `up` likewise (common.up, else the
// rig's up).
void DetectLook(const Setup& setup, const ConstraintSettings& s, std::size_t looker, glm::vec3* look, glm::vec3* up);
// Each eye's look axis: the head's carried rigidly into the eye's rest frame.
void DetectEyeAxes(const Setup& setup, const ConstraintSettings& s, const glm::vec3& look, std::vector<glm::vec3>& out);
// The eye joints (after the joints, arms and legs are valid chains).
Status CheckEyes(const Setup& setup, const ConstraintSettings& s);
// A look-at's or body look-at's solve done (ok: its update succeeded, else the
// pose stands): desired from jobOut, the head's remaining angle as the result.
void LookResult(const Stage& stage, const Constraint& c, bool ok, const glm::vec3& look, const glm::vec3& target,
                ConstraintResult& r);

}  // namespace ikpd::rig::detail
