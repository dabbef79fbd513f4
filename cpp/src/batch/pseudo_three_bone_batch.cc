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
  probe.frame.limb.root = probe.frame.limb.mid = probe.frame.limb.end = Transform{};
  probe.frame.limb.target = glm::vec3(0.0f);
  probe.settings.limb.pole = TwoBonePole::kNone;
  probe.frame.tip = Transform{};
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

namespace {

// The item loaded into `job`, checked by the single job (its exact Status)
// and solved on the settings prepared once for the batch.
struct PreparedItem {
  const PseudoThreeBoneJob& job;
  const PseudoThreeBoneSetup& setup;
  Status Validate() const { return job.Validate(); }
  Status Run() const { return SolvePseudoThreeBone(setup, job.frame, job.result); }
};

}  // namespace

Status PseudoThreeBoneBatchJob::Run() const {
  if (const Status s = Validate(); !s) return s;
  PseudoThreeBoneJob job = options;
  PseudoThreeBoneResult r;
  job.result = &r;
  job.settings.limb.pole = TwoBonePole::kNone;
  // The shared settings, prepared once (validated above; an unprepared setup
  // only happens where every item is invalid too, and pass 1 reports it).
  PseudoThreeBoneSettings settings = options.settings;
  settings.limb.pole = batch::PoleKind(poleMode);
  PseudoThreeBoneSetup setup;
  (void)Prepare(settings, &setup);
  auto load = [&](std::size_t i) {
    batch::LoadLimb(*this, i, job.frame.limb, job.settings.limb);
    job.frame.tip = {LoadVec3(tipPosition, i), LoadQuat(tipRotation, i)};
    if (blend) job.frame.blend = blend[i];
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
  return batch::ValidateThenRun(count, PreparedItem{job, setup}, load, store, failedItem);
}

}  // namespace ikpd
