// ikpd — two-bone IK (docs/two-bone.md) over a structure-of-arrays batch.
#pragma once

#include <cstddef>

#include "ikpd/batch/common.h"
#include "ikpd/ik/two_bone.h"

namespace ikpd {

// Solves `count` two-bone problems with TwoBoneJob's kernel, 8 items at a
// time in SIMD lanes where available (bit-identical to the single call). Per-item fields are arrays with the item's
// components together (vec3: 3 floats, quaternion: 4 floats [x, y, z, w],
// scalar: 1 float); `options` carries the settings shared by every item
// (forward, bendAxis, bendDirection, straightBend, minAngle, maxAngle, soften,
// maxStretch, twist, endRotation, tolerance); its per-item fields (joints,
// target, pole, poleDirection, effectorOffset, weight, result) are ignored.
// Outputs may not alias inputs. Errors: see batch::FailAt.
struct TwoBoneBatchJob {
  TwoBoneJob options;
  PoleMode poleMode = PoleMode::kNone;
  std::size_t count = 0;

  // Inputs, per item.
  const float* rootPosition = nullptr;  // 3
  const float* rootRotation = nullptr;  // 4
  const float* midPosition = nullptr;   // 3
  const float* midRotation = nullptr;   // 4
  const float* endPosition = nullptr;   // 3
  const float* endRotation = nullptr;   // 4
  const float* target = nullptr;        // 3
  const float* pole = nullptr;          // 3, read unless poleMode is kNone
  const float* effectorOffset = nullptr;  // 3, optional (null: options.effectorOffset)
  const float* weight = nullptr;          // 1, optional (null: options.weight)

  // Outputs, per item (the root position never changes).
  float* outRootRotation = nullptr;  // 4
  float* outMidPosition = nullptr;   // 3
  float* outMidRotation = nullptr;   // 4
  float* outEndPosition = nullptr;   // 3
  float* outEndRotation = nullptr;   // 4
  float* outReached = nullptr;       // 1: 1 when reached, else 0
  float* outDistance = nullptr;      // 1

  std::size_t* failedItem = nullptr;  // optional output: index of the failing item

  // Checks pointers and the shared options (not the per-item values).
  Status Validate() const;
  // Validates, then solves every item (see batch::FailAt for errors).
  Status Run() const;
};

}  // namespace ikpd
