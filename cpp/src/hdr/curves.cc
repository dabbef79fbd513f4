#include "ikpd/hdr/curves.h"

#include <cfloat>
#include <cmath>

namespace ikpd::hdr {
namespace {

constexpr float kGamma = 2.2f;
constexpr float kInvGamma = 1.0f / 2.2f;

// Keeps a finite-input result finite (pow/products can overflow float).
inline float Bounded(float v) { return std::fmin(std::fmax(v, -FLT_MAX), FLT_MAX); }
inline float NonNegative(float x) { return x > 0.0f ? x : 0.0f; }  // NaN → 0 too

glm::vec3 Multiply(const float (&m)[3][3], const glm::vec3& v) {
  return {Bounded(m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z),
          Bounded(m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z),
          Bounded(m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z)};
}

// SMPTE ST 2084 constants.
constexpr double kM1 = 2610.0 / 16384.0;
constexpr double kM2 = 2523.0 / 4096.0 * 128.0;
constexpr double kC1 = 3424.0 / 4096.0;
constexpr double kC2 = 2413.0 / 4096.0 * 32.0;
constexpr double kC3 = 2392.0 / 4096.0 * 32.0;

inline double UnitInDouble(float v) { return v > 0.0f ? (v < 1.0f ? static_cast<double>(v) : 1.0) : 0.0; }

}  // namespace

const float kRec709ToRec2020Matrix[3][3] = {
    {0.627404f, 0.329282f, 0.043314f},
    {0.069097f, 0.919541f, 0.011362f},
    {0.016392f, 0.088013f, 0.895595f},
};
// Inverse of the matrix above, computed in double precision.
const float kRec2020ToRec709Matrix[3][3] = {
    {1.66049027634f, -0.587638454125f, -0.0728518222114f},
    {-0.124549807667f, 1.13289872084f, -0.00834891317722f},
    {-0.0181519039159f, -0.100578102354f, 1.11873000627f},
};

Status FilmicCoefficients::Validate() const {
  if (!IsFinite(a) || a < 0.0f) return Error("a: must be a finite number >= 0");
  if (!IsFinite(b) || b < 0.0f) return Error("b: must be a finite number >= 0");
  if (!IsFinite(c) || !(c > 0.0f)) return Error("c: must be a finite number > 0");
  if (!IsFinite(d) || d < 0.0f) return Error("d: must be a finite number >= 0");
  if (!IsFinite(e) || !(e > 0.0f)) return Error("e: must be a finite number > 0");
  return Ok();
}

FilmicCoefficients HdrFilmicCoefficients(float peak) {
  return {3.0f, 0.03f, 3.0f / peak, 1.0f, 0.14f};
}

namespace {
// The curve in double precision (valid coefficients near the float limits
// overflow float), bounded to float on return.
float FilmicCurve(float xf, double a, double b, double c, double d, double e) {
  if (!(xf > 0.0f)) return 0.0f;
  const double x = xf;
  if (x <= 1.0) return Bounded(static_cast<float>(x * (a * x + b) / (x * (c * x + d) + e)));
  // f = a/c − (q·r − p)·r / (c + (d + e·r)·r) with r = 1/x, p = b − a·d/c,
  // q = a·e/c: the same curve, free of overflow and monotone in rounding near
  // the limit (the small correction carries the change).
  const double r = 1.0 / x;
  const double limit = a / c;
  const double p = b - limit * d;
  const double q = limit * e;
  const double correction = (q * r - p) * r / (c + (d + e * r) * r);
  // When the correction is comparable to the limit (tiny c: a huge limit still
  // far away) the subtraction cancels catastrophically (it gave -3e23 for a
  // curve worth 11): use the direct quotient, which cannot overflow in double
  // for float inputs.
  if (std::fabs(correction) > 0.5 * limit) {
    return Bounded(static_cast<float>(x * (a * x + b) / (x * (c * x + d) + e)));
  }
  return Bounded(static_cast<float>(limit - correction));
}
}  // namespace

float Filmic(float x, const FilmicCoefficients& k) { return FilmicCurve(x, k.a, k.b, k.c, k.d, k.e); }
glm::vec3 Filmic(const glm::vec3& rgb, const FilmicCoefficients& k) {
  return {Filmic(rgb.x, k), Filmic(rgb.y, k), Filmic(rgb.z, k)};
}

float HdrCurve(float x, float peak) { return FilmicCurve(x, 3.0, 0.03, 3.0 / static_cast<double>(peak), 1.0, 0.14); }
glm::vec3 HdrCurve(const glm::vec3& rgb, float peak) {
  return {HdrCurve(rgb.x, peak), HdrCurve(rgb.y, peak), HdrCurve(rgb.z, peak)};
}

float ToneMapHdrLinear(float linear, float maxNit) {
  const float x = NonNegative(linear);
  const float x2 = x * x;
  const float x4 = x2 * x2;
  const float rate = std::fmin(x4 * x4 * x2, 1.0f);  // saturate(x^10)
  return Bounded(x + (x * maxNit - x) * rate);       // lerp(x, x·maxNit, rate)
}
float ToneMapHdr(float x, float maxNit) {
  return GammaEncode(ToneMapHdrLinear(GammaDecode(NonNegative(x)), maxNit));
}
glm::vec3 ToneMapHdr(const glm::vec3& rgb, float maxNit) {
  return {ToneMapHdr(rgb.x, maxNit), ToneMapHdr(rgb.y, maxNit), ToneMapHdr(rgb.z, maxNit)};
}

float GammaEncode(float x) { return x >= 0.0f ? std::pow(x, kInvGamma) : -std::pow(-x, kInvGamma); }
float GammaDecode(float x) { return Bounded(x >= 0.0f ? std::pow(x, kGamma) : -std::pow(-x, kGamma)); }
glm::vec3 GammaEncode(const glm::vec3& v) { return {GammaEncode(v.x), GammaEncode(v.y), GammaEncode(v.z)}; }
glm::vec3 GammaDecode(const glm::vec3& v) { return {GammaDecode(v.x), GammaDecode(v.y), GammaDecode(v.z)}; }

float SrgbEncode(float x) {
  const float a = std::fabs(x);
  const float y = a <= 0.0031308f ? 12.92f * a : 1.055f * std::pow(a, 1.0f / 2.4f) - 0.055f;
  return x < 0.0f ? -y : y;
}
float SrgbDecode(float x) {
  const float a = std::fabs(x);
  const float y = a <= 0.04045f ? a / 12.92f : std::pow((a + 0.055f) / 1.055f, 2.4f);
  return Bounded(x < 0.0f ? -y : y);
}
glm::vec3 SrgbEncode(const glm::vec3& v) { return {SrgbEncode(v.x), SrgbEncode(v.y), SrgbEncode(v.z)}; }
glm::vec3 SrgbDecode(const glm::vec3& v) { return {SrgbDecode(v.x), SrgbDecode(v.y), SrgbDecode(v.z)}; }

glm::vec3 Rec709ToRec2020(const glm::vec3& rgb) { return Multiply(kRec709ToRec2020Matrix, rgb); }
glm::vec3 Rec2020ToRec709(const glm::vec3& rgb) { return Multiply(kRec2020ToRec709Matrix, rgb); }

glm::vec3 ExpandGamut(const glm::vec3& rgb709, float saturation) {
  const glm::vec3 rgb2020 = Rec709ToRec2020(rgb709);
  // a·(1 − s) + b·s (as GLSL/WGSL mix): exact at s = 0 and s = 1, which keeps
  // dark channels next to bright ones exact through PQ's steep toe.
  return rgb2020 * (1.0f - saturation) + rgb709 * saturation;
}

float NormalizePaperWhite(float x, float paperWhite) {
  return x * (std::fmax(paperWhite, 1.0f) / 10000.0f);
}
glm::vec3 NormalizePaperWhite(const glm::vec3& rgb, float paperWhite) {
  return {NormalizePaperWhite(rgb.x, paperWhite), NormalizePaperWhite(rgb.y, paperWhite),
          NormalizePaperWhite(rgb.z, paperWhite)};
}

float LinearToPq(float y) {
  const double p = std::pow(UnitInDouble(y), kM1);
  return static_cast<float>(std::pow((kC1 + kC2 * p) / (1.0 + kC3 * p), kM2));
}
float PqToLinear(float e) {
  const double p = std::pow(UnitInDouble(e), 1.0 / kM2);
  const double numerator = p > kC1 ? p - kC1 : 0.0;
  return static_cast<float>(std::pow(numerator / (kC2 - kC3 * p), 1.0 / kM1));
}
glm::vec3 LinearToPq(const glm::vec3& y) { return {LinearToPq(y.x), LinearToPq(y.y), LinearToPq(y.z)}; }
glm::vec3 PqToLinear(const glm::vec3& e) { return {PqToLinear(e.x), PqToLinear(e.y), PqToLinear(e.z)}; }

}  // namespace ikpd::hdr
