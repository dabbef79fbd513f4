// Rig: construction, settings and their validation (docs/rig/rig.md). The
// per-frame stages are in rig_update.cc, the axis detection in rig_axes.cc.
#include "ikpd/rig/rig.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace ikpd::rig {

namespace {
constexpr std::size_t kNoItem = std::numeric_limits<std::size_t>::max();
constexpr std::size_t kMaxLookJoints = 64;

struct Count {
  std::size_t min, max;
};
Count JointCount(ConstraintKind kind) {
  switch (kind) {
    case ConstraintKind::kAim: return {1, 1};
    case ConstraintKind::kTwoBone: return {3, 3};
    case ConstraintKind::kPseudoThreeBone: return {4, 4};
    case ConstraintKind::kChain: return {2, kMaxChainJoints};
    case ConstraintKind::kLookAt:
    case ConstraintKind::kBodyLookAt: return {2, kMaxLookJoints};
    case ConstraintKind::kGrounding: return {1, 2};  // pelvis, chest
  }
  return {0, 0};
}

bool Usable(const std::optional<glm::vec3>& v) { return !v || (IsFinite(*v) && *v != glm::vec3(0.0f)); }

bool IsLimb(ConstraintKind k) {
  return k != ConstraintKind::kLookAt && k != ConstraintKind::kBodyLookAt && k != ConstraintKind::kGrounding;
}

// A valid model-space limb the options are validated against.
Transform At(float x, float y) { return {glm::vec3(x, y, 0.0f), kIdentityRotation}; }
}  // namespace

ConstraintSettings DefaultSettings(ConstraintKind kind) {
  ConstraintSettings s;
  s.kind = kind;
  if (kind == ConstraintKind::kLookAt) {
    s.common.settleTime = s.lookAt.settleTime;
    s.common.damping = s.lookAt.damping;
    s.common.blendOutTime = s.lookAt.blendOutTime;
  }
  if (kind == ConstraintKind::kBodyLookAt) s.common.blendOutTime = s.bodyLookAt.blendOutTime;
  if (kind == ConstraintKind::kGrounding) {
    s.common.settleTime = s.grounding.settleTime;
    s.common.damping = s.grounding.damping;
    s.common.blendOutTime = s.grounding.blendOutTime;
  }
  return s;
}

Status Rig::Fail(std::size_t index, const char* field, std::size_t item, const char* message) {
  if (field == nullptr) {
    std::snprintf(message_, sizeof(message_), "constraints[%zu].%s", index, message);
  } else if (item == kNoItem) {
    std::snprintf(message_, sizeof(message_), "constraints[%zu].%s: %s", index, field, message);
  } else {
    std::snprintf(message_, sizeof(message_), "constraints[%zu].%s[%zu]: %s", index, field, item, message);
  }
  return Error(message_);
}

Status Rig::Init(const Skeleton& skeleton, std::span<const LocalTransform> rest) {
  const std::size_t n = skeleton.size();
  if (n == 0) return Error("skeleton: has no joints (Skeleton::Init first)");
  if (!rest.empty() && rest.size() != n) return Error("rest: needs one transform per joint");
  Rig next;
  next.skeleton_ = skeleton;
  next.facing_ = facing_;
  next.up_ = up_;
  next.rest_.assign(n, LocalTransform{});
  next.model_.resize(n);
  next.fresh_.assign(n, 0);
  next.walk_.resize(n);
  next.slot_.assign(n, -1);
  if (Status s = next.SetRest(rest.empty() ? std::span<const LocalTransform>(next.rest_) : rest); !s) {
    std::snprintf(message_, sizeof(message_), "%s", s.error);
    return Error(message_);
  }
  *this = std::move(next);
  return Ok();
}

Status Rig::SetRest(std::span<const LocalTransform> rest) {
  const std::size_t n = skeleton_.size();
  if (n == 0) return Error("rig: not initialized (Init first)");
  if (rest.size() != n) return Error("rest: needs one transform per joint");
  for (std::size_t i = 0; i < n; ++i) {
    const char* bad = !IsFinite(rest[i].translation) ? "translation: must be finite"
                      : !IsUsableRotation(rest[i].rotation) ? "rotation: must be finite and non-zero"
                      : !IsFinite(rest[i].scale) ? "scale: must be finite" : nullptr;
    if (bad != nullptr) {
      std::snprintf(message_, sizeof(message_), "rest[%zu].%s", i, bad);
      return Error(message_);
    }
  }
  std::vector<ModelTransform> model(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int p = skeleton_.parent(i);
    const ModelTransform parent = p >= 0 ? model[static_cast<std::size_t>(p)] : ModelTransform{};
    const LocalTransform& l = rest[i];
    model[i] = {parent.position + parent.rotation * (parent.scale * l.translation),
                NormalizeOr(parent.rotation * NormalizeOr(l.rotation, kIdentityRotation), kIdentityRotation),
                parent.scale * l.scale};
  }
  std::vector<LocalTransform> saved(rest.begin(), rest.end());
  std::swap(rest_, saved);
  std::swap(restModel_, model);
  std::vector<Constraint> constraints = constraints_;
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    if (Status s = Configure(constraints[i], constraints[i].settings, true); !s) {
      std::swap(rest_, saved);
      std::swap(restModel_, model);
      return s;
    }
  }
  constraints_ = std::move(constraints);
  return Ok();
}

Status Rig::SetFacing(const glm::vec3& facing) {
  if (!IsFinite(facing) || facing == glm::vec3(0.0f)) return Error("facing: must be a finite non-zero vector");
  const glm::vec3 saved = facing_;
  facing_ = NormalizeOr(facing, facing_);
  if (skeleton_.size() == 0) return Ok();
  if (Status s = SetRest(std::vector<LocalTransform>(rest_)); !s) {
    facing_ = saved;
    return s;
  }
  return Ok();
}

Status Rig::SetUp(const glm::vec3& up) {
  if (!IsFinite(up) || up == glm::vec3(0.0f)) return Error("up: must be a finite non-zero vector");
  const glm::vec3 saved = up_;
  up_ = NormalizeOr(up, up_);
  if (skeleton_.size() == 0) return Ok();
  if (Status s = SetRest(std::vector<LocalTransform>(rest_)); !s) {
    up_ = saved;
    return s;
  }
  return Ok();
}

Status Rig::Check(const ConstraintSettings& s, std::size_t index, std::vector<int>* all) {
  const std::size_t n = skeleton_.size();
  if (n == 0) return Error("rig: not initialized (Init first)");
  if (static_cast<unsigned>(s.kind) > static_cast<unsigned>(ConstraintKind::kGrounding)) {
    return Fail(index, "kind", kNoItem, "unknown kind");
  }
  const Count count = JointCount(s.kind);
  if (s.joints.size() < count.min || s.joints.size() > count.max) {
    char text[64];
    std::snprintf(text, sizeof(text), "needs %zu to %zu joints, got %zu", count.min, count.max, s.joints.size());
    return Fail(index, "joints", kNoItem, text);
  }
  // Each list a chain: every joint a descendant of the one before.
  // `first`: the index of joints[0] in the named list (limbs: 0 or 3).
  const auto chain = [&](std::span<const int> joints, const char* field, std::size_t first = 0) -> Status {
    for (std::size_t k = 0; k < joints.size(); ++k) {
      if (joints[k] < 0 || static_cast<std::size_t>(joints[k]) >= n) {
        char text[80];
        std::snprintf(text, sizeof(text), "must be a joint index in [0, %zu), got %d", n, joints[k]);
        return Fail(index, field, first + k, text);
      }
      if (k > 0 && !skeleton_.IsDescendant(static_cast<std::size_t>(joints[k]), static_cast<std::size_t>(joints[k - 1]))) {
        char text[80];
        std::snprintf(text, sizeof(text), "must be a descendant of %s[%zu] (joint %d)", field, first + k - 1, joints[k - 1]);
        return Fail(index, field, first + k, text);
      }
    }
    return Ok();
  };
  if (Status st = chain(s.joints, "joints"); !st) return st;
  const bool body = s.kind == ConstraintKind::kBodyLookAt;
  const bool ground = s.kind == ConstraintKind::kGrounding;
  if (ground) {
    if (!s.arms.empty()) return Fail(index, "arms", kNoItem, "only bodyLookAt takes arms");
    if (Status st = CheckGroundingLegs(s, index); !st) return st;
  }
  for (const auto* limb : {&s.arms, &s.legs}) {
    if (ground) break;
    const char* field = limb == &s.arms ? "arms" : "legs";
    if (!body && !limb->empty()) return Fail(index, field, kNoItem, "only bodyLookAt takes arms and legs");
    if (limb->size() != 0 && limb->size() != 3 && limb->size() != 6) {
      return Fail(index, field, kNoItem, "needs 0, 3 or 6 joints (3 per limb)");
    }
    for (std::size_t k = 0; k < limb->size(); k += 3) {
      if (Status st = chain(std::span<const int>(*limb).subspan(k, 3), field, k); !st) return st;
    }
  }
  if (Status st = CheckEyes(s, index); !st) return st;
  const CommonSettings& c = s.common;
  if (!(c.weight >= 0.0f && c.weight <= 1.0f)) return Fail(index, "weight", kNoItem, "must be in [0, 1]");
  const bool look = s.kind == ConstraintKind::kLookAt;
  if (!IsFinite(c.settleTime) || c.settleTime < 0.0f || (look && c.settleTime == 0.0f)) {
    return Fail(index, "settleTime", kNoItem, look ? "must be finite and > 0 (lookAt)" : "must be finite and >= 0");
  }
  if (!IsFinite(c.damping) || !(c.damping > 0.0f)) return Fail(index, "damping", kNoItem, "must be finite and > 0");
  if (!IsFinite(c.blendOutTime) || c.blendOutTime < 0.0f) {
    return Fail(index, "blendOutTime", kNoItem, "must be finite and >= 0");
  }
  if (!Usable(c.forward)) return Fail(index, "forward", kNoItem, "must be a finite non-zero vector");
  if (!Usable(c.bendAxis)) return Fail(index, "bendAxis", kNoItem, "must be a finite non-zero vector");
  if (!Usable(c.up)) return Fail(index, "up", kNoItem, "must be a finite non-zero vector");
  if (c.forward && c.bendAxis) {
    const glm::vec3 f = glm::normalize(*c.forward), b = glm::normalize(*c.bendAxis);
    if (glm::length(glm::cross(f, b)) < 1e-4f) return Fail(index, "bendAxis", kNoItem, "must not be parallel to forward");
  }

  // The kind's own options, checked by its job on a sample pose.
  Status st = Ok();
  switch (s.kind) {
    case ConstraintKind::kAim: {
      AimJob job = s.aim;
      glm::quat out;
      job.position = glm::vec3(0.0f);
      job.rotation = kIdentityRotation;
      job.target = glm::vec3(1.0f);
      job.weight = 1.0f;
      job.result = &out;
      st = job.Validate();
      break;
    }
    case ConstraintKind::kTwoBone: {
      if (s.twoBone.maxStretch != 1.0f) return Fail(index, "maxStretch", kNoItem, "the rig does not stretch bones (must be 1)");
      TwoBoneJob job = s.twoBone;
      TwoBoneResult out;
      job.root = At(0, 0), job.mid = At(1, 0), job.end = At(2, 0), job.target = glm::vec3(1.0f, 1.0f, 0.0f);
      job.pole.reset();
      job.weight = 1.0f;
      job.result = &out;
      st = job.Validate();
      break;
    }
    case ConstraintKind::kPseudoThreeBone: {
      if (s.pseudoThreeBone.limb.maxStretch != 1.0f) {
        return Fail(index, "maxStretch", kNoItem, "the rig does not stretch bones (must be 1)");
      }
      PseudoThreeBoneJob job = s.pseudoThreeBone;
      PseudoThreeBoneResult out;
      job.limb.root = At(0, 0), job.limb.mid = At(1, 0), job.limb.end = At(2, 0), job.tip = At(2, -1);
      job.limb.target = glm::vec3(1.0f, 1.0f, 0.0f);
      job.limb.pole.reset();
      job.limb.weight = 1.0f;
      job.result = &out;
      st = job.Validate();
      break;
    }
    case ConstraintKind::kChain: {
      std::vector<Transform> joints(s.joints.size()), output(s.joints.size());
      for (std::size_t k = 0; k < joints.size(); ++k) joints[k] = At(static_cast<float>(k), 0);
      ChainJob job = s.chain;
      job.joints = joints;
      job.output = output;
      job.limits = s.chainLimits;
      job.pole.reset();
      job.result = nullptr;
      st = job.Validate();
      break;
    }
    case ConstraintKind::kLookAt: {
      const std::size_t k = s.joints.size();
      if (!s.lookAtWeights.empty() && s.lookAtWeights.size() != k) return Fail(index, "weights", kNoItem, "needs one weight per joint");
      if (!s.lookAtLimits.empty() && s.lookAtLimits.size() != k) return Fail(index, "limits", kNoItem, "needs one limit per joint");
      LookAtSettings ls = s.lookAt;
      std::vector<float> weights(k, 1.0f);
      if (!s.lookAtWeights.empty()) weights = s.lookAtWeights;
      ls.weights = weights;
      ls.limits = s.lookAtLimits;
      ls.settleTimes = {};
      ls.settleTime = c.settleTime, ls.damping = c.damping, ls.blendOutTime = c.blendOutTime;
      LookAt probe;
      st = probe.Reset(ls);
      break;
    }
    case ConstraintKind::kBodyLookAt: {
      BodyLookAtSettings bs = s.bodyLookAt;
      bs.spineJoints = s.joints.size();
      bs.spine.weights = s.spineWeights;
      bs.spine.limits = s.spineLimits;
      bs.spine.settleTimes = s.spineSettleTimes;
      bs.blendOutTime = c.blendOutTime;
      st = bs.Validate();
      break;
    }
    case ConstraintKind::kGrounding: {
      GroundingSettings g;
      st = ResolveGrounding(s, &g);
      break;
    }
  }
  if (!st) return Fail(index, nullptr, kNoItem, st.error);
  if (all != nullptr) {
    all->assign(s.joints.begin(), s.joints.end());
    all->insert(all->end(), s.arms.begin(), s.arms.end());
    all->insert(all->end(), s.legs.begin(), s.legs.end());
    all->insert(all->end(), s.eyes.begin(), s.eyes.end());
  }
  return Ok();
}

// The aim's, two-bone's and pseudo three-bone's settings, in the canonical frames the rig solves
// in (docs/rig/rig.md), prepared once per settings or axes change.
void Rig::PrepareLimb(Constraint& c) const {
  const ConstraintSettings& s = c.settings;
  for (int withPole = 0; withPole < 2; ++withPole) {
    c.aimSetup[withPole] = AimSetup{};
    c.twoBoneSetup[withPole] = TwoBoneSetup{};
    c.pseudoSetup[withPole] = PseudoThreeBoneSetup{};
    if (s.kind == ConstraintKind::kAim) {
      AimSettings settings = SettingsOf(s.aim);
      settings.forward = c.look, settings.up = c.aimUp, settings.pole = withPole != 0;
      (void)Prepare(settings, &c.aimSetup[withPole]);  // checked by Check; else unprepared
    } else if (s.kind == ConstraintKind::kTwoBone || s.kind == ConstraintKind::kPseudoThreeBone) {
      const TwoBoneJob& limb = s.kind == ConstraintKind::kTwoBone ? s.twoBone : s.pseudoThreeBone.limb;
      TwoBoneSettings settings = SettingsOf(limb);
      settings.forward = glm::vec3(1.0f, 0.0f, 0.0f), settings.bendAxis = glm::vec3(0.0f, 0.0f, 1.0f);
      settings.pole = withPole != 0 ? TwoBonePole::kPoint : limb.poleDirection ? TwoBonePole::kDirection : TwoBonePole::kNone;
      if (s.kind == ConstraintKind::kTwoBone) {
        (void)Prepare(settings, &c.twoBoneSetup[withPole]);
      } else {
        PseudoThreeBoneSettings pseudo = SettingsOf(s.pseudoThreeBone);
        pseudo.limb = settings;
        (void)Prepare(pseudo, &c.pseudoSetup[withPole]);
      }
    }
  }
  c.chainSetup = ChainSetup{};
  if (s.kind == ConstraintKind::kChain) {
    ChainSettings chain = SettingsOf(s.chain);
    chain.limits = s.chainLimits;                  // c.settings' own storage
    chain.forward = glm::vec3(1.0f, 0.0f, 0.0f);  // the canonical frames' bone axis
    (void)Prepare(chain, &c.chainSetup);  // checked by Check; else unprepared (the solve keeps the pose)
  }
}

Status Rig::Configure(Constraint& c, const ConstraintSettings& s, bool keepState) {
  // Smoothing turned on (settleTime 0 → > 0): each PD starts from the offset last applied.
  const bool startSmoothing = keepState && c.settings.common.settleTime == 0.0f && s.common.settleTime > 0.0f;
  c.settings = s;
  c.joints.assign(s.joints.begin(), s.joints.end());
  c.joints.insert(c.joints.end(), s.arms.begin(), s.arms.end());
  c.joints.insert(c.joints.end(), s.legs.begin(), s.legs.end());
  c.joints.insert(c.joints.end(), s.eyes.begin(), s.eyes.end());
  DetectAxes(c);
  PrepareLimb(c);
  const std::size_t n = s.joints.size();
  const float weight = s.common.weight;
  c.writes.clear();
  switch (s.kind) {
    case ConstraintKind::kAim: c.writes = {0}; break;
    case ConstraintKind::kTwoBone:
    case ConstraintKind::kPseudoThreeBone: c.writes = {0, 1, 2}; break;  // the tip follows the end
    case ConstraintKind::kChain:  // the tip keeps its rotation relative to its parent
      for (std::size_t k = 0; k + 1 < n; ++k) c.writes.push_back(static_cast<std::uint16_t>(k));
      break;
    case ConstraintKind::kLookAt:
      for (std::size_t k = 0; k < n; ++k) c.writes.push_back(static_cast<std::uint16_t>(k));
      break;
    case ConstraintKind::kGrounding: {
      // The pelvis (rotation and translation) and each leg's hip, knee and ankle.
      c.writes.push_back(0);
      const std::size_t per = s.grounding.legJoints;
      for (std::size_t k = 0; k + per <= s.legs.size(); k += per) {
        for (std::size_t j = 0; j < 3; ++j) c.writes.push_back(static_cast<std::uint16_t>(n + k + j));
      }
      break;
    }
    case ConstraintKind::kBodyLookAt: {
      for (std::size_t k = 0; k < n; ++k) c.writes.push_back(static_cast<std::uint16_t>(k));
      for (std::size_t k = 0; k < s.arms.size(); k += 3) c.writes.push_back(static_cast<std::uint16_t>(n + k));  // upper arm
      for (std::size_t k = 0; k < s.legs.size(); ++k) c.writes.push_back(static_cast<std::uint16_t>(n + s.arms.size() + k));
      break;
    }
  }
  // The eyes come last in c.joints (look-ats only): the gaze writes them.
  for (std::size_t k = c.joints.size() - s.eyes.size(); k < c.joints.size(); ++k) c.writes.push_back(static_cast<std::uint16_t>(k));
  if (IsLimb(s.kind)) {
    pd::PdSettings pds;
    if (Status st = pd::SettingsFromSettleTime(s.common.settleTime > 0.0f ? s.common.settleTime : 1.0, s.common.damping, &pds); !st) {
      return st;
    }
    pds.blendOutTime = s.common.blendOutTime;
    const bool fresh = !keepState || c.smoothing.size() != c.writes.size();
    if (fresh) {
      c.smoothing.assign(c.writes.size(), pd::QuatPD{});
      c.offsets.assign(c.writes.size(), kIdentityRotation);
    }
    for (std::size_t w = 0; w < c.smoothing.size(); ++w) {
      if (Status st = c.smoothing[w].Configure(pds); !st) return st;
      if (startSmoothing && !fresh) {
        if (Status st = c.smoothing[w].Reset(glm::dquat(c.offsets[w])); !st) return st;
      }
    }
    return Ok();
  }
  if (s.kind == ConstraintKind::kLookAt) {
    LookAtSettings ls = s.lookAt;
    std::vector<float> weights(n);
    for (std::size_t k = 0; k < n; ++k) {
      const float share = s.lookAtWeights.empty() ? 1.0f / static_cast<float>(n - k) : s.lookAtWeights[k];
      weights[k] = share * weight;  // weight scales every share: 0 turns nothing, smoothly
    }
    ls.weights = weights;
    ls.limits = s.lookAtLimits;
    ls.settleTimes = {};
    ls.settleTime = s.common.settleTime, ls.damping = s.common.damping, ls.blendOutTime = s.common.blendOutTime;
    ls.forward = c.look;
    ls.up = up_;  // the yaw/pitch limits' up, as bodyLookAt's
    return keepState ? c.lookAt.Configure(ls) : c.lookAt.Reset(ls);
  }
  if (s.kind == ConstraintKind::kGrounding) {
    GroundingSettings g;
    if (Status st = ResolveGrounding(s, &g); !st) return st;
    return keepState ? c.ground.Configure(g) : c.ground.Reset(g);
  }
  BodyLookAtSettings bs = s.bodyLookAt;
  bs.spineJoints = n;
  bs.forward = c.look;
  bs.up = up_;
  std::vector<float> weights(n);
  if (s.spineWeights.empty()) DefaultBodyLookAtWeights(weights);
  else std::copy(s.spineWeights.begin(), s.spineWeights.end(), weights.begin());
  for (float& w : weights) w *= weight;
  bs.spine.weights = weights;
  bs.spine.limits = s.spineLimits;
  bs.spine.settleTimes = s.spineSettleTimes;
  bs.weightShift.amount *= weight;
  bs.blendOutTime = s.common.blendOutTime;
  return keepState ? c.body.Configure(bs) : c.body.Reset(bs);
}

Status Rig::Add(const ConstraintSettings& settings) {
  const std::size_t index = constraints_.size();
  if (skeleton_.size() == 0) return Error("rig: not initialized (Init first)");
  if (index >= kMaxConstraints) return Error("constraints: at most 256 constraints");
  if (Status s = Check(settings, index, nullptr); !s) return s;
  Constraint c;
  if (Status s = Configure(c, settings, false); !s) return Fail(index, nullptr, kNoItem, s.error);
  const std::size_t joints = c.joints.size();
  c.groundFirst = grounds_.size();
  if (settings.kind == ConstraintKind::kGrounding) {
    grounds_.resize(grounds_.size() + c.ground.settings().legs);
    probes_.resize(grounds_.size());
  }
  constraints_.push_back(std::move(c));
  frames_.emplace_back();
  results_.emplace_back();
  if (jobIn_.size() < joints) {
    jobIn_.resize(joints);
    jobOut_.resize(joints);
    desired_.resize(joints);
  }
  return Ok();
}

Status Rig::SetSettings(std::size_t index, const ConstraintSettings& settings) {
  if (index >= constraints_.size()) return Error("index: no constraint with that index");
  Constraint& current = constraints_[index];
  if (settings.kind != current.settings.kind) return Fail(index, "kind", kNoItem, "cannot change (add a new constraint)");
  if (Status s = Check(settings, index, nullptr); !s) return s;
  if (settings.kind == ConstraintKind::kGrounding &&
      settings.legs.size() / settings.grounding.legJoints != current.ground.settings().legs) {
    return Fail(index, "legs", kNoItem, "cannot change the number of legs (add a new constraint)");
  }
  const bool sameJoints = settings.joints == current.settings.joints && settings.arms == current.settings.arms &&
                          settings.legs == current.settings.legs && settings.eyes == current.settings.eyes;
  Constraint next = current;
  if (Status s = Configure(next, settings, sameJoints); !s) return Fail(index, nullptr, kNoItem, s.error);
  const std::size_t joints = next.joints.size();
  if (jobIn_.size() < joints) {
    jobIn_.resize(joints);
    jobOut_.resize(joints);
    desired_.resize(joints);
  }
  current = std::move(next);
  return Ok();
}

}  // namespace ikpd::rig
