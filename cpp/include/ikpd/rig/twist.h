// The twist constraint's settings (docs/rig/twist.md): the twist of the last
// of a constraint's joints about the line from its first joint, spread over
// the joints before it (a forearm and its twist bones, say), the last joint's
// model rotation and position kept.
#pragma once

#include <cstdint>

#include "ikpd/common.h"

namespace ikpd::rig {

// How the twist is shared when no `amounts` are given: joint k of the n
// before the last turns with (k + 1) / n of it (even), or with the share of
// the line up to the next joint's rest position (length).
enum class TwistSpread : std::uint8_t { kEven = 0, kLength = 1 };

struct TwistSettings {
  TwistSpread spread = TwistSpread::kEven;
  // Errors: "spread: must be even or length".
  Status Validate() const;
};

}  // namespace ikpd::rig
