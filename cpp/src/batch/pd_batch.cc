#include "ikpd/batch/pd_batch.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "../pd/quat_pd_kernel.h"
#include "in_lanes.h"

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
// stored in the batch's float arrays: such a step is an error, not Infinity.
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
  // A zero step leaves the state as it is, except that angles are wrapped to
  // (−π, π] as AnglePD's Reset wraps them (the controller path below does).
  if (dt == 0.0 && !angle) return Ok();
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

namespace {

using simd::kWide;
using simd::Wide;

// Items i .. i + kWide − 1 all valid, judged from the quaternions' squared
// lengths (NaN, ±Inf and zero fail the range test; lengths that overflow
// float only send the group to the per-item checks) and the velocities'
// finiteness. False sends the group to the per-item checks. *unit tells
// whether every value and target there has |q|² in (0.5, 2).
bool QuatGroupValid(const QuatPdBatchJob& job, std::size_t i, bool* unit) {
  constexpr std::size_t n = kWide;
  if (!simd::AllFinite(job.velocity + 3 * i, 3 * n)) return false;
  const simd::Q4<Wide> q = simd::LoadQ4<Wide>(job.value, i), g = simd::LoadQ4<Wide>(job.target, i);
  const Wide qq = simd::Dot(q, q), gg = simd::Dot(g, g);
  *unit = simd::All(simd::And(simd::And(qq > 0.5f, qq < 2.0f), simd::And(gg > 0.5f, gg < 2.0f)));
  return *unit || simd::All(simd::And(simd::And(qq > 1e-12f, qq < 3.0e38f), simd::And(gg > 1e-12f, gg < 3.0e38f)));
}

// Item i's exact error message (the per-item rules above, one at a time).
Status QuatItemStatus(const QuatPdBatchJob& job, std::size_t i) {
  if (!IsUsableRotation(LoadQuat(job.value, i))) return Error("value: must be a finite, non-zero quaternion");
  if (!IsFinite(batch::LoadVec3(job.velocity, i))) return Error("velocity: must be finite");
  if (!IsUsableRotation(LoadQuat(job.target, i))) return Error("target: must be a finite, non-zero quaternion");
  return Ok();
}

// Items i .. i + lanes − 1 through the float kernel; false (nothing stored)
// when a lane's result is not finite. The kernel does not depend on the
// lengths of q and g, so only those far from unit are normalized (rounding a
// unit quaternion again would cost accuracy); with `unit` the caller knows
// there are none.
template <class F>
bool QuatExactItems(const QuatPdBatchJob& job, const pd::kernel::StepLanes<F>& c, bool unit, std::size_t i) {
  auto unitish = [unit](const simd::Q4<F>& q) {
    if (unit) return q;
    const F qq = simd::Dot(q, q);
    const auto near = simd::And(qq > 0.5f, qq < 2.0f);
    return simd::All(near) ? q : simd::Select(near, q, simd::NormalizeSafe(q));
  };
  const simd::Q4<F> q = unitish(simd::LoadQ4<F>(job.value, i));
  const simd::Q4<F> g = unitish(simd::LoadQ4<F>(job.target, i));
  simd::Q4<F> nq;
  simd::V3<F> nw;
  pd::kernel::QuatPdExactStep(c, q, simd::LoadV3<F>(job.velocity, i), g, &nq, &nw);
  // Finite check: 0·x is ±0 unless x is NaN or ±Inf. A value that is no longer
  // about unit (float sin/cos of a rotation of ~1e11 rad: a huge velocity
  // times dt) goes through the controller in double as well.
  const F zero = (nq.x * 0.0f + nq.y * 0.0f) + (nq.z * 0.0f + nq.w * 0.0f) + (nw.x * 0.0f + nw.y * 0.0f + nw.z * 0.0f);
  const F nn = simd::Dot(nq, nq);
  if (!simd::All(zero == 0.0f) || !simd::All(simd::And(nn > 0.5f, nn < 2.0f))) return false;
  simd::StoreQ4(job.value, i, nq);
  simd::StoreV3(job.velocity, i, nw);
  return true;
}

// Item i through the controller (double precision): Reset to the item's state, Update.
Status QuatControllerItem(const QuatPdBatchJob& job, pd::QuatPD& controller, std::size_t i) {
  if (const Status s = controller.Reset(LoadDQuat(job.value, i), LoadDVec3(job.velocity, i)); !s) return s;
  if (const Status s = controller.Update(job.dt, LoadDQuat(job.target, i)); !s) return s;
  const glm::dvec3 omega = controller.velocity();
  if (!FitsFloat(omega.x) || !FitsFloat(omega.y) || !FitsFloat(omega.z)) return Error(kFloatOverflow);
  batch::StoreQuat(job.value, i, glm::quat(controller.value()));
  batch::StoreVec3(job.velocity, i, glm::vec3(omega));
  return Ok();
}

}  // namespace

Status QuatPdBatchJob::Run() const {
  if (const Status s = Validate(); !s) return s;
  // Pass 1: every item valid (kWide at a time), else the first invalid item's Status.
  bool unit = true;  // every value and target of about unit length
  const Status valid = batch::InLanes(
      count,
      [&](std::size_t i) {
        bool groupUnit = false;
        const bool ok = QuatGroupValid(*this, i, &groupUnit);
        unit = unit && ok && groupUnit;
        return ok;
      },
      [&](std::size_t j) {
        unit = false;
        return QuatItemStatus(*this, j);
      },
      failedItem);
  if (!valid) return valid;
  pd::QuatPD controller(settings);
  if (settings.integrator == pd::Integrator::kExact && std::isinf(settings.maxVelocity) &&
      settings.maxAngle >= static_cast<double>(kPi)) {
    // The exact log-map step with coefficients computed once (in double) for
    // the whole batch, in float lanes. A lane whose float result overflows
    // goes through the controller in double instead.
    const pd::StepCoeffs k = pd::ExactStepCoeffs(settings.kp, settings.kd, dt);
    const pd::kernel::StepLanes<float> c1{static_cast<float>(k.ee), static_cast<float>(k.ev),
                                          static_cast<float>(k.ve), static_cast<float>(k.vv)};
    const pd::kernel::StepLanes<Wide> cw{c1.ee, c1.ev, c1.ve, c1.vv};
    return batch::InLanes(
        count, [&](std::size_t i) { return QuatExactItems<Wide>(*this, cw, unit, i); },
        [&](std::size_t j) {
          return QuatExactItems<float>(*this, c1, unit, j) ? Ok() : QuatControllerItem(*this, controller, j);
        },
        failedItem);
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (const Status s = QuatControllerItem(*this, controller, i); !s) return FailAt(s, i, failedItem);
  }
  return Ok();
}

}  // namespace ikpd
