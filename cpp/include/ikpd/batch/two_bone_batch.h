// ikpd — two-bone IK (docs/ik/two-bone.md) over a structure-of-arrays batch.
#pragma once

#include <cstddef>

#include "ikpd/batch/common.h"
#include "ikpd/ik/two_bone.h"

namespace ikpd {

// Solves `count` two-bone problems with TwoBoneJob's kernel, 8 items at a
// time in SIMD lanes where available (bit-identical to the single call). The
// per-item arrays and outputs are LimbBatchArrays' (ikpd/batch/common.h), plus
// `effectorOffset`; `options` carries the settings shared by every item
// (forward, bendAxis, bendDirection, straightBend, minAngle, maxAngle, soften,
// maxStretch, twist, endRotation, tolerance); its per-item fields (joints,
// target, pole, poleDirection, effectorOffset, weight, result) are ignored.
// Outputs may not alias inputs. Errors: see batch::FailAt.
struct TwoBoneBatchJob : LimbBatchArrays {
  TwoBoneJob options;
  const float* effectorOffset = nullptr;  // 3 per item, optional (null: options.effectorOffset)

  // Checks pointers and the shared options (not the per-item values).
  Status Validate() const;
  // Validates, then solves every item (see batch::FailAt for errors).
  Status Run() const;
};

}  // namespace ikpd
