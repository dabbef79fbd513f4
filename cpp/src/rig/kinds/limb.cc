// The limb kinds' shared parts (limb.h): smoothing (docs/rig/rig.md, "Weight,
// enabled and smoothing") and bone frames (docs/rig/rig.md, axes).
#include "limb.h"

#include <algorithm>
#include <cmath>

#include "registry.h"

namespace ikpd::rig::detail {

namespace {
constexpr float kStraight = 1e-3f;  // radians: a limb bent less than this has no rest bend axis
glm::vec3 UnitOr(const glm::vec3& v, const glm::vec3& fallback) { return NormalizeOr(v, fallback, 1e-20f); }
}  // namespace

glm::quat BoneFrame(const glm::vec3& x, const glm::vec3& zHint) {
  glm::vec3 z = zHint - glm::dot(zHint, x) * x;
  if (!(glm::dot(z, z) > 1e-12f)) z = glm::cross(x, std::abs(x.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0));
  z = glm::normalize(z);
  return glm::normalize(glm::quat_cast(glm::mat3(x, glm::cross(z, x), z)));
}

Status ConfigureSmoothing(LimbSmoothing& smooth, const CommonSettings& common, bool keepState) {
  pd::PdSettings pds;
  if (Status st = pd::SettingsFromSettleTime(common.settleTime > 0.0f ? common.settleTime : 1.0, common.damping, &pds); !st) {
    return st;
  }
  pds.blendOutTime = common.blendOutTime;
  smooth.weightReset = false;  // a Reset clamps by the settings: the next frame resets again
  if (Status st = smooth.weightPd.Configure(pds); !st) return st;
  for (pd::ScalarPD& p : smooth.pointPds) {
    if (Status st = p.Configure(pds); !st) return st;
  }
  if (!keepState) ClearSmoothing(smooth);  // new joints: blend in from the animated pose
  return Ok();
}

void ClearSmoothing(LimbSmoothing& smooth) {
  smooth.weightPd.Reset(0.0);
  smooth.targetHeld = smooth.poleHeld = false;
  smooth.weightReset = false;
}

// With smoothing (SmoothInputs is the case without): w tracks its goal
// through weightPd (released to exactly 0 when disabled); the world target and
// pole through their per-axis PDs, restarted at the frame's points while w is
// exactly 0 (nothing shows) or when the pole is first set. A steady target is
// exact: the PD of a held value never moves.
const ConstraintFrame& SmoothedInputs(LimbSmoothing& smooth, const CommonSettings& common, float dt, const ConstraintFrame& f) {
  const double goal = common.enabled ? static_cast<double>(common.weight) : 0.0;
  ConstraintFrame& smoothed = smooth.smoothed;
  smoothed = f;
  smooth.weightReset = false;
  const bool restart = !smooth.targetHeld || smooth.weightPd.value() == 0.0;
  // A PD at rest on its target stays there exactly: its step is skipped (the
  // steady case, a hand held on a cup, costs no PD step; Rested). Errors (a
  // diverging step) keep the state: the frame goes on with it.
  if (!common.enabled) (void)smooth.weightPd.UpdateBlendOut(dt, 0.0);
  else if (smooth.weightPd.blendPhase() != pd::BlendPhase::kNone || !Rested(smooth.weightPd, goal)) (void)smooth.weightPd.Update(dt, goal);
  smooth.weightNow = std::clamp(static_cast<float>(smooth.weightPd.value()), 0.0f, 1.0f);  // an underdamped PD overshoots
  const auto track = [&](pd::ScalarPD* axes, const glm::vec3& raw, bool start, glm::vec3* out) {
    for (int k = 0; k < 3; ++k) {
      if (start) axes[k].Reset(raw[k]);
      else if (!Rested(axes[k], raw[k])) (void)axes[k].Update(dt, raw[k]);
      (*out)[k] = static_cast<float>(axes[k].value());
    }
  };
  track(smooth.pointPds, f.target, restart, &smoothed.target);
  smooth.targetHeld = true;
  if (f.poleSet != 0.0f) {
    track(smooth.pointPds + 3, f.pole, restart || !smooth.poleHeld, &smoothed.pole);
    smooth.poleHeld = true;
  } else {
    smooth.poleHeld = false;
  }
  return smoothed;
}

glm::quat DetectBoneFrames(const Setup& setup, Constraint& c) {
  const ConstraintSettings& s = c.settings;
  const CommonSettings& common = s.common;
  const auto rest = [&](std::size_t k) -> const ModelTransform& { return setup.Rest(c.joints[k]); };
  const std::size_t bones = s.joints.size() - 1;
  glm::vec3 hinge(0.0f);
  for (std::size_t k = 0; k + 1 < bones && hinge == glm::vec3(0.0f); ++k) {
    const glm::vec3 upper = rest(k + 1).position - rest(k).position;
    const glm::vec3 lower = rest(k + 2).position - rest(k + 1).position;
    const glm::vec3 bend = glm::cross(upper, lower);
    if (glm::length(bend) > std::sin(kStraight) * glm::length(upper) * glm::length(lower)) hinge = glm::normalize(bend);
  }
  const glm::vec3 first = UnitOr(rest(1).position - rest(0).position, setup.up);
  if (hinge == glm::vec3(0.0f)) {  // straight at rest: facing × bone, then up × bone
    hinge = glm::cross(setup.facing, first);
    if (glm::length(hinge) < 1e-3f) hinge = glm::cross(setup.up, first);
    hinge = UnitOr(hinge, glm::vec3(0, 0, 1));
  }
  glm::quat previous = kIdentityRotation;  // the previous bone's canonical model frame
  glm::vec3 direction = first;
  for (std::size_t k = 0; k < s.joints.size(); ++k) {
    const glm::quat inverse = glm::conjugate(rest(k).rotation);
    if (k < bones) direction = UnitOr(rest(k + 1).position - rest(k).position, direction);
    if (common.forward) {
      const glm::vec3 x = glm::normalize(*common.forward);
      const glm::vec3 z = common.bendAxis ? glm::normalize(*common.bendAxis) : inverse * hinge;
      c.frames[k] = BoneFrame(x, z);
    } else if (k < bones) {
      const glm::vec3 x = inverse * direction;
      const glm::vec3 z = common.bendAxis ? glm::normalize(*common.bendAxis) : inverse * hinge;
      c.frames[k] = BoneFrame(glm::normalize(x), z);
    } else {
      c.frames[k] = glm::normalize(inverse * previous);  // the end takes the previous bone's frame
    }
    previous = glm::normalize(rest(k).rotation * c.frames[k]);
  }
  // Chain limits: the root's parent frame is its rest canonical frame, carried
  // by the skeleton parent (so the root's limit is relative to the rest pose).
  const int parent = setup.skeleton.parent(static_cast<std::size_t>(c.joints[0]));
  const glm::quat parentRest = parent >= 0 ? setup.Rest(parent).rotation : kIdentityRotation;
  return glm::normalize(glm::conjugate(parentRest) * rest(0).rotation * c.frames[0]);
}

}  // namespace ikpd::rig::detail
