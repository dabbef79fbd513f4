// ikpd::hdr output transform, settings validation, PixelJob and calibration image.
#include <cfloat>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ikpd/ikpd.h"
#include "native/status_test_util.h"

namespace {

using namespace ikpd::hdr;

bool StartsWith(ikpd::Status s, const char* prefix) {
  return s.error != nullptr && std::string(s.error).rfind(prefix, 0) == 0;
}

OutputSettings Settings(float paperWhite, float peak, float saturation) {
  OutputSettings s;
  s.paperWhite = paperWhite;
  s.peak = peak;
  s.saturation = saturation;
  return s;
}

TEST(HdrSettings, DefaultsAreValid) {
  const OutputSettings s;
  EXPECT_EQ(s.paperWhite, 250.0f);
  EXPECT_EQ(s.peak, 1000.0f);
  EXPECT_EQ(s.saturation, 0.0f);
  EXPECT_TRUE(s.Validate());
}

TEST(HdrSettings, BadSettingsGiveClearErrors) {
  for (float pw : {0.0f, -1.0f, 0.5f, NAN, INFINITY, 20000.0f}) {
    EXPECT_TRUE(StartsWith(Settings(pw, 1000.0f, 0.0f).Validate(), "paperWhite:")) << pw;
  }
  for (float peak : {100.0f, 249.0f, NAN, INFINITY, -1.0f, 10001.0f}) {
    EXPECT_TRUE(StartsWith(Settings(250.0f, peak, 0.0f).Validate(), "peak:")) << peak;
  }
  for (float s : {-0.01f, 1.01f, NAN, INFINITY}) {
    EXPECT_TRUE(StartsWith(Settings(250.0f, 1000.0f, s).Validate(), "saturation:")) << s;
  }
  EXPECT_TRUE(Settings(250.0f, 250.0f, 1.0f).Validate());  // peak == paper white: SDR-like
  EXPECT_TRUE(Settings(1.0f, 10000.0f, 0.0f).Validate());
  OutputSettings bad;
  bad.input = static_cast<Input>(7);
  EXPECT_TRUE(StartsWith(bad.Validate(), "input:"));
  bad = OutputSettings{};
  bad.encoding = static_cast<Encoding>(9);
  EXPECT_TRUE(StartsWith(bad.Validate(), "encoding:"));
}

// The output conversion after the UI pass, literally, with every gamma step
// (display-referred input: no tone map).
glm::vec3 OutputConversion(glm::vec3 display, const OutputSettings& s) {
  const glm::vec3 linear = glm::clamp(GammaDecode(display), 0.0f, s.peak / s.paperWhite);
  const glm::vec3 rec2020 = Rec709ToRec2020(linear);
  const glm::vec3 expanded = glm::mix(rec2020, linear, s.saturation);
  return LinearToPq(NormalizePaperWhite(expanded, s.paperWhite));
}

// The whole frame: SDR filmic → gamma encode → production HDR tone map → (UI) → output conversion.
glm::vec3 SceneChain(glm::vec3 scene, const OutputSettings& s) {
  const glm::vec3 sdr = GammaEncode(glm::clamp(Filmic(scene), 0.0f, 1.0f));
  return OutputConversion(ToneMapHdr(sdr, s.peak / s.paperWhite), s);
}

TEST(HdrOutput, MatchesTheSeedChainStepByStep) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int i = 0; i < 3000; ++i) {
    OutputSettings s = Settings(50.0f + 400.0f * u(rng), 0.0f, u(rng));
    s.peak = s.paperWhite + (10000.0f - s.paperWhite) * u(rng) * u(rng);
    s.input = Input::kDisplay;
    // Display values up to a little beyond the peak (clamped there) and a little below 0.
    const float top = 1.1f * GammaEncode(s.peak / s.paperWhite);
    const glm::vec3 c(top * u(rng) - 0.05f, top * u(rng), top * u(rng));
    const glm::vec3 expected = OutputConversion(c, s);
    const glm::vec3 actual = OutputTransform(c, s);
    for (int k = 0; k < 3; ++k) ASSERT_NEAR(actual[k], expected[k], 2e-6f) << i;
    // Scene input = SDR filmic and the production tone map, then the same conversion.
    s.input = Input::kScene;
    const glm::vec3 scene(8.0f * u(rng), 8.0f * u(rng), 8.0f * u(rng));
    const glm::vec3 viaDisplay = SceneChain(scene, s);
    const glm::vec3 direct = OutputTransform(scene, s);
    for (int k = 0; k < 3; ++k) ASSERT_NEAR(direct[k], viaDisplay[k], 2e-6f) << i;
  }
}

TEST(HdrOutput, DisplayWhiteIsPaperWhiteAndSceneHighlightsReachPeak) {
  OutputSettings s = Settings(250.0f, 1000.0f, 0.0f);
  s.input = Input::kDisplay;
  // A white UI pixel after the UI pass: paper white (250 nit), not the peak.
  const glm::vec3 white = OutputTransform(glm::vec3(1.0f), s);
  EXPECT_NEAR(white.x, LinearToPq(0.025f), 1e-6f);
  EXPECT_NEAR(white.y, white.x, 1e-6f);
  const glm::vec3 gray = OutputTransform(glm::vec3(0.4f), s);
  EXPECT_NEAR(gray.x, LinearToPq(std::pow(0.4f, 2.2f) * 250.0f / 10000.0f), 1e-5f);
  EXPECT_NEAR(OutputTransform(glm::vec3(0.0f), s).x, LinearToPq(0.0f), 1e-9f);
  // The tone-mapped highlight gammaEncode(peak / paperWhite) is the peak; beyond it is clamped.
  EXPECT_NEAR(OutputTransform(glm::vec3(GammaEncode(4.0f)), s).x, LinearToPq(0.1f), 1e-6f);
  EXPECT_NEAR(OutputTransform(glm::vec3(1e30f), s).x, LinearToPq(0.1f), 1e-6f);
  s.input = Input::kScene;
  EXPECT_NEAR(OutputTransform(glm::vec3(1e9f), s).x, LinearToPq(0.1f), 1e-6f);
  s.encoding = Encoding::kExtended;
  EXPECT_NEAR(OutputTransform(glm::vec3(1e9f), s).x, 4.0f, 1e-5f);
  s.input = Input::kDisplay;
  EXPECT_NEAR(OutputTransform(glm::vec3(1.0f), s).y, 1.0f, 1e-6f);
  EXPECT_NEAR(OutputTransform(glm::vec3(0.4f), s).z, std::pow(0.4f, 2.2f), 1e-5f);
  EXPECT_NEAR(OutputTransform(glm::vec3(GammaEncode(4.0f)), s).x, 4.0f, 1e-5f);
}

TEST(HdrOutput, ExtendedIsThePqColorInRec709) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int i = 0; i < 2000; ++i) {
    OutputSettings s = Settings(80.0f + 300.0f * u(rng), 0.0f, u(rng));
    s.peak = s.paperWhite * (1.0f + 9.0f * u(rng));
    s.input = i % 2 ? Input::kScene : Input::kDisplay;
    const glm::vec3 c(3.0f * u(rng), 3.0f * u(rng), 3.0f * u(rng));
    s.encoding = Encoding::kExtended;
    const glm::vec3 extended = OutputTransform(c, s);
    s.encoding = Encoding::kPq;
    const glm::vec3 pq = OutputTransform(c, s);
    const glm::vec3 viaExtended = LinearToPq(NormalizePaperWhite(Rec709ToRec2020(extended), s.paperWhite));
    for (int k = 0; k < 3; ++k) ASSERT_NEAR(viaExtended[k], pq[k], 2e-5f);
  }
}

TEST(HdrOutput, SaturationChangesOnlyChromaticColors) {
  OutputSettings s = Settings(250.0f, 1000.0f, 0.0f);
  const glm::vec3 gray0 = OutputTransform(glm::vec3(0.5f), s);
  const glm::vec3 red0 = OutputTransform(glm::vec3(0.5f, 0.05f, 0.05f), s);
  s.saturation = 1.0f;
  const glm::vec3 gray1 = OutputTransform(glm::vec3(0.5f), s);
  const glm::vec3 red1 = OutputTransform(glm::vec3(0.5f, 0.05f, 0.05f), s);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(gray0[k], gray1[k], 1e-6f);
  EXPECT_GT(red1.x - red1.y, red0.x - red0.y);  // more saturated in Rec.2020
}

TEST(HdrOutput, FiniteForAnyFiniteInput) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> e(-38.0f, 38.0f);
  std::uniform_int_distribution<int> sign(0, 1);
  for (int i = 0; i < 5000; ++i) {
    glm::vec3 c;
    for (int k = 0; k < 3; ++k) c[k] = (sign(rng) ? -1.0f : 1.0f) * std::pow(10.0f, e(rng));
    OutputSettings s = Settings(250.0f, 4000.0f, 0.5f);
    s.input = i % 2 ? Input::kScene : Input::kDisplay;
    const glm::vec3 pq = OutputTransform(c, s);
    s.encoding = Encoding::kExtended;
    const glm::vec3 ext = OutputTransform(c, s);
    ASSERT_TRUE(ikpd::IsFinite(pq) && ikpd::IsFinite(ext));
    for (int k = 0; k < 3; ++k) {
      ASSERT_GE(pq[k], 0.0f);
      ASSERT_LE(pq[k], LinearToPq(0.4f) + 1e-6f);  // never above the peak
    }
  }
}

TEST(HdrPixelJob, MatchesScalarFunctionsAndKeepsAlpha) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> u(0.0f, 2.0f);
  std::vector<float> rgba(4 * 257);
  for (float& v : rgba) v = u(rng);
  for (int op = 0; op < kOperationCount; ++op) {
    PixelJob job;
    job.operation = static_cast<Operation>(op);
    job.parameter = job.operation == Operation::kExpandGamut ? 0.25f
                    : job.operation == Operation::kNormalizePaperWhite ? 300.0f : 3.0f;
    std::vector<float> pixels = rgba;
    job.pixels = pixels.data();
    job.pixelCount = 257;
    job.channels = 4;
    ASSERT_TRUE(job.Run()) << op;
    for (std::size_t i = 0; i < 257; ++i) {
      const glm::vec3 c(rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]);
      glm::vec3 expected;
      switch (job.operation) {
        case Operation::kFilmic: expected = Filmic(c); break;
        case Operation::kHdrCurve: expected = HdrCurve(c, 3.0f); break;
        case Operation::kToneMapHdr: expected = ToneMapHdr(c, 3.0f); break;
        case Operation::kGammaEncode: expected = GammaEncode(c); break;
        case Operation::kGammaDecode: expected = GammaDecode(c); break;
        case Operation::kSrgbEncode: expected = SrgbEncode(c); break;
        case Operation::kSrgbDecode: expected = SrgbDecode(c); break;
        case Operation::kRec709ToRec2020: expected = Rec709ToRec2020(c); break;
        case Operation::kRec2020ToRec709: expected = Rec2020ToRec709(c); break;
        case Operation::kExpandGamut: expected = ExpandGamut(c, 0.25f); break;
        case Operation::kNormalizePaperWhite: expected = NormalizePaperWhite(c, 300.0f); break;
        case Operation::kLinearToPq: expected = LinearToPq(c); break;
        case Operation::kPqToLinear: expected = PqToLinear(c); break;
        case Operation::kOutputTransform: expected = OutputTransform(c, job.settings); break;
      }
      for (int k = 0; k < 3; ++k) ASSERT_EQ(pixels[4 * i + k], expected[k]) << op << " " << i;
      ASSERT_EQ(pixels[4 * i + 3], rgba[4 * i + 3]);
    }
  }
}

TEST(HdrPixelJob, ScalarAndRgbLayouts) {
  std::vector<float> values = {0.0f, 0.5f, 1.0f, 4.0f, 100.0f};
  PixelJob job;
  job.operation = Operation::kFilmic;
  job.pixels = values.data();
  job.pixelCount = values.size();
  job.channels = 1;
  ASSERT_TRUE(job.Run());
  EXPECT_EQ(values[3], Filmic(4.0f));
  std::vector<float> rgb = {1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};
  job.operation = Operation::kRec709ToRec2020;
  job.pixels = rgb.data();
  job.pixelCount = 2;
  job.channels = 3;
  ASSERT_TRUE(job.Run());
  EXPECT_FLOAT_EQ(rgb[0], 0.627404f);
  EXPECT_FLOAT_EQ(rgb[4], 0.919541f);
  job.pixelCount = 0;
  job.pixels = nullptr;
  EXPECT_TRUE(job.Run());  // empty buffer: nothing to do
}

TEST(HdrPixelJob, ErrorsLeavePixelsUntouched) {
  std::vector<float> pixels = {0.5f, 0.5f, 0.5f, 1.0f, NAN, 0.2f, 0.2f, 1.0f};
  const std::vector<float> before = pixels;
  PixelJob job;
  job.pixels = pixels.data();
  job.pixelCount = 2;
  EXPECT_TRUE(StartsWith(job.Run(), "pixels:"));
  EXPECT_EQ(pixels[0], before[0]);
  pixels[4] = 0.1f;
  pixels[7] = NAN;  // alpha is not processed, so not checked
  EXPECT_TRUE(job.Run());
  job.channels = 2;
  EXPECT_TRUE(StartsWith(job.Run(), "channels:"));
  job.channels = 1;
  EXPECT_TRUE(StartsWith(job.Run(), "channels:"));  // output transform needs colors
  job.channels = 4;
  job.settings.peak = 10.0f;
  EXPECT_TRUE(StartsWith(job.Run(), "peak:"));
  job.settings = OutputSettings{};
  job.operation = Operation::kToneMapHdr;
  job.parameter = 0.5f;
  EXPECT_TRUE(StartsWith(job.Run(), "maxNit:"));
  job.operation = Operation::kHdrCurve;
  job.parameter = 0.0f;
  EXPECT_TRUE(StartsWith(job.Run(), "peak:"));
  job.operation = Operation::kExpandGamut;
  job.parameter = 2.0f;
  EXPECT_TRUE(StartsWith(job.Run(), "saturation:"));
  job.operation = Operation::kNormalizePaperWhite;
  job.parameter = NAN;
  EXPECT_TRUE(StartsWith(job.Run(), "paperWhite:"));
  job.operation = Operation::kFilmic;
  job.filmic.e = 0.0f;
  EXPECT_TRUE(StartsWith(job.Run(), "e:"));
  job.operation = static_cast<Operation>(99);
  EXPECT_TRUE(StartsWith(job.Run(), "operation:"));
  job.operation = Operation::kGammaEncode;
  job.pixels = nullptr;
  EXPECT_TRUE(StartsWith(job.Run(), "pixels:"));
}

TEST(HdrCalibration, PatchesAndPixels) {
  for (Encoding encoding : {Encoding::kExtended, Encoding::kPq}) {
    CalibrationImageJob job;
    job.width = 200;
    job.height = 100;
    job.paperWhite = 200.0f;
    job.peak = 1600.0f;
    job.encoding = encoding;
    std::vector<float> pixels(4 * 200 * 100, -1.0f);
    CalibrationPatch patches[kCalibrationPatchCount];
    job.pixels = pixels.data();
    job.patches = patches;
    ASSERT_TRUE(job.Run());
    auto value = [&](float nits) {
      return encoding == Encoding::kExtended ? nits / 200.0f : LinearToPq(nits / 10000.0f);
    };
    EXPECT_STREQ(patches[3].name, "paperWhite");
    EXPECT_EQ(patches[3].nits, 200.0f);
    EXPECT_STREQ(patches[1].name, "midGray");
    EXPECT_FLOAT_EQ(patches[1].nits, 36.0f);
    EXPECT_STREQ(patches[4].name, "ramp0");
    EXPECT_FLOAT_EQ(patches[4].nits, 200.0f);
    EXPECT_STREQ(patches[9].name, "ramp5");
    EXPECT_FLOAT_EQ(patches[9].nits, 1600.0f);
    EXPECT_FLOAT_EQ(patches[6].nits, 200.0f * std::pow(8.0f, 0.4f));
    EXPECT_STREQ(patches[10].name, "peakBackground");
    EXPECT_EQ(patches[10].nits, 10000.0f);
    EXPECT_STREQ(patches[11].name, "peak");
    EXPECT_EQ(patches[11].nits, 1600.0f);
    for (const CalibrationPatch& p : patches) {
      EXPECT_FLOAT_EQ(p.value, value(p.nits)) << p.name;
      ASSERT_GT(p.width, 0);
      ASSERT_GT(p.height, 0);
      ASSERT_LE(p.x + p.width, 200);
      ASSERT_LE(p.y + p.height, 100);
      // A corner pixel: the center of peakBackground is covered by peak.
      const float* center = &pixels[4 * ((p.y + 1) * 200 + p.x + 1)];
      EXPECT_EQ(center[0], p.value) << p.name;
      EXPECT_EQ(center[2], p.value);
      EXPECT_EQ(center[3], 1.0f);
    }
    EXPECT_EQ(pixels[0], 0.0f);  // black surround
    EXPECT_EQ(pixels[3], 1.0f);
    for (float v : pixels) ASSERT_TRUE(std::isfinite(v) && v >= 0.0f);
  }
}

TEST(HdrCalibration, Validation) {
  std::vector<float> pixels(4 * 64 * 64);
  CalibrationImageJob job;
  job.width = 64;
  job.height = 64;
  job.pixels = pixels.data();
  EXPECT_TRUE(job.Run());
  job.width = 8;
  EXPECT_TRUE(StartsWith(job.Run(), "width:"));
  job.width = 64;
  job.height = 5000;
  EXPECT_TRUE(StartsWith(job.Run(), "height:"));
  job.height = 64;
  job.paperWhite = 0.0f;
  EXPECT_TRUE(StartsWith(job.Run(), "paperWhite:"));
  job.paperWhite = 300.0f;
  job.peak = 200.0f;
  EXPECT_TRUE(StartsWith(job.Run(), "peak:"));
  job.peak = 1000.0f;
  job.pixels = nullptr;
  EXPECT_TRUE(StartsWith(job.Run(), "pixels:"));
}

}  // namespace
