#include "ikpd/rig/skeleton.h"

#include <cstdio>

namespace ikpd::rig {


Status Skeleton::Init(std::span<const int> parents, std::span<const std::string_view> names) {
  const std::size_t n = parents.size();
  if (n == 0 || n > kMaxJoints) return Error("parents: needs 1 to 1024 joints");
  for (std::size_t i = 0; i < n; ++i) {
    if (parents[i] < -1 || parents[i] >= static_cast<int>(i)) {
      std::snprintf(message_, sizeof(message_), "parents[%zu]: must be -1 or the index of an earlier joint, got %d", i, parents[i]);
      return Error(message_);
    }
  }
  if (!names.empty() && names.size() != n) return Error("names: needs one name per joint (or none)");

  parents_.assign(parents.begin(), parents.end());
  names_.assign(names.begin(), names.end());
  // Subtree ranges: one past each joint's last descendant, children first.
  std::vector<std::uint32_t> end(n), count(n, 1);
  for (std::size_t i = 0; i < n; ++i) end[i] = static_cast<std::uint32_t>(i + 1);
  for (std::size_t i = n; i-- > 1;) {
    if (parents_[i] < 0) continue;
    const std::size_t p = static_cast<std::size_t>(parents_[i]);
    end[p] = std::max(end[p], end[i]);
    count[p] += count[i];
  }
  depthFirst_ = true;
  for (std::size_t i = 0; i < n; ++i) depthFirst_ = depthFirst_ && end[i] - i == count[i];
  if (!depthFirst_) end.assign(n, static_cast<std::uint32_t>(n));
  subtreeEnd_ = std::move(end);
  return Ok();
}

int Skeleton::Find(std::string_view name) const {
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return static_cast<int>(i);
  }
  return -1;
}

bool Skeleton::IsDescendant(std::size_t descendant, std::size_t ancestor) const {
  if (descendant >= size() || ancestor >= size()) return false;
  for (int j = parents_[descendant]; j >= 0; j = parents_[static_cast<std::size_t>(j)]) {
    if (static_cast<std::size_t>(j) == ancestor) return true;
    if (static_cast<std::size_t>(j) < ancestor) return false;  // parents come first
  }
  return false;
}

}  // namespace ikpd::rig
