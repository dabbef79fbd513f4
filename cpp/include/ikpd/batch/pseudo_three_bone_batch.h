// ikpd — pseudo three-bone IK (docs/ik/pseudo-three-bone.md) over a structure-of-arrays batch.
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
// result) are ignored. The limb's per-item arrays and outputs are
// LimbBatchArrays' (ikpd/batch/common.h), plus the tip's. Errors: see batch::FailAt.
struct PseudoThreeBoneBatchJob : LimbBatchArrays {
  PseudoThreeBoneJob options;
  const float* tipPosition = nullptr;  // 3 per item
  const float* tipRotation = nullptr;  // 4 per item
  const float* blend = nullptr;        // 1 per item, optional (null: options.blend)
  float* outTipPosition = nullptr;     // 3 per item, output
  float* outTipRotation = nullptr;     // 4 per item, output

  // Checks the pole mode, the shared options (as the single job would, with neutral
  // per-item values) and, when count > 0, the pointers; not the per-item values.
  Status Validate() const;
  // Validates, then solves every item (see batch::FailAt for errors).
  Status Run() const;
};

}  // namespace ikpd
