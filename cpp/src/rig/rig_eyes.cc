// Rig: the look-ats' eye joints (docs/rig/look-at.md, "Eyes"; docs/rig/rig.md): their
// validation and their look axes, detected from the rest pose.
#include <cstdio>
#include <limits>

#include "ikpd/rig/rig.h"

namespace ikpd::rig {

namespace {
constexpr std::size_t kNoItem = std::numeric_limits<std::size_t>::max();
}  // namespace

// Called by Check once the joints, arms and legs are valid chains.
Status Rig::CheckEyes(const ConstraintSettings& s, std::size_t index) {
  if (s.eyes.empty()) return Ok();
  if (s.kind != ConstraintKind::kLookAt && s.kind != ConstraintKind::kBodyLookAt) {
    return Fail(index, "eyes", kNoItem, "only lookAt and bodyLookAt take eyes");
  }
  if (s.eyes.size() > 2) return Fail(index, "eyes", kNoItem, "needs 0, 1 or 2 joints (left, right)");
  const std::size_t n = skeleton_.size(), last = s.joints.size() - 1;
  const int head = s.joints[last];
  const auto uses = [](const std::vector<int>& list, int joint) {
    for (int j : list) {
      if (j == joint) return true;
    }
    return false;
  };
  for (std::size_t k = 0; k < s.eyes.size(); ++k) {
    const int eye = s.eyes[k];
    char text[96];
    if (eye < 0 || static_cast<std::size_t>(eye) >= n) {
      std::snprintf(text, sizeof(text), "must be a joint index in [0, %zu), got %d", n, eye);
      return Fail(index, "eyes", k, text);
    }
    if (!skeleton_.IsDescendant(static_cast<std::size_t>(eye), static_cast<std::size_t>(head))) {
      std::snprintf(text, sizeof(text), "must be a descendant of the head joints[%zu] (joint %d)", last, head);
      return Fail(index, "eyes", k, text);
    }
    if (uses(s.arms, eye) || uses(s.legs, eye)) return Fail(index, "eyes", k, "must not be one of the arms or legs");
    if (k == 1 && eye == s.eyes[0]) return Fail(index, "eyes", k, "must differ from eyes[0]");
  }
  return Ok();
}

// Each eye's look axis: the head's look axis carried rigidly into the eye's
// rest frame (without `forward`, the character's facing there), so an eye bone
// of any axis looks where the head looks at rest and the gaze turns it from there.
void Rig::DetectEyeAxes(Constraint& c) const {
  const ConstraintSettings& s = c.settings;
  c.eyeAxes.clear();
  if (s.eyes.empty()) return;
  const glm::vec3 look = restModel_[static_cast<std::size_t>(s.joints.back())].rotation * c.look;
  for (int eye : s.eyes) {
    const glm::quat rest = restModel_[static_cast<std::size_t>(eye)].rotation;
    c.eyeAxes.push_back(NormalizeOr(glm::conjugate(rest) * look, c.look, 1e-20f));
  }
}

}  // namespace ikpd::rig
