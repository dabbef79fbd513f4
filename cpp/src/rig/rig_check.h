// Private to the rig's sources (rig.cc, rig_check.cc): what both use.
#pragma once

#include <cstddef>
#include <limits>
#include <optional>

#include <glm/vec3.hpp>

#include "ikpd/common.h"

namespace ikpd::rig::detail {

// No item index in an error (Rig::Fail).
constexpr std::size_t kNoItem = std::numeric_limits<std::size_t>::max();

// Not given, or a finite non-zero vector.
inline bool Usable(const std::optional<glm::vec3>& v) { return !v || (IsFinite(*v) && *v != glm::vec3(0.0f)); }

}  // namespace ikpd::rig::detail
