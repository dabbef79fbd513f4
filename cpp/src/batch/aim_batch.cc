#include "ikpd/batch/aim_batch.h"

namespace ikpd {

using batch::LoadQuat;
using batch::LoadVec3;
using batch::StoreQuat;

Status AimBatchJob::Validate() const {
  if (poleMode != PoleMode::kNone && poleMode != PoleMode::kPoint) return Error("poleMode: must be none or point");
  glm::quat unused;
  AimJob probe = options;
  probe.position = glm::vec3(0.0f);
  probe.rotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  probe.target = glm::vec3(1.0f, 0.0f, 0.0f);
  probe.pole.reset();
  probe.result = &unused;
  if (const Status s = probe.Validate(); !s) return s;
  if (count == 0) return Ok();  // nothing is read or written
  if (!position || !rotation) return Error("input: joint arrays must not be null");
  if (!target) return Error("target: array must not be null");
  if (poleMode == PoleMode::kPoint && !pole) return Error("pole: array must not be null with a pole mode");
  if (!outRotation) return Error("output: arrays must not be null");
  return Ok();
}

Status AimBatchJob::Run() const {
  if (const Status s = Validate(); !s) return s;
  AimJob job = options;
  glm::quat r;
  job.result = &r;
  job.pole.reset();
  auto load = [&](std::size_t i) {
    job.position = LoadVec3(position, i);
    job.rotation = LoadQuat(rotation, i);
    job.target = LoadVec3(target, i);
    if (poleMode == PoleMode::kPoint) job.pole = LoadVec3(pole, i);
    if (weight) job.weight = weight[i];
  };
  auto store = [&](std::size_t i) {
    StoreQuat(outRotation, i, r);
  };
  return batch::ValidateThenRun(count, job, load, store, failedItem);
}

}  // namespace ikpd
