// RigBatch: weight, enable and smoothing of the written locals (docs/rig/rig-batch.md,
// "Smoothing"), as Rig::WriteRotations: settleTime 0 slerps by the weight;
// settleTime > 0 tracks the weighted offset with a quaternion PD per character
// and written joint, in float state stepped by QuatPdBatchJob's lane step, and
// releases it with the PD's blend-out when the constraint is disabled.
#include <cmath>
#include <limits>

#include "ikpd/batch/pd_batch.h"
#include "ikpd/rig/rig_batch.h"
#include "rig_math.h"

namespace ikpd::rig {

using batch::LoadQuat;
using batch::LoadVec3;
using batch::StoreQuat;
using batch::StoreVec3;

namespace {
constexpr glm::dquat kIdentityD{1.0, 0.0, 0.0, 0.0};
constexpr auto kNone = static_cast<std::uint8_t>(pd::BlendPhase::kNone);
constexpr auto kLinear = static_cast<std::uint8_t>(pd::BlendPhase::kLinear);
constexpr auto kDone = static_cast<std::uint8_t>(pd::BlendPhase::kDone);

// The animated local turned by an offset; exactly the animated local when the
// offset is exactly identity (a finished blend-out gives out == in bit for bit).
glm::quat Apply(const glm::quat& offset, const glm::quat& current) {
  return offset == kIdentityRotation ? current : Unit(offset * current);
}
}  // namespace

// Smoothing state of constraint `index` for every character: at rest
// (identity, still), or (fromOffsets) starting from the offsets last applied
// without smoothing (Rig::Configure: settleTime turned on).
void RigBatch::ResetSmoothing(std::size_t index, bool fromOffsets) {
  const std::size_t n = count_;
  const Plan& plan = plans_[index];
  for (std::size_t x = plan.state; x < plan.state + plan.writes.size(); ++x) {
    for (std::size_t c = 0; c < n; ++c) {
      const std::size_t at = x * n + c;
      const glm::quat start = fromOffsets ? LoadQuat(offsets_.data(), at) : kIdentityRotation;
      if (!fromOffsets) StoreQuat(offsets_.data(), at, kIdentityRotation);
      StoreQuat(pdValues_.data(), at, start);
      StoreVec3(pdVelocities_.data(), at, glm::vec3(0.0f));
      phase_[at] = kNone;
      blendTime_[at] = 0.0f;
    }
  }
}

// Stage 4: weight × weights(i)[c], enable and smoothing; final_ holds the
// full-weight locals on entry and the locals to write on return.
void RigBatch::Weigh(std::size_t index, float dt, std::size_t c0, std::size_t c1) {
  const std::size_t n = count_;
  const Plan& plan = plans_[index];
  const CommonSettings& common = template_.constraints_[index].settings.common;
  const float* weights = &weights_[index * n];
  for (std::size_t w = 0; w < plan.writes.size(); ++w) {
    const std::size_t x = plan.state + w;
    for (std::size_t c = c0; c < c1; ++c) {
      const float weight = common.weight * weights[c];
      const glm::quat current = LoadQuat(current_.data(), w * n + c);
      const glm::quat desired = LoadQuat(final_.data(), w * n + c);
      const glm::quat weighted = weight >= 1.0f ? desired : weight <= 0.0f ? current : glm::slerp(current, desired, weight);
      if (common.settleTime == 0.0f) {
        const glm::quat final = common.enabled ? weighted : current;
        StoreQuat(final_.data(), w * n + c, final);
        StoreQuat(offsets_.data(), x * n + c, final * glm::conjugate(current));  // where a PD starts if smoothing is turned on
      } else {
        StoreQuat(final_.data(), w * n + c, weighted);
      }
    }
  }
  if (common.settleTime > 0.0f) Smooth(index, dt, c0, c1);
}

// Stage 4 with settleTime > 0 (Rig: QuatPD::TrackOffset / ReleaseOffset per joint).
void RigBatch::Smooth(std::size_t index, float dt, std::size_t c0, std::size_t c1) {
  const std::size_t n = count_;
  const Plan& plan = plans_[index];
  const bool enabled = template_.constraints_[index].settings.common.enabled;
  const pd::PdSettings& settings = plan.smoothing;
  for (std::size_t w = 0; w < plan.writes.size(); ++w) {
    const std::size_t x = plan.state + w;
    float* value = &pdValues_[x * n * 4];
    float* velocity = &pdVelocities_[x * n * 3];
    if (enabled) {
      // Track: the weighted offset (relative to the animated local) is the PD's target.
      for (std::size_t c = c0; c < c1; ++c) {
        const glm::quat current = LoadQuat(current_.data(), w * n + c);
        StoreQuat(goal_.data(), c, Unit(LoadQuat(final_.data(), w * n + c) * glm::conjugate(current)));
      }
      // The lane step; an item whose state would overflow float keeps its state
      // and its pose (as a failed QuatPD::TrackOffset), the others go on.
      for (std::size_t from = c0; from < c1;) {
        QuatPdBatchJob job;
        job.settings = settings, job.dt = dt, job.count = c1 - from;
        job.value = value + from * 4, job.velocity = velocity + from * 3, job.target = &goal_[from * 4];
        std::size_t failed = job.count;
        job.failedItem = &failed;
        if (job.Run()) break;
        goal_[(from + failed) * 4] = std::numeric_limits<float>::quiet_NaN();
        from += failed + 1;
      }
      for (std::size_t c = c0; c < c1; ++c) {
        const glm::quat current = LoadQuat(current_.data(), w * n + c);
        const bool ok = std::isfinite(goal_[c * 4]);
        if (ok) phase_[x * n + c] = kNone;  // a successful update cancels a blend-out
        StoreQuat(final_.data(), w * n + c, ok ? Apply(LoadQuat(value, c), current) : current);
      }
      continue;
    }
    // Release (rare: per character, in double): the spring toward identity
    // until its energy <= blendOutEnergy, then linear over blendOutTime, then exactly identity.
    for (std::size_t c = c0; c < c1; ++c) {
      const std::size_t at = x * n + c;
      const glm::quat current = LoadQuat(current_.data(), w * n + c);
      if (phase_[at] < kLinear) {
        pd::QuatPD controller(settings);
        const bool ok = controller.Reset(glm::dquat(LoadQuat(value, c)), glm::dvec3(LoadVec3(velocity, c))) &&
                        controller.UpdateBlendOut(dt) && IsFinite(glm::vec3(controller.velocity()));
        if (!ok) {
          StoreQuat(final_.data(), w * n + c, current);
          continue;
        }
        phase_[at] = static_cast<std::uint8_t>(controller.blendPhase());
        StoreQuat(value, c, glm::quat(controller.value()));
        StoreVec3(velocity, c, glm::vec3(controller.velocity()));
        if (phase_[at] == kLinear) StoreQuat(blendFrom_.data(), at, glm::quat(controller.value())), blendTime_[at] = 0.0f;
      } else if (phase_[at] == kLinear) {
        const float elapsed = blendTime_[at] + dt;
        const double f = settings.blendOutTime > 0.0 ? static_cast<double>(elapsed) / settings.blendOutTime : 1.0;
        if (f < 1.0) {
          const glm::dquat from(LoadQuat(blendFrom_.data(), at));
          StoreQuat(value, c, glm::quat(glm::slerp(from, kIdentityD, f)));
          StoreVec3(velocity, c, glm::vec3(-pd::QuatLogChart(from, kIdentityD) / settings.blendOutTime));
          blendTime_[at] = elapsed;
        } else {
          phase_[at] = kDone;
        }
      }
      if (phase_[at] == kDone) {
        StoreQuat(value, c, kIdentityRotation);
        StoreVec3(velocity, c, glm::vec3(0.0f));
      }
      StoreQuat(final_.data(), w * n + c, Apply(LoadQuat(value, c), current));
    }
  }
}

}  // namespace ikpd::rig
