// ikpd — world → local rotation conversion for solver outputs (docs/architecture.md).
#pragma once

#include <span>

#include "ikpd/common.h"

namespace ikpd {

// Converts the world rotations of a chain (root first) to local rotations:
// local[0] = parent⁻¹·world[0], local[i] = world[i−1]⁻¹·world[i]. Inputs are
// normalized; outputs are unit. `local` may alias `world`. Errors: sizes differ
// ("local"), a zero/non-finite rotation ("rotations" or "parentRotation").
Status ToLocalRotations(std::span<const glm::quat> world, std::span<glm::quat> local,
                        glm::quat parentRotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f));

}  // namespace ikpd
