#include "ikpd/batch/aim_batch.h"

#include <algorithm>

#include "../ik/aim_kernel.h"
#include "in_lanes.h"

namespace ikpd {

using batch::LoadQuat;
using batch::LoadVec3;
using batch::StoreQuat;

Status AimBatchJob::Validate() const {
  if (poleMode != PoleMode::kNone && poleMode != PoleMode::kPoint) return Error("poleMode: must be none or point");
  glm::quat unused;
  AimJob probe = options;
  probe.frame.position = glm::vec3(0.0f);
  probe.frame.rotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  probe.frame.target = glm::vec3(1.0f, 0.0f, 0.0f);
  // With a pole per item, the pole's checks on the shared options (up not
  // parallel to forward, no hinge) apply: probe with a neutral finite pole.
  probe.settings.pole = false;
  if (poleMode == PoleMode::kPoint) probe.settings.pole = true, probe.frame.pole = glm::vec3(0.0f, 1.0f, 0.0f);
  probe.result = &unused;
  if (const Status s = probe.Validate(); !s) return s;
  if (count == 0) return Ok();  // nothing is read or written
  if (!position || !rotation) return Error("input: joint arrays must not be null");
  if (!target) return Error("target: array must not be null");
  if (poleMode == PoleMode::kPoint && !pole) return Error("pole: array must not be null with a pole mode");
  if (!outRotation) return Error("output: arrays must not be null");
  return Ok();
}

namespace {

using detail::AimLanes;

template <class F>
AimLanes<F> LoadItems(const AimBatchJob& job, std::size_t i) {
  AimLanes<F> io;
  io.position = simd::LoadV3<F>(job.position, i);
  io.rotation = simd::LoadQ4<F>(job.rotation, i);
  io.target = simd::LoadV3<F>(job.target, i);
  io.pole = simd::LoadV3Or<F>(job.poleMode == PoleMode::kPoint ? job.pole : nullptr, i, glm::vec3(0.0f));
  io.weight = simd::Load1Or<F>(job.weight, i, job.options.frame.weight);
  return io;
}

// Items i .. i + kWide − 1 all valid, checked straight from the arrays.
bool GroupValid(const AimBatchJob& job, std::size_t i) {
  using namespace batch;  // NOLINT: the group checks
  return GroupFinite(job.position, 3, i) && GroupFinite(job.target, 3, i) &&
         (job.poleMode != PoleMode::kPoint || GroupFinite(job.pole, 3, i)) &&
         GroupRotationsUsable(job.rotation, i) && GroupWeightsValid(job.weight, i);
}

// Item i through the single-item job: its exact Status for an invalid item.
Status ValidateItem(const AimBatchJob& job, std::size_t i) {
  AimJob one = job.options;
  glm::quat unused;
  one.result = &unused;
  one.frame.position = LoadVec3(job.position, i);
  one.frame.rotation = LoadQuat(job.rotation, i);
  one.frame.target = LoadVec3(job.target, i);
  one.settings.pole = false;
  if (job.poleMode == PoleMode::kPoint) one.settings.pole = true, one.frame.pole = LoadVec3(job.pole, i);
  if (job.weight) one.frame.weight = job.weight[i];
  return one.Validate();
}

}  // namespace

Status AimBatchJob::Run() const {
  if (const Status s = Validate(); !s) return s;
  // Pass 1: every item valid, else that item's Status and no output at all.
  const Status valid = batch::InLanes(
      count, [&](std::size_t i) { return GroupValid(*this, i); },
      [&](std::size_t j) { return ValidateItem(*this, j); },
      failedItem);
  if (!valid) return valid;
  // The shared settings, prepared once for every item (validated above; after pass 1, so an item
  // whose pole makes them invalid is reported as that item).
  AimSettings settings = options.settings;
  settings.pole = poleMode == PoleMode::kPoint;
  AimSetup setup;
  if (count == 0) return Ok();
  if (const Status s = Prepare(settings, &setup); !s) return s;
  const detail::AimShared& shared = detail::SharedOf(setup);
  // Pass 2: solve (finite input gives a finite unit quaternion).
  auto solve = [&](auto lanes, std::size_t i) {
    AimLanes<decltype(lanes)> io = LoadItems<decltype(lanes)>(*this, i);
    detail::SolveAim(shared, io);
    simd::StoreQ4(outRotation, i, io.outRotation);
  };
  return batch::InLanes(
      count, [&](std::size_t i) { return solve(simd::Wide{}, i), true; },
      [&](std::size_t j) { return solve(0.0f, j), Ok(); }, failedItem);
}

}  // namespace ikpd
