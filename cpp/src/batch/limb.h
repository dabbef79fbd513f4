// Internal: per-item loading of the two-bone limb fields shared by the
// two-bone and pseudo three-bone batch jobs (same field names in both).
#pragma once

#include "ikpd/batch/common.h"
#include "ikpd/batch/two_bone_batch.h"

namespace ikpd::batch {

// Loads item i of `f` (a batch job with rootPosition … target, pole, weight
// and poleMode) into a limb frame and its settings (the pole kind); fields not
// in the batch keep their values.
template <class Fields>
void LoadLimb(const Fields& f, std::size_t i, TwoBoneFrame& frame, TwoBoneSettings& settings) {
  frame.root = {LoadVec3(f.rootPosition, i), LoadQuat(f.rootRotation, i)};
  frame.mid = {LoadVec3(f.midPosition, i), LoadQuat(f.midRotation, i)};
  frame.end = {LoadVec3(f.endPosition, i), LoadQuat(f.endRotation, i)};
  frame.target = LoadVec3(f.target, i);
  if (f.poleMode == PoleMode::kPoint) settings.pole = TwoBonePole::kPoint, frame.pole = LoadVec3(f.pole, i);
  if (f.poleMode == PoleMode::kDirection) settings.pole = TwoBonePole::kDirection, frame.pole = LoadVec3(f.pole, i);
  if (f.weight) frame.weight = f.weight[i];
}

// Pointer and pole-mode checks shared by both jobs.
template <class Fields>
Status CheckLimbArrays(const Fields& f) {
  if (!f.rootPosition || !f.rootRotation || !f.midPosition || !f.midRotation || !f.endPosition || !f.endRotation) {
    return Error("input: joint arrays must not be null");
  }
  if (!f.target) return Error("target: array must not be null");
  if (f.poleMode != PoleMode::kNone && !f.pole) return Error("pole: array must not be null with a pole mode");
  return Ok();
}

// The prepared solve's pole input for a batch's pole mode (the same setting
// for every item).
inline TwoBonePole PoleKind(PoleMode mode) {
  if (mode == PoleMode::kPoint) return TwoBonePole::kPoint;
  if (mode == PoleMode::kDirection) return TwoBonePole::kDirection;
  return TwoBonePole::kNone;
}

inline bool IsPoleMode(PoleMode m) {
  return m == PoleMode::kNone || m == PoleMode::kPoint || m == PoleMode::kDirection;
}

}  // namespace ikpd::batch
