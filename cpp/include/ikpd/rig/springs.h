// The springs constraint's settings (docs/rig/springs.md): chains of spring
// bones (hair, tails, skirts, ears) with VRMC_springBone's parameters, moved
// by a VRM runtime's per-frame Verlet step on a fixed 60 Hz clock: the same
// motion at every frame rate, and at 60 Hz that of VRM's runtimes.
#pragma once

#include <cstdint>

#include "ikpd/common.h"

namespace ikpd::rig {

// VRMC_springBone's joint parameters, the same numbers a VRM file holds
// (docs/rig/springs.md, "The model").
//   stiffness     pull back toward the animated direction (per-frame units at 60 Hz)
//   dragForce     velocity lost per 60 Hz frame, in [0, 1]
//   gravityPower  pull along gravityDir (per-frame units at 60 Hz)
//   gravityDir    world direction (normalized; zero: none)
//   hitRadius     the tail's radius against the colliders
struct SpringJoint {
  float stiffness = 1.0f;
  float dragForce = 0.4f;
  float gravityPower = 0.0f;
  glm::vec3 gravityDir{0.0f, -1.0f, 0.0f};
  float hitRadius = 0.0f;
  // Errors: "stiffness: must be finite and >= 0" and so on.
  Status Validate() const;
};

// The constraint's own options: the joints' parameters (each joint's unless
// ConstraintSettings::springJoints overrides them), the wind, the tip.
//   wind       a world vector added to gravityDir·gravityPower (same units)
//   tipLength  > 0: each chain's last joint swings too, with a virtual tail this
//              long (model units) along the line from its parent; 0: the last
//              joint is the chain's end (VRM 1.0: a tail only)
struct SpringsSettings {
  SpringJoint joint;
  glm::vec3 wind{0.0f};
  float tipLength = 0.0f;
  Status Validate() const;
};

// A collider attached to a joint (offsets in that joint's frame, model units).
enum class SpringColliderShape : std::uint8_t { kSphere = 0, kCapsule = 1 };
struct SpringCollider {
  int joint = -1;                    // the skeleton joint it moves with
  SpringColliderShape shape = SpringColliderShape::kSphere;
  glm::vec3 offset{0.0f};            // the sphere's centre (capsule: one end)
  glm::vec3 tail{0.0f};              // capsule: the other end
  float radius = 0.0f;
};

}  // namespace ikpd::rig
