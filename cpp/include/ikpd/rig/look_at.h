// ikpd — look-at IK (docs/look-at.md): a chain such as pelvis →
// spine → chest → neck → head turns toward a target, the body following the
// head through per-joint weights and limits; each joint's offset rotation is
// smoothed by a quaternion PD controller (pd::QuatPD, exact integrator) and
// turning the look-at off blends the offsets out to exactly zero.
#pragma once

#include <cstddef>
#include <span>
#include "ikpd/buffer.h"

#include "ikpd/common.h"
#include "ikpd/pd/controllers.h"

namespace ikpd {

struct LookAtSettings {
  // Per joint, root first: the fraction of the remaining turn the joint takes,
  // in [0, 1]. Weights 1/n, 1/(n−1), …, 1/2, 1 share the turn equally; the last
  // joint (head) usually has 1 so it finishes the turn.
  std::span<const float> weights;
  // Optional per-joint limit on the offset's rotation angle, radians in [0, π].
  std::span<const float> limits;
  // Optional per-joint PD settle time (seconds, > 0); empty → settleTime.
  std::span<const float> settleTimes;
  float settleTime = 0.3f;    // seconds, > 0: time for an offset to settle (docs/pd.md)
  float damping = 1.0f;       // damping ratio ζ > 0 (1 critical, 0.707 responsive)
  float blendOutTime = 0.1f;  // seconds, >= 0: final linear part of turning off
  glm::vec3 forward{0.0f, 0.0f, 1.0f};  // the head's look axis in its local frame (three.js: +Z)
  // Head-local point that must lie on the look line (e.g. the eyes): the ray
  // from it along `forward` passes through the target. Zero: the head joint.
  // As AimJob::offset: a target inside the offset's reach gets no new turn.
  glm::vec3 offset{0.0f, 0.0f, 0.0f};
};

// Each Update: (1) desired offsets: from the root to the head, joint i turns by
// weights[i] of the rotation that would point the head's `forward` (from the
// head-local `offset` point) at the target (from the pose as turned so far), clamped to limits[i]; the offset is
// kept in the joint's own frame (local rotation · offset), so it moves with the
// animation; (2) each offset is smoothed by its QuatPD (exact integrator:
// frame-rate independent), or blended out toward identity when disabled;
// (3) the animated pose plus the smoothed offsets is written to `output`
// (positions follow by forward kinematics). Update never allocates.
class LookAt {
 public:
  // Validates and allocates one controller per joint; offsets start at identity.
  // Memory that cannot be had is an error ("weights: out of memory"), state unchanged.
  Status Reset(const LookAtSettings& settings);
  // As Reset, but with the same joint count the smoothing state (offsets,
  // velocities, blend-out) is kept, so weights, limits and gains change without
  // a pop (docs/rig.md); another joint count resets. On error nothing changes.
  Status Configure(const LookAtSettings& settings);
  // joints: the animated world pose, root first (size = weights.size());
  // output: same size, may not alias joints. dt >= 0 (seconds). The input errors
  // (not initialized, sizes, non-finite dt, positions or target, zero rotations)
  // are found before anything changes: offsets and output are then untouched.
  Status Update(float dt, std::span<const Transform> joints, const glm::vec3& target, bool enabled,
                std::span<Transform> output);
  // Zeroes every offset and velocity at once (no blend).
  void Clear();

  std::size_t size() const { return weights_.size(); }
  // Smoothed offsets (joint-local), root first.
  std::span<const glm::quat> offsets() const { return offsets_; }
  // The offsets the controllers track (joint-local), from the last enabled Update.
  std::span<const glm::quat> desired() const { return desired_; }
  // False when every offset is exactly identity (e.g. once disabled and blended out).
  bool active() const;

 private:
  Buffer<float> weights_;
  Buffer<float> limits_;
  Buffer<pd::QuatPD> controllers_;
  Buffer<glm::quat> offsets_;
  Buffer<glm::quat> desired_;
  Status Apply(const LookAtSettings& settings, bool keepState);
  glm::quat EyeTurn(const Transform& head, const glm::vec3& eye, const glm::vec3& goal) const;

  glm::vec3 forward_{0.0f, 0.0f, 1.0f};
  glm::vec3 offset_{0.0f, 0.0f, 0.0f};
};

}  // namespace ikpd
