// Regression tests for batch defects found by the JS robustness tests.
#include <gtest/gtest.h>

#include <cmath>

#include "ikpd/ikpd.h"

namespace {

TEST(BatchRobustness, PdBatchReportsAStateBeyondFloatInsteadOfStoringInfinity) {
  // The controllers compute in double: a step that stayed finite in double became
  // Infinity in the float arrays, with Ok(). (Found with an explicit step and a huge
  // kd, which the stability check now rejects before stepping; a stable step from
  // near the float limit overshoots past it the same way.)
  ikpd::PdBatchJob job;
  job.settings.kp = 1.0;
  job.settings.kd = 0.0;
  job.settings.integrator = ikpd::pd::Integrator::kStable;
  job.dt = 1.0;
  float value[3] = {1.0f, 3e38f, 0.5f}, velocity[3] = {0.0f, 0.0f, 0.0f};
  const float target[3] = {2.0f, -3e38f, 2.0f};
  job.count = 3;
  job.value = value;
  job.velocity = velocity;
  job.target = target;
  std::size_t failed = 99;
  job.failedItem = &failed;
  for (int step = 0; step < 4; ++step) {
    const ikpd::Status s = job.Run();
    for (int i = 0; i < 3; ++i) {
      EXPECT_TRUE(std::isfinite(value[i]) && std::isfinite(velocity[i])) << "step " << step << " item " << i;
    }
    if (!s.ok()) {
      EXPECT_STREQ(s.error, "dt: the state overflows float (step too large for these gains; see checkStability)");
      EXPECT_LT(failed, 3u);
      return;
    }
  }
  ADD_FAILURE() << "expected the state to overflow float";
}

}  // namespace
