// The twist kind (docs/rig/twist.md): the last joint's twist about the line
// from the first joint, spread over the joints before it.
#pragma once

#include <array>
#include <cstddef>

#include "ikpd/rig/twist.h"
#include "kind.h"
#include "limb.h"

namespace ikpd::rig::detail {

constexpr std::size_t kMaxTwistJoints = 16;

struct TwistState {
  LimbSmoothing smooth;
  std::array<float, kMaxTwistJoints> shares{};  // per joint but the last: its share of the twist (cumulative)
  // Rest model rotations: [k] of joint k relative to joint k − 1 (k ≥ 1); [0] of the last relative to the first.
  std::array<glm::quat, kMaxTwistJoints> rest{};
  double twist = 0.0;  // the last frame's twist, unwrapped (radians)
  bool seen = false;   // twist holds a frame's (else the next is taken in (−π, π])
};

extern const KindOps kTwistKind;

}  // namespace ikpd::rig::detail
