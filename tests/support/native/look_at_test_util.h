// Helpers shared by the native look-at tests.
#pragma once

#include <cstddef>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "ikpd/ikpd.h"

namespace lookattest {

// pelvis → spine → chest → neck → head on +Y, facing +Z (the LookAt test chain).
inline std::vector<ikpd::Transform> Chain() {
  const float heights[] = {1.0f, 1.2f, 1.4f, 1.6f, 1.75f};
  std::vector<ikpd::Transform> joints(5);
  for (std::size_t i = 0; i < 5; ++i) joints[i] = {glm::vec3(0, heights[i], 0), glm::quat(1, 0, 0, 0)};
  return joints;
}
// Its joints' weights, the head's 1.
inline const std::vector<float> kWeights{0.2f, 0.25f, 1.0f / 3.0f, 0.5f, 1.0f};

}  // namespace lookattest
