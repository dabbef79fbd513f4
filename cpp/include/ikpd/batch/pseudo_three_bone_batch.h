// ikpd — pseudo three-bone IK (docs/pseudo-three-bone.md) over a structure-of-arrays batch.
#pragma once

#include <cstddef>

#include "ikpd/batch/common.h"
#include "ikpd/ik/pseudo_three_bone.h"

namespace ikpd {

// Solves `count` pseudo three-bone problems with PseudoThreeBoneJob, item by
// item (same results as the single call). `options` carries the shared
// settings (its limb's forward, bendAxis, bendDirection, straightBend,
// minAngle, maxAngle, soften, maxStretch, twist, tolerance; variant;
// endLimit); its per-item fields (joints, tip, target, pole, weight, blend,
// result) are ignored. Arrays as in TwoBoneBatchJob. Errors: see batch::FailAt.
struct PseudoThreeBoneBatchJob {
  PseudoThreeBoneJob options;
  PoleMode poleMode = PoleMode::kNone;
  std::size_t count = 0;

  // Inputs, per item.
  const float* rootPosition = nullptr;  // 3
  const float* rootRotation = nullptr;  // 4
  const float* midPosition = nullptr;   // 3
  const float* midRotation = nullptr;   // 4
  const float* endPosition = nullptr;   // 3
  const float* endRotation = nullptr;   // 4
  const float* tipPosition = nullptr;   // 3
  const float* tipRotation = nullptr;   // 4
  const float* target = nullptr;        // 3
  const float* pole = nullptr;          // 3, read unless poleMode is kNone
  const float* weight = nullptr;        // 1, optional (null: options.limb.weight)
  const float* blend = nullptr;         // 1, optional (null: options.blend)

  // Outputs, per item (the root position never changes).
  float* outRootRotation = nullptr;  // 4
  float* outMidPosition = nullptr;   // 3
  float* outMidRotation = nullptr;   // 4
  float* outEndPosition = nullptr;   // 3
  float* outEndRotation = nullptr;   // 4
  float* outTipPosition = nullptr;   // 3
  float* outTipRotation = nullptr;   // 4
  float* outReached = nullptr;       // 1: 1 when reached, else 0
  float* outDistance = nullptr;      // 1

  std::size_t* failedItem = nullptr;  // optional output: index of the failing item

  // Checks the pole mode, the shared options (as the single job would, with neutral
  // per-item values) and, when count > 0, the pointers; not the per-item values.
  Status Validate() const;
  // Validates, then solves every item (see batch::FailAt for errors).
  Status Run() const;
};

}  // namespace ikpd
