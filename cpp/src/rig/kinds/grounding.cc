// The grounding kind (grounding.h): its legs checked, its settings resolved
// from the rest pose, the probe (where each leg's ground query goes) and the
// solve (the Grounding job in world space).
#include "grounding.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "registry.h"

namespace ikpd::rig::detail {

namespace {

void Defaults(ConstraintSettings& s) { SmoothingDefaultsOf(s.grounding, s.common); }

Status CheckLegs(const Setup& setup, const ConstraintSettings& s) {
  if (!s.arms.empty()) return Error("arms: only bodyLookAt takes arms");
  const std::size_t n = setup.skeleton.size();
  const std::size_t per = s.grounding.legJoints;
  if (per != 3 && per != 4) return Error("legs: each leg needs 3 or 4 joints ([hip, knee, ankle, toe?])");
  if (s.legs.size() % per != 0 || (s.legs.size() / per != 2 && s.legs.size() / per != 4)) {
    return Error("legs: needs 2 or 4 legs of [hip, knee, ankle] or [hip, knee, ankle, toe]");
  }
  const std::size_t legs = s.legs.size() / per;
  if (s.joints.size() == 2 && legs != 4) return Error("joints[1]: a chest needs 4 legs (legs 2–3 hang under it)");
  if (!s.soleOffsets.empty() && s.soleOffsets.size() != legs) return Error("soleOffsets: needs one per leg (NaN: from the rest pose)");
  for (std::size_t i = 0; i < legs; ++i) {
    for (std::size_t k = 0; k < per; ++k) {
      const int j = s.legs[i * per + k];
      if (j < 0 || static_cast<std::size_t>(j) >= n) {
        return FailText(setup, "legs[%zu][%zu]: must be a joint index in [0, %zu), got %d", i, k, n, j);
      }
      const int above = k > 0 ? s.legs[i * per + k - 1] : (s.joints.size() == 2 && i >= 2 ? s.joints[1] : s.joints[0]);
      if (!setup.skeleton.IsDescendant(static_cast<std::size_t>(j), static_cast<std::size_t>(above))) {
        if (k > 0) return FailText(setup, "legs[%zu][%zu]: must be a descendant of legs[%zu][%zu] (joint %d)", i, k, i, k - 1, above);
        return FailText(setup, "legs[%zu][0]: must be a descendant of the %s (joint %d)", i, above == s.joints[0] ? "pelvis" : "chest", above);
      }
    }
  }
  return Ok();
}

// The job's settings: the constraint's options, defaults taken from the rest pose.
Status Resolve(const Setup& setup, const ConstraintSettings& s, GroundingSettings* out) {
  GroundingSettings g = s.grounding;
  const std::size_t per = g.legJoints;
  g.legs = s.legs.size() / per;
  g.weight = s.common.weight;
  g.settleTime = s.common.settleTime;
  g.damping = s.common.damping;
  g.blendOutTime = s.common.blendOutTime;
  float shortest = std::numeric_limits<float>::infinity();
  for (std::size_t i = 0; i < g.legs && i < kMaxGroundLegs; ++i) {
    const auto at = [&](std::size_t k) { return setup.Rest(s.legs[i * per + k]).position; };
    shortest = std::min(shortest, glm::length(at(1) - at(0)) + glm::length(at(2) - at(1)));
    const float given = s.soleOffsets.empty() ? std::numeric_limits<float>::quiet_NaN() : s.soleOffsets[i];
    if (!std::isnan(given)) {
      g.soleOffsets[i] = given;
      continue;
    }
    g.soleOffsets[i] = glm::dot(at(per - 1), setup.up) - g.groundHeight;
    if (!(g.soleOffsets[i] > 0.0f)) {
      return FailText(setup, "legs[%zu]: soleOffset needed (the rest pose puts the %s at or below the ground)", i,
                      per == 4 ? "toe" : "ankle");
    }
  }
  if (std::isfinite(shortest)) {
    if (std::isnan(g.maxPelvisDrop)) g.maxPelvisDrop = kDerivedPelvisDrop * shortest;
    if (std::isnan(g.maxPelvisRise)) g.maxPelvisRise = kDerivedPelvisRise * shortest;
    if (std::isnan(g.plantHeight)) g.plantHeight = kDerivedPlantHeight * shortest;
    if (std::isnan(g.unplantRadius)) g.unplantRadius = kDerivedUnplantRadius * shortest;
  }
  if (Status st = g.Validate(); !st) return st;
  *out = g;
  return Ok();
}

Status CheckOptions(const Setup& setup, const ConstraintSettings& s) {
  GroundingSettings g;
  return Resolve(setup, s, &g);
}

void DetectAxes(const Setup&, Constraint&) {}  // solved on joint positions: identity frames

// The pelvis (rotation and translation) and each leg's hip, knee and ankle.
void Writes(const ConstraintSettings& s, std::vector<std::uint16_t>& out) {
  const std::size_t n = s.joints.size(), per = s.grounding.legJoints;
  out.push_back(0);
  for (std::size_t k = 0; k + per <= s.legs.size(); k += per) {
    for (std::size_t j = 0; j < 3; ++j) out.push_back(static_cast<std::uint16_t>(n + k + j));
  }
}

Status Configure(const Setup& setup, Constraint& c, bool keepState) {
  GroundingSettings g;
  if (Status st = Resolve(setup, c.settings, &g); !st) return st;
  Grounding& job = std::get<GroundingState>(c.state).job;
  return keepState ? job.Configure(g) : job.Reset(g);
}

// Offsets and foot locks dropped (Reset with the settings in force: no allocation).
void Clear(Constraint& c) {
  Grounding& job = std::get<GroundingState>(c.state).job;
  const GroundingSettings g = job.settings();
  (void)job.Reset(g);  // the settings it holds are valid
}

glm::vec3 WorldUp(const Stage& stage) { return NormalizeOr(stage.root.transform.rotation * stage.up, stage.up); }

// The job on the constraint's joints in world space; desired and jobOut[0].position
// (the pelvis) in model space for the rig's write. Nothing to write when every
// offset is zero, or for a pose out of range.
Outcome Solve(const Stage& stage, Constraint& c, float dt, const ConstraintFrame&, ConstraintResult& r) {
  Grounding& job = std::get_if<GroundingState>(&c.state)->job;
  const ConstraintSettings& s = c.settings;
  const std::size_t n = s.joints.size(), legs = s.legs.size(), count = job.settings().legs;
  Transform* in = stage.jobIn;
  for (std::size_t k = 0; k < n + legs; ++k) in[k] = stage.ToWorld(in[k]);
  GroundingInput input;
  input.pelvis = in[0];
  input.legs = std::span<const Transform>(in + n, legs);
  input.grounds = std::span<const GroundHit>(stage.grounds + c.groundFirst, count);
  input.scale = stage.root.scale;
  input.groundOrigin = stage.ToWorld({s.grounding.groundHeight * stage.up, kIdentityRotation}).position;
  input.up = WorldUp(stage);
  input.forward = stage.root.transform.rotation * stage.facing;
  input.enabled = s.common.enabled;
  Transform pelvis;
  GroundingReport report;
  const GroundingOutput output{&pelvis, std::span<Transform>(stage.jobOut + n, legs)};
  if (!job.Update(dt, input, output, &report)) return {};  // cannot fail for checked input
  r.reached = report.reached ? 1.0f : 0.0f;
  r.distance = report.maxPlantedError;
  r.iterations = static_cast<float>(report.planted);
  if (!job.active()) return {};  // exactly the animated pose
  const glm::quat& inverse = stage.root.inverse;
  stage.desired[0] = NormalizeOr(inverse * pelvis.rotation, kIdentityRotation);
  stage.jobOut[0].position = stage.ToModel(pelvis.position);
  for (std::size_t k = n; k < n + legs; ++k) stage.desired[k] = NormalizeOr(inverse * stage.jobOut[k].rotation, kIdentityRotation);
  return {true, 1.0f};
}

std::size_t GroundLegs(const Constraint& c) { return std::get<GroundingState>(c.state).job.settings().legs; }
const GroundingSettings* SettingsInForce(const Constraint& c) { return &std::get<GroundingState>(c.state).job.settings(); }

// Leg i's animated sole and hip in world space; a planted foot's ground is queried under its
// lock, a free one's where its slide carries it (Grounding::standing).
GroundProbe Probe(const Stage& stage, const Constraint& c, std::size_t i) {
  const Grounding& job = std::get<GroundingState>(c.state).job;
  const GroundingSettings& g = job.settings();
  const glm::vec3 up = WorldUp(stage);
  const auto at = [&](std::size_t k) { return stage.model[static_cast<std::size_t>(c.settings.legs[i * g.legJoints + k])].position; };
  const glm::vec3 h = stage.ToWorld({at(0), kIdentityRotation}).position;
  const glm::vec3 e = stage.ToWorld({at(g.legJoints - 1), kIdentityRotation}).position;
  const glm::vec3 origin = stage.ToWorld({g.groundHeight * stage.up, kIdentityRotation}).position;
  return {job.standing(i, e - g.soleOffsets[i] * stage.root.scale * up, origin, up, stage.root.scale), h};
}

}  // namespace

const KindOps kGroundingKind = {
    ConstraintKind::kGrounding, "grounding", 1, 2, /*eyes=*/false, /*positiveSettleTime=*/false, /*batch=*/false,
    /*movesPelvis=*/true, Defaults, CheckLegs, CheckOptions, DetectAxes, Writes, Configure, Clear, Solve, GroundLegs, Probe,
    /*targets=*/0, /*solveCharacter=*/nullptr, /*clearCharacter=*/nullptr, /*solvePose=*/nullptr, /*directWrites=*/false,
    /*keptRotations=*/nullptr, SettingsInForce,
};

}  // namespace ikpd::rig::detail
