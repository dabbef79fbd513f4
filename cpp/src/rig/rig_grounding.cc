// Rig: the grounding constraint (docs/rig/grounding.md): its legs checked, its
// settings resolved from the rest pose, the probe (where each leg's ground
// query goes) and the solve (the Grounding job in world space).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ikpd/rig/rig.h"

namespace ikpd::rig {

Status Rig::CheckGroundingLegs(const ConstraintSettings& s, std::size_t index) {
  const std::size_t n = skeleton_.size();
  const std::size_t per = s.grounding.legJoints;
  const auto fail = [&](const char* text) {
    std::snprintf(message_, sizeof(message_), "constraints[%zu].%s", index, text);
    return Error(message_);
  };
  if (per != 3 && per != 4) return fail("legs: each leg needs 3 or 4 joints ([hip, knee, ankle, toe?])");
  if (s.legs.size() % per != 0 || (s.legs.size() / per != 2 && s.legs.size() / per != 4)) {
    return fail("legs: needs 2 or 4 legs of [hip, knee, ankle] or [hip, knee, ankle, toe]");
  }
  const std::size_t legs = s.legs.size() / per;
  if (s.joints.size() == 2 && legs != 4) return fail("joints[1]: a chest needs 4 legs (legs 2–3 hang under it)");
  if (!s.soleOffsets.empty() && s.soleOffsets.size() != legs) return fail("soleOffsets: needs one per leg (NaN: from the rest pose)");
  char text[128];
  for (std::size_t i = 0; i < legs; ++i) {
    for (std::size_t k = 0; k < per; ++k) {
      const int j = s.legs[i * per + k];
      if (j < 0 || static_cast<std::size_t>(j) >= n) {
        std::snprintf(text, sizeof(text), "legs[%zu][%zu]: must be a joint index in [0, %zu), got %d", i, k, n, j);
        return fail(text);
      }
      const int above = k > 0 ? s.legs[i * per + k - 1] : (s.joints.size() == 2 && i >= 2 ? s.joints[1] : s.joints[0]);
      if (!skeleton_.IsDescendant(static_cast<std::size_t>(j), static_cast<std::size_t>(above))) {
        if (k > 0) std::snprintf(text, sizeof(text), "legs[%zu][%zu]: must be a descendant of legs[%zu][%zu] (joint %d)", i, k, i, k - 1, above);
        else std::snprintf(text, sizeof(text), "legs[%zu][0]: must be a descendant of the %s (joint %d)", i, above == s.joints[0] ? "pelvis" : "chest", above);
        return fail(text);
      }
    }
  }
  return Ok();
}

// The job's settings: the constraint's options, defaults taken from the rest pose.
Status Rig::ResolveGrounding(const ConstraintSettings& s, GroundingSettings* out) {
  GroundingSettings g = s.grounding;
  const std::size_t per = g.legJoints;
  g.legs = s.legs.size() / per;
  g.weight = s.common.weight;
  g.settleTime = s.common.settleTime;
  g.damping = s.common.damping;
  g.blendOutTime = s.common.blendOutTime;
  float shortest = std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < g.legs && i < kMaxGroundLegs; ++i) {
    const auto at = [&](std::size_t k) { return restModel_[static_cast<std::size_t>(s.legs[i * per + k])].position; };
    shortest = std::min(shortest, glm::length(at(1) - at(0)) + glm::length(at(2) - at(1)));
    const float given = s.soleOffsets.empty() ? std::numeric_limits<float>::quiet_NaN() : s.soleOffsets[i];
    if (!std::isnan(given)) {
      g.soleOffsets[i] = given;
      continue;
    }
    g.soleOffsets[i] = glm::dot(at(per - 1), up_) - g.groundHeight;
    if (!(g.soleOffsets[i] > 0.0f)) {
      std::snprintf(groundMessage_, sizeof(groundMessage_), "legs[%zu]: soleOffset needed (the rest pose puts the %s at or below the ground)",
                    i, per == 4 ? "toe" : "ankle");
      return Error(groundMessage_);
    }
  }
  if (std::isfinite(shortest)) {
    if (std::isnan(g.maxPelvisDrop)) g.maxPelvisDrop = 0.3f * shortest;
    if (std::isnan(g.maxPelvisRise)) g.maxPelvisRise = 0.1f * shortest;
    if (std::isnan(g.plantHeight)) g.plantHeight = 0.03f * shortest;
    if (std::isnan(g.unplantRadius)) g.unplantRadius = 0.15f * shortest;
  }
  if (Status st = g.Validate(); !st) return st;
  *out = g;
  return Ok();
}

Transform Rig::ToWorld(const Transform& model) const {
  return {root_.translation + root_.rotation * (root_.scale * model.position), glm::normalize(root_.rotation * model.rotation)};
}

Status Rig::Probe(std::span<const LocalTransform> in, const LocalTransform& root) {
  if (Status s = CheckPose(in, root); !s) return s;
  SetRoot(root);
  std::fill(fresh_.begin(), fresh_.end(), std::uint8_t{0});
  const glm::vec3 up = NormalizeOr(root_.rotation * up_, up_);
  const auto probe = [&](const Constraint& c, std::size_t i) -> GroundProbe {
    const GroundingSettings& g = c.ground.settings();
    const std::size_t hip = static_cast<std::size_t>(c.settings.legs[i * g.legJoints]);
    const std::size_t effector = static_cast<std::size_t>(c.settings.legs[i * g.legJoints + g.legJoints - 1]);
    const glm::vec3 h = ToWorld({Model(hip, in).position, kIdentityRotation}).position;
    const glm::vec3 e = ToWorld({Model(effector, in).position, kIdentityRotation}).position;
    GroundProbe p{e - g.soleOffsets[i] * rootScale_ * up, h};
    // A planted foot stands under its lock: its ground is queried there.
    if (c.ground.planted(i)) {
      const glm::vec3 to = c.ground.lock(i) - p.sole;
      p.sole += to - glm::dot(to, up) * up;
    }
    return p;
  };
  // Checked first (a pose whose transforms overflow float has no usable probe), then written.
  for (int write = 0; write < 2; ++write) {
    for (const Constraint& c : constraints_) {
      if (c.settings.kind != ConstraintKind::kGrounding) continue;
      for (std::size_t i = 0; i < c.ground.settings().legs; ++i) {
        const GroundProbe p = probe(c, i);
        if (write != 0) {
          probes_[c.groundFirst + i] = p;
        } else if (!IsFinite(p.sole) || !IsFinite(p.hip)) {
          return Error("in: the pose is out of range (a probe is not finite)");
        }
      }
    }
  }
  std::fill(fresh_.begin(), fresh_.end(), std::uint8_t{0});
  return Ok();
}

// The grounding job on the constraint's joints in world space; desired_ and
// jobOut_[0].position (the pelvis) in model space for WriteRotations. False
// when nothing is to be written (every offset zero, or a pose out of range).
bool Rig::SolveGround(Constraint& c, float dt, ConstraintResult& r) {
  const ConstraintSettings& s = c.settings;
  const std::size_t n = s.joints.size(), legs = s.legs.size(), count = c.ground.settings().legs;
  for (std::size_t k = 0; k < n + legs; ++k) jobIn_[k] = ToWorld(jobIn_[k]);
  GroundingInput in;
  in.pelvis = jobIn_[0];
  in.legs = std::span<const Transform>(jobIn_.data() + n, legs);
  in.grounds = std::span<const GroundHit>(grounds_.data() + c.groundFirst, count);
  in.scale = rootScale_;
  in.groundOrigin = ToWorld({s.grounding.groundHeight * up_, kIdentityRotation}).position;
  in.up = NormalizeOr(root_.rotation * up_, up_);
  in.forward = root_.rotation * facing_;
  in.enabled = s.common.enabled;
  Transform pelvis;
  GroundingReport report;
  const GroundingOutput output{&pelvis, std::span<Transform>(jobOut_.data() + n, legs)};
  if (!c.ground.Update(dt, in, output, &report)) return false;  // cannot fail for checked input
  r.reached = report.reached ? 1.0f : 0.0f;
  r.distance = report.maxPlantedError;
  r.iterations = static_cast<float>(report.planted);
  if (!c.ground.active()) return false;  // exactly the animated pose
  desired_[0] = NormalizeOr(rootInverse_ * pelvis.rotation, kIdentityRotation);
  jobOut_[0].position = ToModel(pelvis.position);
  for (std::size_t k = n; k < n + legs; ++k) desired_[k] = NormalizeOr(rootInverse_ * jobOut_[k].rotation, kIdentityRotation);
  return true;
}

}  // namespace ikpd::rig
