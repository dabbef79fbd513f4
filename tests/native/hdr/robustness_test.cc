// Regression tests for HDR defects found by tests/fuzz/hdr_curves_fuzz.cc.
#include <gtest/gtest.h>

#include <cmath>

#include "ikpd/ikpd.h"

namespace {

TEST(HdrRobustness, FilmicWithATinyCIsAccurateFarFromItsLimit) {
  // The overflow-free rewrite a/c − correction cancelled catastrophically when
  // c was tiny (limit 1.4e39, value 11): it returned -3e23.
  const ikpd::hdr::FilmicCoefficients k{9.99836826f, 865309568.0f, 7.19149315e-39f, 865309568.0f, 864026624.0f};
  ASSERT_TRUE(k.Validate().ok());
  const double x = 865309568.0;
  const double expected = x * (k.a * x + k.b) / (x * (double(k.c) * x + k.d) + k.e);
  EXPECT_NEAR(ikpd::hdr::Filmic(865309568.0f, k), expected, 1e-5 * expected);
  for (float xf = 1.0f; xf < 3e38f; xf *= 7.0f) {
    const float y = ikpd::hdr::Filmic(xf, k);
    EXPECT_TRUE(std::isfinite(y) && y >= 0.0f) << xf;
  }
}

}  // namespace
