// Internal: the loop every lane batch job runs for each of its two passes
// (validate every item, then solve; see batch::FailAt), over groups of
// simd::kWide items and then the remaining items one by one.
#pragma once

#include <algorithm>
#include <cstddef>

#include "../simd/lanes.h"
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

}  // namespace ikpd::batch
