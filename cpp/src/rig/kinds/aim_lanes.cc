// The aim kind's lane solve in a RigBatch (its LaneOps, lanes.h;
// docs/rig/rig-batch.md): AimBatchJob with the prepared options (weight 1),
// then the remaining angle with the Rig's formula (LookError) in lanes.
#include <cstring>
#include <type_traits>

#include "../rig_batch_lanes.h"
#include "ikpd/batch/aim_batch.h"
#include "lanes.h"
#include "registry.h"

namespace ikpd::rig::detail {

using simd::Q4;
using simd::V3;

namespace {

void SolveLanes(const LaneStage& stage, const Constraint& c) {
  const AimState& aim = std::get<AimState>(c.state);
  const std::size_t c0 = stage.c0, c1 = stage.c1, n = stage.count;
  const auto keep = [&](std::size_t ch) { std::memcpy(&stage.solved[ch * 4], &stage.rotations[ch * 4], 4 * sizeof(float)); };
  if (aim.setup[stage.pole ? 1 : 0].prepared()) {
    AimBatchJob job;
    job.options = c.settings.aim;
    job.options.settings.forward = aim.look, job.options.settings.up = aim.up, job.options.frame.weight = 1.0f;
    job.options.settings.pole = false;
    job.poleMode = stage.pole ? PoleMode::kPoint : PoleMode::kNone;
    job.count = c1 - c0;
    job.position = stage.Position(c.joints[0]);  // the joint's own model position
    job.rotation = stage.Rotation(0);
    job.target = &stage.targets[c0 * 3], job.pole = &stage.poles[c0 * 3];
    job.outRotation = stage.Solved(0);
    RunOrKeep(
        job,
        [](AimBatchJob& one, std::size_t k) {
          one.position += 3 * k, one.rotation += 4 * k, one.target += 3 * k, one.pole += 3 * k, one.outRotation += 4 * k;
        },
        [&](std::size_t k) { keep(c0 + k); });
  } else {
    for (std::size_t ch = c0; ch < c1; ++ch) keep(ch);  // settings that cannot take this pole keep the pose
  }
  // The remaining angle (Rig: LookError), in lanes where they take it.
  const std::size_t eyeAt = static_cast<std::size_t>(c.joints[0]) * n;
  lanes::ForCharacters(c0, c1, [&](auto lane, std::size_t ch) {
    using F = decltype(lane);
    const V3<F> eye = simd::LoadV3<F>(stage.positions, eyeAt + ch), target = simd::LoadV3<F>(stage.targets, ch);
    const Q4<F> head = simd::LoadQ4<F>(stage.solved, ch);
    F error;
    if (!lanes::LookError(eye, head, aim.look, target, &error)) {
      if constexpr (std::is_same_v<F, float>) {
        error = LookError(Transform{simd::ToGlm(eye), simd::ToGlm(head)}, aim.look, simd::ToGlm(target));
      } else {
        return false;
      }
    }
    simd::Store1(stage.distance, ch, error);
    simd::Store1(stage.reached, ch, simd::Select(error <= 1e-3f, F(1.0f), F(0.0f)));
    return true;
  });
}

}  // namespace

const LaneOps kAimLanes = {ConstraintKind::kAim, SolveLanes};

}  // namespace ikpd::rig::detail
