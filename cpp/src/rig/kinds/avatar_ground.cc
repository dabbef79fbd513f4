// The avatar's steps on uneven ground (avatar.h; docs/rig/avatar.md, "Steps",
// "Ground"): an avatar with legs has two ground legs in Rig::grounds() /
// probes(), one per foot. Each foot probes where it would land this frame
// (its place under the body, the body carried on from last frame by last
// frame's motion); the caller answers with a hit as for grounding. A landing
// (and the planting of the first frame) then stands the foot as high above
// the hit's plane, under its place, as the animation has it above the root's
// ground plane, and the plant keeps that height. Without a hit (the default)
// nothing changes: the root's ground plane, bit for bit.
#include <algorithm>
#include <cmath>

#include "../../ik/ik_math.h"
#include "avatar.h"
#include "avatar_angles.h"
#include "registry.h"

namespace ikpd::rig::detail {

namespace {

glm::vec3 WorldUp(const Stage& stage) {
  return NormalizeOr(stage.root.transform.rotation * stage.up, glm::vec3(0.0f, 1.0f, 0.0f));
}

// A hit's normal must lean toward up this much to be ground (a wall is none).
constexpr float kLeastUp = 0.1f;

}  // namespace

std::size_t AvatarGroundLegs(const Constraint& c) { return c.settings.legs.empty() ? 0 : 2; }

// Foot `leg`'s probe (world): its place under the body carried on from last
// frame (the first frame, and with steps off: the animated foot), and its hip.
GroundProbe AvatarProbe(const Stage& stage, const Constraint& c, std::size_t leg) {
  const AvatarState& a = std::get<AvatarState>(c.state);
  const AvatarSteps& st = a.steps;
  const AvatarLimb& limb = a.legs[leg];
  const auto model = [&](int slot) -> const ModelTransform& {
    return stage.model[static_cast<std::size_t>(c.joints[static_cast<std::size_t>(slot)])];
  };
  const glm::vec3 foot = model(limb.end).position;
  const glm::vec3 hip = stage.ToWorld({model(limb.upper).position, kIdentityRotation}).position;
  if (!st.planted || !c.settings.avatar.steps) return {stage.ToWorld({foot, kIdentityRotation}).position, hip};
  // The animated body (model): the pelvis on the ground plane and its heading (as StepFeet's).
  const glm::vec3 up = stage.up;
  const ModelTransform& pelvis = model(0);
  const glm::vec3 facing = pelvis.rotation * a.pelvisFacing;
  const glm::vec3 flat = facing - glm::dot(facing, up) * up, rest = stage.facing - glm::dot(stage.facing, up) * up;
  const float yaw = glm::dot(flat, flat) > 1e-12f ? SignedAngle(rest, flat, up) : 0.0f;
  const glm::vec3 body = pelvis.position - glm::dot(pelvis.position, up) * up;
  const glm::vec3 offset = glm::conjugate(ikpd::detail::AxisAngle(up, yaw)) * (foot - body);
  const glm::vec3 at = st.body.position + st.chord * st.chordTime;  // last frame's body moved on as it moved then
  return {at + st.body.rotation * (stage.root.scale * offset), hip};
}

bool AvatarGrounded(const Stage& stage, const Constraint& c, int side) {
  return stage.grounds != nullptr && stage.grounds[c.groundFirst + static_cast<std::size_t>(side)].hit != 0.0f;
}

// Foot `side`'s place (world) raised by its hit's plane above the root's
// ground plane under it (along up); without a hit, or on a wall, unchanged.
// A landing within the frame measures the place's height from the root's
// plane at its instant (`base`), not the frame's end: a root rising with the
// ground planted the trailing foot up to 7.2 mm low at 30 Hz.
void AvatarOnGround(const Stage& stage, const Constraint& c, int side, Transform* place, const glm::vec3* base) {
  if (!AvatarGrounded(stage, c, side)) return;
  const GroundHit& g = stage.grounds[c.groundFirst + static_cast<std::size_t>(side)];
  const glm::vec3 up = WorldUp(stage);
  const glm::vec3 n = NormalizeOr(g.normal, up, 1e-20f);
  const float nu = glm::dot(n, up);
  if (!(nu >= kLeastUp)) return;
  const glm::vec3 origin = base != nullptr ? *base : stage.root.transform.translation;
  // Under the place, on the root's plane; the hit's plane above that along up.
  const glm::vec3 onPlane = place->position - glm::dot(place->position - origin, up) * up;
  place->position += up * (glm::dot(g.point - onPlane, n) / nu);
}

// The swing's lift at `progress` (docs/rig/avatar.md, "Steps"): stepHeight,
// and on ground (a hit) what the eased height lies below the higher end, so
// the foot clears the edge it steps up or down: (stepHeight + max(0, higher −
// eased)) · sin(π · progress).
float AvatarLift(const Stage& stage, const Constraint& c, int side, const glm::vec3& from, const glm::vec3& to,
                 const glm::vec3& eased, const glm::vec3& up, float progress) {
  float lift = c.settings.avatar.stepHeight;
  if (AvatarGrounded(stage, c, side)) {
    const float higher = std::max(glm::dot(from, up), glm::dot(to, up));
    lift += std::max(0.0f, higher - glm::dot(eased, up));
  }
  return lift * std::sin(kPi * progress);
}

}  // namespace ikpd::rig::detail
