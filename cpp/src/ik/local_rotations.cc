#include "ikpd/ik/local_rotations.h"

namespace ikpd {

Status ToLocalRotations(std::span<const glm::quat>, std::span<glm::quat>, glm::quat) {
  return Error("toLocalRotations: not implemented yet");
}

}  // namespace ikpd
