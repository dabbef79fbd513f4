#include "ikpd/batch/two_bone_batch.h"

#include "../ik/two_bone_kernel.h"
#include "in_lanes.h"
#include "limb.h"

namespace ikpd {
namespace {

using detail::TwoBoneLanes;

// Items i .. i + lanes − 1 of the batch, with the shared fallbacks.
template <class F>
TwoBoneLanes<F> LoadItems(const TwoBoneBatchJob& job, std::size_t i) {
  TwoBoneLanes<F> io;
  io.rootPosition = simd::LoadV3<F>(job.rootPosition, i);
  io.midPosition = simd::LoadV3<F>(job.midPosition, i);
  io.endPosition = simd::LoadV3<F>(job.endPosition, i);
  io.rootRotation = simd::LoadQ4<F>(job.rootRotation, i);
  io.midRotation = simd::LoadQ4<F>(job.midRotation, i);
  io.endRotation = simd::LoadQ4<F>(job.endRotation, i);
  io.target = simd::LoadV3<F>(job.target, i);
  io.pole = simd::LoadV3Or<F>(job.poleMode == PoleMode::kNone ? nullptr : job.pole, i, glm::vec3(0.0f));
  io.effectorOffset = simd::LoadV3Or<F>(job.effectorOffset, i, job.options.frame.effectorOffset);
  io.weight = simd::Load1Or<F>(job.weight, i, job.options.frame.weight);
  return io;
}

template <class F>
void StoreItems(const TwoBoneBatchJob& job, std::size_t i, const TwoBoneLanes<F>& io) {
  simd::StoreQ4(job.outRootRotation, i, io.outRootRotation);
  simd::StoreV3(job.outMidPosition, i, io.outMidPosition);
  simd::StoreQ4(job.outMidRotation, i, io.outMidRotation);
  simd::StoreV3(job.outEndPosition, i, io.outEndPosition);
  simd::StoreQ4(job.outEndRotation, i, io.outEndRotation);
  simd::Store1(job.outReached, i, simd::Select(io.reached, F(1.0f), F(0.0f)));
  simd::Store1(job.outDistance, i, io.distance);
}

// Items i .. i + kWide − 1 all valid, checked straight from the arrays.
bool GroupValid(const TwoBoneBatchJob& job, std::size_t i) {
  using namespace batch;  // NOLINT: the group checks
  return GroupFinite(job.rootPosition, 3, i) && GroupFinite(job.midPosition, 3, i) &&
         GroupFinite(job.endPosition, 3, i) && GroupFinite(job.target, 3, i) &&
         (job.poleMode == PoleMode::kNone || GroupFinite(job.pole, 3, i)) &&
         (!job.effectorOffset || GroupFinite(job.effectorOffset, 3, i)) && GroupRotationsUsable(job.rootRotation, i) &&
         GroupRotationsUsable(job.midRotation, i) && GroupRotationsUsable(job.endRotation, i) &&
         GroupWeightsValid(job.weight, i);
}

// Item i through the single-item job: its exact Status for an invalid item.
Status ValidateItem(const TwoBoneBatchJob& job, std::size_t i) {
  TwoBoneJob one = job.options;
  TwoBoneResult unused;
  one.result = &unused;
  one.settings.pole = TwoBonePole::kNone;
  batch::LoadLimb(job, i, one.frame, one.settings);
  if (job.effectorOffset) one.frame.effectorOffset = batch::LoadVec3(job.effectorOffset, i);
  return one.Validate();
}

}  // namespace

Status TwoBoneBatchJob::Validate() const {
  if (!batch::IsPoleMode(poleMode)) return Error("poleMode: must be none, point or direction");
  // The shared settings, checked once with neutral per-item values.
  TwoBoneResult unused;
  TwoBoneJob probe = options;
  probe.frame.root = probe.frame.mid = probe.frame.end = Transform{};
  probe.frame.target = glm::vec3(0.0f);
  probe.settings.pole = TwoBonePole::kNone;
  probe.result = &unused;
  if (const Status s = probe.Validate(); !s) return s;
  if (count == 0) return Ok();  // nothing is read or written
  if (const Status s = batch::CheckLimbArrays(*this); !s) return s;
  if (!outRootRotation || !outMidPosition || !outMidRotation || !outEndPosition || !outEndRotation || !outReached ||
      !outDistance) {
    return Error("output: arrays must not be null");
  }
  return Ok();
}

Status TwoBoneBatchJob::Run() const {
  if (const Status s = Validate(); !s) return s;
  // Pass 1: every item valid, else that item's Status and no output at all.
  const Status valid = batch::InLanes(
      count, [&](std::size_t i) { return GroupValid(*this, i); },
      [&](std::size_t j) { return ValidateItem(*this, j); },
      failedItem);
  if (!valid) return valid;
  // The shared settings, prepared once for every item (validated above; after pass 1, so an item
  // whose pole makes them invalid is reported as that item).
  TwoBoneSettings settings = options.settings;
  settings.pole = batch::PoleKind(poleMode);
  TwoBoneSetup setup;
  if (count == 0) return Ok();
  if (const Status s = Prepare(settings, &setup); !s) return s;
  const detail::TwoBoneShared& shared = detail::SharedOf(setup);
  // Pass 2: solve. An item whose result overflows float stops the batch there.
  return batch::InLanes(
      count,
      [&](std::size_t i) {
        TwoBoneLanes<simd::Wide> io = LoadItems<simd::Wide>(*this, i);
        detail::SolveTwoBone(shared, io);
        if (!simd::All(io.finite)) return false;
        StoreItems(*this, i, io);
        return true;
      },
      [&](std::size_t j) {
        TwoBoneLanes<float> io = LoadItems<float>(*this, j);
        detail::SolveTwoBone(shared, io);
        if (!io.finite) return Error(detail::kTwoBoneOverflow);
        StoreItems(*this, j, io);
        return Ok();
      },
      failedItem);
}

}  // namespace ikpd
