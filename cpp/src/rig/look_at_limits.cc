// LookAt's yaw and pitch limits and the policy for targets behind
// (docs/rig/look-at.md, "Yaw and pitch limits" and "Targets behind").
#include <algorithm>
#include <cmath>
#include <limits>

#include "../ik/chain/rotation.h"
#include "ikpd/rig/look_at.h"
#include "look_frame.h"

namespace ikpd {

using chain_detail::Arc;
using look_detail::DirectionOf;
using look_detail::Frame;
using look_detail::FrameOf;
using look_detail::PitchOf;
using look_detail::YawOf;

namespace {
// `from` moved toward `to` by at most `step` (>= 0, possibly infinite).
float Toward(float from, float to, float step) {
  if (std::abs(to - from) <= step) return to;
  return to > from ? from + step : from - step;
}
}  // namespace

// Whether direction d is inside the yaw and pitch limits with room to spare,
// without an arctangent (look_detail::Inside): most frames' goals and heads;
// false where it cannot tell (then measured).
bool LookAt::InsideLimits(const Frame& frame, const glm::vec3& d) const {
  const float x = glm::dot(d, frame.facing), y = glm::dot(d, frame.left), h = glm::dot(d, frame.up);
  return look_detail::Inside(y, x, yawSlope_) &&
         look_detail::Inside(h, std::sqrt(x * x + y * y), h >= 0.0f ? pitchUpSlope_ : pitchDownSlope_);
}

// Once per update, from the animated head: where the target is in yaw, and so
// what the head does. In front (|yaw| <= maxYaw) it tracks the target and
// 'keep' remembers the side; past the limit the policy fixes the yaw. Where
// the policy moves the wanted yaw (holding, switching sides, coming back to a
// target in front), the aim yaw follows it at most maxSpeed fast, through the
// front, never across the back; a target tracked without interruption is
// followed directly (the joints' controllers smooth it). Returns the yaw to
// aim at, or NaN: track the target.
float LookAt::FixedYaw(float dt, const Frame& frame, const glm::vec3& fromEye, const glm::vec3& target) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const glm::vec3 d = target - fromEye;
  const float step = dt > 0.0f ? maxSpeed_ * dt : 0.0f;  // Infinity · 0 would be NaN
  if (d == glm::vec3(0.0f)) return nan;
  const float yaw = YawOf(frame, d);
  const float side = yaw >= 0.0f ? 1.0f : -1.0f;
  float fixed = nan, wanted = yaw;
  if (std::abs(yaw) <= maxYaw_) {
    // The side is only known off the centre line (a target straight ahead keeps it).
    if (yaw != 0.0f) side_ = side;
  } else {
    switch (behind_) {
      case LookBehind::kFront: fixed = 0.0f; break;
      case LookBehind::kFollow: side_ = side; fixed = side * maxYaw_; break;
      case LookBehind::kKeep:
      default:
        if (side_ == 0.0f) side_ = side;
        fixed = side_ * maxYaw_;
        break;
    }
    wanted = fixed;
  }
  const bool track = std::isnan(fixed);
  // The first update after a reset, a clear or a disabled one takes the wanted yaw as it is.
  aimYaw_ = (track && tracking_) || std::isnan(aimYaw_) ? wanted : Toward(aimYaw_, wanted, step);
  // Caught up while tracking: aim at the target itself (from the turned eye).
  tracking_ = track && aimYaw_ == wanted;
  return tracking_ ? nan : aimYaw_;
}

// Disabled: the offsets blend out (and back in) smoothly themselves; the next
// enabled update starts from the wanted yaw.
void LookAt::ForgetYaw() {
  aimYaw_ = std::numeric_limits<float>::quiet_NaN();
  tracking_ = true;
}

// The direction d (from the eye to the goal) turned so that its yaw stays
// inside ±maxYaw (or takes the fixed yaw) and its pitch inside
// [−maxPitchDown, maxPitchUp], same length. Without limits d itself.
glm::vec3 LookAt::LimitedDirection(const Frame& frame, const glm::vec3& d, float fixedYaw) const {
  const bool noLimit = maxYaw_ >= kPi && maxPitchUp_ >= kPi / 2.0f && maxPitchDown_ >= kPi / 2.0f;
  if (noLimit && std::isnan(fixedYaw)) return d;
  if (std::isnan(fixedYaw) && InsideLimits(frame, d)) return d;  // what the measures below would return
  const float length = glm::length(d);
  if (!(length > 0.0f) || !std::isfinite(length)) return d;
  const float pitch = PitchOf(frame, d), goalYaw = YawOf(frame, d);
  float yaw = fixedYaw;
  if (std::isnan(yaw)) {
    yaw = goalYaw;
    // Tracking near the limit: the working eye (turned by the joints below)
    // may see the target just past it; stay on the side 'keep' remembers.
    if (std::abs(yaw) > maxYaw_) yaw = (side_ != 0.0f ? side_ : (yaw >= 0.0f ? 1.0f : -1.0f)) * maxYaw_;
  }
  const float limitedPitch = std::clamp(pitch, -maxPitchDown_, maxPitchUp_);
  if (yaw == goalYaw && limitedPitch == pitch) return d;
  return length * DirectionOf(frame, yaw, limitedPitch);
}

// After smoothing (docs/rig/look-at.md, "Yaw and pitch limits"): the solved
// head's look direction, measured in the animated head's frame, clamped to
// |yaw| <= maxYaw and pitch in [−maxPitchDown, maxPitchUp] widened to the
// animated head's own pitch (so a clip that looks further up or down than the
// limits is never fought, and a blended-out look-at gives the animated head
// exactly). The clamp is continuous in the direction (no pop when it engages)
// and never moves a direction faster than the direction itself moves in that
// frame; a direction inside is returned bit for bit.
glm::quat LookAt::HeldInLimits(const Frame& frame, const glm::vec3& animated, const glm::quat& head) const {
  const bool yawFree = maxYaw_ >= kPi;
  if (yawFree && maxPitchUp_ >= kPi / 2.0f && maxPitchDown_ >= kPi / 2.0f) return head;
  const glm::vec3 d = head * forward_;
  if (InsideLimits(frame, d)) return head;  // inside [−maxPitchDown, maxPitchUp], so inside the widened range too
  const float yaw = YawOf(frame, d), pitch = PitchOf(frame, d);
  const float own = PitchOf(frame, animated);
  const float limitedYaw = yawFree ? yaw : std::clamp(yaw, -maxYaw_, maxYaw_);
  const float limitedPitch = std::clamp(pitch, std::min(-maxPitchDown_, own), std::max(maxPitchUp_, own));
  if (limitedYaw == yaw && limitedPitch == pitch) return head;
  const glm::vec3 held = DirectionOf(frame, limitedYaw, limitedPitch) * glm::length(d);
  return glm::normalize(Arc(d, held) * head);
}

}  // namespace ikpd
