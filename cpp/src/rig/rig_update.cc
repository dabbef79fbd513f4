// Rig: one frame (docs/rig/rig.md, update order). Check the inputs; copy in → out;
// for each constraint: gather its joints' model transforms (lazily), solve,
// turn the solved model rotations into locals, weigh and smooth them, write
// them and mark the subtrees below stale.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "ikpd/rig/rig.h"
#include "rig_math.h"

namespace ikpd::rig {

namespace {
bool Finite(const LocalTransform& t) {
  return IsFinite(t.translation) && IsFinite(t.scale) && IsUsableRotation(t.rotation);
}
const char* Bad(const LocalTransform& t) {
  if (!IsFinite(t.translation)) return "translation: must be finite";
  if (!IsUsableRotation(t.rotation)) return "rotation: must be finite and non-zero";
  return "scale: must be finite";
}
}  // namespace

glm::vec3 Rig::ToModel(const glm::vec3& world) const {
  return (rootInverse_ * (world - root_.translation)) / root_.scale;
}
glm::vec3 Rig::ToModelVector(const glm::vec3& world) const { return (rootInverse_ * world) / root_.scale; }

void Rig::SetRoot(const LocalTransform& root) {
  root_ = root;
  root_.rotation = Unit(root.rotation);
  rootInverse_ = glm::conjugate(root_.rotation);
  rootScale_ = (std::abs(root.scale.x) + std::abs(root.scale.y) + std::abs(root.scale.z)) / 3.0f;
}

Status Rig::CheckFrame(float dt, std::span<const LocalTransform> in, const LocalTransform& root,
                       std::span<LocalTransform> out, std::span<std::uint8_t> changed) {
  const std::size_t n = skeleton_.size();
  if (n == 0) return Error("rig: not initialized (Init first)");
  if (!IsFinite(dt) || dt < 0.0f) return Error("dt: must be finite and >= 0");
  if (in.size() != n) return Error("in: needs one transform per joint");
  if (out.size() != n) return Error("out: needs one transform per joint");
  if (!changed.empty() && changed.size() != n) return Error("changed: needs one flag per joint (or none)");
  if (in.data() == out.data()) return Error("out: must not alias in");
  if (Status s = CheckPose(in, root); !s) return s;
  for (std::size_t i = 0; i < frames_.size(); ++i) {
    const ConstraintFrame& f = frames_[i];
    const char* bad = !IsFinite(f.target) ? "target" : !IsFinite(f.pole) ? "pole"
                      : !IsFinite(f.effectorOffset) ? "effectorOffset" : !IsFinite(f.poleSet) ? "poleSet" : nullptr;
    if (bad != nullptr) {
      std::snprintf(message_, sizeof(message_), "frames[%zu].%s: must be finite", i, bad);
      return Error(message_);
    }
  }
  for (std::size_t i = 0; i < grounds_.size(); ++i) {
    const GroundHit& g = grounds_[i];
    const bool hit = g.hit != 0.0f;
    const char* bad = !IsFinite(g.hit) ? "hit" : !IsFinite(g.plant) ? "plant" : hit && !IsFinite(g.point) ? "point"
                      : hit && !IsFinite(g.normal) ? "normal" : nullptr;
    if (bad != nullptr) {
      std::snprintf(message_, sizeof(message_), "grounds[%zu].%s: must be finite", i, bad);
      return Error(message_);
    }
  }
  return Ok();
}

// The animated pose and root (Update and Probe).
Status Rig::CheckPose(std::span<const LocalTransform> in, const LocalTransform& root) {
  const std::size_t n = skeleton_.size();
  if (n == 0) return Error("rig: not initialized (Init first)");
  if (in.size() != n) return Error("in: needs one transform per joint");
  if (!Finite(root)) {
    std::snprintf(message_, sizeof(message_), "root.%s", Bad(root));
    return Error(message_);
  }
  if (!(std::abs(root.scale.x) > 0.0f && std::abs(root.scale.y) > 0.0f && std::abs(root.scale.z) > 0.0f)) {
    return Error("root.scale: must not be zero");
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!Finite(in[i])) {
      std::snprintf(message_, sizeof(message_), "in[%zu].%s", i, Bad(in[i]));
      return Error(message_);
    }
  }
  return Ok();
}

Status Rig::Update(float dt, std::span<const LocalTransform> in, const LocalTransform& root,
                   std::span<LocalTransform> out, std::span<std::uint8_t> changed) {
  if (Status s = CheckFrame(dt, in, root, out, changed); !s) return s;
  SetRoot(root);
  std::copy(in.begin(), in.end(), out.begin());
  std::fill(fresh_.begin(), fresh_.end(), std::uint8_t{0});
  for (std::size_t i = 0; i < constraints_.size(); ++i) Solve(i, dt, out);
  if (!changed.empty()) {
    // Bit for bit (a −0 written over a +0 counts: the caller copies it back).
    for (std::size_t j = 0; j < in.size(); ++j) changed[j] = std::memcmp(&in[j], &out[j], sizeof(LocalTransform)) != 0;
  }
  return Ok();
}

// The model transform of `joint` in the pose `out`: computed from the nearest
// fresh ancestor down (parents come before children).
const Rig::ModelTransform& Rig::Model(std::size_t joint, std::span<const LocalTransform> out) {
  if (fresh_[joint]) return model_[joint];
  std::size_t count = 0;
  for (int j = static_cast<int>(joint); j >= 0 && !fresh_[static_cast<std::size_t>(j)]; j = skeleton_.parent(static_cast<std::size_t>(j))) {
    walk_[count++] = j;
  }
  static const ModelTransform kOrigin{};
  while (count > 0) {
    const std::size_t m = static_cast<std::size_t>(walk_[--count]);
    const int p = skeleton_.parent(m);
    const ModelTransform& parent = p >= 0 ? model_[static_cast<std::size_t>(p)] : kOrigin;
    const LocalTransform& l = out[m];
    model_[m] = {parent.position + parent.rotation * (parent.scale * l.translation),
                 Unit(parent.rotation * Unit(l.rotation)), parent.scale * l.scale};
    fresh_[m] = 1;
  }
  return model_[joint];
}

// `joint`'s local changed: its subtree is stale (a range in depth-first
// skeletons; otherwise every joint whose parent is stale, in one forward pass).
void Rig::Written(std::size_t joint) {
  if (skeleton_.depthFirst()) {
    std::fill(fresh_.begin() + static_cast<std::ptrdiff_t>(joint),
              fresh_.begin() + static_cast<std::ptrdiff_t>(skeleton_.subtreeEnd(joint)), std::uint8_t{0});
    return;
  }
  fresh_[joint] = 0;
  for (std::size_t k = joint + 1; k < fresh_.size(); ++k) {
    const int p = skeleton_.parent(k);
    if (p >= 0 && !fresh_[static_cast<std::size_t>(p)]) fresh_[k] = 0;
  }
}

// Stage 1: the constraint's joints in model space, in their canonical frames.
void Rig::Gather(const Constraint& c, std::span<const LocalTransform> out) {
  for (std::size_t k = 0; k < c.joints.size(); ++k) {
    const std::size_t j = static_cast<std::size_t>(c.joints[k]);
    const int p = skeleton_.parent(j);
    if (p >= 0) Model(static_cast<std::size_t>(p), out);  // WriteRotations reads the parents too
    const ModelTransform& m = Model(j, out);
    jobIn_[k] = {m.position, Unit(m.rotation * c.frames[k])};
  }
}

void Rig::Solve(std::size_t index, float dt, std::span<LocalTransform> out) {
  Constraint& c = constraints_[index];
  const ConstraintFrame& f = frames_[index];
  ConstraintResult& r = results_[index];
  r = {};
  Gather(c, out);
  if (c.settings.kind == ConstraintKind::kGrounding) {
    if (SolveGround(c, dt, r)) r.active = WriteRotations(c, false, out) ? 1.0f : 0.0f;
    return;
  }
  const bool limb = c.settings.kind != ConstraintKind::kLookAt && c.settings.kind != ConstraintKind::kBodyLookAt;
  if (c.chainSetup.prepared() && c.chainSetup.settings().limits.data() != c.settings.chainLimits.data()) {
    PrepareLimb(c);  // a copied rig: its chain setup still viewed the original's limits (no allocation)
  }
  if (limb) {
    SolveLimb(c, SmoothInputs(c, dt, f), r);
  } else {
    SolveLook(c, dt, f, r);
    const bool active = c.settings.kind == ConstraintKind::kLookAt ? c.lookAt.active() : c.body.active();
    if (!active) return;  // exactly the animated pose: nothing to write
  }
  r.active = WriteRotations(c, limb, out) ? 1.0f : 0.0f;
}

// Stage 1b (aim, two-bone, pseudo three-bone, chain): the inputs the solve and
// the blend see (docs/rig/rig.md, "Weight, enabled and smoothing"). Without
// smoothing: the frame as given and w = enabled ? weight : 0 (kept in weightPd,
// where smoothing starts when it is turned on). With smoothing: w tracks its
// goal through weightPd (released to exactly 0 when disabled); the world target
// and pole through their per-axis PDs, restarted at the frame's points while w
// is exactly 0 (nothing shows) or when the pole is first set. A steady target
// is exact: the PD of a held value never moves.
ConstraintFrame Rig::SmoothInputs(Constraint& c, float dt, const ConstraintFrame& f) {
  const CommonSettings& common = c.settings.common;
  const double goal = common.enabled ? static_cast<double>(common.weight) : 0.0;
  ConstraintFrame smoothed = f;
  if (common.settleTime == 0.0f) {
    c.weightPd.Reset(goal);
    c.targetHeld = c.poleHeld = false;
    c.weightNow = static_cast<float>(goal);
    return smoothed;
  }
  const bool restart = !c.targetHeld || c.weightPd.value() == 0.0;
  // A PD at rest on its target stays there exactly: its step is skipped (the
  // steady case, a hand held on a cup, costs no PD step). Errors (a diverging
  // step) keep the state: the frame goes on with it.
  const auto atRest = [](const pd::ScalarPD& p, double target) { return p.value() == target && p.velocity() == 0.0; };
  if (!common.enabled) (void)c.weightPd.UpdateBlendOut(dt, 0.0);
  else if (!atRest(c.weightPd, goal) || c.weightPd.blendPhase() != pd::BlendPhase::kNone) (void)c.weightPd.Update(dt, goal);
  c.weightNow = std::clamp(static_cast<float>(c.weightPd.value()), 0.0f, 1.0f);  // an underdamped PD overshoots
  const auto track = [&](pd::ScalarPD* axes, const glm::vec3& raw, bool start, glm::vec3* out) {
    for (int k = 0; k < 3; ++k) {
      if (start) axes[k].Reset(raw[k]);
      else if (!atRest(axes[k], raw[k])) (void)axes[k].Update(dt, raw[k]);
      (*out)[k] = static_cast<float>(axes[k].value());
    }
  };
  track(c.pointPds, f.target, restart, &smoothed.target);
  c.targetHeld = true;
  if (f.poleSet != 0.0f) {
    track(c.pointPds + 3, f.pole, restart || !c.poleHeld, &smoothed.pole);
    c.poleHeld = true;
  } else {
    c.poleHeld = false;
  }
  return smoothed;
}

// Stage 2 (aim, two-bone, pseudo three-bone, chain): the full-weight solve;
// desired_[k] = the solved model rotation of slot k in the joint's own frame.
void Rig::SolveLimb(const Constraint& c, const ConstraintFrame& f, ConstraintResult& r) {
  const ConstraintSettings& s = c.settings;
  const glm::vec3 target = ToModel(f.target);
  const std::optional<glm::vec3> pole = f.poleSet != 0.0f ? std::optional<glm::vec3>(ToModel(f.pole)) : std::nullopt;
  const auto back = [&](std::size_t k, const glm::quat& solved) { desired_[k] = Unit(solved * glm::conjugate(c.frames[k])); };
  switch (s.kind) {
    case ConstraintKind::kAim: {
      // Settings prepared by Configure (docs/rig/rig.md): only the frame here.
      glm::quat solved = jobIn_[0].rotation;
      const AimFrame frame{jobIn_[0].position, jobIn_[0].rotation, target, pole.value_or(glm::vec3(0.0f)), 1.0f};
      if (!SolveAim(c.aimSetup[pole ? 1 : 0], frame, &solved)) solved = jobIn_[0].rotation;  // cannot fail for checked input
      back(0, solved);
      const float error = LookError({jobIn_[0].position, solved}, c.look, target);
      r.distance = error;
      r.reached = error <= 1e-3f ? 1.0f : 0.0f;
      return;
    }
    case ConstraintKind::kTwoBone: {
      TwoBoneResult out;
      TwoBoneFrame frame;
      frame.root = jobIn_[0], frame.mid = jobIn_[1], frame.end = jobIn_[2], frame.target = target;
      if (pole) frame.pole = *pole;
      else if (s.twoBone.poleDirection) frame.pole = ToModelVector(*s.twoBone.poleDirection);
      frame.effectorOffset = ToModelVector(f.effectorOffset);
      frame.weight = 1.0f;
      if (!SolveTwoBone(c.twoBoneSetup[pole ? 1 : 0], frame, &out)) out = {jobIn_[0], jobIn_[1], jobIn_[2], false, 0.0f};
      back(0, out.root.rotation), back(1, out.mid.rotation), back(2, out.end.rotation);
      r.reached = out.reached ? 1.0f : 0.0f;
      r.distance = out.distance * rootScale_;
      return;
    }
    case ConstraintKind::kPseudoThreeBone: {
      PseudoThreeBoneResult out;
      PseudoThreeBoneFrame frame;
      frame.limb.root = jobIn_[0], frame.limb.mid = jobIn_[1], frame.limb.end = jobIn_[2], frame.tip = jobIn_[3];
      frame.limb.target = target;
      if (pole) frame.limb.pole = *pole;
      else if (s.pseudoThreeBone.limb.poleDirection) frame.limb.pole = ToModelVector(*s.pseudoThreeBone.limb.poleDirection);
      frame.limb.weight = 1.0f;
      frame.blend = s.pseudoThreeBone.blend;
      if (!SolvePseudoThreeBone(c.pseudoSetup[pole ? 1 : 0], frame, &out)) {
        out = {jobIn_[0], jobIn_[1], jobIn_[2], jobIn_[3], false, 0.0f};
      }
      back(0, out.root.rotation), back(1, out.mid.rotation), back(2, out.end.rotation);
      r.reached = out.reached ? 1.0f : 0.0f;
      r.distance = out.distance * rootScale_;
      return;
    }
    case ConstraintKind::kChain: {
      // Settings prepared by Configure (docs/ik/prepared-solvers.md): only the frame here.
      const std::size_t n = c.joints.size();
      ChainResult result;
      const int parent = skeleton_.parent(static_cast<std::size_t>(c.joints[0]));
      const glm::quat parentRotation = parent >= 0 ? model_[static_cast<std::size_t>(parent)].rotation : kIdentityRotation;
      const ChainFrame frame{std::span<const Transform>(jobIn_.data(), n), target, pole, Unit(parentRotation * c.rootRest)};
      if (!SolveChain(c.chainSetup, frame, std::span<Transform>(jobOut_.data(), n), &result)) {
        std::copy(jobIn_.begin(), jobIn_.begin() + static_cast<std::ptrdiff_t>(n), jobOut_.begin());
      }
      for (std::size_t k = 0; k < n; ++k) back(k, jobOut_[k].rotation);
      r.reached = result.reached ? 1.0f : 0.0f;
      r.distance = result.distance * rootScale_;
      r.iterations = static_cast<float>(result.iterations);
      return;
    }
    default: return;
  }
}

// Stage 2 (look-at, body look-at): their own update, smoothing included.
void Rig::SolveLook(Constraint& c, float dt, const ConstraintFrame& f, ConstraintResult& r) {
  const ConstraintSettings& s = c.settings;
  const std::size_t n = s.joints.size();
  const glm::vec3 target = ToModel(f.target);
  const bool enabled = s.common.enabled;
  // The eyes come last in c.joints (docs/rig/look-at.md, "Eyes").
  const std::size_t e = s.eyes.size(), firstEye = c.joints.size() - e;
  const std::span<const Transform> eyesIn(jobIn_.data() + firstEye, e);
  const std::span<Transform> eyesOut(jobOut_.data() + firstEye, e);
  Status status;
  if (s.kind == ConstraintKind::kLookAt) {
    status = c.lookAt.Update(dt, std::span<const Transform>(jobIn_.data(), n), target, enabled,
                             std::span<Transform>(jobOut_.data(), n), eyesIn, eyesOut);
  } else {
    const std::size_t arms = s.arms.size(), legs = s.legs.size();
    BodyLookAtInput input;
    input.spine = std::span<const Transform>(jobIn_.data(), n);
    input.arms = std::span<const Transform>(jobIn_.data() + n, arms);
    input.legs = std::span<const Transform>(jobIn_.data() + n + arms, legs);
    input.target = target;
    input.enabled = enabled;
    input.eyes = eyesIn;
    const BodyLookAtOutput output{std::span<Transform>(jobOut_.data(), n), std::span<Transform>(jobOut_.data() + n, arms),
                                  std::span<Transform>(jobOut_.data() + n + arms, legs), eyesOut};
    status = c.body.Update(dt, input, output);
  }
  if (!status) std::copy(jobIn_.begin(), jobIn_.begin() + static_cast<std::ptrdiff_t>(c.joints.size()), jobOut_.begin());
  for (std::size_t k = 0; k < c.joints.size(); ++k) desired_[k] = jobOut_[k].rotation;  // frames are identity
  const float error = LookError(jobOut_[n - 1], c.look, target);
  r.distance = error;
  r.reached = error <= 1e-3f ? 1.0f : 0.0f;
}

// Stages 3–4: desired model rotations → full-weight locals (each joint's
// parent turned by its nearest solved ancestor's change), then the limbs'
// effective weight (SmoothInputs) into `out`; the body look-at's pelvis also moves. Returns
// whether any local changed.
bool Rig::WriteRotations(Constraint& c, bool weigh, std::span<LocalTransform> out) {
  bool active = false;
  // Locals first (they read the model transforms of the unchanged pose) ...
  for (std::size_t w = 0; w < c.writes.size(); ++w) {
    const std::size_t k = c.writes[w];
    const std::size_t j = static_cast<std::size_t>(c.joints[k]);
    const int p = skeleton_.parent(j);
    glm::quat parent = p >= 0 ? model_[static_cast<std::size_t>(p)].rotation : kIdentityRotation;
    if (const int x = c.writeAncestors[w]; x >= 0) {  // under its nearest written ancestor's solved rotation
      const std::size_t s = c.writes[static_cast<std::size_t>(x)];
      const std::size_t a = static_cast<std::size_t>(c.joints[s]);
      parent = desired_[s] * glm::conjugate(model_[a].rotation) * parent;
    }
    const glm::quat current = Unit(out[j].rotation);
    const glm::quat desired = Unit(glm::conjugate(Unit(parent)) * desired_[k]);
    // Limbs: slerp by this frame's effective weight (exactly current at 0, desired at 1).
    const glm::quat final = weigh ? Weighted(c.weightNow, current, desired) : desired;
    jobOut_[k].rotation = final;  // held until every local is computed
    active = active || final != current;
  }
  // ... then written, each subtree marked stale.
  for (std::uint16_t k : c.writes) {
    const std::size_t j = static_cast<std::size_t>(c.joints[k]);
    if (jobOut_[k].rotation == Unit(out[j].rotation)) continue;
    out[j].rotation = jobOut_[k].rotation;
    Written(j);
  }
  if (c.settings.kind == ConstraintKind::kBodyLookAt || c.settings.kind == ConstraintKind::kGrounding) {
    // The pelvis translation: its solved model position in its parent's frame.
    const std::size_t j = static_cast<std::size_t>(c.joints[0]);
    const int p = skeleton_.parent(j);
    const glm::vec3 moved = jobOut_[0].position;  // the animated pelvis plus the weight shift (or ground offset)
    glm::vec3 local = moved;
    if (p >= 0) {
      const ModelTransform& parent = Model(static_cast<std::size_t>(p), out);
      local = (glm::conjugate(parent.rotation) * (moved - parent.position)) / parent.scale;
    }
    // A pose whose model transforms overflow float (locals near 1e38 composed) gives no
    // usable pelvis position: the translation stays as animated, as a failed job's joints do.
    if (IsFinite(local) && local != out[j].translation) {
      out[j].translation = local;
      Written(j);
      active = true;
    }
  }
  return active;
}

}  // namespace ikpd::rig
