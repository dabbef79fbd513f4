// Internal: the two passes every lane batch job runs (see batch::FailAt),
// over groups of simd::kWide items and then the remaining items one by one.
#pragma once

#include <algorithm>
#include <cstddef>

#include "../simd/lanes.h"
#include "ikpd/batch/common.h"

namespace ikpd::batch {

// Pass 1: a whole group passes `groupValid(i)` (items i .. i + kWide − 1),
// or each of its items is checked with `itemStatus(j)` → Status. Returns the
// first failing item's Status (nothing written).
template <class GroupValid, class ItemStatus>
Status ValidateInLanes(std::size_t count, GroupValid&& groupValid, ItemStatus&& itemStatus, std::size_t* failedItem) {
  constexpr std::size_t n = simd::kWide;
  const std::size_t grouped = count - count % n;
  for (std::size_t i = 0; i < count; i += n) {
    if (i < grouped && groupValid(i)) continue;
    for (std::size_t j = i; j < std::min(i + n, count); ++j) {
      if (const Status s = itemStatus(j); !s) return FailAt(s, j, failedItem);
    }
  }
  return Ok();
}

// Pass 2: `solveGroup(i)` solves and stores a whole group, or returns false
// to have its items done one by one with `solveItem(j)` → Status; the first
// failing item stops the batch (earlier items written).
template <class SolveGroup, class SolveItem>
Status SolveInLanes(std::size_t count, SolveGroup&& solveGroup, SolveItem&& solveItem, std::size_t* failedItem) {
  constexpr std::size_t n = simd::kWide;
  const std::size_t grouped = count - count % n;
  for (std::size_t i = 0; i < count; i += n) {
    if (i < grouped && solveGroup(i)) continue;
    for (std::size_t j = i; j < std::min(i + n, count); ++j) {
      if (const Status s = solveItem(j); !s) return FailAt(s, j, failedItem);
    }
  }
  return Ok();
}

}  // namespace ikpd::batch
