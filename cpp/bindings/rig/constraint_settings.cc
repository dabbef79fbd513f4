// Embind (conventions.h): a rig constraint's settings as JS packs them
// (web/src/rig/rigSettings.js), read by the rig and the rig batch bindings.
#include "constraint_settings.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "../../src/ik/fields.h"
#include "../../src/rig/fields.h"
#include "../ik/chain_job.h"
#include "../conventions.h"
#include "../packed.h"

namespace ikpd::bindings {

using rig::ConstraintKind;
using rig::ConstraintSettings;

namespace {
constexpr std::size_t kCommonFloats = 17;
constexpr std::size_t kGroundingFloats = 1 + JobFloats<rig::GroundingSettings>();

std::optional<glm::vec3> ReadOptional(const float* p) {
  if (p[3] == 0.0f) return std::nullopt;
  return ReadVec3(p);
}

// The packed job block's size for a kind.
std::size_t JobBlock(ConstraintKind kind) {
  switch (kind) {
    case ConstraintKind::kAim: return JobFloats<AimJob>();
    case ConstraintKind::kTwoBone: return JobFloats<TwoBoneJob>();
    case ConstraintKind::kPseudoThreeBone: return JobFloats<PseudoThreeBoneJob>();
    case ConstraintKind::kChain: return JobFloats<ChainJob>();
    case ConstraintKind::kLookAt: return JobFloats<LookAtSettings>();
    case ConstraintKind::kBodyLookAt: return JobFloats<BodyLookAtSettings>();
    case ConstraintKind::kGrounding: return kGroundingFloats;
  }
  return 0;
}

}  // namespace

bool ReadPdSettings(const float* p, ConstraintKind kind, ConstraintSettings& s) {
  s = rig::DefaultSettings(kind);
  const auto count = [](float v) { return v >= 0.0f && v <= 1024.0f ? static_cast<std::size_t>(v) : std::size_t{0}; };
  const std::size_t j = count(p[0]), a = count(p[1]), l = count(p[2]);
  if (j > 256 || a > 6 || l > (kind == ConstraintKind::kGrounding ? 16u : 6u)) return false;
  const float* at = p + 3;
  const auto indices = [&](std::vector<int>& out, std::size_t n) {
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = IsFinite(at[i]) ? static_cast<int>(std::max(-2.0f, std::min(at[i], 65536.0f))) : -2;
    at += n;
  };
  indices(s.joints, j);
  indices(s.arms, a);
  indices(s.legs, l);
  rig::CommonSettings& c = s.common;
  c.weight = at[0];
  c.enabled = at[1] != 0.0f;
  c.settleTime = at[2];
  c.damping = at[3];
  c.blendOutTime = at[4];
  c.forward = ReadOptional(at + 5);
  c.bendAxis = ReadOptional(at + 9);
  c.up = ReadOptional(at + 13);
  at += kCommonFloats;
  const float* job = at;
  at += JobBlock(kind);
  const auto flag = [&]() { return (at++)[0] != 0.0f; };
  const auto array = [&](bool given, std::vector<float>& out) {
    if (!given) return;
    out.assign(at, at + j);
    at += j;
  };
  const auto eyes = [&]() {  // E then E indices (JS checks E <= 2; more reads as 3: an error)
    const std::size_t e = std::min<std::size_t>(count(at[0]), 3);
    ++at;
    indices(s.eyes, e);
  };
  switch (kind) {
    case ConstraintKind::kAim: ReadJob<FieldSet::kOptions>(job, s.aim); break;
    case ConstraintKind::kTwoBone: ReadJob<FieldSet::kOptions>(job, s.twoBone); break;
    case ConstraintKind::kPseudoThreeBone:
      ReadJob<FieldSet::kOptions>(job, s.pseudoThreeBone);
      s.pseudoThreeBone.blend = at[0];
      break;
    case ConstraintKind::kChain: {
      ReadJob<FieldSet::kOptions>(job, s.chain);
      const std::size_t m = count(at[0]);
      ++at;
      if (m > 256) return false;
      s.chainLimits.resize(m);
      for (std::size_t i = 0; i < m; ++i, at += kLimitFloats) ReadLimit(at, s.chainLimits[i]);
      break;
    }
    case ConstraintKind::kLookAt: {
      ReadJob<FieldSet::kOptions>(job, s.lookAt);
      const bool w = flag(), lim = flag();
      array(w, s.lookAtWeights);
      array(lim, s.lookAtLimits);
      eyes();
      break;
    }
    case ConstraintKind::kBodyLookAt: {
      ReadJob<FieldSet::kOptions>(job, s.bodyLookAt);
      const bool w = flag(), lim = flag(), st = flag();
      array(w, s.spineWeights);
      array(lim, s.spineLimits);
      array(st, s.spineSettleTimes);
      eyes();
      break;
    }
    case ConstraintKind::kGrounding: {
      rig::GroundingSettings& g = s.grounding;
      g.legJoints = job[0] == 4.0f ? 4 : job[0] == 3.0f ? 3 : 0;  // else Check names it
      ReadJob(job + 1, g);  // its described options (cpp/src/rig/fields.h)
      if (flag()) {
        const std::size_t legs = g.legJoints == 0 ? 0 : l / g.legJoints;
        s.soleOffsets.assign(at, at + legs);
        at += legs;
      }
      break;
    }
  }
  return true;
}

}  // namespace ikpd::bindings
