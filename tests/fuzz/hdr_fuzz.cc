// Fuzzes ikpd::hdr: PixelJob over every operation with arbitrary parameters
// and pixels (NaN/Inf included), OutputTransform settings and the calibration
// image. Checks: finite in → finite out (PQ in [0, 1]) or an error naming a
// parameter with the pixels untouched.
#include <vector>

#include "fuzz.h"

using namespace ikpd;
using namespace ikpd::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  hdr::PixelJob job;
  job.operation = static_cast<hdr::Operation>(in.Int(-1, hdr::kOperationCount));
  job.filmic = {in.MaybeNonFinite(), in.MaybeNonFinite(), in.MaybeNonFinite(), in.MaybeNonFinite(), in.MaybeNonFinite()};
  if (in.Bool()) job.filmic = {};
  job.parameter = in.Bool() ? in.Range(0.0f, 4.0f) : in.MaybeNonFinite();
  job.settings.paperWhite = in.Bool() ? in.Range(1.0f, 10000.0f) : in.MaybeNonFinite();
  const float low = job.settings.paperWhite >= 1.0f && job.settings.paperWhite <= 10000.0f ? job.settings.paperWhite : 1.0f;
  job.settings.peak = in.Bool() ? in.Range(low, 10000.0f) : in.MaybeNonFinite();
  job.settings.saturation = in.Bool() ? in.Range(0.0f, 1.0f) : in.MaybeNonFinite();
  job.settings.input = static_cast<hdr::Input>(in.Int(0, 2));
  job.settings.encoding = static_cast<hdr::Encoding>(in.Int(0, 2));
  job.channels = in.Int(0, 5);
  const std::size_t count = static_cast<std::size_t>(in.Int(0, 16));
  std::vector<float> pixels(count * 5 + 1);
  for (float& v : pixels) v = in.MaybeNonFinite();
  const std::vector<float> before = pixels;
  job.pixels = pixels.data();
  job.pixelCount = count;

  const Status status = job.Run();
  FUZZ_CHECK(NamesParameter(status), "error %s", status.error);
  if (!status) {
    FUZZ_CHECK(pixels == before || std::memcmp(pixels.data(), before.data(), pixels.size() * sizeof(float)) == 0,
               "pixels changed on error %s", status.error);
  } else {
    const int processed = job.channels == 1 ? 1 : 3;
    for (std::size_t i = 0; i < count; ++i) {
      for (int c = 0; c < job.channels; ++c) {
        const float v = pixels[i * static_cast<std::size_t>(job.channels) + static_cast<std::size_t>(c)];
        const float old = before[i * static_cast<std::size_t>(job.channels) + static_cast<std::size_t>(c)];
        if (c >= processed) {
          FUZZ_CHECK(std::memcmp(&v, &old, sizeof v) == 0, "alpha changed");
          continue;
        }
        FUZZ_CHECK(std::isfinite(v), "operation %d gave %g for %g", static_cast<int>(job.operation), v, old);
        const bool pq = job.operation == hdr::Operation::kLinearToPq ||
                        (job.operation == hdr::Operation::kOutputTransform &&
                         job.settings.encoding == hdr::Encoding::kPq);
        if (pq) FUZZ_CHECK(v >= 0.0f && v <= 1.0f, "PQ signal %g out of [0, 1]", v);
        if (pq && job.operation == hdr::Operation::kOutputTransform) {
          // Neither input ever asks the display for more than its peak.
          const float top = hdr::LinearToPq(job.settings.peak / 10000.0f) + 1e-5f;
          FUZZ_CHECK(v <= top, "PQ signal %g above the peak's %g (input %d)", v, top,
                     static_cast<int>(job.settings.input));
        }
      }
    }
  }

  hdr::CalibrationImageJob image;
  image.width = in.Int(0, 40);
  image.height = in.Int(0, 40);
  image.paperWhite = in.MaybeNonFinite();
  image.peak = in.MaybeNonFinite();
  image.encoding = static_cast<hdr::Encoding>(in.Int(0, 2));
  std::vector<float> rgba(4 * 40 * 40, -7.0f);
  hdr::CalibrationPatch patches[hdr::kCalibrationPatchCount];
  image.pixels = rgba.data();
  image.patches = patches;
  const Status imageStatus = image.Run();
  FUZZ_CHECK(NamesParameter(imageStatus), "error %s", imageStatus.error);
  if (imageStatus) {
    for (int i = 0; i < 4 * image.width * image.height; ++i) FUZZ_CHECK(std::isfinite(rgba[i]) && rgba[i] >= 0.0f, "pixel");
    for (const hdr::CalibrationPatch& p : patches) {
      FUZZ_CHECK(p.x >= 0 && p.y >= 0 && p.x + p.width <= image.width && p.y + p.height <= image.height, "patch %s", p.name);
    }
  } else {
    for (float v : rgba) FUZZ_CHECK(v == -7.0f, "image written on error");
  }
  return 0;
}
