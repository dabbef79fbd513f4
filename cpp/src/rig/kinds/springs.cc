// The springs kind (springs.h): its chains, center, colliders and per-joint
// parameters checked, the bones prepared, and a frame: the animated pose into
// the center's space, the motion (springs_step.cc), the solved rotations
// back (docs/rig/springs.md).
#include "springs.h"

#include <algorithm>
#include <cmath>

#include "../fields.h"
#include "registry.h"

namespace ikpd::rig {

Status SpringJoint::Validate() const {
  SpringsSettings s;
  s.joint = *this;
  return s.Validate();
}

Status SpringsSettings::Validate() const {
  if (Status st = describe::CheckFields(*this); !st) return st;
  if (!IsFinite(joint.gravityDir)) return Error("gravityDir: must be finite");
  if (!IsFinite(wind)) return Error("wind: must be finite");
  return Ok();
}

Status SpringCollider::Validate() const {
  if (Status st = describe::CheckFields(*this); !st) return st;  // shape, radius
  if (!IsFinite(offset)) return Error("offset: must be finite");
  if (!IsFinite(tail)) return Error("tail: must be finite");
  if (!IsFinite(normal) || (shape == SpringColliderShape::kPlane && !(glm::dot(normal, normal) > 1e-12f))) {
    return Error("normal: must be finite and non-zero");
  }
  return Ok();
}

namespace detail {

namespace {

// The slot of skeleton joint `joint` in c.joints' order (joints, then legs), or −1.
int SlotOf(const ConstraintSettings& s, int joint) {
  for (std::size_t k = 0; k < s.joints.size(); ++k) {
    if (s.joints[k] == joint) return static_cast<int>(k);
  }
  for (std::size_t k = 0; k < s.legs.size(); ++k) {
    if (s.legs[k] == joint) return static_cast<int>(s.joints.size() + k);
  }
  return -1;
}

std::size_t ChainJoints(const ConstraintSettings& s) {
  std::size_t total = 0;
  for (const int n : s.springChains) total += n > 0 ? static_cast<std::size_t>(n) : 0;
  return total;
}

// The chains, center and colliders against the skeleton (errors name them as JS does).
Status CheckLimbs(const Setup& setup, const ConstraintSettings& s) {
  if (!s.arms.empty()) return Error("arms: springs takes no arms");
  if (s.springChains.empty()) return Error("chains: needs at least one chain");
  std::size_t at = 0;
  const std::size_t n = setup.skeleton.size();
  for (std::size_t i = 0; i < s.springChains.size(); ++i) {
    const int count = s.springChains[i];
    if (count < 1 || at + static_cast<std::size_t>(count) > s.legs.size()) {
      return FailText(setup, "chains[%zu]: needs 1 or more joints (listed in legs)", i);
    }
    for (int k = 0; k < count; ++k) {
      const int joint = s.legs[at + static_cast<std::size_t>(k)];
      if (joint < 0 || static_cast<std::size_t>(joint) >= n) {
        return FailText(setup, "chains[%zu][%d]: must be a joint index in [0, %zu), got %d", i, k, n, joint);
      }
      if (k > 0 && !setup.skeleton.IsDescendant(static_cast<std::size_t>(joint), static_cast<std::size_t>(s.legs[at + k - 1]))) {
        return FailText(setup, "chains[%zu][%d]: must be a descendant of chains[%zu][%d]", i, k, i, k - 1);
      }
      for (std::size_t e = 0; e < at + static_cast<std::size_t>(k); ++e) {
        if (s.legs[e] == joint) return FailText(setup, "chains[%zu][%d]: joint %d is already in a chain", i, k, joint);
      }
    }
    if (count == 1 && !(s.springs.tipLength > 0.0f)) {
      return FailText(setup, "chains[%zu]: a one-joint chain needs tipLength > 0", i);
    }
    at += static_cast<std::size_t>(count);
  }
  for (std::size_t k = at; k < s.legs.size(); ++k) {
    if (s.legs[k] < 0 || static_cast<std::size_t>(s.legs[k]) >= n) {
      return FailText(setup, "legs[%zu]: must be a joint index in [0, %zu), got %d", k, n, s.legs[k]);
    }
  }
  return Ok();
}

Status CheckOptions(const Setup& setup, const ConstraintSettings& s) {
  if (Status st = s.springs.Validate(); !st) return st;
  const std::size_t joints = ChainJoints(s);
  if (!s.springJoints.empty() && s.springJoints.size() != joints) {
    return FailText(setup, "jointSettings: needs one entry per chain joint (%zu), got %zu", joints, s.springJoints.size());
  }
  for (std::size_t k = 0; k < s.springJoints.size(); ++k) {
    if (Status st = s.springJoints[k].Validate(); !st) return FailText(setup, "jointSettings[%zu].%s", k, st.error);
  }
  for (std::size_t i = 0; i < s.springColliders.size(); ++i) {
    const SpringCollider& c = s.springColliders[i];
    if (c.joint < 0 || SlotOf(s, c.joint) < 0) {
      return FailText(setup, "colliders[%zu].joint: must be the center or listed in legs after the chains, got %d", i, c.joint);
    }
    if (Status st = c.Validate(); !st) return FailText(setup, "colliders[%zu].%s", i, st.error);
  }
  if (!s.springChainColliders.empty()) {
    if (s.springChainColliders.size() != s.springChains.size()) {
      return FailText(setup, "chainColliders: needs one entry per chain (%zu), got %zu", s.springChains.size(), s.springChainColliders.size());
    }
    const std::size_t k = s.springColliders.size();
    if (k > 64) return FailText(setup, "chainColliders: takes at most 64 colliders, got %zu", k);
    for (std::size_t i = 0; i < s.springChainColliders.size(); ++i) {
      if (k < 64 && (s.springChainColliders[i] >> k) != 0) {
        return FailText(setup, "chainColliders[%zu]: must list colliders in [0, %zu)", i, k);
      }
    }
  }
  return Ok();
}

void DetectAxes(const Setup&, Constraint&) {}  // the joints in their own frames

// Every chain joint but, without a virtual tail, each chain's last.
void Writes(const ConstraintSettings& s, std::vector<std::uint16_t>& out) {
  std::size_t at = s.joints.size();
  for (const int count : s.springChains) {
    const std::size_t n = static_cast<std::size_t>(std::max(count, 0));
    const std::size_t written = s.springs.tipLength > 0.0f ? n : n - std::min<std::size_t>(n, 1);
    for (std::size_t k = 0; k < written; ++k) out.push_back(static_cast<std::uint16_t>(at + k));
    at += n;
  }
}

SpringBone Prepare(const SpringJoint& p) {
  SpringBone b;
  b.drag = p.dragForce;
  b.stiffness = p.stiffness, b.gravityPower = p.gravityPower, b.hitRadius = p.hitRadius;
  const float g = glm::length(p.gravityDir);
  b.gravityDir = g > 0.0f ? p.gravityDir / g : glm::vec3(0.0f);
  return b;
}

Status Configure(const Setup& setup, Constraint& c, bool keepState) {
  SpringsState& t = std::get<SpringsState>(c.state);
  const ConstraintSettings& s = c.settings;
  const std::size_t first = s.joints.size();  // chains start here in c.joints
  const bool tips = s.springs.tipLength > 0.0f;
  t.bones.clear();  // every chain joint but, without tips, each chain's last (its predecessor's tail)
  std::size_t at = 0;
  for (std::size_t i = 0; i < s.springChains.size(); ++i) {
    const int chain = s.springChains[i];
    for (int k = 0; k < chain; ++k, ++at) {
      if (k + 1 == chain && !tips) continue;
      SpringBone b = Prepare(s.springJoints.empty() ? s.springs.joint : s.springJoints[at]);
      b.colliders = s.springChainColliders.empty() ? ~std::uint64_t{0} : s.springChainColliders[i];
      b.slot = static_cast<std::uint16_t>(first + at);
      b.parent = static_cast<std::int16_t>(k > 0 ? static_cast<int>(t.bones.size()) - 1 : -1);
      b.tailSlot = static_cast<std::int16_t>(k + 1 < chain ? static_cast<int>(first + at + 1) : -1);
      // A virtual tail: along the line from the joint's parent at rest, in its own frame.
      const int joint = s.legs[at], parent = setup.skeleton.parent(static_cast<std::size_t>(joint));
      const ModelTransform& rest = setup.Rest(joint);
      const glm::vec3 line = parent >= 0 ? rest.position - setup.Rest(parent).position : glm::vec3(0.0f);
      const float l = glm::length(line);
      b.tipAxis = l > 1e-9f && IsFinite(l) ? glm::conjugate(rest.rotation) * (line / l) : glm::vec3(0.0f, 1.0f, 0.0f);
      t.bones.push_back(b);
    }
  }
  const std::size_t bones = t.bones.size();
  GroupSpringLanes(t);
  GroupSpringWalk(t, c, setup.skeleton);
  t.shapes.clear();
  for (const SpringCollider& col : s.springColliders) {
    const float n = glm::length(col.normal);
    t.shapes.push_back({static_cast<std::uint16_t>(SlotOf(s, col.joint)), col.shape, col.offset, col.tail,
                        n > 0.0f ? col.normal / n : glm::vec3(0.0f, 0.0f, 1.0f), col.radius});
  }
  t.balls.assign(t.shapes.size(), SpringBall{});
  t.at.assign(c.joints.size(), SpringPose{});
  t.centerSlot = s.joints.empty() ? -1 : 0;
  if (!keepState || t.tails.size() != bones || t.now.size() != c.joints.size()) {
    t.tails.assign(bones, glm::vec3(0.0f));
    t.previous.assign(bones, glm::vec3(0.0f));
    t.shown.assign(bones, glm::vec3(0.0f));
    t.solved.assign(bones, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
    t.before.assign(c.joints.size(), SpringPose{});
    t.now.assign(c.joints.size(), SpringPose{});
    t.seen = false;
  }
  return ConfigureSmoothing(t.smooth, s.common, keepState);
}

void Clear(Constraint& c) {
  SpringsState& t = std::get<SpringsState>(c.state);
  ClearSmoothing(t.smooth);
  t.seen = false;
}

// Each tail at its animated place (the frame's pose in `now`), at rest.
void Start(SpringsState& t, float tipLength, const glm::quat& worldToCenter) {
  t.before = t.now;
  for (std::size_t b = 0; b < t.bones.size(); ++b) {
    const SpringBone& bone = t.bones[b];
    const SpringPose& pose = t.now[bone.slot];
    t.tails[b] = bone.tailSlot >= 0 ? t.now[static_cast<std::size_t>(bone.tailSlot)].position
                                    : pose.position + pose.rotation * (bone.tipAxis * tipLength);
  }
  t.previous = t.tails;
  t.clock = 0.0;
  (void)StepSprings(t, 0.0f, tipLength, glm::vec3(0.0f), worldToCenter);
  t.seen = true;
}

// A frame after the pose is in the center's space (`now`): the ticks, and
// each bone's solved rotation into desired (model space); the result filled.
void Advance(SpringsState& t, const SpringsSettings& s, const Stage& stage, const glm::quat& centerRotation,
             const glm::quat& toCenter, float dt, ConstraintResult& r, bool desired = true) {
  const glm::quat worldToCenter = Unit(toCenter * glm::conjugate(stage.root.transform.rotation));
  if (!t.seen) Start(t, s.tipLength, worldToCenter);
  const int steps = StepSprings(t, dt, s.tipLength, s.wind, worldToCenter);
  t.before = t.now;
  float farthest = 0.0f;  // the largest distance of a tail from its animated place
  for (std::size_t b = 0; b < t.bones.size(); ++b) {
    const SpringBone& bone = t.bones[b];
    if (desired) stage.desired[bone.slot] = Unit(centerRotation * t.solved[b]);
    if (bone.tailSlot >= 0) farthest = std::max(farthest, glm::length(t.tails[b] - t.now[bone.tailSlot].position));
  }
  r.reached = 1.0f;
  r.distance = farthest;
  r.iterations = static_cast<float>(steps);
}

// The center's frame (model space; the rig's root when there is no center)
// from `at(slot)`, a slot's gathered transform, and every slot outside
// [skipFrom, skipTo) put into that frame in `now`.
template <typename At>
Transform IntoCenter(SpringsState& t, At at, std::size_t skipFrom, std::size_t skipTo) {
  Transform center{glm::vec3(0.0f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  if (t.centerSlot >= 0) center = at(static_cast<std::size_t>(t.centerSlot));
  const glm::quat toCenter = glm::conjugate(center.rotation);
  for (std::size_t k = 0; k < t.now.size(); ++k) {
    if (k >= skipFrom && k < skipTo) continue;
    const Transform in = at(k);
    t.now[k] = {toCenter * (in.position - center.position), Unit(toCenter * in.rotation)};
  }
  return center;
}

// One character's frame on its state `t` (a RigBatch's characters): the
// gathered joints (stage.jobIn) into the center's space; `common` gives the
// weight (the batch folds the character's in).
Outcome SolveOn(const Stage& stage, const Constraint& c, const CommonSettings& common, SpringsState& t, float dt,
                const ConstraintFrame& raw, ConstraintResult& r) {
  (void)SmoothInputs(t.smooth, common, dt, raw);  // the weight (no target)
  const Transform center = IntoCenter(t, [&](std::size_t k) { return stage.jobIn[k]; }, 0, 0);  // every joint
  Advance(t, c.settings.springs, stage, center.rotation, glm::conjugate(center.rotation), dt, r);
  return {true, t.smooth.weightNow};
}

// A Rig's frame (KindOps::solvePose): the center and the colliders' joints
// from the rig, the chains walked down from their locals (springs_pose.cc),
// the solved rotations written back; the floats of the rig's own stages.
bool SolvePose(const Stage& stage, const PoseAccess& pose, Constraint& c, float dt, const ConstraintFrame& raw,
               ConstraintResult& r) {
  SpringsState& t = *std::get_if<SpringsState>(&c.state);
  (void)SmoothInputs(t.smooth, c.settings.common, dt, raw);
  const auto framed = [&](std::size_t k) {  // Rig::Gather's joint k
    const ModelTransform& m = pose.Model(static_cast<std::size_t>(c.joints[k]));
    return Transform{m.position, Unit(m.rotation * c.frames[k])};
  };
  // The slots off the chains (the center, the colliders' joints) one by one; the chains walked.
  const std::size_t first = c.settings.joints.size();
  const Transform center = IntoCenter(t, framed, first, first + ChainJoints(c.settings));
  const glm::quat toCenter = glm::conjugate(center.rotation);
  WalkSprings(t, c, pose, toCenter, center.position);
  Advance(t, c.settings.springs, stage, center.rotation, toCenter, dt, r, !t.ancestorsInLane);  // (else WriteSprings turns them)
  return WriteSprings(t, c, pose, t.smooth.weightNow, center.rotation, stage.desired);
}

Outcome Solve(const Stage& stage, Constraint& c, float dt, const ConstraintFrame& raw, ConstraintResult& r) {
  return SolveOn(stage, c, c.settings.common, *std::get_if<SpringsState>(&c.state), dt, raw, r);
}

// RigBatch (kind.h, solveCharacter): a character's frame on its own state (the frame's target is not read).
Outcome SolveCharacter(const Stage& stage, const Constraint& c, const CommonSettings& common, CharacterState& state,
                       float dt, ConstraintResult& r) {
  return SolveOn(stage, c, common, *std::get_if<SpringsState>(&state.state), dt, ConstraintFrame{}, r);
}

void ClearCharacter(CharacterState& state) {
  SpringsState& t = *std::get_if<SpringsState>(&state.state);
  ClearSmoothing(t.smooth);
  t.seen = false;
}

}  // namespace

const KindOps kSpringsKind = {
    ConstraintKind::kSprings, "springs", 0, 1, /*eyes=*/false, /*positiveSettleTime=*/false, /*batch=*/true,
    /*movesPelvis=*/false, NoDefaults, CheckLimbs, CheckOptions, DetectAxes, Writes, Configure, Clear, Solve, NoGroundLegs, NoProbe,
    /*targets=*/0, SolveCharacter, ClearCharacter, SolvePose,
};

}  // namespace detail
}  // namespace ikpd::rig
