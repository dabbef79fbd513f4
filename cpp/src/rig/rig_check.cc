// Rig::Check: one constraint's settings checked against the skeleton before
// the rig takes them (docs/rig/rig.md). Errors name the constraint, the field
// and, for lists, the item.
#include <algorithm>
#include <cstdio>
#include <limits>

#include "ikpd/rig/rig.h"
#include "rig_check.h"

namespace ikpd::rig {

using detail::kNoItem;
using detail::Usable;

namespace {
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

// A valid model-space limb the options are validated against.
Transform At(float x, float y) { return {glm::vec3(x, y, 0.0f), kIdentityRotation}; }
}  // namespace

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

}  // namespace ikpd::rig
