// ikpd::hdr — the complete HDR output transform with the three user settings,
// and a job that applies any hdr curve to a whole RGB/RGBA float buffer.
#pragma once

#include <cstddef>
#include <cstdint>

#include <glm/vec3.hpp>

#include "ikpd/common.h"
#include "ikpd/hdr/curves.h"

namespace ikpd::hdr {

// What the input of OutputTransform is.
enum class Input : std::uint8_t {
  kScene = 0,    // linear scene-referred Rec.709: the SDR filmic curve is applied first
  kDisplay = 1,  // display-referred, gamma-2.2 encoded, already tone-mapped (SDR filmic, then
                 // ToneMapHdr with maxNit = peak / paperWhite) with the UI drawn on top: 1.0 is
                 // paper white, gammaEncode(peak / paperWhite) the peak. No tone map is applied.
};

// What OutputTransform produces.
enum class Encoding : std::uint8_t {
  kPq = 0,        // the HDR10 signal: Rec.2020 primaries, PQ-encoded, in [0, 1]
  kExtended = 1,  // linear extended Rec.709/sRGB, 1.0 = paper white (WebGPU 'extended' canvas)
};

// The three user settings (docs/hdr/hdr.md) plus the input/output conventions.
struct OutputSettings {
  float paperWhite = 250.0f;  // nits of SDR white; finite, in [1, 10000]
  float peak = 1000.0f;       // display peak in nits; finite, in [paperWhite, 10000]
  float saturation = 0.0f;    // gamut expansion, in [0, 1] (0 = colorimetric Rec.709 look)
  Input input = Input::kScene;
  Encoding encoding = Encoding::kPq;
  // Checks every field against the ranges above; the message names the field.
  Status Validate() const;
};

// The output chain of docs/hdr/hdr.md. Input kScene runs the whole frame:
// SDR filmic (clamped to [0, 1]) → production HDR tone map with maxNit =
// peak / paperWhite → the output conversion. Input kDisplay is the buffer after
// the UI pass and gets only the output conversion, so a UI pixel of 1.0 lands
// at paper white: gamma 2.2 decode (clamped to [0, peak / paperWhite]) →
// Rec.709→Rec.2020 → saturation lerp → paper white (·paperWhite/10000) → PQ.
// Gamma pairs that cancel exactly are skipped. kExtended stops before paper
// white and returns the same color in linear Rec.709 (1.0 = paper white, peak
// at peak / paperWhite; wide-gamut colors may be negative). Hence
// OutputTransform(c, scene) == OutputTransform(ToneMapHdr(GammaEncode(
// Filmic(c)), peak / paperWhite), display) up to float rounding.
// `settings` must be valid (Validate()).
glm::vec3 OutputTransform(const glm::vec3& rgb, const OutputSettings& settings);

// Which transform a PixelJob applies.
enum class Operation : std::uint8_t {
  kFilmic = 0,           // per channel, `filmic`
  kHdrCurve,             // per channel, parameter = peak (> 0)
  kToneMapHdr,           // per channel, parameter = maxNit (>= 1)
  kGammaEncode,          // per channel
  kGammaDecode,          // per channel
  kSrgbEncode,           // per channel
  kSrgbDecode,           // per channel
  kRec709ToRec2020,      // color (3 or 4 channels)
  kRec2020ToRec709,      // color
  kExpandGamut,          // color, parameter = saturation in [0, 1]
  kNormalizePaperWhite,  // per channel, parameter = paperWhite in [1, 10000]
  kLinearToPq,           // per channel
  kPqToLinear,           // per channel
  kOutputTransform,      // color, `settings`
};
constexpr int kOperationCount = 14;

// Applies `operation` in place to `pixelCount` interleaved pixels of
// `channels` floats (1 = scalars, 3 = RGB, 4 = RGBA with alpha untouched).
// Validate() checks the parameters and that every processed value is finite;
// Run() validates first and leaves the pixels untouched on error.
struct PixelJob {
  Operation operation = Operation::kOutputTransform;
  FilmicCoefficients filmic;  // kFilmic
  float parameter = 1.0f;     // kHdrCurve, kToneMapHdr, kExpandGamut, kNormalizePaperWhite
  OutputSettings settings;    // kOutputTransform
  float* pixels = nullptr;
  std::size_t pixelCount = 0;
  int channels = 4;
  // Checks the operation, channels, parameter and that every processed value is finite.
  Status Validate() const;
  // Validates, then transforms the pixels in place; on error they are untouched.
  Status Run() const;
};

}  // namespace ikpd::hdr
