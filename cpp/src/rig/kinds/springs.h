// The springs kind (docs/rig/springs.md): chains of spring bones, each
// joint's tail a particle on a continuous-time damped spring toward its
// animated direction plus gravity and wind, integrated in sub-steps of at most
// kSpringSubStep with the animated pose interpolated between frames.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ikpd/rig/springs.h"
#include "kind.h"
#include "limb.h"

namespace ikpd::rig::detail {

// The longest internal step (seconds) and the most steps one frame takes
// (a longer frame takes longer steps: the linear part is exact for any step).
constexpr float kSpringSubStep = 1.0f / 720.0f;
constexpr int kMaxSpringSubSteps = 96;

// A joint or collider pose in the center's space.
struct SpringPose {
  glm::vec3 position{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
};

// One simulated joint, prepared by Configure.
struct SpringBone {
  std::uint16_t slot = 0;     // its joint in c.joints
  std::int16_t parent = -1;   // the bone before it in its chain (index into bones), −1: the chain's root
  std::int16_t tailSlot = -1; // its tail's joint in c.joints, −1: a virtual tail (tipLength)
  float c = 0.0f;             // damping rate (1/s): exp(−c/60) = 1 − dragForce
  float gain = 0.0f;          // force per VRM unit: c / dragForce (60 at dragForce 0)
  float stiffness = 0.0f, gravityPower = 0.0f, hitRadius = 0.0f;
  glm::vec3 gravityDir{0.0f};  // world (unit or zero)
  glm::vec3 tipAxis{0.0f, 1.0f, 0.0f};  // virtual tail: its direction in the joint's frame (from its parent at rest)
};

// A collider, prepared: its slot and its shape in that joint's frame.
struct SpringShape {
  std::uint16_t slot = 0;
  bool capsule = false;
  glm::vec3 offset{0.0f}, tail{0.0f};
  float radius = 0.0f;
};

struct SpringsState {
  LimbSmoothing smooth;
  std::vector<SpringBone> bones;
  std::vector<SpringShape> shapes;
  int centerSlot = -1;            // −1: the rig's root (model space)
  // Simulation, in the center's space (sized by Configure, never per frame).
  std::vector<glm::vec3> tails, velocities;
  std::vector<SpringPose> before, now;  // per c.joints slot: the animated pose at the last frame and this one
  std::vector<glm::quat> solved;        // per bone: its solved rotation (center space) in the current sub-step
  std::vector<glm::vec3> passStart;     // per bone: its tail before the current sub-step
  bool seen = false;                    // `before` and the tails hold a frame (else the next starts from its pose)
};

extern const KindOps kSpringsKind;

// One frame's motion (springs_step.cc): the tails and solved rotations after
// dt seconds toward the pose in `now` (from `before`); wind and gravity in
// the center's space. Returns the sub-steps taken.
int StepSprings(SpringsState& s, float dt, float tipLength, const glm::vec3& windInCenter, const glm::quat& worldToCenter);

}  // namespace ikpd::rig::detail
