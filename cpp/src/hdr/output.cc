#include "ikpd/hdr/output.h"

#include <cmath>

namespace ikpd::hdr {
namespace {

inline float Unit(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

bool IsColorOperation(Operation op) {
  return op == Operation::kRec709ToRec2020 || op == Operation::kRec2020ToRec709 ||
         op == Operation::kExpandGamut || op == Operation::kOutputTransform;
}

// Applies `f` to every processed channel value of the job's pixels.
template <typename F>
void ForEachChannel(const PixelJob& job, F f) {
  const int n = job.channels == 1 ? 1 : 3;
  float* p = job.pixels;
  for (std::size_t i = 0; i < job.pixelCount; ++i, p += job.channels) {
    for (int c = 0; c < n; ++c) p[c] = f(p[c]);
  }
}

template <typename F>
void ForEachColor(const PixelJob& job, F f) {
  float* p = job.pixels;
  for (std::size_t i = 0; i < job.pixelCount; ++i, p += job.channels) {
    const glm::vec3 out = f(glm::vec3(p[0], p[1], p[2]));
    p[0] = out.x;
    p[1] = out.y;
    p[2] = out.z;
  }
}

}  // namespace

Status OutputSettings::Validate() const {
  if (!IsFinite(paperWhite) || paperWhite < 1.0f || paperWhite > 10000.0f) {
    return Error("paperWhite: must be a finite number of nits in [1, 10000]");
  }
  if (!IsFinite(peak) || peak < paperWhite || peak > 10000.0f) {
    return Error("peak: must be a finite number of nits in [paperWhite, 10000]");
  }
  if (!IsFinite(saturation) || saturation < 0.0f || saturation > 1.0f) {
    return Error("saturation: must be in [0, 1]");
  }
  if (input != Input::kScene && input != Input::kDisplay) return Error("input: must be 'scene' or 'display'");
  if (encoding != Encoding::kPq && encoding != Encoding::kExtended) {
    return Error("encoding: must be 'pq' or 'extended'");
  }
  return Ok();
}

glm::vec3 OutputTransform(const glm::vec3& rgb, const OutputSettings& s) {
  const float maxNit = s.peak / s.paperWhite;
  glm::vec3 linear;
  if (s.input == Input::kScene) {
    // SDR filmic, clamped to [0, 1] as an SDR buffer holds it, then the
    // production HDR tone map. The gamma 1/2.2 after the SDR curve and the
    // gamma 2.2 that opens the tone map cancel, and so do the tone map's
    // closing 1/2.2 and the output's gamma decode: all four are skipped.
    const glm::vec3 sdr = Filmic(rgb);
    linear = {ToneMapHdrLinear(Unit(sdr.x), maxNit), ToneMapHdrLinear(Unit(sdr.y), maxNit),
              ToneMapHdrLinear(Unit(sdr.z), maxNit)};
  } else {
    // Already tone-mapped (and the UI drawn on top): only the gamma decode,
    // clamped to what the display shows, [0, peak / paperWhite].
    const glm::vec3 decoded = GammaDecode(rgb);
    auto shown = [maxNit](float x) { return x > 0.0f ? (x < maxNit ? x : maxNit) : 0.0f; };
    linear = {shown(decoded.x), shown(decoded.y), shown(decoded.z)};
  }
  if (s.encoding == Encoding::kExtended) {
    // Rec2020ToRec709(ExpandGamut(c, s)) = lerp(c, Rec2020ToRec709(c), s).
    return linear * (1.0f - s.saturation) + Rec2020ToRec709(linear) * s.saturation;
  }
  return LinearToPq(NormalizePaperWhite(ExpandGamut(linear, s.saturation), s.paperWhite));
}

Status PixelJob::Validate() const {
  const int op = static_cast<int>(operation);
  if (op < 0 || op >= kOperationCount) return Error("operation: unknown");
  if (channels != 1 && channels != 3 && channels != 4) return Error("channels: must be 1, 3 or 4");
  if (channels == 1 && IsColorOperation(operation)) {
    return Error("channels: must be 3 or 4 for a color transform");
  }
  if (pixelCount > 0 && pixels == nullptr) return Error("pixels: must not be null");
  switch (operation) {
    case Operation::kFilmic:
      if (Status s = filmic.Validate(); !s) return s;
      break;
    case Operation::kHdrCurve:
      if (!IsFinite(parameter) || !(parameter > 0.0f)) return Error("peak: must be a finite number > 0");
      break;
    case Operation::kToneMapHdr:
      if (!IsFinite(parameter) || parameter < 1.0f) return Error("maxNit: must be a finite number >= 1");
      break;
    case Operation::kExpandGamut:
      if (!IsFinite(parameter) || parameter < 0.0f || parameter > 1.0f) {
        return Error("saturation: must be in [0, 1]");
      }
      break;
    case Operation::kNormalizePaperWhite:
      if (!IsFinite(parameter) || parameter < 1.0f || parameter > 10000.0f) {
        return Error("paperWhite: must be a finite number of nits in [1, 10000]");
      }
      break;
    case Operation::kOutputTransform:
      if (Status s = settings.Validate(); !s) return s;
      break;
    default:
      break;
  }
  const int processed = channels == 1 ? 1 : 3;
  const float* p = pixels;
  for (std::size_t i = 0; i < pixelCount; ++i, p += channels) {
    for (int c = 0; c < processed; ++c) {
      if (!std::isfinite(p[c])) return Error("pixels: must be finite (found NaN or Infinity)");
    }
  }
  return Ok();
}

Status PixelJob::Run() const {
  if (Status s = Validate(); !s) return s;
  const float k = parameter;
  switch (operation) {
    case Operation::kFilmic: ForEachChannel(*this, [&](float x) { return Filmic(x, filmic); }); break;
    case Operation::kHdrCurve: ForEachChannel(*this, [k](float x) { return HdrCurve(x, k); }); break;
    case Operation::kToneMapHdr: ForEachChannel(*this, [k](float x) { return ToneMapHdr(x, k); }); break;
    case Operation::kGammaEncode: ForEachChannel(*this, [](float x) { return GammaEncode(x); }); break;
    case Operation::kGammaDecode: ForEachChannel(*this, [](float x) { return GammaDecode(x); }); break;
    case Operation::kSrgbEncode: ForEachChannel(*this, [](float x) { return SrgbEncode(x); }); break;
    case Operation::kSrgbDecode: ForEachChannel(*this, [](float x) { return SrgbDecode(x); }); break;
    case Operation::kRec709ToRec2020: ForEachColor(*this, [](glm::vec3 c) { return Rec709ToRec2020(c); }); break;
    case Operation::kRec2020ToRec709: ForEachColor(*this, [](glm::vec3 c) { return Rec2020ToRec709(c); }); break;
    case Operation::kExpandGamut: ForEachColor(*this, [k](glm::vec3 c) { return ExpandGamut(c, k); }); break;
    case Operation::kNormalizePaperWhite:
      ForEachChannel(*this, [k](float x) { return NormalizePaperWhite(x, k); });
      break;
    case Operation::kLinearToPq: ForEachChannel(*this, [](float x) { return LinearToPq(x); }); break;
    case Operation::kPqToLinear: ForEachChannel(*this, [](float x) { return PqToLinear(x); }); break;
    case Operation::kOutputTransform:
      ForEachColor(*this, [this](glm::vec3 c) { return OutputTransform(c, settings); });
      break;
  }
  return Ok();
}

}  // namespace ikpd::hdr
