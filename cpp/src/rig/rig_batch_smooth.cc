// RigBatch: the inputs each constraint's solve and blend see (docs/rig/rig-batch.md,
// "Weight, enable and smoothing"), as Rig::SmoothInputs per character: without
// smoothing the frame's targets and w = enabled ? weight × weights(i)[c] : 0;
// with smoothing w through a scalar PD (PdBatchJob's lane step, float state;
// released with the PD's blend-out when the constraint is disabled, per
// character) and the world targets and poles through a scalar PD per axis.
#include <algorithm>
#include <cstring>

#include "ikpd/batch/pd_batch.h"
#include "ikpd/pd/charts.h"
#include "ikpd/rig/rig_batch.h"
#include "kinds/registry.h"

namespace ikpd::rig {

namespace {
constexpr auto kNone = static_cast<std::uint8_t>(pd::BlendPhase::kNone);
constexpr auto kLinear = static_cast<std::uint8_t>(pd::BlendPhase::kLinear);
constexpr auto kDone = static_cast<std::uint8_t>(pd::BlendPhase::kDone);
constexpr std::uint8_t kTargetHeld = 1, kPoleHeld = 2;

// Runs a PdBatchJob over [0, count); an item whose state would overflow float
// keeps its state (as a failed ScalarPD::Update), the others go on.
void Step(const pd::PdSettings& settings, float dt, std::size_t count, float* value, float* velocity, const float* target) {
  for (std::size_t from = 0; from < count;) {
    PdBatchJob job;
    job.settings = settings, job.dt = dt, job.count = count - from;
    job.value = value + from, job.velocity = velocity + from, job.target = target + from;
    std::size_t failed = job.count;
    job.failedItem = &failed;
    if (job.Run()) break;
    from += failed + 1;
  }
}
}  // namespace

// Smoothing state of constraint `index` for every character: weight 0 (a
// constraint blends in), no target held.
void RigBatch::ResetSmoothing(std::size_t index) {
  const std::size_t n = count_;
  std::fill_n(&weightValues_[index * n], n, 0.0f);
  std::fill_n(&weightVelocities_[index * n], n, 0.0f);
  std::fill_n(&phase_[index * n], n, kNone);
  std::fill_n(&held_[index * n], n, std::uint8_t{0});
}

const float* RigBatch::Targets(std::size_t index) const {
  return template_.constraints_[index].settings.common.settleTime > 0.0f ? smoothTargets_.data() : targets_.data();
}
const float* RigBatch::Poles(std::size_t index) const {
  return template_.constraints_[index].settings.common.settleTime > 0.0f ? smoothPoles_.data() : poles_.data();
}

// Stage 1b (Rig::SmoothInputs): weightNow_[c] for Locals, and (smoothing) the
// smoothed targets and poles Gather maps.
void RigBatch::Inputs(std::size_t index, float dt, std::size_t c0, std::size_t c1) {
  const std::size_t n = count_, base = index * n;
  const CommonSettings& common = template_.constraints_[index].settings.common;
  const pd::PdSettings& settings = plans_[index].smoothing;
  const float* weights = &weights_[base];
  float* value = &weightValues_[base];
  float* velocity = &weightVelocities_[base];
  std::uint8_t* phase = &phase_[base];
  std::uint8_t* held = &held_[base];
  for (std::size_t c = c0; c < c1; ++c) weightGoals_[c] = common.enabled ? common.weight * weights[c] : 0.0f;
  if (common.settleTime == 0.0f) {  // where smoothing starts when it is turned on
    for (std::size_t c = c0; c < c1; ++c) {
      value[c] = weightNow_[c] = weightGoals_[c];
      velocity[c] = 0.0f, phase[c] = kNone, held[c] = 0;
    }
    return;
  }
  const bool pole = poleSet_[index] != 0;
  for (std::size_t c = c0; c < c1; ++c) {
    if (value[c] == 0.0f) held[c] = 0;  // nothing shows: the points restart at the frame's
    const std::size_t at = (base + c) * 3;
    if (!(held[c] & kTargetHeld)) {
      std::memcpy(&smoothTargets_[at], &targets_[at], 3 * sizeof(float));
      std::fill_n(&targetVelocities_[at], 3, 0.0f);
    }
    if (pole && !(held[c] & kTargetHeld && held[c] & kPoleHeld)) {
      std::memcpy(&smoothPoles_[at], &poles_[at], 3 * sizeof(float));
      std::fill_n(&poleVelocities_[at], 3, 0.0f);
    }
    held[c] = static_cast<std::uint8_t>(kTargetHeld | (pole ? kPoleHeld : 0));
  }
  if (common.enabled) {
    Step(settings, dt, c1 - c0, value + c0, velocity + c0, &weightGoals_[c0]);
    std::fill(phase + c0, phase + c1, kNone);  // an update cancels a blend-out
  } else {
    // Release (per character, in double, as ScalarPD::UpdateBlendOut): the
    // spring toward 0 until its energy <= blendOutEnergy, then linear over
    // blendOutTime, then exactly 0.
    for (std::size_t c = c0; c < c1; ++c) {
      const std::size_t at = base + c;
      if (phase[c] < kLinear) {
        pd::ScalarPD controller(settings);
        controller.Reset(value[c], velocity[c]);
        if (!controller.UpdateBlendOut(dt, 0.0)) continue;
        phase[c] = static_cast<std::uint8_t>(controller.blendPhase());
        value[c] = static_cast<float>(controller.value());
        velocity[c] = static_cast<float>(controller.velocity());
        if (phase[c] == kLinear) blendFrom_[at] = value[c], blendTime_[at] = 0.0f;
      } else if (phase[c] == kLinear) {
        const float elapsed = blendTime_[at] + dt;
        const double f = settings.blendOutTime > 0.0 ? static_cast<double>(elapsed) / settings.blendOutTime : 1.0;
        if (f < 1.0) {
          pd::PdState<pd::ScalarChart> st;  // the controller's own linear step (ScalarChart::BlendAt)
          st.blendFrom = blendFrom_[at];
          pd::ScalarChart{}.BlendAt(settings, 0.0, f, &st);
          value[c] = static_cast<float>(st.value), velocity[c] = static_cast<float>(st.velocity);
          blendTime_[at] = elapsed;
        } else {
          phase[c] = kDone;
        }
      }
      if (phase[c] == kDone) value[c] = 0.0f, velocity[c] = 0.0f;
    }
  }
  for (std::size_t c = c0; c < c1; ++c) weightNow_[c] = std::clamp(value[c], 0.0f, 1.0f);  // an underdamped PD overshoots
  const std::size_t at = (base + c0) * 3, items = (c1 - c0) * 3;
  Step(settings, dt, items, &smoothTargets_[at], &targetVelocities_[at], &targets_[at]);
  if (pole) Step(settings, dt, items, &smoothPoles_[at], &poleVelocities_[at], &poles_[at]);
}

}  // namespace ikpd::rig
