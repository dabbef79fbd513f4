// LookAt's stage (4): the gaze. The eyes turn toward the target relative to
// the solved head, within their own limits, smoothed by a fast PD so they lead
// the head (docs/rig/look-at.md, "Eyes").
#include <algorithm>
#include <cmath>

#include "ikpd/rig/look_at.h"
#include "look_frame.h"

namespace ikpd {

using look_detail::Frame;
using look_detail::FrameOf;
using look_detail::PitchOf;
using look_detail::YawOf;

Status LookAt::UpdateGaze(float dt, const Transform& animatedHead, const glm::vec3& target, bool enabled,
                          std::span<const Transform> eyes, std::span<Transform> eyesOutput,
                          const Transform& solvedHead) {
  // The head's turn from the animation (world), which carries the eyes.
  const glm::quat carry = glm::normalize(solvedHead.rotation * glm::conjugate(animatedHead.rotation));
  const glm::dvec3 headFrom(animatedHead.position), headTo(solvedHead.position);
  glm::dvec3 eyeSum(0.0);
  for (std::size_t k = 0; k < eyes.size(); ++k) {
    const glm::dvec3 p = headTo + glm::dquat(carry) * (glm::dvec3(eyes[k].position) - headFrom);
    eyeSum += p;
    eyesOutput[k] = {glm::vec3(p), glm::normalize(carry * NormalizeByReciprocalOr(eyes[k].rotation, kIdentityRotation))};
  }
  // Head-local frame: forward, and the world up as the animated head carries it.
  const Frame local = FrameOf(forward_, glm::conjugate(animatedHead.rotation) * up_);
  // FrameOf makes the facing normal to up; here forward is exact and up is made normal to it.
  glm::vec3 upLocal = local.up - glm::dot(local.up, forward_) * forward_;
  const float uu = glm::dot(upLocal, upLocal);
  upLocal = uu > 1e-12f ? upLocal / std::sqrt(uu) : look_detail::NormalTo(forward_);
  const Frame head{upLocal, forward_, glm::cross(upLocal, forward_)};

  double goalYaw = 0.0, goalPitch = 0.0;
  if (enabled) {
    const glm::dvec3 eye = eyes.empty() ? headTo + glm::dvec3(solvedHead.rotation * offset_)
                                        : eyeSum / static_cast<double>(eyes.size());
    glm::dvec3 d = glm::dvec3(target) - eye;
    const double length = glm::length(d);
    if (length > 0.0 && std::isfinite(length)) {
      const glm::vec3 dl = glm::conjugate(solvedHead.rotation) * glm::vec3(d / length);
      goalYaw = std::clamp(YawOf(head, dl), -eyeYaw_, eyeYaw_);
      goalPitch = std::clamp(PitchOf(head, dl), -eyePitchDown_, eyePitchUp_);
    } else {  // the target at the eyes: keep the gaze
      goalYaw = gazeYaw();
      goalPitch = gazePitch();
    }
  }
  for (int axis = 0; axis < 2; ++axis) {
    pd::ScalarPD& c = gaze_[static_cast<std::size_t>(axis)];
    const Status s = enabled ? c.Update(dt, axis == 0 ? goalYaw : goalPitch) : c.UpdateBlendOut(dt, 0.0);
    if (!s) return s;
  }
  if (eyes.empty()) return Ok();  // the gaze is kept (gazeYaw, gazePitch); no eye joint to turn
  // The eyes' turn (world): yaw about the head's up after pitch about its left.
  const glm::quat turnLocal = glm::angleAxis(gazeYaw(), head.up) * glm::angleAxis(-gazePitch(), head.left);
  const glm::quat turn = glm::normalize(solvedHead.rotation * turnLocal * glm::conjugate(solvedHead.rotation));
  for (std::size_t k = 0; k < eyes.size(); ++k) eyesOutput[k].rotation = glm::normalize(turn * eyesOutput[k].rotation);
  return Ok();
}

}  // namespace ikpd
