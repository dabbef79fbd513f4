// Fuzzes the HDR curves one value at a time (docs/hdr/hdr.md; hdr_fuzz.cc covers
// PixelJob and the calibration image): every curve is finite for finite input
// and stays in its documented range (filmic in [0, a/c], HdrCurve in [0, peak],
// PQ in [0, 1]), gamma/sRGB/PQ round-trip, invalid coefficients and settings
// give named errors.
#include "fuzz.h"

using namespace ikpd;
using namespace ikpd::fuzz;
using namespace ikpd::hdr;

namespace {

FilmicCoefficients RandomFilmic(ikpd::fuzz::Input& in) {
  FilmicCoefficients k;
  if (in.Bool()) {
    k.a = in.Bool() ? in.Range(0.0f, 10.0f) : in.MaybeNonFinite();
    k.b = in.Bool() ? in.Range(0.0f, 1.0f) : in.MaybeNonFinite();
    k.c = in.Bool() ? in.Range(0.0f, 10.0f) : in.MaybeNonFinite();
    k.d = in.Bool() ? in.Range(0.0f, 2.0f) : in.MaybeNonFinite();
    k.e = in.Bool() ? in.Range(0.0f, 1.0f) : in.MaybeNonFinite();
  }
  return k;
}

OutputSettings RandomSettings(ikpd::fuzz::Input& in) {
  OutputSettings s;
  if (in.Bool()) s.paperWhite = in.Bool() ? in.Range(1.0f, 10000.0f) : in.MaybeNonFinite();
  if (in.Bool()) s.peak = in.Bool() ? in.Range(s.paperWhite, 10000.0f) : in.MaybeNonFinite();
  if (in.Bool()) s.saturation = in.Bool() ? in.Range(0.0f, 1.0f) : in.MaybeNonFinite();
  s.input = static_cast<hdr::Input>(in.Int(0, in.Int(0, 15) == 0 ? 2 : 1));
  s.encoding = static_cast<Encoding>(in.Int(0, in.Int(0, 15) == 0 ? 2 : 1));
  return s;
}

void CheckCurves(ikpd::fuzz::Input& in) {
  const float x = in.Float();
  const glm::vec3 rgb = in.Vec3();
  const FilmicCoefficients k = RandomFilmic(in);
  if (k.Validate().ok()) {
    const float y = Filmic(x, k);
    FUZZ_CHECK(std::isfinite(y) && y >= 0.0f, "Filmic(%.9g) = %g with a %.9g b %.9g c %.9g d %.9g e %.9g", double(x), double(y),
               double(k.a), double(k.b), double(k.c), double(k.d), double(k.e));
    // f(x) − a/c has the sign of x(bc − ad) − ae: bounded by the limit a/c when bc <= ad.
    if (double(k.b) * k.c <= double(k.a) * k.d) {
      FUZZ_CHECK(y <= k.a / k.c * 1.0001f + 1e-6f, "Filmic(%g) = %g above a/c", double(x), double(y));
    }
    FUZZ_CHECK(Finite(Filmic(rgb, k)), "Filmic(rgb) not finite");
  } else {
    FUZZ_CHECK(NamesParameter(k.Validate()), "%s", k.Validate().error);
  }
  const float peak = in.Range(1e-3f, 1e4f);
  const float h = HdrCurve(x, peak);
  FUZZ_CHECK(std::isfinite(h) && h >= 0.0f, "HdrCurve(%g, %g) = %g", double(x), double(peak), double(h));
  // With b = 0.03, d = 1 the curve stays below its limit `peak` when peak >= b/d.
  if (peak >= 0.03f) FUZZ_CHECK(h <= peak * 1.0001f, "HdrCurve(%g, %g) = %g above peak", double(x), double(peak), double(h));
  const float max_nit = in.Range(1.0f, 1e4f);
  FUZZ_CHECK(std::isfinite(ToneMapHdr(x, max_nit)) && std::isfinite(ToneMapHdrLinear(x, max_nit)) &&
                 Finite(ToneMapHdr(rgb, max_nit)),
             "ToneMapHdr(%g, %g) not finite", double(x), double(max_nit));
  FUZZ_CHECK(std::isfinite(GammaEncode(x)) && std::isfinite(GammaDecode(x)) && std::isfinite(SrgbEncode(x)) &&
                 std::isfinite(SrgbDecode(x)),
             "gamma of %g not finite", double(x));
  FUZZ_CHECK(Finite(GammaEncode(rgb), GammaDecode(rgb), SrgbEncode(rgb), SrgbDecode(rgb)), "gamma(rgb) not finite");
  // Round trips where float has the precision for them.
  if (std::fabs(x) <= 1e3f) {
    FUZZ_CHECK(std::fabs(GammaDecode(GammaEncode(x)) - x) <= 1e-4f * std::max(1.0f, std::fabs(x)), "gamma round trip %g",
               double(x));
    FUZZ_CHECK(std::fabs(SrgbDecode(SrgbEncode(x)) - x) <= 1e-4f * std::max(1.0f, std::fabs(x)), "sRGB round trip %g",
               double(x));
  }
  const glm::vec3 wide = Rec709ToRec2020(rgb), back = Rec2020ToRec709(rgb);
  FUZZ_CHECK(Finite(wide, back, ExpandGamut(rgb, in.Range(0.0f, 1.0f))), "gamut conversion not finite");
  FUZZ_CHECK(Finite(NormalizePaperWhite(rgb, in.Range(1.0f, 1e4f))), "paper white not finite");
  const float pq = LinearToPq(x), lin = PqToLinear(x);
  FUZZ_CHECK(pq >= 0.0f && pq <= 1.0f && lin >= 0.0f && lin <= 1.0f, "PQ(%g) = %g, PQ^-1 = %g", double(x), double(pq),
             double(lin));
  if (x >= 0.0f && x <= 1.0f) {
    FUZZ_CHECK(std::fabs(PqToLinear(LinearToPq(x)) - x) <= 1e-4f, "PQ round trip %g", double(x));
  }
  FUZZ_CHECK(Finite(LinearToPq(rgb), PqToLinear(rgb)), "PQ(rgb) not finite");

  const OutputSettings s = RandomSettings(in);
  if (s.Validate().ok()) {
    const glm::vec3 out = OutputTransform(rgb, s);
    FUZZ_CHECK(Finite(out), "OutputTransform not finite");
    if (s.encoding == Encoding::kPq) {
      for (int c = 0; c < 3; ++c) FUZZ_CHECK(out[c] >= 0.0f && out[c] <= 1.0f, "PQ output %g", double(out[c]));
    }
  } else {
    FUZZ_CHECK(NamesParameter(s.Validate()), "%s", s.Validate().error);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ikpd::fuzz::Input in(data, size);
  CheckCurves(in);
  return 0;
}
