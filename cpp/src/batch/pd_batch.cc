#include "ikpd/batch/pd_batch.h"

#include <cmath>
#include <limits>

namespace ikpd {
namespace {

using batch::FailAt;
using batch::LoadQuat;

Status ValidateShared(const pd::PdSettings& s, double dt) {
  if (const Status st = s.Validate(); !st) return st;
  if (s.ki != 0.0) return Error("ki: batches keep no integral state; must be 0");
  if (s.targetMotion != pd::TargetMotion::kHold) return Error("targetMotion: batches support 'hold' only");
  if (!std::isfinite(dt) || dt < 0.0) return Error("dt: must be a finite number >= 0");
  return Ok();
}

// The controllers compute in double; a state beyond the float range cannot be
// stored in the batch's float arrays (it used to become Infinity silently).
constexpr const char* kFloatOverflow =
    "dt: the state overflows float (step too large for these gains; see checkStability)";
bool FitsFloat(double v) { return std::fabs(v) <= static_cast<double>(std::numeric_limits<float>::max()); }

glm::dquat LoadDQuat(const float* field, std::size_t i) { return glm::dquat(LoadQuat(field, i)); }
glm::dvec3 LoadDVec3(const float* field, std::size_t i) { return glm::dvec3(batch::LoadVec3(field, i)); }

}  // namespace

Status PdBatchJob::Validate() const {
  if (const Status s = ValidateShared(settings, dt); !s) return s;
  if (count > 0 && (!value || !velocity || !target)) return Error("value: arrays must not be null");
  return Ok();
}

Status PdBatchJob::Run() const {
  if (const Status s = Validate(); !s) return s;
  for (std::size_t i = 0; i < count; ++i) {
    if (!std::isfinite(value[i])) return FailAt(Error("value: must be a finite number"), i, failedItem);
    if (!std::isfinite(velocity[i])) return FailAt(Error("velocity: must be a finite number"), i, failedItem);
    if (!std::isfinite(target[i])) return FailAt(Error("target: must be a finite number"), i, failedItem);
  }
  if (dt == 0.0) return Ok();
  if (!angle && settings.integrator == pd::Integrator::kExact && std::isinf(settings.maxVelocity)) {
    // Fast path, the same arithmetic as ScalarPD::Update for these settings (no
    // clamp, no integral, held target: one exact step on the error x − target),
    // with the step coefficients computed once for the whole batch.
    const pd::StepCoeffs c = pd::ExactStepCoeffs(settings.kp, settings.kd, dt);
    for (std::size_t i = 0; i < count; ++i) {
      const double g = target[i];
      double u = static_cast<double>(value[i]) - g;
      double w = velocity[i];
      pd::ApplyExactStep(c, dt, 0.0, 0.0, 0.0, u, w);
      if (!FitsFloat(g + u) || !FitsFloat(w)) return FailAt(Error(kFloatOverflow), i, failedItem);
      value[i] = static_cast<float>(g + u);
      velocity[i] = static_cast<float>(w);
    }
    return Ok();
  }
  pd::ScalarPD controller(settings, angle);
  for (std::size_t i = 0; i < count; ++i) {
    controller.Reset(value[i], velocity[i]);
    if (const Status s = controller.Update(dt, target[i]); !s) return FailAt(s, i, failedItem);
    if (!FitsFloat(controller.value()) || !FitsFloat(controller.velocity())) {
      return FailAt(Error(kFloatOverflow), i, failedItem);
    }
    value[i] = static_cast<float>(controller.value());
    velocity[i] = static_cast<float>(controller.velocity());
  }
  return Ok();
}

Status QuatPdBatchJob::Validate() const {
  if (const Status s = ValidateShared(settings, dt); !s) return s;
  if (settings.method != pd::RotationUpdate::kLogMap) return Error("method: batches support 'log' only");
  if (count > 0 && (!value || !velocity || !target)) return Error("value: arrays must not be null");
  return Ok();
}

Status QuatPdBatchJob::Run() const {
  if (const Status s = Validate(); !s) return s;
  for (std::size_t i = 0; i < count; ++i) {
    if (!IsUsableRotation(LoadQuat(value, i))) {
      return FailAt(Error("value: must be a finite, non-zero quaternion"), i, failedItem);
    }
    if (!IsFinite(batch::LoadVec3(velocity, i))) return FailAt(Error("velocity: must be finite"), i, failedItem);
    if (!IsUsableRotation(LoadQuat(target, i))) {
      return FailAt(Error("target: must be a finite, non-zero quaternion"), i, failedItem);
    }
  }
  if (settings.integrator == pd::Integrator::kExact && std::isinf(settings.maxVelocity) &&
      settings.maxAngle >= static_cast<double>(kPi)) {
    // Fast path, the same arithmetic as QuatPD::Reset + Update for these settings
    // (log chart at the target, one exact step, no clamps), with the step
    // coefficients computed once for the whole batch.
    const pd::StepCoeffs c = pd::ExactStepCoeffs(settings.kp, settings.kd, dt);
    for (std::size_t i = 0; i < count; ++i) {
      const glm::dquat q = glm::normalize(LoadDQuat(value, i));
      glm::dquat g = glm::normalize(LoadDQuat(target, i));
      if (glm::dot(g, q) < 0.0) g = -g;
      glm::dvec3 u = pd::QuatLogChart(q, g);
      glm::dvec3 w = pd::LeftJacobianInverseTimes(u, LoadDVec3(velocity, i));
      for (int k = 0; k < 3; ++k) pd::ApplyExactStep(c, dt, 0.0, 0.0, 0.0, u[k], w[k]);
      batch::StoreQuat(value, i, glm::quat(pd::QuatExpChart(u, g)));
      batch::StoreVec3(velocity, i, glm::vec3(pd::LeftJacobianTimes(u, w)));
    }
    return Ok();
  }
  pd::QuatPD controller(settings);
  for (std::size_t i = 0; i < count; ++i) {
    if (const Status s = controller.Reset(LoadDQuat(value, i), LoadDVec3(velocity, i)); !s) {
      return FailAt(s, i, failedItem);
    }
    if (const Status s = controller.Update(dt, LoadDQuat(target, i)); !s) return FailAt(s, i, failedItem);
    const glm::dvec3 omega = controller.velocity();
    if (!FitsFloat(omega.x) || !FitsFloat(omega.y) || !FitsFloat(omega.z)) {
      return FailAt(Error(kFloatOverflow), i, failedItem);
    }
    batch::StoreQuat(value, i, glm::quat(controller.value()));
    batch::StoreVec3(velocity, i, glm::vec3(controller.velocity()));
  }
  return Ok();
}

}  // namespace ikpd
