// Rig::Check: one constraint's settings checked against the skeleton before
// the rig takes them (docs/rig/rig.md). Errors name the constraint, the field
// and, for lists, the item. The kind's own checks run through its table entry
// (kinds/kind.h).
#include <cstdio>

#include "ikpd/rig/rig.h"
#include "kinds/look.h"
#include "kinds/registry.h"
#include "rig_check.h"

namespace ikpd::rig {

using detail::kNoItem;
using detail::Usable;

Status Rig::Check(const ConstraintSettings& s, std::size_t index, std::vector<int>* all) {
  const std::size_t n = skeleton_.size();
  if (n == 0) return Error("rig: not initialized (Init first)");
  const detail::KindOps* kind = detail::FindKind(s.kind);
  if (kind == nullptr) return Fail(index, "kind", kNoItem, "unknown kind");
  if (s.joints.size() < kind->minJoints || s.joints.size() > kind->maxJoints) {
    char text[64];
    std::snprintf(text, sizeof(text), "needs %zu to %zu joints, got %zu", kind->minJoints, kind->maxJoints, s.joints.size());
    return Fail(index, "joints", kNoItem, text);
  }
  const detail::Setup setup{skeleton_, restModel_.data(), facing_, up_, kindMessage_, sizeof(kindMessage_)};
  // Each list a chain: every joint a descendant of the one before.
  if (Status st = detail::CheckChain(setup, s.joints, "joints"); !st) return Fail(index, nullptr, kNoItem, st.error);
  if (Status st = kind->checkLimbs(setup, s); !st) return Fail(index, nullptr, kNoItem, st.error);
  if (!s.eyes.empty() && !kind->eyes) return Fail(index, "eyes", kNoItem, "only lookAt and bodyLookAt take eyes");
  if (Status st = detail::CheckEyes(setup, s); !st) return Fail(index, nullptr, kNoItem, st.error);
  const CommonSettings& c = s.common;
  if (!(c.weight >= 0.0f && c.weight <= 1.0f)) return Fail(index, "weight", kNoItem, "must be in [0, 1]");
  const bool positive = kind->positiveSettleTime;
  if (!IsFinite(c.settleTime) || c.settleTime < 0.0f || (positive && c.settleTime == 0.0f)) {
    char text[64];
    if (positive) std::snprintf(text, sizeof(text), "must be finite and > 0 (%s)", kind->name);
    return Fail(index, "settleTime", kNoItem, positive ? text : "must be finite and >= 0");
  }
  if (!IsFinite(c.damping) || !(c.damping > 0.0f)) return Fail(index, "damping", kNoItem, "must be finite and > 0");
  if (!IsFinite(c.blendOutTime) || c.blendOutTime < 0.0f) {
    return Fail(index, "blendOutTime", kNoItem, "must be finite and >= 0");
  }
  if (!Usable(c.forward)) return Fail(index, "forward", kNoItem, "must be a finite non-zero vector");
  if (!Usable(c.bendAxis)) return Fail(index, "bendAxis", kNoItem, "must be a finite non-zero vector");
  if (!Usable(c.up)) return Fail(index, "up", kNoItem, "must be a finite non-zero vector");
  if (c.forward && c.bendAxis) {
    const glm::vec3 f = glm::normalize(*c.forward), b = glm::normalize(*c.bendAxis);
    if (glm::length(glm::cross(f, b)) < 1e-4f) return Fail(index, "bendAxis", kNoItem, "must not be parallel to forward");
  }

  // The kind's own options, checked by its job on a sample pose.
  if (Status st = kind->checkOptions(setup, s); !st) return Fail(index, nullptr, kNoItem, st.error);
  if (all != nullptr) {
    all->assign(s.joints.begin(), s.joints.end());
    all->insert(all->end(), s.arms.begin(), s.arms.end());
    all->insert(all->end(), s.legs.begin(), s.legs.end());
    all->insert(all->end(), s.eyes.begin(), s.eyes.end());
  }
  return Ok();
}

}  // namespace ikpd::rig
