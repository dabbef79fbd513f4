// RigBatch: weight, enable and smoothing of the written locals (docs/rig/rig-batch.md,
// "Smoothing"), as Rig::WriteRotations (settleTime 0: in Locals, one pass);
// settleTime > 0 tracks the weighted offset with a quaternion PD per character
// and written joint, in float state stepped by QuatPdBatchJob's lane step, and
// releases it with the PD's blend-out when the constraint is disabled.
#include <cmath>
#include <cstring>
#include <limits>

#include "ikpd/batch/pd_batch.h"
#include "ikpd/pd/charts.h"
#include "ikpd/rig/rig_batch.h"
#include "rig_batch_lanes.h"
#include "rig_math.h"

namespace ikpd::rig {

using batch::LoadQuat;
using batch::LoadVec3;
using batch::StoreQuat;
using batch::StoreVec3;
using simd::Q4;

namespace {
constexpr glm::dquat kIdentityD{1.0, 0.0, 0.0, 0.0};
constexpr auto kNone = static_cast<std::uint8_t>(pd::BlendPhase::kNone);
constexpr auto kLinear = static_cast<std::uint8_t>(pd::BlendPhase::kLinear);
constexpr auto kDone = static_cast<std::uint8_t>(pd::BlendPhase::kDone);

// The animated local turned by an offset, over any lane type; exactly the
// animated local where the offset is exactly identity (a finished blend-out
// gives out == in bit for bit). False when some lane's product does not
// normalize plainly (the group then runs item by item).
template <class F>
IKPD_INLINE bool Apply(const Q4<F>& offset, const Q4<F>& current, Q4<F>* out) {
  Q4<F> turned = lanes::Mul(offset, current);
  if (!lanes::Unit(&turned)) return false;
  const auto identity = simd::And(simd::And(offset.x == 0.0f, offset.y == 0.0f), simd::And(offset.z == 0.0f, offset.w == 1.0f));
  *out = simd::Select(identity, current, turned);
  return true;
}
}  // namespace

// Smoothing state of constraint `index` for every character: at rest
// (identity, still), or (fromOffsets) starting from the offsets last applied
// without smoothing (Rig::Configure: settleTime turned on).
void RigBatch::ResetSmoothing(std::size_t index, bool fromOffsets) {
  const std::size_t n = count_;
  const Plan& plan = plans_[index];
  for (std::size_t x = plan.state; x < plan.state + plan.writes.size(); ++x) {
    float* offsets = &offsets_[x * lanes::Blocked(n) * 4];  // lane blocks
    for (std::size_t c = 0; c < n; ++c) {
      const std::size_t at = x * n + c;
      const glm::quat start = fromOffsets ? simd::ToGlm(lanes::LoadBlockQ4<float>(offsets, c)) : kIdentityRotation;
      if (!fromOffsets) lanes::StoreBlockQ4(offsets, c, simd::FromGlm(kIdentityRotation));
      StoreQuat(pdValues_.data(), at, start);
      StoreVec3(pdVelocities_.data(), at, glm::vec3(0.0f));
      phase_[at] = kNone;
      blendTime_[at] = 0.0f;
    }
  }
}

// Stage 4 with settleTime > 0 (Rig: QuatPD::TrackOffset / ReleaseOffset per
// joint): the weighted offsets Locals left in goal_ (current_: the pose's
// locals) tracked by the PD, or released when disabled, and the locals that change written
// to the output (settleTime 0: Locals weighs and writes them itself).
void RigBatch::Smooth(std::size_t index, float dt, std::size_t c0, std::size_t c1) {
  const std::size_t n = count_;
  const Plan& plan = plans_[index];
  const CommonSettings& common = template_.constraints_[index].settings.common;
  const pd::PdSettings& settings = plan.smoothing;
  for (std::size_t w = 0; w < plan.writes.size(); ++w) {
    const std::size_t x = plan.state + w, out = plan.writes[w].joint * n;
    float* value = &pdValues_[x * n * 4];
    float* velocity = &pdVelocities_[x * n * 3];
    float* goal = &goal_[w * n * 4];  // Locals' weighted offsets: the PD's targets
    const float* pose = Pose(index, plan.writes[w].joint);  // the output is written below (out = in included)
    if (common.enabled) {
      // The lane step; an item whose state would overflow float keeps its state
      // and its pose (as a failed QuatPD::TrackOffset), the others go on.
      for (std::size_t from = c0; from < c1;) {
        QuatPdBatchJob job;
        job.settings = settings, job.dt = dt, job.count = c1 - from;
        job.value = value + from * 4, job.velocity = velocity + from * 3, job.target = &goal[from * 4];
        std::size_t failed = job.count;
        job.failedItem = &failed;
        if (job.Run()) break;
        goal[(from + failed) * 4] = std::numeric_limits<float>::quiet_NaN();
        from += failed + 1;
      }
      // The animated local turned by the PD's offset (exactly the animated
      // local where the offset is exactly identity, or where the step failed).
      lanes::ForCharacters(c0, c1, [&](auto lane, std::size_t c) {
        using F = decltype(lane);
        const Q4<F> current = lanes::LoadBlockQ4<F>(&current_[w * lanes::Blocked(n) * 4], c);
        Q4<F> turned;
        if (!Apply(simd::LoadQ4<F>(value, c), current, &turned)) return false;
        const auto ok = simd::IsFiniteLane(simd::LoadQ4<F>(goal, c).x);
        const Q4<F> final = simd::Select(ok, turned, current);
        simd::StoreQ4(output_.data(), out + c, lanes::Written(simd::LoadQ4<F>(pose, out + c), current, final));
        return true;
      });
      for (std::size_t c = c0; c < c1; ++c) {
        if (std::isfinite(goal[c * 4])) phase_[x * n + c] = kNone;  // a successful update cancels a blend-out
      }
      continue;
    }
    // Release (rare: per character, in double): the spring toward identity
    // until its energy <= blendOutEnergy, then linear over blendOutTime, then
    // exactly identity. It writes only the locals that change: out = in first.
    if (pose != output_.data()) std::memcpy(&output_[(out + c0) * 4], &pose[(out + c0) * 4], (c1 - c0) * 4 * sizeof(float));
    for (std::size_t c = c0; c < c1; ++c) {
      const std::size_t at = x * n + c;
      const glm::quat current = simd::ToGlm(lanes::LoadBlockQ4<float>(&current_[w * lanes::Blocked(n) * 4], c));
      if (phase_[at] < kLinear) {
        pd::QuatPD controller(settings);
        const bool ok = controller.Reset(glm::dquat(LoadQuat(value, c)), glm::dvec3(LoadVec3(velocity, c))) &&
                        controller.UpdateBlendOut(dt) && IsFinite(glm::vec3(controller.velocity()));
        if (!ok) {
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
          pd::PdState<pd::QuatChart> st;  // the controller's own linear step (QuatChart::BlendAt)
          st.blendFrom = glm::dquat(LoadQuat(blendFrom_.data(), at));
          pd::QuatChart{}.BlendAt(settings, kIdentityD, f, &st);
          StoreQuat(value, c, glm::quat(st.value));
          StoreVec3(velocity, c, glm::vec3(st.velocity));
          blendTime_[at] = elapsed;
        } else {
          phase_[at] = kDone;
        }
      }
      if (phase_[at] == kDone) {
        StoreQuat(value, c, kIdentityRotation);
        StoreVec3(velocity, c, glm::vec3(0.0f));
      }
      Q4<float> final;
      Apply(simd::FromGlm(LoadQuat(value, c)), simd::FromGlm(current), &final);  // (one lane: never fails)
      if (simd::ToGlm(final) != current) StoreQuat(output_.data(), out + c, simd::ToGlm(final));  // Rig writes only the locals that change
    }
  }
}

}  // namespace ikpd::rig
