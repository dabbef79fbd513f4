#include "ikpd/batch/two_bone_batch.h"

namespace ikpd {

using batch::LoadQuat;
using batch::LoadVec3;
using batch::StoreQuat;
using batch::StoreVec3;

Status TwoBoneBatchJob::Validate() const {
  if (poleMode != PoleMode::kNone && poleMode != PoleMode::kPoint && poleMode != PoleMode::kDirection) {
    return Error("poleMode: must be none, point or direction");
  }
  // The shared settings, checked once with neutral per-item values.
  TwoBoneResult unused;
  TwoBoneJob probe = options;
  probe.root = probe.mid = probe.end = Transform{};
  probe.target = glm::vec3(0.0f);
  probe.pole.reset();
  probe.poleDirection.reset();
  probe.result = &unused;
  if (const Status s = probe.Validate(); !s) return s;
  if (count == 0) return Ok();  // nothing is read or written
  if (!rootPosition || !rootRotation || !midPosition || !midRotation || !endPosition || !endRotation) {
    return Error("input: joint arrays must not be null");
  }
  if (!target) return Error("target: array must not be null");
  if (poleMode != PoleMode::kNone && !pole) return Error("pole: array must not be null with a pole mode");
  if (!outRootRotation || !outMidPosition || !outMidRotation || !outEndPosition || !outEndRotation || !outReached ||
      !outDistance) {
    return Error("output: arrays must not be null");
  }
  return Ok();
}

Status TwoBoneBatchJob::Run() const {
  if (const Status s = Validate(); !s) return s;
  TwoBoneJob job = options;
  TwoBoneResult r;
  job.result = &r;
  job.pole.reset();
  job.poleDirection.reset();
  auto load = [&](std::size_t i) {
    job.root = {LoadVec3(rootPosition, i), LoadQuat(rootRotation, i)};
    job.mid = {LoadVec3(midPosition, i), LoadQuat(midRotation, i)};
    job.end = {LoadVec3(endPosition, i), LoadQuat(endRotation, i)};
    job.target = LoadVec3(target, i);
    if (poleMode == PoleMode::kPoint) job.pole = LoadVec3(pole, i);
    if (poleMode == PoleMode::kDirection) job.poleDirection = LoadVec3(pole, i);
    if (effectorOffset) job.effectorOffset = LoadVec3(effectorOffset, i);
    if (weight) job.weight = weight[i];
  };
  // Pass 1: every item is valid, or nothing is written.
  for (std::size_t i = 0; i < count; ++i) {
    load(i);
    if (const Status s = job.Validate(); !s) return batch::FailAt(s, i, failedItem);
  }
  for (std::size_t i = 0; i < count; ++i) {
    load(i);
    if (const Status s = job.Run(); !s) return batch::FailAt(s, i, failedItem);
    StoreQuat(outRootRotation, i, r.root.rotation);
    StoreVec3(outMidPosition, i, r.mid.position);
    StoreQuat(outMidRotation, i, r.mid.rotation);
    StoreVec3(outEndPosition, i, r.end.position);
    StoreQuat(outEndRotation, i, r.end.rotation);
    outReached[i] = r.reached ? 1.0f : 0.0f;
    outDistance[i] = r.distance;
  }
  return Ok();
}

}  // namespace ikpd
