#include "ikpd/rig/body_look_at.h"

#include <algorithm>
#include <cmath>

#include "ikpd/ik/two_bone.h"
#include "../ik/chain/rotation.h"
#include "body_parts.h"
#include "fields.h"

namespace ikpd {

using describe::CheckRange;
using describe::FirstError;

using body_detail::Carry;
using body_detail::Horizontal;
using body_detail::kIdentity;
using body_detail::kLimbJoints;
using body_detail::Moved;

namespace {

bool LimbCountOk(std::size_t n) { return n == 0 || n == kLimbJoints || n == 2 * kLimbJoints; }

Status CheckJoints(std::span<const Transform> joints, const char* positionError, const char* rotationError) {
  for (const Transform& j : joints) {
    if (!IsFinite(j.position)) return Error(positionError);
    if (!IsUsableRotation(j.rotation)) return Error(rotationError);
  }
  return Ok();
}

Status CheckSpan(std::span<const float> values, std::size_t n, float lo, float hi, const char* sizeError,
                 const char* rangeError) {
  if (!values.empty() && values.size() != n) return Error(sizeError);
  for (float v : values) {
    if (!(v >= lo && v <= hi)) return Error(rangeError);
  }
  return Ok();
}


// The joint as given, its rotation normalized (bit for bit when it is unit already).
Transform Unit(const Transform& joint) {
  const float n = glm::dot(joint.rotation, joint.rotation);
  if (n == 1.0f) return joint;
  return {joint.position, NormalizeByReciprocalOr(joint.rotation, kIdentityRotation)};
}

}  // namespace

void DefaultBodyLookAtWeights(std::span<float> out) {
  const std::size_t n = out.size();
  float remaining = 0.0f;
  for (std::size_t i = n; i-- > 0;) {
    const float share = static_cast<float>((i + 1) * (i + 1));
    remaining += share;
    out[i] = share / remaining;
  }
  if (n > 0) out[n - 1] = 1.0f;
}

void DefaultBodyLookAtLimits(std::span<float> out) {
  const std::size_t n = out.size();
  for (std::size_t i = 0; i < n; ++i) out[i] = i == 0 ? 0.35f : 0.45f;
  if (n >= 3) out[n - 2] = 0.9f;
  if (n >= 2) out[n - 1] = 1.2f;
}

void DefaultBodyLookAtSettleTimes(float head, float pelvis, std::span<float> out) {
  const std::size_t n = out.size();
  for (std::size_t i = 0; i < n; ++i) {
    const float t = n > 1 ? static_cast<float>(i) / static_cast<float>(n - 1) : 1.0f;
    out[i] = pelvis + (head - pelvis) * t;
  }
}

Status BodyLookAtSettings::Validate() const {
  const std::size_t n = spineJoints;
  if (n < 2) return Error("spineJoints: needs at least 2 (pelvis and head)");
  if (Status s = CheckSpan(spine.weights, n, 0.0f, 1.0f, "spine.weights: needs one weight per spine joint",
                           "spine.weights: every weight must be in [0, 1]");
      !s) {
    return s;
  }
  if (Status s = CheckSpan(spine.limits, n, 0.0f, kPi, "spine.limits: needs one limit per spine joint",
                           "spine.limits: every limit must be in [0, pi]");
      !s) {
    return s;
  }
  if (!spine.settleTimes.empty() && spine.settleTimes.size() != n) {
    return Error("spine.settleTime: needs one settle time per spine joint");
  }
  // JS gives both ends' settle times (or one per joint) as spine.settleTime.
  for (float t : spine.settleTimes) {
    if (const Status s = CheckRange<BodyLookAtSettings, "spine.headSettleTime", "spine.settleTime">(t); !s) return s;
  }
  if (const Status s = FirstError({CheckRange<BodyLookAtSettings, "spine.headSettleTime", "spine.settleTime">(spine.headSettleTime),
                                    CheckRange<BodyLookAtSettings, "spine.pelvisSettleTime", "spine.settleTime">(spine.pelvisSettleTime),
                                    CheckRange<BodyLookAtSettings, "spine.damping">(spine.damping)});
      !s) {
    return s;
  }
  if (!IsFinite(forward) || forward == glm::vec3(0.0f)) return Error("forward: must be a finite non-zero vector");
  if (!IsFinite(up) || up == glm::vec3(0.0f)) return Error("up: must be a finite non-zero vector");
  if (!IsFinite(offset)) return Error("offset: must be finite");
  if (const Status s = FirstError({CheckRange<BodyLookAtSettings, "weightShift.amount">(weightShift.amount),
                                    CheckRange<BodyLookAtSettings, "weightShift.limit">(weightShift.limit),
                                    CheckRange<BodyLookAtSettings, "weightShift.settleTime">(weightShift.settleTime),
                                    CheckRange<BodyLookAtSettings, "weightShift.damping">(weightShift.damping),
                                    CheckRange<BodyLookAtSettings, "armReaction.amount">(armReaction.amount),
                                    CheckRange<BodyLookAtSettings, "armReaction.settleTime">(armReaction.settleTime),
                                    CheckRange<BodyLookAtSettings, "armReaction.damping">(armReaction.damping)});
      !s) {
    return s;
  }
  if (armReaction.chest < -1 || armReaction.chest >= static_cast<int>(n)) {
    return Error("armReaction.chest: must be -1 or a spine index");
  }
  if (const Status s = FirstError({CheckRange<BodyLookAtSettings, "blendOutTime">(blendOutTime),
                                    CheckRange<BodyLookAtSettings, "spine.maxSpeed">(spine.maxSpeed)});
      !s) {
    return s;
  }
  if (static_cast<unsigned>(spine.targetMotion) > 1u) return Error("spine.targetMotion: must be 'hold' or 'linear'");
  if (const Status s = FirstError({CheckRange<BodyLookAtSettings, "spine.ki">(spine.ki), CheckRange<BodyLookAtSettings, "maxYaw">(maxYaw),
                                    CheckRange<BodyLookAtSettings, "maxPitchUp">(maxPitchUp), CheckRange<BodyLookAtSettings, "maxPitchDown">(maxPitchDown),
                                    CheckRange<BodyLookAtSettings, "eyeYaw">(eyeYaw), CheckRange<BodyLookAtSettings, "eyePitchUp">(eyePitchUp),
                                    CheckRange<BodyLookAtSettings, "eyePitchDown">(eyePitchDown)});
      !s) {
    return s;
  }
  if (static_cast<unsigned>(behind) > 2u) return Error("behind: must be 'keep', 'front' or 'follow'");
  return CheckRange<BodyLookAtSettings, "eyeSettleTime">(eyeSettleTime);
}

Status BodyLookAt::Reset(const BodyLookAtSettings& s) { return Apply(s, false); }

Status BodyLookAt::Configure(const BodyLookAtSettings& s) { return Apply(s, look_.size() == s.spineJoints); }

Status BodyLookAt::Apply(const BodyLookAtSettings& s, bool keepState) {
  if (Status st = s.Validate(); !st) return st;
  const std::size_t n = s.spineJoints;
  Buffer<float> weights, limits, settle;
  if (!weights.Allocate(n) || !limits.Allocate(n) || !settle.Allocate(n)) {
    return Error("spineJoints: out of memory for the spine's state");
  }
  if (s.spine.weights.empty()) DefaultBodyLookAtWeights(weights);
  else std::copy(s.spine.weights.begin(), s.spine.weights.end(), weights.begin());
  if (s.spine.limits.empty()) DefaultBodyLookAtLimits(limits);
  else std::copy(s.spine.limits.begin(), s.spine.limits.end(), limits.begin());
  if (s.spine.settleTimes.empty()) DefaultBodyLookAtSettleTimes(s.spine.headSettleTime, s.spine.pelvisSettleTime, settle);
  else std::copy(s.spine.settleTimes.begin(), s.spine.settleTimes.end(), settle.begin());

  LookAtSettings lookSettings;
  lookSettings.weights = weights;
  lookSettings.limits = limits;
  lookSettings.settleTimes = settle;
  lookSettings.damping = s.spine.damping;
  lookSettings.blendOutTime = s.blendOutTime;
  lookSettings.forward = s.forward;
  lookSettings.offset = s.offset;
  lookSettings.up = s.up;
  lookSettings.maxYaw = s.maxYaw;
  lookSettings.maxPitchUp = s.maxPitchUp;
  lookSettings.maxPitchDown = s.maxPitchDown;
  lookSettings.behind = s.behind;
  lookSettings.maxSpeed = s.spine.maxSpeed;
  lookSettings.targetMotion = s.spine.targetMotion;
  lookSettings.ki = s.spine.ki;
  lookSettings.eyeYaw = s.eyeYaw;
  lookSettings.eyePitchUp = s.eyePitchUp;
  lookSettings.eyePitchDown = s.eyePitchDown;
  lookSettings.eyeSettleTime = s.eyeSettleTime;
  LookAt look;
  if (keepState) look = look_;
  if (Status st = keepState ? look.Configure(lookSettings) : look.Reset(lookSettings); !st) return st;

  // Shift and arms track moving targets (the spine as it turns): 'linear' target
  // motion keeps that close to rate-independent.
  pd::PdSettings shift, arm;
  if (Status st = pd::SettingsFromSettleTime(s.weightShift.settleTime, s.weightShift.damping, &shift); !st) {
    return Error("weightShift.settleTime: must be a finite number > 0");
  }
  if (Status st = pd::SettingsFromSettleTime(s.armReaction.settleTime, s.armReaction.damping, &arm); !st) {
    return Error("armReaction.settleTime: must be a finite number > 0");
  }
  shift.targetMotion = arm.targetMotion = pd::TargetMotion::kLinear;
  shift.blendOutTime = arm.blendOutTime = s.blendOutTime;
  shift.restTolerance = 1e-5;  // metres
  std::array<pd::ScalarPD, 3> shiftControllers;
  std::array<pd::QuatPD, kMaxLimbs> armControllers;
  if (keepState) {  // Configure keeps each controller's state
    shiftControllers = shift_;
    armControllers = arms_;
  }
  for (pd::ScalarPD& c : shiftControllers) {
    if (Status st = c.Configure(shift); !st) return st;
  }
  for (pd::QuatPD& c : armControllers) {
    if (Status st = c.Configure(arm); !st) return st;
  }

  settings_ = s;
  settings_.spine.weights = settings_.spine.limits = settings_.spine.settleTimes = {};
  settings_.forward = NormalizeByReciprocalOr(s.forward, glm::vec3(0.0f, 0.0f, 1.0f));
  settings_.up = NormalizeByReciprocalOr(s.up, glm::vec3(0.0f, 1.0f, 0.0f));
  weights_ = std::move(weights);
  limits_ = std::move(limits);
  settleTimes_ = std::move(settle);
  look_ = std::move(look);
  shift_ = shiftControllers;
  arms_ = armControllers;
  const int chest = s.armReaction.chest >= 0 ? s.armReaction.chest : static_cast<int>(n) - 3;
  chest_ = static_cast<std::size_t>(std::max(chest, 0));
  if (!keepState) drop_ = 0.0f;  // Configure keeps the pelvis drop with the rest of the state
  return Ok();
}

void BodyLookAt::Clear() {
  look_.Clear();
  for (pd::ScalarPD& c : shift_) c.Reset(0.0);
  for (pd::QuatPD& c : arms_) c.Reset(glm::dquat(1.0, 0.0, 0.0, 0.0));
  drop_ = 0.0f;
}

glm::vec3 BodyLookAt::pelvisShift() const {
  return glm::vec3(static_cast<float>(shift_[0].value()), static_cast<float>(shift_[1].value()),
                   static_cast<float>(shift_[2].value()));
}

bool BodyLookAt::active() const {
  if (look_.active()) return true;
  for (const pd::ScalarPD& c : shift_) {
    if (c.value() != 0.0) return true;
  }
  for (const pd::QuatPD& c : arms_) {
    if (c.value() != glm::dquat(1.0, 0.0, 0.0, 0.0)) return true;
  }
  return false;
}

Status BodyLookAt::CheckInput(float dt, const BodyLookAtInput& in, const BodyLookAtOutput& out) const {
  const std::size_t n = look_.size();
  if (n == 0) return Error("bodyLookAt: not initialized");
  if (!(dt >= 0.0f) || !IsFinite(dt)) return Error("dt: must be finite and >= 0");
  if (!IsFinite(in.target)) return Error("target: must be finite");
  if (in.spine.size() != n) return Error("spine: needs one joint per spine joint (pelvis ... head)");
  if (!LimbCountOk(in.arms.size())) return Error("arms: needs 0, 3 or 6 joints (upper, lower, hand per arm)");
  if (!LimbCountOk(in.legs.size())) return Error("legs: needs 0, 3 or 6 joints (hip, knee, ankle per leg)");
  if (Status s = CheckJoints(in.spine, "spine: positions must be finite", "spine: rotations must be finite and non-zero");
      !s) {
    return s;
  }
  if (Status s = CheckJoints(in.arms, "arms: positions must be finite", "arms: rotations must be finite and non-zero");
      !s) {
    return s;
  }
  if (Status s = CheckJoints(in.legs, "legs: positions must be finite", "legs: rotations must be finite and non-zero");
      !s) {
    return s;
  }
  if (out.spine.size() != n) return Error("output.spine: needs one entry per spine joint");
  if (out.arms.size() != in.arms.size()) return Error("output.arms: needs one entry per arm joint");
  if (out.legs.size() != in.legs.size()) return Error("output.legs: needs one entry per leg joint");
  if (in.eyes.size() > 2) return Error("eyes: needs 0, 1 or 2 joints (left, right)");
  if (Status s = CheckJoints(in.eyes, "eyes: positions must be finite", "eyes: rotations must be finite and non-zero");
      !s) {
    return s;
  }
  if (out.eyes.size() != in.eyes.size()) return Error("output.eyes: needs one entry per eye");
  return Ok();
}

Status BodyLookAt::Update(float dt, const BodyLookAtInput& in, const BodyLookAtOutput& out) {
  if (Status s = CheckInput(dt, in, out); !s) return s;
  // (1) Upper-body look-at; while it is (still) active, the layered effects track it.
  // The weight shift will translate the spine: aim from where the head will be
  // (the shift so far; exact once it settles).
  const glm::vec3 moved = pelvisShift() - drop_ * settings_.up;
  if (Status s = look_.Update(dt, in.spine, in.target - moved, in.enabled, out.spine, in.eyes, out.eyes); !s) return s;
  // A later stage may still fail (a controller refusing a step): then everything
  // goes back as it was, the look-at included, so a failed update changes nothing.
  const std::array<pd::ScalarPD, 3> shift = shift_;
  const std::array<pd::QuatPD, kMaxLimbs> arms = arms_;
  const float drop = drop_;
  std::array<Transform, 3 * kMaxLimbs> armsOut{}, legsOut{};
  std::copy(out.arms.begin(), out.arms.end(), armsOut.begin());
  std::copy(out.legs.begin(), out.legs.end(), legsOut.begin());
  const auto undo = [&](Status s) {
    shift_ = shift, arms_ = arms, drop_ = drop;
    std::copy(armsOut.begin(), armsOut.begin() + static_cast<std::ptrdiff_t>(out.arms.size()), out.arms.begin());
    std::copy(legsOut.begin(), legsOut.begin() + static_cast<std::ptrdiff_t>(out.legs.size()), out.legs.begin());
    look_.Undo(out.spine, out.eyes);
    return s;
  };
  const bool tracking = in.enabled || look_.active();
  if (Status s = ShiftPelvis(dt, in, tracking, out); !s) return undo(s);
  if (Status s = ReactArms(dt, in, tracking, out); !s) return undo(s);
  if (!active()) {  // every effect is exactly zero: the animated pose (rotations made unit)
    std::transform(in.spine.begin(), in.spine.end(), out.spine.begin(), Unit);
    std::transform(in.arms.begin(), in.arms.end(), out.arms.begin(), Unit);
    std::transform(in.legs.begin(), in.legs.end(), out.legs.begin(), Unit);
    std::transform(in.eyes.begin(), in.eyes.end(), out.eyes.begin(), Unit);
    drop_ = 0.0f;
    return Ok();
  }
  LockFeet(in, out);
  return Ok();
}

// (2) Weight shift: the pelvis moves against the head's lean and turn.
Status BodyLookAt::ShiftPelvis(float dt, const BodyLookAtInput& in, bool tracking, const BodyLookAtOutput& out) {
  const std::size_t head = look_.size() - 1;
  glm::vec3 goal(0.0f);
  if (tracking) {
    const glm::vec3& up = settings_.up;
    const glm::quat animated = NormalizeByReciprocalOr(in.spine[head].rotation, kIdentityRotation);
    const glm::quat q = glm::normalize(out.spine[head].rotation * glm::conjugate(animated));
    const glm::vec3 lean = Horizontal(q * up - up, up);
    const glm::vec3 look = Horizontal(animated * settings_.forward, up);
    glm::vec3 turn(0.0f);
    if (glm::dot(look, look) > 1e-12f) {
      const glm::vec3 f = glm::normalize(look);
      turn = Horizontal(q * f - f, up);
    }
    goal = -settings_.weightShift.amount * (lean + turn);
    const float length = glm::length(goal);
    if (length > settings_.weightShift.limit) goal *= settings_.weightShift.limit / length;
  }
  for (int axis = 0; axis < 3; ++axis) {
    pd::ScalarPD& c = shift_[static_cast<std::size_t>(axis)];
    const Status s = tracking ? c.Update(dt, goal[axis]) : c.UpdateBlendOut(dt, 0.0);
    if (!s) return s;
  }
  const glm::vec3 shift = pelvisShift();
  if (shift != glm::vec3(0.0f)) {
    for (Transform& j : out.spine) j.position += shift;
    for (Transform& j : out.eyes) j.position += shift;
  }
  // Then the whole body lowers as far as the legs need to reach their ankles.
  drop_ = ReachDrop(in, out);
  if (drop_ > 0.0f) {
    const glm::vec3 down = -drop_ * settings_.up;
    for (Transform& j : out.spine) j.position += down;
    for (Transform& j : out.eyes) j.position += down;
  }
  return Ok();
}

// (3) Arm reaction: each arm follows the chest's look-at rotation with a lag.
Status BodyLookAt::ReactArms(float dt, const BodyLookAtInput& in, bool tracking, const BodyLookAtOutput& out) {
  const Transform& chestIn = in.spine[chest_];
  const Transform& chestOut = out.spine[chest_];
  const glm::quat chestDelta = glm::normalize(chestOut.rotation * glm::conjugate(NormalizeByReciprocalOr(chestIn.rotation, kIdentityRotation)));
  const std::size_t limbs = in.arms.size() / kLimbJoints;
  for (std::size_t k = 0; k < limbs; ++k) {
    pd::QuatPD& c = arms_[k];
    const Status s = tracking ? c.Update(dt, glm::dquat(chestDelta)) : c.UpdateBlendOut(dt);
    if (!s) return s;
    glm::quat lag = glm::normalize(c.valuef());
    if (glm::dot(lag, chestDelta) < 0.0f) lag = -lag;
    const glm::quat arm = glm::normalize(glm::slerp(chestDelta, lag, settings_.armReaction.amount));
    const std::size_t first = k * kLimbJoints;
    const Transform& upper = in.arms[first];
    // The chest carries the shoulder; the arm then turns about it.
    const glm::vec3 shoulder = Moved(upper.position, chestDelta, chestIn.position, chestOut.position);
    for (std::size_t j = first; j < first + kLimbJoints; ++j) {
      out.arms[j] = Carry(in.arms[j], arm, upper.position, shoulder);
    }
  }
  return Ok();
}

}  // namespace ikpd
