// The looking kinds' shared parts (look.h; docs/rig/rig.md, axes; docs/rig/look-at.md, "Eyes").
#include "look.h"

#include <algorithm>
#include <cstdio>

#include "registry.h"

namespace ikpd::rig::detail {

void DetectLook(const Setup& setup, const ConstraintSettings& s, std::size_t looker, glm::vec3* look, glm::vec3* up) {
  const glm::quat inverse = glm::conjugate(setup.Rest(s.joints[looker]).rotation);
  const CommonSettings& common = s.common;
  *look = common.forward ? glm::normalize(*common.forward) : NormalizeOr(inverse * setup.facing, glm::vec3(0, 0, 1), 1e-20f);
  *up = common.up ? glm::normalize(*common.up) : NormalizeOr(inverse * setup.up, glm::vec3(0, 1, 0), 1e-20f);
}

// An eye bone of any axis looks where the head looks at rest; the gaze turns it from there.
void DetectEyeAxes(const Setup& setup, const ConstraintSettings& s, const glm::vec3& look, std::vector<glm::vec3>& out) {
  out.clear();
  if (s.eyes.empty()) return;
  const glm::vec3 head = setup.Rest(s.joints.back()).rotation * look;
  for (int eye : s.eyes) {
    const glm::quat rest = setup.Rest(eye).rotation;
    out.push_back(NormalizeOr(glm::conjugate(rest) * head, look, 1e-20f));
  }
}

void DetectLookAxes(const Setup& setup, const ConstraintSettings& s, LookAxes& axes) {
  glm::vec3 up;
  DetectLook(setup, s, s.joints.size() - 1, &axes.look, &up);
  DetectEyeAxes(setup, s, axes.look, axes.eyeAxes);
}

Status CheckEyes(const Setup& setup, const ConstraintSettings& s) {
  if (s.eyes.empty()) return Ok();
  if (s.eyes.size() > 2) return Error("eyes: needs 0, 1 or 2 joints (left, right)");
  const std::size_t n = setup.skeleton.size(), last = s.joints.size() - 1;
  const int head = s.joints[last];
  const auto uses = [](const std::vector<int>& list, int joint) { return std::find(list.begin(), list.end(), joint) != list.end(); };
  for (std::size_t k = 0; k < s.eyes.size(); ++k) {
    const int eye = s.eyes[k];
    if (eye < 0 || static_cast<std::size_t>(eye) >= n) {
      return FailText(setup, "eyes[%zu]: must be a joint index in [0, %zu), got %d", k, n, eye);
    }
    if (!setup.skeleton.IsDescendant(static_cast<std::size_t>(eye), static_cast<std::size_t>(head))) {
      return FailText(setup, "eyes[%zu]: must be a descendant of the head joints[%zu] (joint %d)", k, last, head);
    }
    if (uses(s.arms, eye) || uses(s.legs, eye)) return FailText(setup, "eyes[%zu]: must not be one of the arms or legs", k);
    if (k == 1 && eye == s.eyes[0]) return Error("eyes[1]: must differ from eyes[0]");
  }
  return Ok();
}

void LookResult(const Stage& stage, const Constraint& c, bool ok, const glm::vec3& look, const glm::vec3& target,
                ConstraintResult& r) {
  const std::size_t all = c.joints.size();
  if (!ok) std::copy(stage.jobIn, stage.jobIn + all, stage.jobOut);
  for (std::size_t k = 0; k < all; ++k) stage.desired[k] = stage.jobOut[k].rotation;  // frames are identity
  const float error = LookError(stage.jobOut[c.settings.joints.size() - 1], look, target);
  r.distance = error;
  r.reached = error <= 1e-3f ? 1.0f : 0.0f;
}

}  // namespace ikpd::rig::detail
