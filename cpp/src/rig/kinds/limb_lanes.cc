// The limbs' lane solve in a RigBatch (lanes.h): what the two-bone and pseudo
// three-bone kinds share around their batch jobs (docs/rig/rig-batch.md).
#include <cstring>

#include "lanes.h"
#include "registry.h"

namespace ikpd::rig::detail {

LimbBatchArrays LimbArrays(const LaneStage& stage, const Constraint& c, const TwoBoneSettings& limb) {
  LimbBatchArrays a;
  a.poleMode = stage.pole ? PoleMode::kPoint : HasPoleDirection(limb) ? PoleMode::kDirection : PoleMode::kNone;
  a.count = stage.c1 - stage.c0;
  a.rootPosition = stage.Position(c.joints[0]), a.midPosition = stage.Position(c.joints[1]);
  a.endPosition = stage.Position(c.joints[2]);
  a.rootRotation = stage.Rotation(0), a.midRotation = stage.Rotation(1), a.endRotation = stage.Rotation(2);
  a.target = &stage.targets[stage.c0 * 3], a.pole = &stage.poles[stage.c0 * 3];
  a.outRootRotation = stage.Solved(0), a.outMidRotation = stage.Solved(1), a.outEndRotation = stage.Solved(2);
  a.outMidPosition = stage.Moved(0), a.outEndPosition = stage.Moved(1);
  a.outReached = stage.reached + stage.c0, a.outDistance = stage.distance + stage.c0;
  return a;
}

TwoBoneJob CanonicalOptions(const TwoBoneFrame& frame, const TwoBoneSettings& settings) {
  TwoBoneJob options{frame, settings, nullptr};
  options.settings.forward = glm::vec3(1.0f, 0.0f, 0.0f), options.settings.bendAxis = glm::vec3(0.0f, 0.0f, 1.0f);
  options.frame.weight = 1.0f, options.frame.effectorOffset = glm::vec3(0.0f);
  options.settings.pole = TwoBonePole::kNone, options.frame.pole = glm::vec3(0.0f);
  return options;
}

void ShiftLimb(LimbBatchArrays& a, std::size_t k) {
  for (const float** p : {&a.rootPosition, &a.midPosition, &a.endPosition, &a.target, &a.pole}) *p += 3 * k;
  for (const float** p : {&a.rootRotation, &a.midRotation, &a.endRotation}) *p += 4 * k;
  for (float** p : {&a.outMidPosition, &a.outEndPosition}) *p += 3 * k;
  for (float** p : {&a.outRootRotation, &a.outMidRotation, &a.outEndRotation}) *p += 4 * k;
  a.outReached += k, a.outDistance += k;
}

void KeepLimb(const LaneStage& stage, std::size_t ch) {
  const std::size_t n = stage.count;
  for (std::size_t k = 0; k < 3; ++k) {
    std::memcpy(&stage.solved[(k * n + ch) * 4], &stage.rotations[(k * n + ch) * 4], 4 * sizeof(float));
  }
  stage.reached[ch] = 0.0f, stage.distance[ch] = 0.0f;
}

void LimbDistancesInWorld(const LaneStage& stage) {
  for (std::size_t ch = stage.c0; ch < stage.c1; ++ch) {
    const float s3 = stage.rootScales[ch];
    stage.distance[ch] *= (s3 + s3 + s3) / 3.0f;  // world units, as Rig's rootScale_
  }
}

}  // namespace ikpd::rig::detail
