// Embind (conventions.h): ikpd::hdr (docs/hdr/hdr.md). Pixel buffers cross as byte
// offsets into WASM memory; web/src/hdr/hdr.js packs, validates shapes and reads results.
#include <cstdlib>
#include <cstring>
#include <limits>

#include "../conventions.h"
#include "ikpd/hdr/calibration.h"
#include "ikpd/hdr/output.h"

namespace ikpd::bindings {
namespace {

// Applies operation `op` to `pixelCount` pixels at `pixels`; with run = false
// only validates (web/src/hdr/hdr.js validates every chunk of a copied buffer
// before changing any).
std::uintptr_t HdrApply(std::uintptr_t pixels, std::uint32_t pixelCount, int channels, int op, float parameter,
                        float a, float b, float c, float d, float e, float paperWhite, float peak,
                        float saturation, int input, int encoding, bool run) {
  hdr::PixelJob job;
  job.operation = static_cast<hdr::Operation>(op);
  job.filmic = {a, b, c, d, e};
  job.parameter = parameter;
  job.settings.paperWhite = paperWhite;
  job.settings.peak = peak;
  job.settings.saturation = saturation;
  job.settings.input = static_cast<hdr::Input>(input);
  job.settings.encoding = static_cast<hdr::Encoding>(encoding);
  job.pixels = Floats(pixels);
  job.pixelCount = pixelCount;
  job.channels = channels;
  return ToResult(run ? job.Run() : job.Validate());
}

// Writes the image to `pixels` and 6 floats per patch (x, y, width, height,
// nits, value) to `patches`.
std::uintptr_t HdrCalibrationImage(std::uintptr_t pixels, std::uintptr_t patches, int width, int height,
                                   float paperWhite, float peak, int encoding) {
  hdr::CalibrationPatch list[hdr::kCalibrationPatchCount];
  hdr::CalibrationImageJob job;
  job.width = width;
  job.height = height;
  job.paperWhite = paperWhite;
  job.peak = peak;
  job.encoding = static_cast<hdr::Encoding>(encoding);
  job.pixels = Floats(pixels);
  job.patches = list;
  const Status status = job.Run();
  if (status) {
    float* out = Floats(patches);
    for (const hdr::CalibrationPatch& p : list) {
      *out++ = static_cast<float>(p.x);
      *out++ = static_cast<float>(p.y);
      *out++ = static_cast<float>(p.width);
      *out++ = static_cast<float>(p.height);
      *out++ = p.nits;
      *out++ = p.value;
    }
  }
  return ToResult(status);
}

// "name,name,..." of the calibration patches, in a static buffer filled on the
// first call (no heap allocation: ikpd.memoryStats() stays flat).
const char* HdrCalibrationPatchNames() {
  static char names[512] = {};
  if (names[0] == '\0') {
    float pixels[4 * 16 * 16];
    hdr::CalibrationPatch list[hdr::kCalibrationPatchCount];
    hdr::CalibrationImageJob job;
    job.width = 16;
    job.height = 16;
    job.pixels = pixels;
    job.patches = list;
    job.Run();
    std::size_t at = 0;
    for (const hdr::CalibrationPatch& p : list) {
      const std::size_t length = std::strlen(p.name);
      if (at + length + 2 > sizeof(names)) break;
      if (at > 0) names[at++] = ',';
      std::memcpy(names + at, p.name, length);
      at += length;
    }
    names[at] = '\0';
  }
  return names;
}

}  // namespace
}  // namespace ikpd::bindings

// 16-byte aligned, zero-filled float storage owned by a JS HdrBuffer (pointer() 0 when out of memory).
class HdrStorage {
 public:
  explicit HdrStorage(std::uint32_t floats) {
    // In 64 bits: on wasm32 size_t is 32 bits, and 2^30 floats wrapped to 0 bytes.
    const std::uint64_t bytes = ((std::uint64_t{floats} * 4 + 15) / 16) * 16;
    if (floats == 0 || bytes > std::numeric_limits<std::size_t>::max()) return;
    data_ = std::aligned_alloc(16, static_cast<std::size_t>(bytes));
    if (data_ != nullptr) std::memset(data_, 0, static_cast<std::size_t>(bytes));
  }
  ~HdrStorage() { std::free(data_); }
  HdrStorage(const HdrStorage&) = delete;
  HdrStorage& operator=(const HdrStorage&) = delete;
  std::uintptr_t pointer() const { return reinterpret_cast<std::uintptr_t>(data_); }

 private:
  void* data_ = nullptr;
};

IKPD_BINDINGS(hdr, hdr) {
  using namespace emscripten;
  function("hdrApply", +[](std::uintptr_t pixels, std::uint32_t pixelCount, int channels, int op, float parameter,
                           float a, float b, float c, float d, float e, float paperWhite, float peak, float saturation,
                           int input, int encoding, int run) {
    return ikpd::bindings::HdrApply(pixels, pixelCount, channels, op, parameter, a, b, c, d, e, paperWhite, peak,
                                    saturation, input, encoding, run != 0);
  });
  function("hdrCalibrationImage", &ikpd::bindings::HdrCalibrationImage);
  function("hdrCalibrationPatchNames", +[]() { return std::string(ikpd::bindings::HdrCalibrationPatchNames()); });
  class_<HdrStorage>("HdrStorage")
      .class_function("create", &ikpd::bindings::Create<HdrStorage, std::uint32_t>, allow_raw_pointers())
      .function("pointer", &HdrStorage::pointer);
}
