// Rig: the canonical frames and look axes detected from the rest pose
// (docs/rig/rig.md, axes).
#include <cmath>

#include "ikpd/rig/rig.h"

namespace ikpd::rig {

namespace {
constexpr float kStraight = 1e-3f;  // radians: a limb bent less than this has no rest bend axis

// Rotation whose +X is `x` (unit) and +Z is `zHint` made normal to it (or,
// when `zHint` is parallel to x, a fixed perpendicular).
glm::quat FrameOf(const glm::vec3& x, const glm::vec3& zHint) {
  glm::vec3 z = zHint - glm::dot(zHint, x) * x;
  if (!(glm::dot(z, z) > 1e-12f)) z = glm::cross(x, std::abs(x.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0));
  z = glm::normalize(z);
  return glm::normalize(glm::quat_cast(glm::mat3(x, glm::cross(z, x), z)));
}

glm::vec3 Unit(const glm::vec3& v, const glm::vec3& fallback) { return NormalizeOr(v, fallback, 1e-20f); }
}  // namespace

void Rig::DetectAxes(Constraint& c) const {
  const ConstraintSettings& s = c.settings;
  const CommonSettings& common = s.common;
  const std::size_t n = c.joints.size();
  const auto rest = [&](std::size_t k) -> const ModelTransform& { return restModel_[static_cast<std::size_t>(c.joints[k])]; };
  c.frames.assign(n, kIdentityRotation);
  if (s.kind == ConstraintKind::kGrounding) return;  // solved on joint positions (docs/rig/grounding.md)

  if (s.kind == ConstraintKind::kAim || s.kind == ConstraintKind::kLookAt || s.kind == ConstraintKind::kBodyLookAt) {
    // The look axis: the option, else the character's facing in the looking
    // joint's rest frame (the aim's joint, the look-ats' head).
    const std::size_t looker = s.kind == ConstraintKind::kAim ? 0 : s.joints.size() - 1;
    const glm::quat inverse = glm::conjugate(rest(looker).rotation);
    c.look = common.forward ? glm::normalize(*common.forward) : Unit(inverse * facing_, glm::vec3(0, 0, 1));
    c.aimUp = common.up ? glm::normalize(*common.up) : Unit(inverse * up_, glm::vec3(0, 1, 0));
    DetectEyeAxes(c);
    return;
  }

  // Limbs and chains: +X along each bone at rest, +Z the rest bend axis.
  const std::size_t bones = s.joints.size() - 1;
  glm::vec3 hinge(0.0f);
  for (std::size_t k = 0; k + 1 < bones && hinge == glm::vec3(0.0f); ++k) {
    const glm::vec3 upper = rest(k + 1).position - rest(k).position;
    const glm::vec3 lower = rest(k + 2).position - rest(k + 1).position;
    const glm::vec3 bend = glm::cross(upper, lower);
    if (glm::length(bend) > std::sin(kStraight) * glm::length(upper) * glm::length(lower)) hinge = glm::normalize(bend);
  }
  const glm::vec3 first = Unit(rest(1).position - rest(0).position, up_);
  if (hinge == glm::vec3(0.0f)) {  // straight at rest: facing × bone, then up × bone
    hinge = glm::cross(facing_, first);
    if (glm::length(hinge) < 1e-3f) hinge = glm::cross(up_, first);
    hinge = Unit(hinge, glm::vec3(0, 0, 1));
  }
  glm::quat previous = kIdentityRotation;  // the previous bone's canonical model frame
  glm::vec3 direction = first;
  for (std::size_t k = 0; k < s.joints.size(); ++k) {
    const glm::quat inverse = glm::conjugate(rest(k).rotation);
    if (k < bones) direction = Unit(rest(k + 1).position - rest(k).position, direction);
    if (common.forward) {
      const glm::vec3 x = glm::normalize(*common.forward);
      const glm::vec3 z = common.bendAxis ? glm::normalize(*common.bendAxis) : inverse * hinge;
      c.frames[k] = FrameOf(x, z);
    } else if (k < bones) {
      const glm::vec3 x = inverse * direction;
      const glm::vec3 z = common.bendAxis ? glm::normalize(*common.bendAxis) : inverse * hinge;
      c.frames[k] = FrameOf(glm::normalize(x), z);
    } else {
      c.frames[k] = glm::normalize(inverse * previous);  // the end takes the previous bone's frame
    }
    previous = glm::normalize(rest(k).rotation * c.frames[k]);
  }
  // Chain limits: the root's parent frame is its rest canonical frame, carried
  // by the skeleton parent (so the root's limit is relative to the rest pose).
  const int parent = skeleton_.parent(static_cast<std::size_t>(c.joints[0]));
  const glm::quat parentRest = parent >= 0 ? restModel_[static_cast<std::size_t>(parent)].rotation : kIdentityRotation;
  c.rootRest = glm::normalize(glm::conjugate(parentRest) * rest(0).rotation * c.frames[0]);
}

}  // namespace ikpd::rig
