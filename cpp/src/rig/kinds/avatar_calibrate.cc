// An avatar's scales from one sample of the user (docs/rig/avatar.md,
// "Calibration"): the avatar's rest head height and arm span against the
// user's.
#include <cmath>

#include "registry.h"

namespace ikpd::rig {

namespace {

// The avatar's arm span: both arms' bones [shoulder?, upper, lower, hand]
// laid straight, plus the distance between their first joints (a T-pose).
float ArmSpan(const detail::ModelTransform* rest, std::span<const int> arms) {
  const std::size_t per = arms.size() / 2;
  float span = glm::length(rest[arms[0]].position - rest[arms[per]].position);
  for (std::size_t k = 0; k < arms.size(); ++k) {
    if (k % per != 0) span += glm::length(rest[arms[k]].position - rest[arms[k - 1]].position);
  }
  return span;
}

}  // namespace

Status Rig::CalibrateAvatar(std::size_t index, const LocalTransform& root, const glm::vec3& head, const glm::vec3& leftHand,
                            const glm::vec3& rightHand, AvatarScales* out) const {
  if (index >= constraints_.size() || constraints_[index].settings.kind != ConstraintKind::kAvatar) {
    return Error("index: must name an avatar constraint");
  }
  if (!IsFinite(root.translation) || !IsUsableRotation(root.rotation) || !IsFinite(root.scale)) {
    return Error("root: must be finite, its rotation non-zero");
  }
  const float rootScale = (std::abs(root.scale.x) + std::abs(root.scale.y) + std::abs(root.scale.z)) / 3.0f;
  if (!(rootScale > 0.0f)) return Error("root.scale: must be non-zero");
  if (!IsFinite(head)) return Error("head: must be finite");
  if (!IsFinite(leftHand)) return Error("leftHand: must be finite");
  if (!IsFinite(rightHand)) return Error("rightHand: must be finite");
  const ConstraintSettings& s = constraints_[index].settings;
  const glm::quat inverse = glm::conjugate(Unit(root.rotation));
  const auto model = [&](const glm::vec3& world) { return inverse * (world - root.translation) / rootScale; };
  AvatarScales scales;
  const float height = glm::dot(model(head), up_), avatarHeight = glm::dot(restModel_[s.joints.back()].position, up_);
  if (!(height > 0.0f)) return Error("head: must be above the root");
  if (!(avatarHeight > 0.0f)) return Error("joints: the avatar's rest head must be above its root");
  scales.scale = avatarHeight / height;
  scales.armScale = scales.scale;
  if (!s.arms.empty()) {
    const float span = glm::length(model(leftHand) - model(rightHand));
    if (!(span > 0.0f)) return Error("leftHand: must be apart from rightHand (the hand span)");
    scales.armScale = ArmSpan(restModel_.data(), s.arms) / span;
  }
  if (!(scales.scale > 0.0f && scales.scale <= 10.0f)) return Error("head: gives a scale out of (0, 10]");
  if (!(scales.armScale > 0.0f && scales.armScale <= 10.0f)) return Error("leftHand: gives an armScale out of (0, 10]");
  *out = scales;
  return Ok();
}

}  // namespace ikpd::rig
