// ikpd::hdr — tone curves, transfer functions and gamut conversions for HDR
// output (docs/hdr/hdr.md). Plain math on floats and glm::vec3, defined for
// every finite input (no NaN/Inf out); no allocation, no validation (the jobs
// in output.h validate). Units: linear "relative" values have 1.0 = paper
// (SDR) white; "display" values are gamma-2.2 encoded relative values; PQ
// works on Y = nits / 10000.
#pragma once

#include <glm/vec3.hpp>

#include "ikpd/common.h"

namespace ikpd::hdr {

// Coefficients of the ACES-filmic-style curve f(x) = x(ax+b)/(x(cx+d)+e).
// Defaults are the reference SDR curve (limit a/c ≈ 1.2346 as x → ∞).
struct FilmicCoefficients {
  float a = 3.0f;
  float b = 0.03f;
  float c = 2.43f;
  float d = 0.59f;
  float e = 0.14f;
  // a, b, d finite and >= 0; c, e finite and > 0 (so the denominator never
  // vanishes for x >= 0). The curve stays below its limit a/c when b·c <= a·d
  // (true for the defaults); otherwise it overshoots a/c, then falls back to it.
  Status Validate() const;
};

// The HDR variant converging to `peak` (relative, 1.0 = SDR white):
// a = 3, b = 0.03, c = a / peak, d = 1, e = 0.14. Requires peak > 0 (c is
// infinite for peak below ~1e-38; HdrCurve computes c in double instead).
FilmicCoefficients HdrFilmicCoefficients(float peak);

// The filmic curve (computed in double); x < 0 is treated as 0. Huge x gives
// the limit a/c; results beyond the float range are clamped, never NaN/Inf.
float Filmic(float x, const FilmicCoefficients& k = {});
glm::vec3 Filmic(const glm::vec3& rgb, const FilmicCoefficients& k = {});

// Filmic with HdrFilmicCoefficients(peak): converges to peak; monotone and
// below peak for peak >= 0.03 (= b/d; below that it overshoots peak slightly).
float HdrCurve(float x, float peak);
glm::vec3 HdrCurve(const glm::vec3& rgb, float peak);

// The production HDR tone map, applied to display (gamma-2.2 encoded)
// values after the SDR tone map: lin = x^2.2; rate = lin^10;
// lin = lerp(lin, lin·maxNit, saturate(rate)); return lin^(1/2.2).
// Equal to x in the darks, gammaEncode(maxNit) at x = 1; x < 0 is treated as 0.
float ToneMapHdr(float x, float maxNit);
glm::vec3 ToneMapHdr(const glm::vec3& rgb, float maxNit);
// The same in the linear domain (input and output linear relative values).
float ToneMapHdrLinear(float linear, float maxNit);

// Pure gamma 2.2 (the "sRGB" OETF of docs/hdr/hdr.md): sign(x)·|x|^(1/2.2) and its inverse.
// Odd extensions, so negative (out-of-gamut) values round-trip.
float GammaEncode(float x);
float GammaDecode(float x);
glm::vec3 GammaEncode(const glm::vec3& rgb);
glm::vec3 GammaDecode(const glm::vec3& rgb);

// The piecewise IEC 61966-2-1 sRGB transfer function and its inverse, as
// extended sRGB does it: odd extension for negatives, unbounded above 1.
float SrgbEncode(float x);
float SrgbDecode(float x);
glm::vec3 SrgbEncode(const glm::vec3& rgb);
glm::vec3 SrgbDecode(const glm::vec3& rgb);

// The reference Rec.709 → Rec.2020 matrix (rows, docs/hdr/hdr.md; ITU-R BT.2087 rounded
// to 6 digits) and its exact inverse (computed in double from those values).
extern const float kRec709ToRec2020Matrix[3][3];
extern const float kRec2020ToRec709Matrix[3][3];
glm::vec3 Rec709ToRec2020(const glm::vec3& rgb);
glm::vec3 Rec2020ToRec709(const glm::vec3& rgb);

// The gamut "saturation": lerp(Rec709ToRec2020(rgb), rgb, saturation),
// a Rec.2020 color. 0 keeps the Rec.709 look, 1 stretches it to Rec.2020.
glm::vec3 ExpandGamut(const glm::vec3& rgb709, float saturation);

// Paper-white normalization: x · max(paperWhite, 1) / 10000 (relative → PQ's Y).
float NormalizePaperWhite(float x, float paperWhite);
glm::vec3 NormalizePaperWhite(const glm::vec3& rgb, float paperWhite);

// SMPTE ST 2084 (PQ) inverse EOTF of Y = nits / 10000 (clamped to [0, 1]),
// and the EOTF of a signal E (clamped to [0, 1]). Computed in double.
float LinearToPq(float y);
float PqToLinear(float e);
glm::vec3 LinearToPq(const glm::vec3& y);
glm::vec3 PqToLinear(const glm::vec3& e);

}  // namespace ikpd::hdr
