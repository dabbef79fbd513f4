// Internal: the loop every lane batch job runs for each of its two passes
// (validate every item, then solve; see batch::FailAt), over groups of
// simd::kWide items and then the remaining items one by one.
#pragma once

#include <algorithm>
#include <cstddef>

#include "../simd/vec.h"
#include "ikpd/batch/common.h"

namespace ikpd::batch {

// `group(i)` handles items i .. i + kWide − 1 at once, or returns false to
// have them done one by one with `item(j)` → Status. Returns the first
// failing item's Status (FailAt); items before it are done.
//   Pass 1: group = "all lanes valid", item = the item's exact Status.
//   Pass 2: group = solve and store (false: a lane needs the careful path).
template <class Group, class Item>
Status InLanes(std::size_t count, Group&& group, Item&& item, std::size_t* failedItem) {
  constexpr std::size_t n = simd::kWide;
  const std::size_t grouped = count - count % n;
  for (std::size_t i = 0; i < count; i += n) {
    if (i < grouped && group(i)) continue;
    for (std::size_t j = i; j < std::min(i + n, count); ++j) {
      if (const Status s = item(j); !s) return FailAt(s, j, failedItem);
    }
  }
  return Ok();
}

// Pass-1 group checks straight from the arrays, for items i .. i + kWide − 1
// (false sends the group to the exact per-item checks).
// `size` floats per item, all finite.
inline bool GroupFinite(const float* field, std::size_t size, std::size_t i) {
  return simd::AllFinite(field + size * i, size * simd::kWide);
}
// Rotations ([x, y, z, w] per item) finite and non-zero: |q|² in (1e-12, 3e38)
// (a length that overflows float only sends the group to the per-item checks).
inline bool GroupRotationsUsable(const float* rotation, std::size_t i) {
  const simd::Q4<simd::Wide> q = simd::LoadQ4<simd::Wide>(rotation, i);
  const simd::Wide qq = simd::Dot(q, q);
  return simd::All(simd::And(qq > 1e-12f, qq < 3.0e38f));
}
// Weights in [0, 1]; a null array (one shared weight) passes.
inline bool GroupWeightsValid(const float* weight, std::size_t i) {
  if (!weight) return true;
  const simd::Wide w = simd::Load1<simd::Wide>(weight, i);
  return simd::All(simd::And(w >= 0.0f, w <= 1.0f));
}

// Both passes for a batch whose items run the single-item `job` one by one:
// `load(i)` puts item i into `job`, `store(i)` writes its result after
// job.Run() succeeded.
template <class Job, class Load, class Store>
Status ValidateThenRun(std::size_t count, const Job& job, Load&& load, Store&& store, std::size_t* failedItem) {
  auto oneByOne = [](std::size_t) { return false; };
  const Status valid = InLanes(
      count, oneByOne,
      [&](std::size_t i) {
        load(i);
        return job.Validate();
      },
      failedItem);
  if (!valid) return valid;
  return InLanes(
      count, oneByOne,
      [&](std::size_t i) {
        load(i);
        const Status s = job.Run();
        if (s) store(i);
        return s;
      },
      failedItem);
}

}  // namespace ikpd::batch
