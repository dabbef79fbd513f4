#include "ikpd/hdr/calibration.h"

#include <cmath>

namespace ikpd::hdr {

Status CalibrationImageJob::Validate() const {
  if (width < 16 || width > 4096) return Error("width: must be an integer in [16, 4096]");
  if (height < 16 || height > 4096) return Error("height: must be an integer in [16, 4096]");
  OutputSettings settings;
  settings.paperWhite = paperWhite;
  settings.peak = peak;
  settings.encoding = encoding;
  if (Status s = settings.Validate(); !s) return s;
  if (pixels == nullptr) return Error("pixels: must not be null");
  return Ok();
}

Status CalibrationImageJob::Run() const {
  if (Status s = Validate(); !s) return s;
  CalibrationPatch list[kCalibrationPatchCount];
  const float w = static_cast<float>(width);
  const float h = static_cast<float>(height);
  auto rect = [&](CalibrationPatch& p, const char* name, float x0, float y0, float x1, float y1, float nits) {
    p.name = name;
    p.x = static_cast<int>(std::lround(x0 * w));
    p.y = static_cast<int>(std::lround(y0 * h));
    p.width = static_cast<int>(std::lround(x1 * w)) - p.x;
    p.height = static_cast<int>(std::lround(y1 * h)) - p.y;
    p.nits = nits;
    p.value = encoding == Encoding::kExtended ? nits / paperWhite : LinearToPq(nits / 10000.0f);
  };
  static const char* const kGrayNames[4] = {"shadow", "midGray", "half", "paperWhite"};
  static const float kGrayLevels[4] = {0.05f, 0.18f, 0.5f, 1.0f};
  for (int i = 0; i < 4; ++i) {
    const float x0 = 0.05f + 0.225f * static_cast<float>(i);
    rect(list[i], kGrayNames[i], x0, 0.06f, x0 + 0.2f, 0.30f, paperWhite * kGrayLevels[i]);
  }
  static const char* const kRampNames[6] = {"ramp0", "ramp1", "ramp2", "ramp3", "ramp4", "ramp5"};
  for (int i = 0; i < 6; ++i) {
    const float x0 = 0.05f + 0.15f * static_cast<float>(i);
    const float t = static_cast<float>(i) / 5.0f;
    const float nits = i == 5 ? peak : paperWhite * std::pow(peak / paperWhite, t);
    rect(list[4 + i], kRampNames[i], x0, 0.38f, x0 + 0.14f, 0.58f, nits);
  }
  rect(list[10], "peakBackground", 0.05f, 0.66f, 0.95f, 0.94f, 10000.0f);
  rect(list[11], "peak", 0.40f, 0.72f, 0.60f, 0.88f, peak);

  const std::size_t count = static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
  for (std::size_t i = 0; i < count; ++i) {
    float* p = pixels + 4 * i;
    p[0] = p[1] = p[2] = 0.0f;
    p[3] = 1.0f;
  }
  for (const CalibrationPatch& patch : list) {
    for (int y = patch.y; y < patch.y + patch.height; ++y) {
      float* row = pixels + 4 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(width));
      for (int x = patch.x; x < patch.x + patch.width; ++x) {
        row[4 * x] = row[4 * x + 1] = row[4 * x + 2] = patch.value;
      }
    }
  }
  if (patches != nullptr) {
    for (int i = 0; i < kCalibrationPatchCount; ++i) patches[i] = list[i];
  }
  return Ok();
}

}  // namespace ikpd::hdr
