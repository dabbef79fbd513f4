// ikpd::hdr — data of a calibration image for the paper-white and peak settings.
#pragma once

#include "ikpd/common.h"
#include "ikpd/hdr/output.h"

namespace ikpd::hdr {

// One gray test patch of the calibration image (pixel rectangle, row 0 at the top).
struct CalibrationPatch {
  const char* name = "";  // "shadow", "midGray", "half", "paperWhite", "ramp0".."ramp5", "peakBackground", "peak"
  int x = 0, y = 0, width = 0, height = 0;
  float nits = 0.0f;   // luminance the patch asks the display for
  float value = 0.0f;  // the pixel value in the image's encoding
};
constexpr int kCalibrationPatchCount = 12;

// Draws the calibration image on black:
// - top row: gray patches at 5%, 18%, 50% and 100% of paperWhite — set paper
//   white so that "paperWhite" looks like white paper / the desktop's white;
// - middle row: six steps from paperWhite to peak (log-spaced) — the headroom;
// - bottom: "peak" at the peak setting inside "peakBackground" at 10000 nits —
//   raise peak until the inner square just disappears (the display clips both).
// Values are nits / paperWhite for kExtended, PQ(nits / 10000) for kPq, alpha 1.
struct CalibrationImageJob {
  int width = 256;   // in [16, 4096]
  int height = 128;  // in [16, 4096]
  float paperWhite = 250.0f;
  float peak = 1000.0f;
  Encoding encoding = Encoding::kExtended;
  float* pixels = nullptr;              // output: width·height RGBA floats
  CalibrationPatch* patches = nullptr;  // optional output: kCalibrationPatchCount entries
  // Checks the size, paperWhite and peak (as OutputSettings does) and `pixels`.
  Status Validate() const;
  // Validates, then draws every pixel (and fills `patches`); on error nothing is written.
  Status Run() const;
};

}  // namespace ikpd::hdr
