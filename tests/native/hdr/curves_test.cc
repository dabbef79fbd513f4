// ikpd::hdr curves: PQ, matrices, filmic, production tone map, transfer functions.
#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "ikpd/ikpd.h"

namespace {

using namespace ikpd::hdr;

// Independent double-precision ST 2084 reference.
double PqReference(double y) {
  const double m1 = 2610.0 / 16384.0, m2 = 2523.0 / 4096.0 * 128.0;
  const double c1 = 3424.0 / 4096.0, c2 = 2413.0 / 4096.0 * 32.0, c3 = 2392.0 / 4096.0 * 32.0;
  const double p = std::pow(y, m1);
  return std::pow((c1 + c2 * p) / (1.0 + c3 * p), m2);
}

TEST(HdrPq, MatchesReferenceValues) {
  EXPECT_NEAR(LinearToPq(0.0f), 7.30956e-7, 1e-11);
  EXPECT_NEAR(LinearToPq(1.0f / 10000.0f), 0.149945732100, 1e-6);
  EXPECT_NEAR(LinearToPq(100.0f / 10000.0f), 0.508078421517, 1e-6);
  EXPECT_NEAR(LinearToPq(203.0f / 10000.0f), 0.580688881042, 1e-6);
  EXPECT_NEAR(LinearToPq(1000.0f / 10000.0f), 0.751827096247, 1e-6);
  EXPECT_NEAR(LinearToPq(1.0f), 1.0, 1e-7);
  EXPECT_NEAR(PqToLinear(0.508078421517f), 0.01, 1e-7);
  EXPECT_NEAR(PqToLinear(0.751827096247f), 0.1, 1e-6);
  EXPECT_EQ(PqToLinear(0.0f), 0.0f);
  EXPECT_NEAR(PqToLinear(1.0f), 1.0f, 1e-6);
}

TEST(HdrPq, AgreesWithDoubleReferenceOverTheRange) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> exponent(-7.0f, 0.0f);
  for (int i = 0; i < 5000; ++i) {
    const float y = std::pow(10.0f, exponent(rng));
    ASSERT_NEAR(LinearToPq(y), PqReference(static_cast<double>(y)), 1e-6) << y;
  }
}

TEST(HdrPq, EncodeDecodeIdentity) {
  for (int i = 0; i <= 20000; ++i) {
    const float e = static_cast<float>(i) / 20000.0f;
    ASSERT_NEAR(LinearToPq(PqToLinear(e)), e, 1e-6) << e;
    const float y = e * e * e;  // denser near 0, where the PQ curve is steep
    ASSERT_NEAR(PqToLinear(LinearToPq(y)), y, 1e-6) << y;
  }
}

TEST(HdrPq, ClampsOutOfRangeAndNeverProducesNaN) {
  EXPECT_EQ(LinearToPq(-1.0f), LinearToPq(0.0f));
  EXPECT_EQ(LinearToPq(5.0f), LinearToPq(1.0f));
  EXPECT_EQ(LinearToPq(FLT_MAX), LinearToPq(1.0f));
  EXPECT_EQ(PqToLinear(-3.0f), 0.0f);
  EXPECT_EQ(PqToLinear(2.0f), PqToLinear(1.0f));
  EXPECT_EQ(PqToLinear(1e-7f), 0.0f);  // below c1^m2
}

TEST(HdrMatrix, RowsSumToOneAndWhiteIsPreserved) {
  for (int r = 0; r < 3; ++r) {
    const float sum = kRec709ToRec2020Matrix[r][0] + kRec709ToRec2020Matrix[r][1] + kRec709ToRec2020Matrix[r][2];
    EXPECT_NEAR(sum, 1.0f, 1e-6f);
    const float inverseSum = kRec2020ToRec709Matrix[r][0] + kRec2020ToRec709Matrix[r][1] + kRec2020ToRec709Matrix[r][2];
    EXPECT_NEAR(inverseSum, 1.0f, 1e-6f);
  }
  const glm::vec3 white = Rec709ToRec2020(glm::vec3(1.0f));
  EXPECT_NEAR(white.x, 1.0f, 1e-6f);
  EXPECT_NEAR(white.y, 1.0f, 1e-6f);
  EXPECT_NEAR(white.z, 1.0f, 1e-6f);
}

TEST(HdrMatrix, AgreesWithBt2087ToSixDigits) {
  // ITU-R BT.2087, derived from the primaries with D65 (WEB-NOTES.md).
  const double bt2087[3][3] = {{0.6274038959, 0.3292830384, 0.0433130657},
                               {0.0690972894, 0.9195403951, 0.0113623156},
                               {0.0163914389, 0.0880133079, 0.8955952532}};
  for (int r = 0; r < 3; ++r) {
    double sum = 0.0;
    for (int c = 0; c < 3; ++c) {
      // The 6-digit reference values differ from the exact ones by at most ~1e-6.
      EXPECT_NEAR(kRec709ToRec2020Matrix[r][c], bt2087[r][c], 1.5e-6) << r << "," << c;
      sum += bt2087[r][c];
    }
    EXPECT_NEAR(sum, 1.0, 1e-9);
  }
}

TEST(HdrMatrix, InverseRoundTrips) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-2.0f, 50.0f);
  for (int i = 0; i < 5000; ++i) {
    const glm::vec3 c(u(rng), u(rng), u(rng));
    const glm::vec3 a = Rec2020ToRec709(Rec709ToRec2020(c));
    const glm::vec3 b = Rec709ToRec2020(Rec2020ToRec709(c));
    const float scale = std::fmax(1.0f, std::fmax(std::fabs(c.x), std::fmax(std::fabs(c.y), std::fabs(c.z))));
    for (int k = 0; k < 3; ++k) {
      ASSERT_NEAR(a[k], c[k], 1e-6f * scale);
      ASSERT_NEAR(b[k], c[k], 1e-6f * scale);
    }
  }
  const glm::vec3 huge = Rec2020ToRec709(glm::vec3(FLT_MAX, -FLT_MAX, FLT_MAX));
  EXPECT_TRUE(ikpd::IsFinite(huge));
}

double FilmicReference(double x, double a, double b, double c, double d, double e) {
  return x * (a * x + b) / (x * (c * x + d) + e);
}

TEST(HdrFilmic, SeedDefaultsAndReferenceValues) {
  const FilmicCoefficients k;
  EXPECT_EQ(k.a, 3.0f);
  EXPECT_EQ(k.b, 0.03f);
  EXPECT_EQ(k.c, 2.43f);
  EXPECT_EQ(k.d, 0.59f);
  EXPECT_EQ(k.e, 0.14f);
  EXPECT_TRUE(k.Validate());
  for (double x : {0.0, 0.01, 0.18, 0.5, 1.0, 1.0001, 2.0, 10.0, 1000.0}) {
    EXPECT_NEAR(Filmic(static_cast<float>(x)), FilmicReference(x, 3.0, 0.03, 2.43, 0.59, 0.14), 1e-6) << x;
  }
}

TEST(HdrFilmic, SdrLimitIsAOverC) {
  const float limit = 3.0f / 2.43f;
  EXPECT_NEAR(Filmic(1e6f), limit, 1e-5f);
  EXPECT_NEAR(Filmic(1e30f), limit, 1e-6f);
  EXPECT_NEAR(Filmic(FLT_MAX), limit, 1e-6f);
  EXPECT_NEAR(Filmic(INFINITY), limit, 1e-6f);
  EXPECT_EQ(Filmic(0.0f), 0.0f);
  EXPECT_EQ(Filmic(-5.0f), 0.0f);
}

TEST(HdrFilmic, HdrVariantConvergesToPeak) {
  for (float peak : {1.0f, 1.5f, 4.0f, 10.0f, 40.0f, 100.0f}) {
    const FilmicCoefficients k = HdrFilmicCoefficients(peak);
    EXPECT_EQ(k.a, 3.0f);
    EXPECT_NEAR(k.c, 3.0f / peak, 1e-7f);
    EXPECT_EQ(k.d, 1.0f);
    EXPECT_TRUE(k.Validate());
    EXPECT_NEAR(HdrCurve(1e7f, peak), peak, 1e-4f * peak);
    EXPECT_NEAR(HdrCurve(FLT_MAX, peak), peak, 1e-5f * peak);
    EXPECT_LT(HdrCurve(1e4f, peak), peak);
  }
}

TEST(HdrFilmic, MonotoneOnZeroTo1e4) {
  for (float peak : {0.0f, 1.5f, 4.0f, 40.0f}) {  // 0 = the SDR curve
    float previous = 0.0f;
    for (int i = 0; i <= 200000; ++i) {
      // Fine steps in [0, 2], then geometric steps up to 1e4.
      const float x = i <= 100000 ? 2.0f * static_cast<float>(i) / 100000.0f
                                  : 2.0f * std::pow(5000.0f, static_cast<float>(i - 100000) / 100000.0f);
      const float y = peak == 0.0f ? Filmic(x) : HdrCurve(x, peak);
      ASSERT_GE(y, previous) << "x = " << x << " peak = " << peak;
      previous = y;
    }
  }
}

TEST(HdrFilmic, CoefficientValidation) {
  auto message = [](FilmicCoefficients k) { return std::string(k.Validate().error ? k.Validate().error : ""); };
  EXPECT_EQ(message({-1.0f, 0.03f, 2.43f, 0.59f, 0.14f}).rfind("a:", 0), 0u);
  EXPECT_EQ(message({3.0f, NAN, 2.43f, 0.59f, 0.14f}).rfind("b:", 0), 0u);
  EXPECT_EQ(message({3.0f, 0.03f, 0.0f, 0.59f, 0.14f}).rfind("c:", 0), 0u);
  EXPECT_EQ(message({3.0f, 0.03f, 2.43f, -0.1f, 0.14f}).rfind("d:", 0), 0u);
  EXPECT_EQ(message({3.0f, 0.03f, 2.43f, 0.59f, 0.0f}).rfind("e:", 0), 0u);
  EXPECT_EQ(message({3.0f, 0.03f, INFINITY, 0.59f, 0.14f}).rfind("c:", 0), 0u);
}

TEST(HdrToneMap, EqualsInputInTheDarks) {
  for (float maxNit : {1.0f, 2.0f, 4.0f, 10.0f, 40.0f, 100.0f}) {
    for (int i = 0; i < 5000; ++i) {
      const float x = 0.5f * static_cast<float>(i) / 5000.0f;
      ASSERT_NEAR(ToneMapHdr(x, maxNit), x, 1e-3f) << x << " " << maxNit;
    }
  }
}

TEST(HdrToneMap, ReachesMaxNitAtOneAndIsMonotone) {
  for (float maxNit : {1.0f, 1.5f, 4.0f, 10.0f, 40.0f}) {
    EXPECT_EQ(ToneMapHdrLinear(1.0f, maxNit), maxNit);
    EXPECT_NEAR(GammaDecode(ToneMapHdr(1.0f, maxNit)), maxNit, 1e-5f * maxNit);
    EXPECT_NEAR(ToneMapHdr(1.0f, maxNit), std::pow(maxNit, 1.0f / 2.2f), 1e-6f * maxNit);
    float previous = 0.0f;
    for (int i = 0; i <= 10000; ++i) {
      const float y = ToneMapHdr(static_cast<float>(i) / 10000.0f, maxNit);
      ASSERT_GE(y, previous);
      previous = y;
    }
    // The reference formula (docs/hdr/hdr.md), literally.
    for (float x : {0.6f, 0.8f, 0.9f, 0.95f, 1.0f}) {
      const float lin = std::pow(x, 2.2f);
      const float rate = std::fmin(std::fmax(std::pow(lin, 10.0f), 0.0f), 1.0f);
      const float seed = std::pow(lin + (lin * maxNit - lin) * rate, 1.0f / 2.2f);
      EXPECT_NEAR(ToneMapHdr(x, maxNit), seed, 2e-6f * seed);
    }
  }
  EXPECT_EQ(ToneMapHdr(-1.0f, 4.0f), 0.0f);
  EXPECT_TRUE(std::isfinite(ToneMapHdr(FLT_MAX, 100.0f)));
}

TEST(HdrTransfer, GammaAndSrgbRoundTripAndReferenceValues) {
  EXPECT_NEAR(SrgbEncode(0.5f), 0.735356983f, 1e-6f);
  EXPECT_NEAR(SrgbEncode(0.0031308f), 0.04045f, 1e-6f);
  EXPECT_NEAR(SrgbEncode(1.0f), 1.0f, 1e-6f);
  EXPECT_NEAR(SrgbDecode(0.735356983f), 0.5f, 1e-6f);
  EXPECT_NEAR(SrgbEncode(4.0f), 1.8250f, 1e-3f);  // extended sRGB: WEB-NOTES 4.0 → 1.825
  EXPECT_NEAR(GammaEncode(0.5f), std::pow(0.5f, 1.0f / 2.2f), 1e-7f);
  EXPECT_NEAR(GammaDecode(0.5f), std::pow(0.5f, 2.2f), 1e-7f);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-20.0f, 20.0f);
  for (int i = 0; i < 5000; ++i) {
    const float x = u(rng);
    const float tolerance = 2e-6f * std::fmax(1.0f, std::fabs(x));
    ASSERT_NEAR(GammaDecode(GammaEncode(x)), x, tolerance);
    ASSERT_NEAR(SrgbDecode(SrgbEncode(x)), x, tolerance);
    ASSERT_EQ(GammaEncode(-x), -GammaEncode(x));
    ASSERT_EQ(SrgbEncode(-x), -SrgbEncode(x));
  }
  EXPECT_TRUE(std::isfinite(GammaDecode(FLT_MAX)));
  EXPECT_TRUE(std::isfinite(SrgbDecode(-FLT_MAX)));
}

TEST(HdrGamut, ExpandGamutLerpsBetweenConvertedAndUnconverted) {
  const glm::vec3 red(1.0f, 0.0f, 0.0f);
  const glm::vec3 converted = Rec709ToRec2020(red);
  const glm::vec3 s0 = ExpandGamut(red, 0.0f);
  const glm::vec3 s1 = ExpandGamut(red, 1.0f);
  const glm::vec3 half = ExpandGamut(red, 0.5f);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(s0[k], converted[k], 1e-7f);
    EXPECT_NEAR(s1[k], red[k], 1e-7f);
    EXPECT_NEAR(half[k], 0.5f * (converted[k] + red[k]), 1e-7f);
  }
  for (float s : {0.0f, 0.3f, 1.0f}) {
    const glm::vec3 gray = ExpandGamut(glm::vec3(0.4f), s);
    EXPECT_NEAR(gray.x, 0.4f, 1e-6f);
    EXPECT_NEAR(gray.y, 0.4f, 1e-6f);
    EXPECT_NEAR(gray.z, 0.4f, 1e-6f);
  }
}

TEST(HdrPaperWhite, NormalizesToPqRange) {
  EXPECT_FLOAT_EQ(NormalizePaperWhite(1.0f, 250.0f), 0.025f);
  EXPECT_FLOAT_EQ(NormalizePaperWhite(4.0f, 250.0f), 0.1f);
  EXPECT_FLOAT_EQ(NormalizePaperWhite(1.0f, 0.25f), 1e-4f);  // baseNit clamped to >= 1
  EXPECT_FLOAT_EQ(NormalizePaperWhite(1.0f, -5.0f), 1e-4f);
}

}  // namespace
