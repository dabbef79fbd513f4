// BodyLookAt's legs (docs/rig/body-look-at.md, "Foot lock"): the drop that keeps
// every ankle in reach, and two-bone IK putting each ankle back.
#include <algorithm>
#include <cmath>

#include "ikpd/ik/two_bone.h"
#include "ikpd/rig/body_look_at.h"
#include "body_parts.h"

namespace ikpd {

using body_detail::Carry;
using body_detail::FrameOf;
using body_detail::Horizontal;
using body_detail::kIdentity;
using body_detail::kLimbJoints;
using body_detail::Moved;

// How far (along −up, >= 0) the body must come down so that each leg, carried
// by the solved pelvis, reaches its animated ankle: the smallest h with
// |hip − h·up − ankle| <= reach for every leg, reach being the animated leg's
// length less a micrometre-scale margin (docs/rig/body-look-at.md, "Foot lock").
float BodyLookAt::ReachDrop(const BodyLookAtInput& in, const BodyLookAtOutput& out) const {
  if (!settings_.footLock || in.legs.empty()) return 0.0f;
  const Transform& pelvisIn = in.spine[0];
  const Transform& pelvisOut = out.spine[0];
  const glm::quat pelvisDelta = glm::normalize(pelvisOut.rotation * glm::conjugate(NormalizeByReciprocalOr(pelvisIn.rotation, kIdentityRotation)));
  const glm::dvec3 up(settings_.up);
  double drop = 0.0;
  for (std::size_t first = 0; first < in.legs.size(); first += kLimbJoints) {
    const glm::dvec3 hip(in.legs[first].position), knee(in.legs[first + 1].position), ankle(in.legs[first + 2].position);
    const double reach = (glm::length(knee - hip) + glm::length(ankle - knee)) * (1.0 - 1e-6);
    const glm::dvec3 v = glm::dvec3(Moved(in.legs[first].position, pelvisDelta, pelvisIn.position, pelvisOut.position)) - ankle;
    const double vv = glm::dot(v, v);
    if (!(vv > reach * reach) || !std::isfinite(vv)) continue;
    const double vu = glm::dot(v, up);
    const double horizontal = std::max(vv - vu * vu, 0.0);
    // Out of reach sideways: come down to the ankle's height (the nearest the leg gets).
    const double h = horizontal < reach * reach ? vu - std::sqrt(reach * reach - horizontal) : vu;
    drop = std::max(drop, h);
  }
  return static_cast<float>(drop);
}

// (4) Legs carried by the pelvis, then (footLock) each ankle put back by two-bone IK.
void BodyLookAt::LockFeet(const BodyLookAtInput& in, const BodyLookAtOutput& out) const {
  const Transform& pelvisIn = in.spine[0];
  const Transform& pelvisOut = out.spine[0];
  const glm::quat pelvisDelta = glm::normalize(pelvisOut.rotation * glm::conjugate(NormalizeByReciprocalOr(pelvisIn.rotation, kIdentityRotation)));
  // Where a straight leg's knee goes when it has to bend: the way the animated head faces.
  const glm::vec3 facing = Horizontal(NormalizeByReciprocalOr(in.spine[look_.size() - 1].rotation, kIdentityRotation) * settings_.forward, settings_.up);
  for (std::size_t first = 0; first < in.legs.size(); first += kLimbJoints) {
    for (std::size_t j = first; j < first + kLimbJoints; ++j) {
      out.legs[j] = Carry(in.legs[j], pelvisDelta, pelvisIn.position, pelvisOut.position);
    }
    if (!settings_.footLock) continue;
    Transform& hipOut = out.legs[first];
    Transform& kneeOut = out.legs[first + 1];
    Transform& ankleOut = out.legs[first + 2];
    const glm::vec3 hip = hipOut.position;
    // Solve in frames built from the joint positions (+X along the bone, +Z the
    // bend normal), so the rig's own bone axes do not matter.
    const glm::vec3 thigh = kneeOut.position - hip;
    const glm::vec3 shin = ankleOut.position - kneeOut.position;
    if (!(glm::dot(thigh, thigh) > 0.0f) || !(glm::dot(shin, shin) > 0.0f)) continue;  // zero-length bone: carried
    const glm::vec3 bend = glm::cross(thigh, shin);
    const glm::quat hipFrame = FrameOf(glm::normalize(thigh), bend);
    const glm::quat kneeFrame = FrameOf(glm::normalize(shin), hipFrame * glm::vec3(0.0f, 0.0f, 1.0f));
    TwoBoneResult solved;
    TwoBoneJob job;
    job.frame.root = {hip, hipFrame};
    job.frame.mid = {kneeOut.position, kneeFrame};
    job.frame.end = {ankleOut.position, kIdentity};
    job.frame.target = in.legs[first + 2].position;
    const bool straight = glm::dot(bend, bend) <= 1e-6f * glm::dot(thigh, thigh) * glm::dot(shin, shin);
    if (!straight) {
      job.settings.pole = TwoBonePole::kPoint, job.frame.pole = kneeOut.position;
    } else if (glm::dot(facing, facing) > 1e-12f) {
      job.settings.pole = TwoBonePole::kDirection, job.frame.pole = facing;
    }
    job.result = &solved;
    if (!job.Run()) continue;  // cannot fail for finite input; the carried leg stays
    hipOut.rotation = glm::normalize(solved.root.rotation * glm::conjugate(hipFrame) * hipOut.rotation);
    kneeOut = {solved.mid.position,
               glm::normalize(solved.mid.rotation * glm::conjugate(kneeFrame) * kneeOut.rotation)};
    ankleOut = {solved.end.position, NormalizeByReciprocalOr(in.legs[first + 2].rotation, kIdentityRotation)};
  }
}

}  // namespace ikpd
