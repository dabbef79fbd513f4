// ikpd — PD controllers (docs/pd/pd.md) over structure-of-arrays batches.
#pragma once

#include <cstddef>

#include "ikpd/batch/common.h"
#include "ikpd/pd/controllers.h"

namespace ikpd {

// Advances `count` scalar PD controllers (pd::ScalarPD; pd::AnglePD with
// `angle`) by `dt` toward their targets, sharing `settings`. The state
// (value, velocity) lives in the caller's arrays, one float per item, and is
// updated in place; each item gives the result of a controller Reset to that
// state and then Update(dt, target). Batches keep no other state, so
// `settings.ki` must be 0 and `settings.targetMotion` kHold. Errors: see
// batch::FailAt (pass 1 checks that value, velocity and target are finite;
// a state that would overflow float32 fails in pass 2: "dt: the state overflows float ...").
struct PdBatchJob {
  pd::PdSettings settings;
  bool angle = false;
  double dt = 0.0;  // finite, >= 0
  std::size_t count = 0;

  float* value = nullptr;        // 1 per item, in/out
  float* velocity = nullptr;     // 1 per item, in/out
  const float* target = nullptr;  // 1 per item

  std::size_t* failedItem = nullptr;  // optional output: index of the failing item

  // Checks the shared settings, dt and, when count > 0, the pointers; the
  // per-item values are checked by Run, item by item.
  Status Validate() const;
  // Validates, then checks and advances every item (see batch::FailAt for errors).
  Status Run() const;
};

// Advances `count` quaternion PD controllers (pd::QuatPD) by `dt`, like
// PdBatchJob: value [x, y, z, w] (normalized) and world angular velocity
// (rad/s) in place. Besides PdBatchJob's restrictions, `settings.method` must
// be kLogMap. With the exact integrator, no maxVelocity and no maxAngle (the
// common case) the step runs in float SIMD lanes with its coefficients
// computed once per Run: it agrees with QuatPD (double) to float rounding,
// i.e. velocities to ~1e-6 of max(1, |ω|, kp·dt·angle to target); every item
// gives bit-identical results wherever it sits in the batch. Other settings
// run QuatPD itself per item.
struct QuatPdBatchJob {
  pd::PdSettings settings;
  double dt = 0.0;
  std::size_t count = 0;

  float* value = nullptr;         // 4 per item [x, y, z, w], in/out
  float* velocity = nullptr;      // 3 per item (angular velocity), in/out
  const float* target = nullptr;  // 4 per item [x, y, z, w]

  std::size_t* failedItem = nullptr;

  // Checks the shared settings, dt and, when count > 0, the pointers; the
  // per-item values are checked by Run, item by item.
  Status Validate() const;
  // Validates, then checks and advances every item (see batch::FailAt for errors).
  Status Run() const;
};

}  // namespace ikpd
