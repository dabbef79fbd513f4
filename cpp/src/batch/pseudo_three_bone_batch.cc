#include "ikpd/batch/pseudo_three_bone_batch.h"

#include "in_lanes.h"
#include "limb.h"

namespace ikpd {

using batch::LoadQuat;
using batch::LoadVec3;
using batch::StoreQuat;
using batch::StoreVec3;

Status PseudoThreeBoneBatchJob::Validate() const {
  if (!batch::IsPoleMode(poleMode)) return Error("poleMode: must be none, point or direction");
  // The shared settings, checked once with neutral per-item values.
  PseudoThreeBoneResult unused;
  PseudoThreeBoneJob probe = options;
  probe.limb.root = probe.limb.mid = probe.limb.end = Transform{};
  probe.limb.target = glm::vec3(0.0f);
  probe.limb.pole.reset();
  probe.limb.poleDirection.reset();
  probe.tip = Transform{};
  probe.result = &unused;
  if (const Status s = probe.Validate(); !s) return s;
  if (count == 0) return Ok();  // nothing is read or written
  if (const Status s = batch::CheckLimbArrays(*this); !s) return s;
  if (!tipPosition || !tipRotation) return Error("tip: arrays must not be null");
  if (!outRootRotation || !outMidPosition || !outMidRotation || !outEndPosition || !outEndRotation ||
      !outTipPosition || !outTipRotation || !outReached || !outDistance) {
    return Error("output: arrays must not be null");
  }
  return Ok();
}

Status PseudoThreeBoneBatchJob::Run() const {
  if (const Status s = Validate(); !s) return s;
  PseudoThreeBoneJob job = options;
  PseudoThreeBoneResult r;
  job.result = &r;
  job.limb.pole.reset();
  job.limb.poleDirection.reset();
  auto load = [&](std::size_t i) {
    batch::LoadLimb(*this, i, job.limb);
    job.tip = {LoadVec3(tipPosition, i), LoadQuat(tipRotation, i)};
    if (blend) job.blend = blend[i];
  };
  auto store = [&](std::size_t i) {
    StoreQuat(outRootRotation, i, r.root.rotation);
    StoreVec3(outMidPosition, i, r.mid.position);
    StoreQuat(outMidRotation, i, r.mid.rotation);
    StoreVec3(outEndPosition, i, r.end.position);
    StoreQuat(outEndRotation, i, r.end.rotation);
    StoreVec3(outTipPosition, i, r.tip.position);
    StoreQuat(outTipRotation, i, r.tip.rotation);
    outReached[i] = r.reached ? 1.0f : 0.0f;
    outDistance[i] = r.distance;
  };
  return batch::ValidateThenRun(count, job, load, store, failedItem);
}

}  // namespace ikpd
