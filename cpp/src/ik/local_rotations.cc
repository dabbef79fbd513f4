#include "ikpd/ik/local_rotations.h"

namespace ikpd {

Status ToLocalRotations(std::span<const glm::quat> world, std::span<glm::quat> local, glm::quat parentRotation) {
  if (local.size() != world.size()) return Error("local: must have as many entries as the world rotations");
  if (!IsUsableRotation(parentRotation)) return Error("parentRotation: must be a non-zero finite quaternion");
  for (const glm::quat& q : world) {
    if (!IsUsableRotation(q)) return Error("rotations: must be non-zero finite quaternions");
  }
  // Back to front so that `local` may alias `world`.
  for (std::size_t i = world.size(); i-- > 0;) {
    const glm::quat parent = i == 0 ? parentRotation : world[i - 1];
    local[i] = glm::normalize(glm::conjugate(NormalizeSafe(parent)) * NormalizeSafe(world[i]));
  }
  return Ok();
}

}  // namespace ikpd
