// ikpd — look-at IK (docs/rig/look-at.md): a chain such as pelvis →
// spine → chest → neck → head turns toward a target, the body following the
// head through per-joint weights and limits; each joint's offset rotation is
// smoothed by a quaternion PD controller (pd::QuatPD, exact integrator) and
// turning the look-at off blends the offsets out to exactly zero.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include "ikpd/buffer.h"

#include "ikpd/common.h"
#include "ikpd/pd/controllers.h"

namespace ikpd {

namespace look_detail {
struct Frame;  // the character frame of the yaw/pitch limits (private: cpp/src/rig/look_frame.h)
}  // namespace look_detail

// What the head does once the target is past maxYaw (docs/rig/look-at.md, "Targets behind").
enum class LookBehind : std::uint8_t {
  kKeep = 0,    // 'keep': hold at the limit on the side the target left from, until it comes back in front
  kFront = 1,   // 'front': turn back to straight ahead (yaw 0)
  kFollow = 2,  // 'follow': hold at the limit on the target's current side (flips when it crosses behind)
};

struct LookAtSettings {
  // Per joint, root first: the fraction of the remaining turn the joint takes,
  // in [0, 1]. Weights 1/n, 1/(n−1), …, 1/2, 1 share the turn equally; the last
  // joint (head) usually has 1 so it finishes the turn.
  std::span<const float> weights;
  // Optional per-joint limit on the offset's rotation angle, radians in [0, π].
  std::span<const float> limits;
  // Optional per-joint PD settle time (seconds, > 0); empty → settleTime.
  std::span<const float> settleTimes;
  float settleTime = 0.3f;    // seconds, > 0: time for an offset to settle (docs/pd/pd.md)
  float damping = 1.0f;       // damping ratio ζ > 0 (1 critical, 0.707 responsive)
  float blendOutTime = 0.1f;  // seconds, >= 0: final linear part of turning off
  glm::vec3 forward{0.0f, 0.0f, 1.0f};  // the head's look axis in its local frame (three.js: +Z)
  // Head-local point that must lie on the look line (e.g. the eyes): the ray
  // from it along `forward` passes through the target. Zero: the head joint.
  // As AimJob::offset: a target inside the offset's reach gets no new turn.
  glm::vec3 offset{0.0f, 0.0f, 0.0f};

  // Yaw and pitch limits of the look direction in the character's frame
  // (docs/rig/look-at.md, "Yaw and pitch limits"): `up` (world, normalized) and the
  // facing, the animated head's `forward` made horizontal. Radians.
  glm::vec3 up{0.0f, 1.0f, 0.0f};
  float maxYaw = 2.0f;        // [0, π]: each side of the facing
  float maxPitchUp = 1.2f;    // [0, π/2]: above the horizontal
  float maxPitchDown = 1.2f;  // [0, π/2]: below the horizontal
  LookBehind behind = LookBehind::kKeep;
  // rad/s, > 0 (Infinity: no cap): the yaw of the look direction (character
  // frame) turns at most this fast, and each joint's offset too (the PD
  // maxVelocity on the exact integrator, docs/pd/pd.md).
  float maxSpeed = 8.0f;
  // 'linear': the desired offsets move linearly between updates and the PD
  // feeds their velocity forward (no steady lag behind a moving target).
  pd::TargetMotion targetMotion = pd::TargetMotion::kHold;
  float ki = 0.0f;  // integral gain (PID), >= 0 (docs/pd/pd.md)

  // Gaze (docs/rig/look-at.md, "Eyes"): yaw and pitch of the eyes relative to the
  // head, toward the target, within these limits (radians), smoothed with
  // eyeSettleTime so the eyes lead the head.
  float eyeYaw = 0.6f;        // [0, π/2]
  float eyePitchUp = 0.4f;    // [0, π/2]
  float eyePitchDown = 0.5f;  // [0, π/2]
  float eyeSettleTime = 0.05f;  // seconds > 0
};

// Each Update: (0) the target's direction is kept inside maxYaw / maxPitchUp /
// maxPitchDown of the character's frame, the `behind` policy deciding past
// maxYaw (the aim yaw it moves paced by maxSpeed); (1) desired offsets: from
// the root to the head, joint i turns by
// weights[i] of the rotation that would point the head's `forward` (from the
// head-local `offset` point) at that point (from the pose as turned so far), clamped to limits[i]; the offset is
// kept in the joint's own frame (local rotation · offset), so it moves with the
// animation; (2) each offset is smoothed by its QuatPD (exact integrator:
// frame-rate independent), or blended out toward identity when disabled;
// (3) the animated pose plus the smoothed offsets is written to `output`
// (positions follow by forward kinematics), and the head's look direction is
// clamped back inside maxYaw / maxPitchUp / maxPitchDown of the animated
// head's frame (the animated head's own pitch always allowed), so neither
// the smoothing nor the animation moving under the offsets carries it past
// them; (4) the gaze (eyes) turns toward the target relative to the solved
// head. Update never allocates.
class LookAt {
 public:
  // Validates and allocates one controller per joint; offsets start at identity.
  // Memory that cannot be had is an error ("weights: out of memory"), state unchanged.
  Status Reset(const LookAtSettings& settings);
  // As Reset, but with the same joint count the smoothing state (offsets,
  // velocities, blend-out) is kept, so weights, limits and gains change without
  // a pop (docs/rig/rig.md); another joint count resets. On error nothing changes.
  Status Configure(const LookAtSettings& settings);
  // joints: the animated world pose, root first (size = weights.size());
  // output: same size, may not alias joints. dt >= 0 (seconds). The input errors
  // (not initialized, sizes, non-finite dt, positions or target, zero rotations)
  // are found before anything changes: offsets and output are then untouched.
  Status Update(float dt, std::span<const Transform> joints, const glm::vec3& target, bool enabled,
                std::span<Transform> output) {
    return Update(dt, joints, target, enabled, output, {}, {});
  }
  // With 0, 1 or 2 eye joints (animated world pose; eyesOutput the same size):
  // each is carried by the head and turned by the gaze (docs/rig/look-at.md, "Eyes").
  // Errors "eyes: ...", "eyesOutput: ..." as the others: nothing changes.
  Status Update(float dt, std::span<const Transform> joints, const glm::vec3& target, bool enabled,
                std::span<Transform> output, std::span<const Transform> eyes, std::span<Transform> eyesOutput);
  // Puts the state and `output`/`eyesOutput` back as they were before the last
  // Update, which must have succeeded and be the last call (for a caller, such
  // as BodyLookAt, whose own later stage failed: a failed update changes nothing).
  void Undo(std::span<Transform> output, std::span<Transform> eyesOutput);
  // Zeroes every offset and velocity at once (no blend).
  void Clear();
  // Whether an Update without eye joints steps the gaze (default true:
  // ikpd.LookAt reports it for blend-shape eyes). The rig's look-at, which
  // reports no gaze, turns it off: with no eye joints the gaze then stays 0
  // (turning it off zeroes it; a call that leaves it off changes nothing) and its two PDs cost nothing. With eye joints
  // the gaze is stepped either way. Reset and Configure keep it.
  void SetGazeWithoutEyes(bool on);

  std::size_t size() const { return weights_.size(); }
  // Smoothed offsets (joint-local), root first.
  std::span<const glm::quat> offsets() const { return offsets_; }
  // The offsets the controllers track (joint-local), from the last enabled Update.
  std::span<const glm::quat> desired() const { return desired_; }
  // False when every offset and the gaze are exactly zero (e.g. once disabled and blended out).
  bool active() const;
  // The smoothed gaze relative to the head (radians): yaw toward the head's
  // left (+, about its up), pitch up (+). VRM's lookAt yaw/pitch, in radians.
  // Within the eye limits always (the limits are hard, whatever the smoothing did).
  float gazeYaw() const { return std::clamp(static_cast<float>(gaze_[0].value()), -eyeYaw_, eyeYaw_); }
  float gazePitch() const { return std::clamp(static_cast<float>(gaze_[1].value()), -eyePitchDown_, eyePitchUp_); }

 private:
  Buffer<float> weights_;
  Buffer<float> limits_;
  Buffer<pd::QuatPD> controllers_;
  // The controllers' state kept in the PDs' SIMD lanes between updates
  // (docs/pd/pd.md); committed to controllers_ before anything else uses them.
  pd::QuatPdLaneSet lanes_;
  Buffer<glm::quat> offsets_;
  Buffer<glm::quat> desired_;
  Status Apply(const LookAtSettings& settings, bool keepState);
  // One update (Update = Step, with every piece of state put back when it fails).
  Status Step(float dt, std::span<const Transform> joints, const glm::vec3& target, bool enabled,
              std::span<Transform> output, std::span<const Transform> eyes, std::span<Transform> eyesOutput);
  // What Step may change, saved before it runs (sized in Apply: Update never
  // allocates); the controllers kept in lanes_ are saved there (lanes_.Save).
  struct Saved {
    Buffer<pd::QuatPD> controllers;
    Buffer<glm::quat> offsets, desired;
    Buffer<Transform> output;
    std::array<Transform, 2> eyes{};
    std::array<pd::ScalarPD, 2> gaze{};
    float side = 0.0f, aimYaw = 0.0f;
    bool tracking = true;
  } saved_;
  glm::quat EyeTurn(const Transform& head, const glm::vec3& eye, const glm::vec3& goal) const;
  // Stage (1): desired_ from the working pose (head-relative, unit scale), the
  // limits' frame, the animated head's look axis, its eye point (head-local
  // and in the pose) and the goal.
  void DesiredOffsets(std::span<const Transform> pose, const look_detail::Frame& frame, const glm::vec3& look,
                      const glm::vec3& eyeLocal, const glm::vec3& eye, const glm::vec3& goal, float fixedYaw);
  // look_at_limits.cc: the yaw to aim at in this update (the behind policy, the
  // speed cap), or NaN: track the target.
  // `frame`: the animated head's (once per update).
  float FixedYaw(float dt, const look_detail::Frame& frame, const glm::vec3& fromEye, const glm::vec3& target);
  void ForgetYaw();
  // The aim direction d (from the eye) inside the yaw/pitch limits, same
  // length (fixedYaw: that yaw); d itself, bit for bit, where it is inside.
  glm::vec3 LimitedDirection(const look_detail::Frame& frame, const glm::vec3& d, float fixedYaw) const;
  bool InsideLimits(const look_detail::Frame& frame, const glm::vec3& d) const;
  // Stage (3b): the solved head turned back inside the limits (its look
  // direction clamped in the animated head's frame); unchanged when inside.
  glm::quat HeldInLimits(const look_detail::Frame& frame, const glm::vec3& animatedLook, const glm::quat& head) const;
  // look_at_gaze.cc: stage (4), the gaze and the eye joints.
  Status UpdateGaze(float dt, const Transform& animatedHead, const glm::vec3& target, bool enabled,
                    std::span<const Transform> eyes, std::span<Transform> eyesOutput, const Transform& solvedHead);

  glm::vec3 forward_{0.0f, 0.0f, 1.0f};
  glm::vec3 offset_{0.0f, 0.0f, 0.0f};
  glm::vec3 up_{0.0f, 1.0f, 0.0f};
  float maxYaw_ = 2.0f, maxPitchUp_ = 1.2f, maxPitchDown_ = 1.2f;
  float yawSlope_ = 0.0f, pitchUpSlope_ = 0.0f, pitchDownSlope_ = 0.0f;  // look_detail::InsideSlope of each limit
  LookBehind behind_ = LookBehind::kKeep;
  float side_ = 0.0f;  // 'keep': the side (+1 left, -1 right) the target was last seen in front; 0 none yet
  float aimYaw_ = std::numeric_limits<float>::quiet_NaN();  // the yaw aimed at (character frame); NaN: none yet
  float maxSpeed_ = 8.0f;
  bool tracking_ = true;  // the last update tracked the target directly (aimYaw_ caught up)
  float eyeYaw_ = 0.6f, eyePitchUp_ = 0.4f, eyePitchDown_ = 0.5f;
  std::array<pd::ScalarPD, 2> gaze_{};  // yaw, pitch
  bool gazeWithoutEyes_ = true;  // SetGazeWithoutEyes
  bool Gazes(std::size_t eyes) const { return eyes > 0 || gazeWithoutEyes_; }
};

}  // namespace ikpd
