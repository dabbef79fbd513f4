// ikpd — aim (docs/ik/aim.md) over a structure-of-arrays batch.
#pragma once

#include <cstddef>

#include "ikpd/batch/common.h"
#include "ikpd/ik/aim.h"

namespace ikpd {

// Solves `count` aim problems with AimJob's kernel, 8 items at a time in SIMD
// lanes where available (bit-identical to the single call). `options` carries the shared settings (forward, method, up,
// hingeAxis, offset: see AimJob); its per-item fields (position, rotation, target, pole, weight,
// result) are ignored. poleMode is kNone or kPoint. Errors: see batch::FailAt.
struct AimBatchJob {
  AimJob options;
  PoleMode poleMode = PoleMode::kNone;
  std::size_t count = 0;

  // Inputs, per item.
  const float* position = nullptr;  // 3
  const float* rotation = nullptr;  // 4
  const float* target = nullptr;    // 3
  const float* pole = nullptr;      // 3, read when poleMode is kPoint
  const float* weight = nullptr;    // 1, optional (null: options.weight)

  // Output, per item.
  float* outRotation = nullptr;  // 4

  std::size_t* failedItem = nullptr;  // optional output: index of the failing item

  // Checks the pole mode, the shared options (as the single job would, with neutral
  // per-item values) and, when count > 0, the pointers; not the per-item values.
  Status Validate() const;
  // Validates, then solves every item (see batch::FailAt for errors).
  Status Run() const;
};

}  // namespace ikpd
