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

// A collider attached to a joint (offsets in that joint's frame, model units;
// docs/rig/springs.md, "Colliders"). Shapes (VRMC_springBone and its
// extended-collider proposal):
//   kSphere         keeps tails outside the ball (offset, radius)
//   kCapsule        keeps tails outside the capsule (offset to tail, radius)
//   kPlane          keeps tails on the side `normal` points to of the plane
//                   through `offset` (radius unused)
//   kInsideSphere   keeps tails inside the ball (offset, radius)
//   kInsideCapsule  keeps tails inside the capsule (offset to tail, radius)
// A tail's hitRadius grows the outside shapes and shrinks the inside ones
// (as three-vrm); an inside shape smaller than the tail holds it at its
// nearest point. Errors: "shape: must be one of ...", "radius: must be
// finite and >= 0", "normal: must be finite and non-zero" (a plane's).
enum class SpringColliderShape : std::uint8_t { kSphere = 0, kCapsule = 1, kPlane = 2, kInsideSphere = 3, kInsideCapsule = 4 };
struct SpringCollider {
  int joint = -1;                    // the skeleton joint it moves with
  SpringColliderShape shape = SpringColliderShape::kSphere;
  glm::vec3 offset{0.0f};            // the sphere's centre (capsule: one end; plane: a point on it)
  glm::vec3 tail{0.0f};              // capsule: the other end
  float radius = 0.0f;
  glm::vec3 normal{0.0f, 0.0f, 1.0f};  // plane: its free side (need not be unit; VRM's default +Z)
  Status Validate() const;           // the shape's own fields (not the joint)
};

}  // namespace ikpd::rig
