// Golden file hdr.json: ikpd::hdr curves and the output transform, native
// results replayed through ikpd.hdr.* (tests/js/golden.test.js).
#include "golden.h"

namespace ikpd::golden {
namespace {

using namespace ikpd::hdr;

void Scalar(Json& j, const char* call, float x, float result) {
  j.BeginObject().Key("call").String(call).Key("args").BeginArray().Exact(x).EndArray();
  j.Key("expect").Number(result).EndObject().Newline();
}

void ScalarWith(Json& j, const char* call, float x, float parameter, float result) {
  j.BeginObject().Key("call").String(call).Key("args").BeginArray().Exact(x).Exact(parameter).EndArray();
  j.Key("expect").Number(result).EndObject().Newline();
}

void Color(Json& j, const char* call, const glm::vec3& rgb, const glm::vec3& result) {
  j.BeginObject().Key("call").String(call).Key("args").BeginArray().ExactVec3(rgb).EndArray();
  j.Key("expect").Vec3(result).EndObject().Newline();
}

void Generate(Json& j) {
  Rng rng(2087);
  for (int i = 0; i < 12; ++i) {
    const float x = rng.Range(0.0f, 20.0f);
    Scalar(j, "hdr.filmic", x, Filmic(x));
    const float peak = rng.Range(1.0f, 40.0f);
    ScalarWith(j, "hdr.hdrCurve", x, peak, HdrCurve(x, peak));
    const float display = rng.Range(0.0f, 1.0f);
    ScalarWith(j, "hdr.toneMapHDR", display, peak, ToneMapHdr(display, peak));
    const float signed_ = rng.Range(-3.0f, 3.0f);
    Scalar(j, "hdr.gammaEncode", signed_, GammaEncode(signed_));
    Scalar(j, "hdr.gammaDecode", signed_, GammaDecode(signed_));
    Scalar(j, "hdr.srgbEncode", signed_, SrgbEncode(signed_));
    Scalar(j, "hdr.srgbDecode", signed_, SrgbDecode(signed_));
    const float y = rng.Range(0.0f, 1.0f);
    Scalar(j, "hdr.linearToPQ", y, LinearToPq(y));
    Scalar(j, "hdr.pqToLinear", y, PqToLinear(y));
    const glm::vec3 rgb = rng.Vec3(0.0f, 8.0f);
    Color(j, "hdr.rec709ToRec2020", rgb, Rec709ToRec2020(rgb));
    Color(j, "hdr.rec2020ToRec709", rgb, Rec2020ToRec709(rgb));
  }
  constexpr const char* kInputs[] = {"scene", "display"};
  constexpr const char* kEncodings[] = {"pq", "extended"};
  for (int i = 0; i < 24; ++i) {
    OutputSettings s;
    s.paperWhite = rng.Range(80.0f, 400.0f);
    s.peak = rng.Range(s.paperWhite, 4000.0f);
    s.saturation = rng.Range(0.0f, 1.0f);
    s.input = static_cast<Input>(i % 2);
    s.encoding = static_cast<Encoding>((i / 2) % 2);
    // Display values span the tone-mapped range up to the peak, gammaEncode(peak / paperWhite).
    const glm::vec3 rgb =
        s.input == Input::kScene ? rng.Vec3(0.0f, 6.0f) : rng.Vec3(0.0f, GammaEncode(s.peak / s.paperWhite));
    j.BeginObject().Key("call").String("hdr.outputTransform").Key("args").BeginArray().ExactVec3(rgb);
    j.BeginObject().Key("paperWhite").Exact(s.paperWhite).Key("peak").Exact(s.peak).Key("saturation").Exact(s.saturation);
    j.Key("input").String(kInputs[i % 2]).Key("encoding").String(kEncodings[(i / 2) % 2]).EndObject().EndArray();
    j.Key("expect").Vec3(OutputTransform(rgb, s)).EndObject().Newline();
  }
}

}  // namespace

static const bool registered = Register("hdr", &Generate);

}  // namespace ikpd::golden
