// RigBatch (docs/rig/rig-batch.md): construction, settings and the checks of a
// frame; the stages live in rig_batch_stages.cc and rig_batch_smooth.cc.
#include "ikpd/rig/rig_batch.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <new>
#include <stdexcept>

#include "ikpd/batch/common.h"
#include "../batch/in_lanes.h"
#include "allocating.h"
#include "kinds/registry.h"
#include "rig_batch_lanes.h"

namespace ikpd::rig {

namespace {

// Characters per pass of the stages: each pass calls every constraint's batch
// job once (a setup of about a microsecond each), so larger passes cost less
// per character, while the working set (about 2 KB a character) stays in the
// last-level cache. Measured on the crowd frame: 256 -> 2048 saves ~4 % in
// WebAssembly and ~2 % natively; 4096 gains nothing more.
constexpr std::size_t kChunk = 2048;
// A bound of one character's state of a kind with per-character state (the
// allocation probe of builds without exceptions): fixed, and per joint.
constexpr std::size_t kStateBytes = 4096, kStateBytesPerJoint = 512;

bool FiniteAt(const std::vector<float>& v, std::size_t at) { return IsFinite(batch::LoadVec3(v.data(), at)); }
bool UsableAt(const float* q) { return IsUsableRotation(glm::quat(q[3], q[0], q[1], q[2])); }

}  // namespace

RigBatch::RigBatch() = default;
RigBatch::~RigBatch() = default;
RigBatch::RigBatch(const RigBatch&) = default;
RigBatch& RigBatch::operator=(const RigBatch&) = default;
RigBatch::RigBatch(RigBatch&&) noexcept = default;
RigBatch& RigBatch::operator=(RigBatch&&) noexcept = default;

Status RigBatch::Fail(const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::vsnprintf(message_, sizeof(message_), format, args);
  va_end(args);
  return Error(message_);
}

Status RigBatch::Init(const Rig& rig, std::size_t count) {
  if (rig.size() == 0) return Error("rig: not initialized (Init first)");
  if (count < 1 || count > kMaxRigBatchCount) return Error("count: must be in [1, 1048576]");
  for (std::size_t i = 0; i < rig.constraintCount(); ++i) {
    const detail::KindOps& kind = detail::Kind(rig.constraints_[i]);
    if (!kind.batch) {
      return Fail("constraints[%zu]: a rig batch solves aim, twoBone, pseudoThreeBone and springs constraints (%s: use a Rig per character)",
                  i, kind.name);
    }
  }
  // Floats per character (locals, output, model transforms: 24 per joint; per
  // constraint 9; per written joint 17; roots and scratch), checked against size_t.
  // Kinds with per-character state: their state and solve's scratch (bounded as Rig::HeapBound's constraints).
  std::size_t stateBytes = 0, stateJoints = 0;
  for (const detail::Constraint& c : rig.constraints_) {
    if (detail::Kind(c).solveCharacter == nullptr) continue;
    stateBytes += sizeof(detail::CharacterState) + kStateBytes + c.joints.size() * kStateBytesPerJoint;
    stateJoints = std::max(stateJoints, c.joints.size());
  }
  const std::size_t perCharacter = (rig.size() * 24 + rig.constraintCount() * 26 + 128) * sizeof(float) + stateBytes +
                                   stateJoints * (sizeof(Transform) + sizeof(glm::quat));
  if (perCharacter > std::numeric_limits<std::size_t>::max() / 2 / count) return Error("count: out of memory");
  RigBatch next;
  const Status allocated = Allocating(perCharacter * count + rig.HeapBound(), "count: out of memory", [&] {
    next.template_ = rig;
    next.count_ = count;
    const std::size_t n = count, joints = rig.size(), constraints = rig.constraintCount();
    next.translations_.assign(joints * n * 3, 0.0f);
    next.rotations_.assign(joints * n * 4, 0.0f);
    next.scales_.assign(joints * n * 3, 0.0f);
    const std::span<const LocalTransform> rest = rig.rest();
    for (std::size_t j = 0; j < joints; ++j) {
      for (std::size_t c = 0; c < n; ++c) {
        const std::size_t at = j * n + c;
        batch::StoreVec3(next.translations_.data(), at, rest[j].translation);
        batch::StoreQuat(next.rotations_.data(), at, rest[j].rotation);
        batch::StoreVec3(next.scales_.data(), at, rest[j].scale);
      }
    }
    next.output_ = next.rotations_;
    next.rootPositions_.assign(n * 3, 0.0f);
    next.rootRotations_.assign(n * 4, 0.0f);
    for (std::size_t c = 0; c < n; ++c) next.rootRotations_[c * 4 + 3] = 1.0f;
    next.rootScales_.assign(n, 1.0f);
    next.poleSet_.assign(constraints, 0);
    next.targets_.assign(constraints * n * 3, 0.0f);
    next.poles_.assign(constraints * n * 3, 0.0f);
    next.weights_.assign(constraints * n, 1.0f);
    next.reached_.assign(constraints * n, 0.0f);
    next.distance_.assign(constraints * n, 0.0f);
    Derive(next.template_, n, &next.plans_);
    for (const detail::Constraint& c : next.template_.constraints_) {  // in Derive's order of Plan::states
      const detail::KindOps& kind = detail::Kind(c);
      if (kind.solveCharacter == nullptr) continue;
      detail::CharacterState first{c.state};
      kind.clearCharacter(first);
      next.states_.insert(next.states_.end(), n, first);
    }
    next.stateJoints_ = stateJoints;
    next.characterIn_.assign(stateJoints * n, Transform{});
    next.characterDesired_.assign(stateJoints * n, kIdentityRotation);
    next.firstWriter_.assign(joints, static_cast<std::uint32_t>(constraints));
    for (std::size_t i = constraints; i-- > 0;) {
      for (const Write& w : next.plans_[i].writes) next.firstWriter_[w.joint] = static_cast<std::uint32_t>(i);
    }
    next.modelPositions_.assign(joints * n * 3, 0.0f);
    const std::size_t blocked = lanes::Blocked(n);  // lane blocks (rig_batch_lanes.h)
    next.modelRotations_.assign(joints * blocked * 4, 0.0f);
    next.modelScales_.assign(joints * blocked * 3, 0.0f);
    const std::size_t items = constraints * n;
    next.weightValues_.assign(items, 0.0f);
    next.weightVelocities_.assign(items, 0.0f);
    next.blendFrom_.assign(items, 0.0f);
    next.blendTime_.assign(items, 0.0f);
    next.phase_.assign(items, 0);
    next.held_.assign(items, 0);
    next.smoothTargets_.assign(items * 3, 0.0f);
    next.targetVelocities_.assign(items * 3, 0.0f);
    next.smoothPoles_.assign(items * 3, 0.0f);
    next.poleVelocities_.assign(items * 3, 0.0f);
    next.jobRotations_.assign(4 * n * 4, 0.0f);
    next.solvedRotations_.assign(4 * n * 4, 0.0f);
    next.solvedPositions_.assign(3 * n * 3, 0.0f);
    next.modelTargets_.assign(n * 3, 0.0f);
    next.modelPoles_.assign(n * 3, 0.0f);
    next.weightGoals_.assign(n, 0.0f);
    next.weightNow_.assign(n, 0.0f);
    next.rootUnits_.assign(blocked * 4, 0.0f);
    *this = std::move(next);
  });
  return allocated;
}

Status RigBatch::SetSettings(std::size_t index, const ConstraintSettings& settings) {
  if (count_ == 0) return Error("rig: not initialized (Init first)");
  Status result;
  const bool stateful = index < constraintCount() && detail::Kind(template_.constraints_[index]).solveCharacter != nullptr;
  const std::size_t joints = settings.joints.size() + settings.arms.size() + settings.legs.size() + settings.eyes.size();
  const std::size_t bytes = stateful ? count_ * (sizeof(detail::Constraint) + 2 * kStateBytes + joints * 2 * kStateBytesPerJoint) : 0;
  const Status allocated = Allocating(template_.HeapBound() + bytes, "settings: out of memory", [&] {
    Rig next = template_;
    if (Status s = next.SetSettings(index, settings); !s) {
      std::snprintf(message_, sizeof(message_), "%s", s.error);
      result = Error(message_);
      return;
    }
    std::vector<Plan> plans;
    Derive(next, count_, &plans);
    const ConstraintSettings& before = template_.settings(index);
    const bool sameJoints = settings.joints == before.joints && settings.arms == before.arms &&
                            settings.legs == before.legs && settings.eyes == before.eyes;
    // Each character's state configured as Rig::SetSettings configures the Rig's (kept unless the joints change).
    std::vector<detail::CharacterState> states;
    std::vector<Transform> in;
    std::vector<glm::quat> desired;
    const std::size_t slots = next.constraints_[index].joints.size();
    if (stateful) {
      states.reserve(count_);
      for (std::size_t c = 0; c < count_; ++c) {
        detail::Constraint one = template_.constraints_[index];
        one.state = states_[plans_[index].states + c].state;
        (void)next.Configure(one, settings, sameJoints);  // the template's Configure took these settings
        states.push_back({std::move(one.state)});
      }
      if (slots > stateJoints_) in.assign(slots * count_, Transform{}), desired.assign(slots * count_, kIdentityRotation);
    }
    template_ = std::move(next);
    plans_ = std::move(plans);
    if (stateful) {
      for (std::size_t c = 0; c < count_; ++c) std::swap(states_[plans_[index].states + c], states[c]);
      if (slots > stateJoints_) {
        characterIn_ = std::move(in), characterDesired_ = std::move(desired);
        stateJoints_ = slots;
      }
    } else if (!sameJoints) {
      ResetSmoothing(index);
    }
  });
  return allocated ? result : allocated;
}

std::span<float> RigBatch::targets(std::size_t i) { return {targets_.data() + i * count_ * 3, count_ * 3}; }
std::span<float> RigBatch::poles(std::size_t i) { return {poles_.data() + i * count_ * 3, count_ * 3}; }
std::span<float> RigBatch::weights(std::size_t i) { return {weights_.data() + i * count_, count_}; }
std::span<const float> RigBatch::reached(std::size_t i) const { return {reached_.data() + i * count_, count_}; }
std::span<const float> RigBatch::distance(std::size_t i) const { return {distance_.data() + i * count_, count_}; }

// Every input of characters [first, first + count) valid: one pass over each
// array in memory order, without early exits (the loops vectorize); no
// messages (CheckRange then finds the first bad value).
bool RigBatch::RangeValid(std::size_t first, std::size_t count) const {
  const std::size_t n = count_;
  unsigned bad = 0;
  const auto finite = [&](const std::vector<float>& v, std::size_t from, std::size_t values) {
    bad |= static_cast<unsigned>(!simd::AllFinite(&v[from], values));
  };
  // Quaternions [from, from + count) finite and non-zero: the batch jobs' group
  // check kWide at a time (a length past it: the exact check), the rest one by one.
  const auto usable = [&](const std::vector<float>& v, std::size_t from) {
    std::size_t c = from;
    for (; c + simd::kWide <= from + count; c += simd::kWide) bad |= static_cast<unsigned>(!batch::GroupRotationsUsable(v.data(), c));
    for (; c < from + count; ++c) bad |= static_cast<unsigned>(!UsableAt(&v[c * 4]));
  };
  for (std::size_t j = 0; j < jointCount(); ++j) {
    finite(translations_, (j * n + first) * 3, count * 3);
    finite(scales_, (j * n + first) * 3, count * 3);
    usable(rotations_, j * n + first);
  }
  finite(rootPositions_, first * 3, count * 3);
  usable(rootRotations_, first);
  for (std::size_t c = first; c < first + count; ++c) {
    bad |= static_cast<unsigned>(!(rootScales_[c] > 0.0f && rootScales_[c] <= std::numeric_limits<float>::max()));
  }
  for (std::size_t i = 0; i < constraintCount(); ++i) {
    finite(targets_, (i * n + first) * 3, count * 3);
    if (poleSet_[i] != 0) finite(poles_, (i * n + first) * 3, count * 3);
    for (std::size_t c = first; c < first + count; ++c) {
      bad |= static_cast<unsigned>(!(weights_[i * n + c] >= 0.0f && weights_[i * n + c] <= 1.0f));
    }
  }
  return bad == 0;
}

// Every input of characters [first, first + count), in the order the header states.
Status RigBatch::CheckRange(float dt, std::size_t first, std::size_t count) {
  if (count_ == 0) return Error("rig: not initialized (Init first)");
  if (!std::isfinite(dt) || dt < 0.0f) return Error("dt: must be finite and >= 0");
  if (first > count_ || count > count_ - first) return Error("range: [first, first + count) must lie in [0, count())");
  if (RangeValid(first, count)) return Ok();
  // Some value is bad: find the first in character order, then joint/constraint order.
  const std::size_t n = count_, joints = jointCount(), constraints = constraintCount();
  for (std::size_t c = first; c < first + count; ++c) {
    for (std::size_t j = 0; j < joints; ++j) {
      const std::size_t at = j * n + c;
      if (!FiniteAt(translations_, at)) return Fail("characters[%zu].in[%zu].translation: must be finite", c, j);
      if (!UsableAt(&rotations_[at * 4])) return Fail("characters[%zu].in[%zu].rotation: must be finite and non-zero", c, j);
      if (!FiniteAt(scales_, at)) return Fail("characters[%zu].in[%zu].scale: must be finite", c, j);
    }
    if (!FiniteAt(rootPositions_, c)) return Fail("characters[%zu].root.position: must be finite", c);
    if (!UsableAt(&rootRotations_[c * 4])) {
      return Fail("characters[%zu].root.rotation: must be finite and non-zero", c);
    }
    const float scale = rootScales_[c];
    if (!(std::isfinite(scale) && scale > 0.0f)) return Fail("characters[%zu].root.scale: must be finite and > 0", c);
    for (std::size_t i = 0; i < constraints; ++i) {
      const std::size_t at = i * n + c;
      if (!FiniteAt(targets_, at)) return Fail("constraints[%zu].targets[%zu]: must be finite", i, c);
      if (poleSet_[i] != 0 && !FiniteAt(poles_, at)) return Fail("constraints[%zu].poles[%zu]: must be finite", i, c);
      const float w = weights_[at];
      if (!(w >= 0.0f && w <= 1.0f)) return Fail("constraints[%zu].weights[%zu]: must be in [0, 1]", i, c);
    }
  }
  return Ok();
}

Status RigBatch::Update(float dt) { return Update(dt, 0, count_); }

Status RigBatch::Update(float dt, std::size_t first, std::size_t count) {
  if (Status s = CheckRange(dt, first, count); !s) return s;
  for (std::size_t c0 = first; c0 < first + count; c0 += kChunk) Chunk(dt, c0, std::min(first + count, c0 + kChunk));
  return Ok();
}

}  // namespace ikpd::rig
