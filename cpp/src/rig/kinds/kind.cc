// The parts of the kind interface (kind.h) several kinds share.
#include <cstdarg>
#include <cstdio>

#include "registry.h"

namespace ikpd::rig::detail {

Status FailText(const Setup& setup, const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::vsnprintf(setup.text, setup.textSize, format, args);
  va_end(args);
  return Error(setup.text);
}

Status CheckChain(const Setup& setup, std::span<const int> joints, const char* field, std::size_t first) {
  const std::size_t n = setup.skeleton.size();
  for (std::size_t k = 0; k < joints.size(); ++k) {
    if (joints[k] < 0 || static_cast<std::size_t>(joints[k]) >= n) {
      return FailText(setup, "%s[%zu]: must be a joint index in [0, %zu), got %d", field, first + k, n, joints[k]);
    }
    if (k > 0 && !setup.skeleton.IsDescendant(static_cast<std::size_t>(joints[k]), static_cast<std::size_t>(joints[k - 1]))) {
      return FailText(setup, "%s[%zu]: must be a descendant of %s[%zu] (joint %d)", field, first + k, field, first + k - 1,
                      joints[k - 1]);
    }
  }
  return Ok();
}

Status NoArmsOrLegs(const Setup&, const ConstraintSettings& s) {
  if (!s.arms.empty()) return Error("arms: only bodyLookAt takes arms and legs");
  if (!s.legs.empty()) return Error("legs: only bodyLookAt takes arms and legs");
  return Ok();
}

void WritesAllButTip(const ConstraintSettings& s, std::vector<std::uint16_t>& out) {
  for (std::size_t k = 0; k + 1 < s.joints.size(); ++k) out.push_back(static_cast<std::uint16_t>(k));
}

void WritesAll(const ConstraintSettings& s, std::vector<std::uint16_t>& out) {
  for (std::size_t k = 0; k < s.joints.size(); ++k) out.push_back(static_cast<std::uint16_t>(k));
}

}  // namespace ikpd::rig::detail
