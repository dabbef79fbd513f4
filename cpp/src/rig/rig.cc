// Rig: construction and settings (docs/rig/rig.md). The settings' checks are
// in rig_check.cc, the per-frame stages in rig_update.cc, the axis detection
// in rig_axes.cc.
#include "ikpd/rig/rig.h"

#include <algorithm>
#include <cstdio>

#include "allocating.h"
#include "rig_check.h"

namespace ikpd::rig {

using detail::kNoItem;
using detail::Usable;

namespace {
// Heap bounds of the probes of builds without exceptions (allocating.h): per
// skeleton joint (rest, model, scratch: about 120 bytes), per joint a
// constraint reads (its settings' lists, frames, smoothing, look-at and
// grounding state: a few hundred bytes), and per constraint besides.
constexpr std::size_t kBytesPerRigJoint = 512;
constexpr std::size_t kBytesPerConstraintJoint = 2048;
constexpr std::size_t kBytesPerConstraint = 16384;

bool IsLimb(ConstraintKind k) {
  return k != ConstraintKind::kLookAt && k != ConstraintKind::kBodyLookAt && k != ConstraintKind::kGrounding;
}
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
  Status result;
  const Status allocated = Allocating(n * kBytesPerRigJoint + kBytesPerConstraint, "memory: out of memory", [&] {
    next.skeleton_ = skeleton;
    next.facing_ = facing_;
    next.up_ = up_;
    next.rest_.assign(n, LocalTransform{});
    next.model_.resize(n);
    next.fresh_.assign(n, 0);
    next.walk_.resize(n);
    if (Status s = next.SetRest(rest.empty() ? std::span<const LocalTransform>(next.rest_) : rest); !s) {
      std::snprintf(message_, sizeof(message_), "%s", s.error);
      result = Error(message_);
    }
  });
  if (!allocated) return allocated;
  if (!result) return result;
  *this = std::move(next);
  return Ok();
}

std::size_t Rig::HeapBound() const {
  std::size_t joints = 0;
  for (const Constraint& c : constraints_) joints += c.joints.size();
  return skeleton_.size() * kBytesPerRigJoint + constraints_.size() * (sizeof(Constraint) + kBytesPerConstraint) +
         joints * kBytesPerConstraintJoint + grounds_.size() * (sizeof(GroundHit) + sizeof(GroundProbe));
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
  // Each write's nearest written ancestor: its local is taken under that
  // ancestor's solved rotation (WriteRotations, RigBatch's locals).
  c.writeAncestors.assign(c.writes.size(), -1);
  for (std::size_t w = 0; w < c.writes.size(); ++w) {
    for (int a = skeleton_.parent(static_cast<std::size_t>(c.joints[c.writes[w]])); a >= 0 && c.writeAncestors[w] < 0;
         a = skeleton_.parent(static_cast<std::size_t>(a))) {
      for (std::size_t x = 0; x < c.writes.size(); ++x) {
        if (c.joints[c.writes[x]] == a) c.writeAncestors[w] = static_cast<int>(x);
      }
    }
  }
  if (IsLimb(s.kind)) {
    pd::PdSettings pds;
    if (Status st = pd::SettingsFromSettleTime(s.common.settleTime > 0.0f ? s.common.settleTime : 1.0, s.common.damping, &pds); !st) {
      return st;
    }
    pds.blendOutTime = s.common.blendOutTime;
    if (Status st = c.weightPd.Configure(pds); !st) return st;
    for (pd::ScalarPD& p : c.pointPds) {
      if (Status st = p.Configure(pds); !st) return st;
    }
    if (!keepState) {  // new joints: blend in from the animated pose
      c.weightPd.Reset(0.0);
      c.targetHeld = c.poleHeld = false;
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
  // Every allocation first (Configure, then each vector's growth), each into
  // storage of its own, so a failure leaves the rig as it was; then moves.
  const std::size_t joints = settings.joints.size() + settings.arms.size() + settings.legs.size() + settings.eyes.size();
  const std::size_t grown = std::max(2 * constraints_.size(), std::size_t{4});
  const std::size_t bytes = grown * (sizeof(Constraint) + sizeof(ConstraintFrame) + sizeof(ConstraintResult)) +
                            kBytesPerConstraint + joints * kBytesPerConstraintJoint +
                            2 * (grounds_.size() + settings.legs.size()) * (sizeof(GroundHit) + sizeof(GroundProbe)) +
                            joints * (2 * sizeof(Transform) + sizeof(glm::quat));
  Constraint c;
  Status configured;
  std::vector<Constraint> constraints;
  std::vector<ConstraintFrame> frames;
  std::vector<ConstraintResult> results;
  std::vector<GroundHit> grounds;
  std::vector<GroundProbe> probes;
  std::vector<Transform> jobIn, jobOut;
  std::vector<glm::quat> desired;
  const Status allocated = Allocating(bytes, "memory: out of memory", [&] {
    configured = Configure(c, settings, false);
    if (!configured) return;
    const std::size_t legs = settings.kind == ConstraintKind::kGrounding ? c.ground.settings().legs : 0;
    if (constraints_.size() == constraints_.capacity()) {
      constraints.reserve(grown);  // then the old ones move over, in the second part
    }
    frames.reserve(index + 1), results.reserve(index + 1);
    grounds.reserve(grounds_.size() + legs), probes.reserve(grounds_.size() + legs);
    const std::size_t scratch = std::max(jobIn_.size(), c.joints.size());
    jobIn.reserve(scratch), jobOut.reserve(scratch), desired.reserve(scratch);
  });
  if (!allocated) return allocated;
  if (!configured) return Fail(index, nullptr, kNoItem, configured.error);
  // Nothing below allocates: every vector below has its capacity.
  const std::size_t used = c.joints.size();
  c.groundFirst = grounds_.size();
  if (constraints.capacity() > 0) {
    for (Constraint& old : constraints_) constraints.push_back(std::move(old));
    constraints_.swap(constraints);
  }
  constraints_.push_back(std::move(c));
  const auto append = [](auto& next, auto& current, std::size_t size) {
    next.assign(current.begin(), current.end());
    next.resize(size);
    current.swap(next);
  };
  append(frames, frames_, index + 1);
  append(results, results_, index + 1);
  const std::size_t legs = settings.kind == ConstraintKind::kGrounding ? constraints_.back().ground.settings().legs : 0;
  append(grounds, grounds_, grounds_.size() + legs);
  append(probes, probes_, grounds_.size());
  if (jobIn_.size() < used) {
    append(jobIn, jobIn_, used);
    append(jobOut, jobOut_, used);
    append(desired, desired_, used);
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
