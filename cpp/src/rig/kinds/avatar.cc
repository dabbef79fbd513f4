// The avatar kind (avatar.h): its joints by role checked, the limbs' frames
// and rest bends prepared, the frame's six targets weighed; the stages are in
// avatar_solve.cc (docs/rig/avatar.md).
#include "avatar.h"

#include <algorithm>
#include <cmath>

#include "../fields.h"
#include "registry.h"

namespace ikpd::rig {

Status AvatarSettings::Validate() const { return describe::CheckFields(*this); }

namespace detail {

namespace {

void Defaults(ConstraintSettings& s) { s.common.settleTime = 0.2f; }

// joints [pelvis, spine (1..3), neck?, head]; arms 0, 6 or 8; legs 0 or 6,
// each limb a chain below the pelvis.
Status CheckLimbs(const Setup& setup, const ConstraintSettings& s) {
  const std::size_t n = s.joints.size(), neck = s.avatar.neck ? 1 : 0;
  if (n < 3 + neck || n > 5 + neck) {
    return FailText(setup, "joints: needs the pelvis, 1 to 3 spine joints, %sthe head (%zu to %zu joints), got %zu",
                    neck != 0 ? "the neck, " : "", 3 + neck, 5 + neck, n);
  }
  const std::size_t arms = s.arms.size(), per = arms / 2;
  if (arms != 0 && arms != 6 && arms != 8) {
    return FailText(setup, "arms: needs 0, 6 or 8 joints ([shoulder?, upper arm, forearm, hand] per arm), got %zu", arms);
  }
  if (s.legs.size() != 0 && s.legs.size() != 6) {
    return FailText(setup, "legs: needs 0 or 6 joints ([upper leg, lower leg, foot] per leg), got %zu", s.legs.size());
  }
  const std::size_t pelvis = static_cast<std::size_t>(s.joints[0]);
  for (const auto* limb : {&s.arms, &s.legs}) {
    const char* field = limb == &s.arms ? "arms" : "legs";
    const std::size_t size = limb == &s.arms ? per : 3;
    for (std::size_t k = 0; k < limb->size(); k += size) {
      if (Status st = CheckChain(setup, std::span<const int>(*limb).subspan(k, size), field, k); !st) return st;
      if (!setup.skeleton.IsDescendant(static_cast<std::size_t>((*limb)[k]), pelvis)) {
        return FailText(setup, "%s[%zu]: must be a descendant of joints[0] (the pelvis, joint %zu)", field, k, pelvis);
      }
    }
  }
  return Ok();
}

Status CheckOptions(const Setup&, const ConstraintSettings& s) { return s.avatar.Validate(); }

void WritesEvery(const ConstraintSettings& s, std::vector<std::uint16_t>& out) {
  const std::size_t n = s.joints.size() + s.arms.size() + s.legs.size();
  for (std::size_t k = 0; k < n; ++k) out.push_back(static_cast<std::uint16_t>(k));
}

// The unit part of v normal to unit `line`, else `fallback` made normal to it.
glm::vec3 Normal(const glm::vec3& v, const glm::vec3& line, const glm::vec3& fallback) {
  glm::vec3 d = v - glm::dot(v, line) * line;
  if (glm::dot(d, d) > 1e-10f * std::max(glm::dot(v, v), 1e-12f)) return glm::normalize(d);
  d = fallback - glm::dot(fallback, line) * line;
  return NormalizeOr(d, glm::vec3(0.0f, 0.0f, 1.0f));
}

// The limbs' slots, their canonical frames (+X along each bone, +Z the hinge)
// and rest bends: where the elbow or knee points at rest, else `bendHint`.
void PrepareLimb(const Setup& setup, Constraint& c, AvatarLimb& limb, const glm::vec3& bendHint) {
  const auto rest = [&](int slot) -> const ModelTransform& { return setup.Rest(c.joints[static_cast<std::size_t>(slot)]); };
  const glm::vec3 root = rest(limb.upper).position, mid = rest(limb.lower).position, end = rest(limb.end).position;
  const glm::vec3 line = NormalizeOr(end - root, setup.up);
  const glm::vec3 bend = Normal(mid - root, line, bendHint);
  const glm::vec3 hinge = NormalizeOr(glm::cross(bend, line), glm::vec3(0.0f, 0.0f, 1.0f));
  for (int slot : {limb.upper, limb.lower}) {
    const glm::vec3 next = rest(slot == limb.upper ? limb.lower : limb.end).position;
    const glm::quat inverse = glm::conjugate(rest(slot).rotation);
    c.frames[static_cast<std::size_t>(slot)] = BoneFrame(NormalizeOr(inverse * (next - rest(slot).position), glm::vec3(1, 0, 0)), inverse * hinge);
  }
  limb.bend = glm::conjugate(rest(limb.end).rotation) * bend;  // the end keeps its own frame
  limb.reach = glm::length(mid - root) + glm::length(end - mid);
}

// Where a folded arm's elbow points, model space at rest (docs/rig/avatar.md,
// "Stages", Arms): out along the rest arm, down and back, 1 : 0.5 : 1.5.
glm::vec3 FoldedElbow(const Setup& setup, const Constraint& c, const AvatarLimb& arm) {
  const auto at = [&](int slot) { return setup.Rest(c.joints[static_cast<std::size_t>(slot)]).position; };
  glm::vec3 out = at(arm.end) - at(arm.upper);
  out = NormalizeOr(out - glm::dot(out, setup.up) * setup.up - glm::dot(out, setup.facing) * setup.facing, glm::cross(setup.up, setup.facing));
  return glm::normalize(out - 0.5f * setup.up - 1.5f * setup.facing);
}

void DetectAxes(const Setup& setup, Constraint& c) {
  AvatarState& a = std::get<AvatarState>(c.state);
  const ConstraintSettings& s = c.settings;
  const int n = static_cast<int>(s.joints.size());
  a.head = n - 1;
  a.neck = s.avatar.neck ? n - 2 : -1;
  a.pelvisFacing = glm::conjugate(setup.Rest(s.joints[0]).rotation) * setup.facing;
  a.pelvisRest = setup.Rest(s.joints[0]).rotation;
  a.headRest = setup.Rest(s.joints[static_cast<std::size_t>(a.head)]).rotation;
  a.headToPelvis = glm::conjugate(a.headRest) * a.pelvisRest;
  a.armCount = s.arms.empty() ? 0 : 2;
  a.legCount = s.legs.empty() ? 0 : 2;
  const int per = static_cast<int>(s.arms.size()) / 2;
  const std::size_t count = c.joints.size();
  for (std::size_t k = 0; k < count; ++k) {
    a.below[k] = 0;
    for (std::size_t m = 0; m < count; ++m) {
      const auto jm = static_cast<std::size_t>(c.joints[m]), jk = static_cast<std::size_t>(c.joints[k]);
      if (setup.skeleton.IsDescendant(jm, jk)) a.below[k] |= 1u << m;
    }
  }
  for (int side = 0; side < a.armCount; ++side) {
    AvatarLimb& arm = a.arms[side];
    const int base = n + side * per;
    arm.shoulder = per == 4 ? base : -1;
    arm.upper = base + (per == 4 ? 1 : 0), arm.lower = arm.upper + 1, arm.end = arm.upper + 2;
    const int first = per == 4 ? arm.shoulder : arm.upper;
    arm.parent = 0;
    for (int k = 1; k < n; ++k) {
      if ((a.below[static_cast<std::size_t>(k)] >> first) & 1u) arm.parent = k;
    }
    PrepareLimb(setup, c, arm, -setup.facing);  // a straight arm's elbow points back
    const glm::quat parentRest = setup.Rest(c.joints[static_cast<std::size_t>(arm.parent)]).rotation;
    arm.up = glm::conjugate(parentRest) * setup.up;
    arm.fold = glm::conjugate(parentRest) * FoldedElbow(setup, c, arm);
    arm.carried = 0;
    for (int k = first; k <= arm.end; ++k) arm.carried |= 1u << k;
  }
  a.chest = a.armCount > 0 ? a.arms[0].parent : -1;
  if (a.chest >= 0) a.chestFacing = glm::conjugate(setup.Rest(c.joints[static_cast<std::size_t>(a.chest)]).rotation) * setup.facing;
  for (int side = 0; side < a.legCount; ++side) {
    AvatarLimb& leg = a.legs[side];
    leg.upper = n + static_cast<int>(s.arms.size()) + 3 * side, leg.lower = leg.upper + 1, leg.end = leg.upper + 2;
    PrepareLimb(setup, c, leg, setup.facing);  // a straight leg's knee points forward
    leg.parent = 0;
    for (int k = 1; k < n; ++k) {
      if ((a.below[static_cast<std::size_t>(k)] >> leg.upper) & 1u) leg.parent = k;
    }
    leg.carried = (1u << leg.lower) | (1u << leg.end);  // the hip stays current: the pelvis stages read it
  }
  // Only the limbs' upper and lower joints have canonical frames (PrepareLimb).
  a.framed = 0;
  for (int side = 0; side < a.armCount; ++side) a.framed |= (1u << a.arms[side].upper) | (1u << a.arms[side].lower);
  for (int side = 0; side < a.legCount; ++side) a.framed |= (1u << a.legs[side].upper) | (1u << a.legs[side].lower);
}

Status Configure(const Setup&, Constraint& c, bool keepState) {
  AvatarState& a = std::get<AvatarState>(c.state);
  TwoBoneSettings limb;
  limb.pole = TwoBonePole::kDirection;
  limb.endRotation = EndRotation::kWorld;
  if (Status st = Prepare(limb, &a.limb); !st) return st;
  if (Status st = ConfigureSmoothing(a.smooth, c.settings.common, keepState); !st) return st;
  pd::PdSettings pds;
  const CommonSettings& common = c.settings.common;
  if (Status st = pd::SettingsFromSettleTime(common.settleTime > 0.0f ? common.settleTime : 1.0, common.damping, &pds); !st) return st;
  pds.blendOutTime = common.blendOutTime;
  for (pd::ScalarPD& p : a.targetPds) {
    if (Status st = p.Configure(pds); !st) return st;
  }
  for (pd::ScalarPD& p : a.stretchPds) {
    if (Status st = p.Configure(pds); !st) return st;
  }
  if (!keepState) a.targetsHeld = false, a.steps.planted = false;
  a.steps.seen.known = false;  // the animated body's offsets made again (the frames may have changed)
  return Ok();
}

void Clear(Constraint& c) {
  AvatarState& a = std::get<AvatarState>(c.state);
  ClearSmoothing(a.smooth);
  a.targetsHeld = false;
  a.steps.planted = false;  // the feet plant again where the animation has them
}

// Target k's weight this frame: as given, or through its PD (settleTime > 0;
// toward 0 a blend-out, so a lost tracker's part reaches the animation exactly),
// times the constraint's effective weight.
float TargetWeight(AvatarState& a, const CommonSettings& common, float dt, std::size_t k, float given) {
  const double w = SmoothToward(a.targetPds[k], common, dt, !a.targetsHeld, given);
  return std::clamp(static_cast<float>(w), 0.0f, 1.0f) * a.smooth.weightNow;
}

Outcome Solve(const Stage& stage, Constraint& c, float dt, const ConstraintFrame& raw, ConstraintResult& r) {
  AvatarState& a = *std::get_if<AvatarState>(&c.state);
  (void)SmoothInputs(a.smooth, c.settings.common, dt, raw);  // the weight (the targets are the rig's targets())
  AvatarGoals goals;
  const Transform* in = stage.jobIn;
  // A target in model space (scaled: docs/rig/avatar.md, "Calibration"),
  // slerped from the animated joint by its weight (a hand: whole, see ArmStage).
  const AvatarSettings& s = c.settings.avatar;
  const glm::vec3 headAt = stage.ToModel(stage.targets[kAvatarHead].position);
  const auto goal = [&](std::size_t k, int slot, float* weight, bool whole) {
    const TargetPose& t = stage.targets[k];
    *weight = TargetWeight(a, c.settings.common, dt, k, t.weight);
    if (whole && *weight == 0.0f) return Transform{};  // untracked: no stage reads it
    const Transform& animated = in[static_cast<std::size_t>(slot)];
    const glm::vec3 at = k == kAvatarHead ? headAt : stage.ToModel(t.position);
    const bool hand = k == kAvatarLeftHand || k == kAvatarRightHand;
    const glm::vec3 scaled = !hand || s.armScale == s.scale ? at * s.scale : at * s.scale + (at - headAt) * (s.armScale - s.scale);
    // Each target's joint (the head, a hand, the pelvis, a foot) keeps its own
    // frame (the identity: only the limbs' upper and lower joints have one).
    const Transform target{scaled, Unit(stage.root.inverse * Unit(t.rotation))};
    if (whole) return target;  // a hand, the pelvis, a foot: blended by its stage from where the body carried it
    return Transform{glm::mix(animated.position, target.position, *weight), Toward(animated.rotation, target.rotation, *weight)};
  };
  goals.head = goal(kAvatarHead, a.head, &goals.headWeight, false);
  for (int side = 0; side < 2; ++side) {
    const int end = side < a.armCount ? a.arms[side].end : a.head;
    goals.hands[side] = goal(static_cast<std::size_t>(kAvatarLeftHand + side), end, &goals.handWeights[side], true);
    if (side >= a.armCount) goals.handWeights[side] = 0.0f;
  }
  // The full-body trackers (docs/rig/avatar.md, "Full-body trackers"), each whole: its stage blends it.
  goals.pelvis = goal(kAvatarPelvis, 0, &goals.pelvisWeight, true);
  for (int side = 0; side < 2; ++side) {
    const int end = side < a.legCount ? a.legs[side].end : 0;
    goals.footTargets[side] = goal(static_cast<std::size_t>(kAvatarLeftFoot + side), end, &goals.footWeights[side], true);
    if (side >= a.legCount) goals.footWeights[side] = 0.0f;
  }
  StretchFrame(a, s, c.settings.common, dt, !a.targetsHeld);  // the arm stretch in force (avatar_stretch.cc)
  a.targetsHeld = true;
  r.reached = 1.0f;
  if (goals.headWeight == 0.0f && goals.handWeights[0] == 0.0f && goals.handWeights[1] == 0.0f && goals.pelvisWeight == 0.0f &&
      goals.footWeights[0] == 0.0f && goals.footWeights[1] == 0.0f) {
    a.steps.planted = false;  // the feet plant again where the animation has them when a target comes back
    return {false, 1.0f};     // every target at weight 0: exactly the animated pose
  }
  Transform* pose = stage.jobOut;
  const std::size_t count = c.joints.size();
  std::copy(in, in + count, pose);
  LeaveLimbs(a, pose);  // the limbs ride on the pelvis and spine until their own stages
  PelvisStage(stage, c, goals, pose);
  PelvisTargetStage(c, goals, pose);
  SpineStage(stage, c, goals, pose);
  StepFeet(stage, c, dt, pose, &goals);
  ShoulderStage(stage, c, goals, pose);  // carries the arms too
  const std::uint32_t stretched = ArmStage(c, &goals, pose);
  CarryLimbs(a, pose, 2, 2);
  LegStage(c, goals, pose);
  // The result: the largest distance of a weighted target from its joint (world),
  // one square root of the largest square (the root is monotone: the same float).
  const glm::vec3 head = pose[a.head].position - goals.head.position;
  float worst = goals.headWeight > 0.0f ? glm::dot(head, head) : 0.0f;
  const auto apart = [&worst](const glm::vec3& d) { worst = std::max(worst, glm::dot(d, d)); };
  for (int side = 0; side < a.armCount; ++side) {
    if (goals.handWeights[side] > 0.0f) apart(pose[a.arms[side].end].position - goals.hands[side].position);
  }
  if (goals.pelvisWeight > 0.0f) apart(pose[0].position - goals.pelvis.position);
  for (int side = 0; side < a.legCount; ++side) {
    if (goals.footWeights[side] > 0.0f) apart(pose[a.legs[side].end].position - goals.feet[side].position);
  }
  const float distance = std::sqrt(worst);
  r.distance = distance * stage.root.scale;
  r.reached = distance <= 1e-4f ? 1.0f : 0.0f;
  // Only the limbs' upper and lower joints have canonical frames (AvatarState::framed):
  // the others' rotations times the identity's conjugate are the rotations themselves.
  for (std::size_t k = 0; k < count; ++k) {
    if ((a.framed >> k) & 1u) BackDirect(stage, c, k, pose[k].rotation);
    else stage.desired[k] = pose[k].rotation;
  }
  return {true, 1.0f, stretched};  // the weights are in the goals (the translations too)
}

}  // namespace

const KindOps kAvatarKind = {
    ConstraintKind::kAvatar, "avatar", 3, 6, /*eyes=*/false, /*positiveSettleTime=*/false, /*batch=*/false,
    /*movesPelvis=*/true, Defaults, CheckLimbs, CheckOptions, DetectAxes, WritesEvery, Configure, Clear, Solve, AvatarGroundLegs, AvatarProbe,
    /*targets=*/kAvatarTargets, /*solveCharacter=*/nullptr, /*clearCharacter=*/nullptr, /*solvePose=*/nullptr,
    /*directWrites=*/true,  // the limbs' write (kinds/kind.h): each joint under its solved parent
};

}  // namespace detail
}  // namespace ikpd::rig
