#include "ikpd/batch/two_bone_batch.h"

#include "limb.h"

namespace ikpd {

using batch::LoadVec3;
using batch::StoreQuat;
using batch::StoreVec3;

Status TwoBoneBatchJob::Validate() const {
  if (!batch::IsPoleMode(poleMode)) return Error("poleMode: must be none, point or direction");
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
  if (const Status s = batch::CheckLimbArrays(*this); !s) return s;
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
    batch::LoadLimb(*this, i, job);
    if (effectorOffset) job.effectorOffset = LoadVec3(effectorOffset, i);
  };
  auto store = [&](std::size_t i) {
    StoreQuat(outRootRotation, i, r.root.rotation);
    StoreVec3(outMidPosition, i, r.mid.position);
    StoreQuat(outMidRotation, i, r.mid.rotation);
    StoreVec3(outEndPosition, i, r.end.position);
    StoreQuat(outEndRotation, i, r.end.rotation);
    outReached[i] = r.reached ? 1.0f : 0.0f;
    outDistance[i] = r.distance;
  };
  return batch::ValidateThenRun(count, job, load, store, failedItem);
}

}  // namespace ikpd
