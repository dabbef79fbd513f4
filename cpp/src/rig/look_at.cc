#include "ikpd/rig/look_at.h"

#include <algorithm>
#include <cmath>

#include "ikpd/ik/aim.h"
#include "fields.h"
#include "look_frame.h"

namespace ikpd {

using describe::CheckRange;
using describe::FirstError;

namespace {
const glm::quat kIdentity(1.0f, 0.0f, 0.0f, 0.0f);

}  // namespace

// The head's turn that puts the ray from its eye point (`eye`, head-local, in
// the working scale) along `forward` through `goal` (docs/ik/aim.md, the offset):
// AimJob's shortest arc with that offset; identity for a goal inside the eye's reach.
glm::quat LookAt::EyeTurn(const Transform& head, const glm::vec3& eye, const glm::vec3& goal) const {
  glm::quat solved = head.rotation;
  AimJob job;
  job.frame.position = head.position;
  job.frame.rotation = head.rotation;
  job.frame.target = goal;
  job.settings.forward = forward_;
  job.settings.method = AimMethod::kShortestArc;
  job.settings.offset = eye;
  job.result = &solved;
  if (!job.Run()) return kIdentity;  // cannot fail for the finite, unit working pose
  return glm::normalize(solved * glm::conjugate(head.rotation));
}

// Stage (1) (docs/rig/look-at.md, "Stage 1"). Joint i's turn moves joints
// i..n−1 rigidly about joint i; instead of moving them, the goal is moved by
// the inverse turn, which leaves the same pose relative to the goal: every
// joint keeps its animated frame, so the offset in joint i's frame is its
// turn with the axis carried into that frame, and the head keeps its animated
// look axis `look` and eye point `eye`. Each turn is one angle and axis from
// the look axis and the aim direction (the share and the limit scale the
// angle), not an arc, a slerp and a clamp; `moved` (the turns so far) carries
// the aim direction into the limits' frame only.
void LookAt::DesiredOffsets(std::span<const Transform> pose, const look_detail::Frame& frame, const glm::vec3& look,
                            const glm::vec3& eyeLocal, const glm::vec3& eye, const glm::vec3& goal, float fixedYaw) {
  const std::size_t n = pose.size();
  const bool hasOffset = offset_ != glm::vec3(0.0f);
  const bool limited = !std::isnan(fixedYaw) || maxYaw_ < kPi || maxPitchUp_ < kPi / 2.0f || maxPitchDown_ < kPi / 2.0f;
  glm::vec3 toGoal = goal - eye;  // the goal as seen from the eye, the turns so far undone
  glm::quat moved = kIdentity;
  for (std::size_t i = 0; i < n; ++i) {
    glm::vec3 aim = toGoal;
    if (limited) {
      const glm::vec3 seen = moved * toGoal;
      const glm::vec3 kept = LimitedDirection(frame, seen, fixedYaw);
      if (kept != seen) aim = glm::conjugate(moved) * kept;
    }
    const look_detail::Turn turn =
        hasOffset ? look_detail::TurnOf(EyeTurn(pose[n - 1], eyeLocal, eye + aim)) : look_detail::TurnBetween(look, aim);
    const float angle = std::min(weights_[i] * turn.angle, limits_[i]);
    if (!(angle > 0.0f)) {
      desired_[i] = kIdentity;
      continue;
    }
    const float c = std::max(std::cos(0.5f * angle), 0.0f), s = std::sin(0.5f * angle);  // a half turn: float π's cosine is -4e-8
    desired_[i] = glm::quat(c, s * (glm::conjugate(pose[i].rotation) * turn.axis));  // R_i·offset = delta·R_i
    if (i + 1 == n) break;
    const glm::quat delta(c, s * turn.axis);
    const glm::vec3 pivot = pose[i].position - eye;
    toGoal = pivot + glm::conjugate(delta) * (toGoal - pivot);
    moved = moved * delta;
  }
}

Status LookAt::Reset(const LookAtSettings& s) { return Apply(s, false); }

Status LookAt::Configure(const LookAtSettings& s) { return Apply(s, weights_.size() == s.weights.size()); }

Status LookAt::Apply(const LookAtSettings& s, bool keepState) {
  const std::size_t n = s.weights.size();
  if (n == 0) return Error("weights: needs one weight per joint (at least one)");
  for (float w : s.weights) {
    if (!(w >= 0.0f && w <= 1.0f)) return Error("weights: every weight must be in [0, 1]");
  }
  if (!s.limits.empty() && s.limits.size() != n) return Error("limits: needs one limit per joint");
  for (float l : s.limits) {
    if (!(l >= 0.0f && l <= kPi)) return Error("limits: every limit must be in [0, pi]");
  }
  if (!s.settleTimes.empty() && s.settleTimes.size() != n) return Error("settleTime: needs one settle time per joint");
  for (float t : s.settleTimes) {
    if (const Status r = CheckRange<LookAtSettings, "settleTime">(t); !r) return r;
  }
  if (const Status r = FirstError({CheckRange<LookAtSettings, "settleTime">(s.settleTime), CheckRange<LookAtSettings, "damping">(s.damping),
                                    CheckRange<LookAtSettings, "blendOutTime">(s.blendOutTime)});
      !r) {
    return r;
  }
  if (!IsFinite(s.forward) || (s.forward.x == 0.0f && s.forward.y == 0.0f && s.forward.z == 0.0f)) {
    return Error("forward: must be a finite non-zero vector");
  }
  if (!IsFinite(s.offset)) return Error("offset: must be finite");
  if (!IsFinite(s.up) || s.up == glm::vec3(0.0f)) return Error("up: must be a finite non-zero vector");
  if (const Status r = FirstError({CheckRange<LookAtSettings, "maxYaw">(s.maxYaw), CheckRange<LookAtSettings, "maxPitchUp">(s.maxPitchUp),
                                    CheckRange<LookAtSettings, "maxPitchDown">(s.maxPitchDown)});
      !r) {
    return r;
  }
  if (static_cast<unsigned>(s.behind) > 2u) return Error("behind: must be 'keep', 'front' or 'follow'");
  if (const Status r = CheckRange<LookAtSettings, "maxSpeed">(s.maxSpeed); !r) return r;
  if (static_cast<unsigned>(s.targetMotion) > 1u) return Error("targetMotion: must be 'hold' or 'linear'");
  if (const Status r = FirstError({CheckRange<LookAtSettings, "ki">(s.ki), CheckRange<LookAtSettings, "eyeYaw">(s.eyeYaw),
                                    CheckRange<LookAtSettings, "eyePitchUp">(s.eyePitchUp),
                                    CheckRange<LookAtSettings, "eyePitchDown">(s.eyePitchDown),
                                    CheckRange<LookAtSettings, "eyeSettleTime">(s.eyeSettleTime)});
      !r) {
    return r;
  }
  Buffer<pd::QuatPD> controllers;
  pd::QuatPdLaneSet lanes;
  Buffer<float> weights, limits;
  Buffer<glm::quat> offsets, desired;
  Saved saved;
  if (!controllers.Allocate(n) || !weights.Allocate(n) || !limits.Allocate(n) || !offsets.Allocate(n) ||
      !desired.Allocate(n) || !saved.controllers.Allocate(n) || !saved.offsets.Allocate(n) ||
      !saved.desired.Allocate(n) || !saved.output.Allocate(n) || !lanes.Allocate(n)) {
    return Error("weights: out of memory for the joints' state");
  }
  if (keepState) lanes_.Commit({controllers_.data(), n});  // the state Configure keeps, out of the lanes
  for (std::size_t i = 0; i < n; ++i) {
    pd::PdSettings settings;
    const float settle = s.settleTimes.empty() ? s.settleTime : s.settleTimes[i];
    if (Status st = pd::SettingsFromSettleTime(settle, s.damping, &settings); !st) return st;
    settings.blendOutTime = s.blendOutTime;
    if (!s.limits.empty()) settings.maxAngle = std::max(static_cast<double>(s.limits[i]), 1e-6);
    settings.maxVelocity = s.maxSpeed;
    settings.targetMotion = s.targetMotion;
    settings.feedForward = s.targetMotion == pd::TargetMotion::kLinear ? 1.0 : 0.0;
    settings.ki = s.ki;
    if (keepState) controllers[i] = controllers_[i];  // Configure below keeps its state
    if (Status st = controllers[i].Configure(settings); !st) return st;
  }
  std::array<pd::ScalarPD, 2> gaze;
  if (keepState) gaze = gaze_;  // the gaze's smoothing state too
  {
    pd::PdSettings settings;
    if (Status st = pd::SettingsFromSettleTime(s.eyeSettleTime, 1.0, &settings); !st) return st;
    settings.blendOutTime = s.blendOutTime;
    for (pd::ScalarPD& c : gaze) {
      if (Status st = c.Configure(settings); !st) return st;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    weights[i] = s.weights[i];
    limits[i] = s.limits.empty() ? kPi : s.limits[i];
    offsets[i] = desired[i] = kIdentity;
  }
  weights_ = std::move(weights);
  limits_ = std::move(limits);
  controllers_ = std::move(controllers);
  lanes_ = std::move(lanes);
  saved_ = std::move(saved);
  if (keepState) {
    for (std::size_t i = 0; i < n; ++i) offsets[i] = offsets_[i], desired[i] = desired_[i];
  }
  offsets_ = std::move(offsets);
  desired_ = std::move(desired);
  forward_ = NormalizeByReciprocalOr(s.forward, glm::vec3(0.0f, 0.0f, 1.0f));
  offset_ = s.offset;
  up_ = NormalizeByReciprocalOr(s.up, glm::vec3(0.0f, 1.0f, 0.0f));
  maxYaw_ = s.maxYaw;
  maxPitchUp_ = s.maxPitchUp;
  maxPitchDown_ = s.maxPitchDown;
  yawSlope_ = look_detail::InsideSlope(s.maxYaw);
  pitchUpSlope_ = look_detail::InsideSlope(s.maxPitchUp);
  pitchDownSlope_ = look_detail::InsideSlope(s.maxPitchDown);
  behind_ = s.behind;
  if (!keepState) {  // Configure keeps the behind-side memory and the aim yaw
    side_ = 0.0f;
    aimYaw_ = std::numeric_limits<float>::quiet_NaN();
    tracking_ = true;
  }
  maxSpeed_ = s.maxSpeed;
  eyeYaw_ = s.eyeYaw;
  eyePitchUp_ = s.eyePitchUp;
  eyePitchDown_ = s.eyePitchDown;
  gaze_ = gaze;
  return Ok();
}

void LookAt::Clear() {
  for (std::size_t i = 0; i < controllers_.size(); ++i) {
    controllers_[i].Reset(glm::dquat(1.0, 0.0, 0.0, 0.0));
    offsets_[i] = kIdentity;
    desired_[i] = kIdentity;
  }
  lanes_.Drop();
  for (pd::ScalarPD& c : gaze_) c.Reset(0.0);
  side_ = 0.0f;
  aimYaw_ = std::numeric_limits<float>::quiet_NaN();
  tracking_ = true;
}

void LookAt::SetGazeWithoutEyes(bool on) {
  if (!on && gazeWithoutEyes_) {  // turned off: zeroed once (a later call keeps the eyes' gaze)
    for (pd::ScalarPD& c : gaze_) c.Reset(0.0);
  }
  gazeWithoutEyes_ = on;
}

bool LookAt::active() const {
  for (const glm::quat& q : offsets_) {
    if (q != kIdentity) return true;
  }
  return gaze_[0].value() != 0.0 || gaze_[1].value() != 0.0;
}

// A failed update changes nothing: a controller may refuse its step (the
// integrator diverging for these gains) after others stepped and `output`
// holds the working pose, so everything Step may change is saved first and
// put back (no allocation: the saved buffers are sized in Apply).
Status LookAt::Update(float dt, std::span<const Transform> joints, const glm::vec3& target, bool enabled,
                      std::span<Transform> output, std::span<const Transform> eyes, std::span<Transform> eyesOutput) {
  const std::size_t n = weights_.size();
  const bool sizes = n > 0 && output.size() == n && eyesOutput.size() <= 2;
  if (sizes) {
    if (lanes_.Save() != 0) {  // a kept controller's state is saved in lanes_
      for (std::size_t i = 0; i < n; ++i) {
        if (!lanes_.kept(i)) saved_.controllers[i] = controllers_[i];
      }
    }
    for (std::size_t i = 0; i < n; ++i) {  // element copies: no memory.copy call in WebAssembly
      saved_.offsets[i] = offsets_[i];
      saved_.desired[i] = desired_[i];
      saved_.output[i] = output[i];
    }
    for (std::size_t e = 0; e < eyesOutput.size(); ++e) saved_.eyes[e] = eyesOutput[e];
    if (Gazes(eyesOutput.size())) saved_.gaze = gaze_;
    saved_.side = side_, saved_.aimYaw = aimYaw_, saved_.tracking = tracking_;
  }
  const Status status = Step(dt, joints, target, enabled, output, eyes, eyesOutput);
  if (!status && sizes) Undo(output, eyesOutput);
  return status;
}

void LookAt::Undo(std::span<Transform> output, std::span<Transform> eyesOutput) {
  const std::size_t n = weights_.size();
  if (n == 0 || output.size() != n || eyesOutput.size() > 2) return;
  lanes_.Restore();
  for (std::size_t i = 0; i < n; ++i) {
    if (!lanes_.kept(i)) controllers_[i] = saved_.controllers[i];
    offsets_[i] = saved_.offsets[i];
    desired_[i] = saved_.desired[i];
    output[i] = saved_.output[i];
  }
  for (std::size_t e = 0; e < eyesOutput.size(); ++e) eyesOutput[e] = saved_.eyes[e];
  if (Gazes(eyesOutput.size())) gaze_ = saved_.gaze;
  side_ = saved_.side, aimYaw_ = saved_.aimYaw, tracking_ = saved_.tracking;
}

Status LookAt::Step(float dt, std::span<const Transform> joints, const glm::vec3& target, bool enabled,
                    std::span<Transform> output, std::span<const Transform> eyes, std::span<Transform> eyesOutput) {
  const std::size_t n = weights_.size();
  if (n == 0) return Error("lookAt: not initialized");
  if (joints.size() != n) return Error("joints: needs one joint per weight");
  if (output.size() != n) return Error("output: needs one entry per joint");
  if (!(dt >= 0.0f) || !IsFinite(dt)) return Error("dt: must be finite and >= 0");
  for (const Transform& j : joints) {
    if (!IsFinite(j.position)) return Error("joints: positions must be finite");
    if (!IsUsableRotation(j.rotation)) return Error("joints: rotations must be finite and non-zero");
  }
  if (!IsFinite(target)) return Error("target: must be finite");
  if (eyes.size() > 2) return Error("eyes: needs 0, 1 or 2 joints (left, right)");
  if (eyesOutput.size() != eyes.size()) return Error("eyesOutput: needs one entry per eye");
  for (const Transform& j : eyes) {
    if (!IsFinite(j.position)) return Error("eyes: positions must be finite");
    if (!IsUsableRotation(j.rotation)) return Error("eyes: rotations must be finite and non-zero");
  }

  // Work in coordinates relative to the head (differences only: no overflow for
  // huge but finite input), scaled to unit size.
  const glm::dvec3 origin(joints[n - 1].position);
  double extent = glm::length(glm::dvec3(target) - origin);
  for (const Transform& j : joints) extent = std::max(extent, glm::length(glm::dvec3(j.position) - origin));
  const double scale = extent > 0.0 ? extent : 1.0;
  auto local = [&](const glm::vec3& p) { return glm::vec3((glm::dvec3(p) - origin) / scale); };

  // The animated head and the character frame its limits are measured in.
  const glm::quat animatedHead = NormalizeByReciprocalOr(joints[n - 1].rotation, kIdentityRotation);
  const glm::vec3 animatedLook = animatedHead * forward_;
  const look_detail::Frame limitsFrame = look_detail::FrameOf(animatedLook, up_);

  // (1) Desired offsets, on a working copy of the animated pose (held in `output`).
  if (enabled) {
    for (std::size_t i = 0; i < n; ++i) output[i] = {local(joints[i].position), NormalizeByReciprocalOr(joints[i].rotation, kIdentityRotation)};
    const glm::vec3 goal = local(target);
    const glm::vec3 eyeLocal(glm::dvec3(offset_) / scale);
    const glm::vec3 eye = output[n - 1].position + animatedHead * eyeLocal;
    const float fixedYaw = FixedYaw(dt, limitsFrame, eye, goal);
    DesiredOffsets(output, limitsFrame, animatedLook, eyeLocal, eye, goal, fixedYaw);
  }

  if (!enabled) ForgetYaw();

  // (2) Smooth (or blend out) each offset; the joints' PDs in SIMD lanes (docs/pd/pd.md).
  // The lanes keep the PDs' state between enabled updates (docs/pd/pd.md,
  // "Lanes kept between updates"); blending out steps each PD in double.
  if (enabled) {
    if (const Status s = pd::UpdateQuatPDs(dt, {controllers_.data(), n}, {desired_.data(), n}, &lanes_); !s) return s;
  } else {
    lanes_.Commit({controllers_.data(), n});
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (!enabled) {
      if (const Status s = controllers_[i].UpdateBlendOut(dt); !s) return s;
    }
    offsets_[i] = glm::normalize(lanes_.valuef({controllers_.data(), n}, i));
  }

  // (3) Animated pose plus smoothed offsets, by forward kinematics: `carry`
  // takes the animated joint i−1 to its final rotation (final · animated⁻¹),
  // so joint i's final rotation is carry · animated · offset and its bone
  // vector turns by carry alone.
  glm::quat carry = kIdentity;
  glm::dvec3 parentAnimatedPos(0.0), parentFinalPos(0.0);
  for (std::size_t i = 0; i < n; ++i) {
    // Enabled, (1) left joint i's normalized animated rotation in output[i] (written below, after this read).
    const glm::quat animated = enabled ? output[i].rotation : NormalizeByReciprocalOr(joints[i].rotation, kIdentityRotation);
    const glm::dvec3 p(joints[i].position);
    glm::quat final = animated * offsets_[i];
    glm::dvec3 position = p;
    if (i > 0) {
      final = carry * final;
      // In doubles: a bone vector near the float limit must not overflow while it turns.
      position = parentFinalPos + glm::dquat(carry) * (p - parentAnimatedPos);
    }
    final = glm::normalize(final);
    output[i] = {glm::vec3(position), final};
    carry = final * glm::conjugate(animated);
    parentAnimatedPos = p;
    parentFinalPos = position;
  }

  // (3b) The head's look direction inside the limits of the animated frame.
  output[n - 1].rotation = HeldInLimits(limitsFrame, animatedLook, output[n - 1].rotation);

  // (4) The gaze and the eye joints, from the solved head (none without eyes, SetGazeWithoutEyes).
  if (!Gazes(eyes.size())) return Ok();
  return UpdateGaze(dt, {joints[n - 1].position, animatedHead}, target, enabled, eyes, eyesOutput, output[n - 1]);
}

}  // namespace ikpd
