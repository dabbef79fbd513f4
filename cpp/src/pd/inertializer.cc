// Inertialized transitions: offsets recorded at a switch, decayed by the exact
// critically damped spring (docs/pd/inertializer.md).
#include "ikpd/pd/inertializer.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtc/quaternion.hpp>

#include "ikpd/pd/spring.h"
#include "../simd/vec.h"

namespace ikpd::pd {
namespace {

constexpr std::size_t kMaxInertializerJoints = 65536;
// The shortest time between a previous pose and now: velocities stay far inside double.
constexpr double kMinDt = 1e-6;
constexpr double kFloatMax = std::numeric_limits<float>::max();
// The largest rotation offset (radians) Update evaluates in float: its rounding stays
// below 1e-6 rad; a larger one (a spin at the switch) is evaluated in double.
constexpr float kLaneAngle = 4.0f;

// Every value finite (four at a time over the raw floats) and every rotation non-zero.
bool UsablePose(std::span<const Transform> pose) {
  static_assert(sizeof(Transform) == 7 * sizeof(float), "Transform: 7 packed floats");
  if (!simd::AllFinite(reinterpret_cast<const float*>(pose.data()), 7 * pose.size())) return false;
  for (const Transform& t : pose) {
    if (!(glm::dot(t.rotation, t.rotation) > 1e-12f)) return false;
  }
  return true;
}

glm::dquat Unit(const glm::quat& q) { return glm::normalize(glm::dquat(q)); }
glm::dvec3 Position(const Transform& t) { return glm::dvec3(t.position); }

// Scaled angle-axis vector (angle in [0, π]) of a unit quaternion, the short way.
glm::dvec3 Log(glm::dquat q) {
  if (q.w < 0.0) q = -q;
  const glm::dvec3 v(q.x, q.y, q.z);
  const double s = std::sqrt(glm::dot(v, v));
  if (!(s > 0.0)) return glm::dvec3(0.0);
  return v * (2.0 * std::atan2(s, q.w) / s);
}

// The unit quaternion of a scaled angle-axis vector.
glm::dquat Exp(const glm::dvec3& r) {
  const double angle = std::sqrt(glm::dot(r, r));
  const double k = angle < 1e-8 ? 0.5 : std::sin(0.5 * angle) / angle;
  return {std::cos(0.5 * angle), r.x * k, r.y * k, r.z * k};
}

// Inverse of the left Jacobian of exp at r (angle <= π): the rate ṙ whose
// rotation exp(r(t)) turns at angular velocity w (parent frame).
glm::dvec3 InverseLeftJacobian(const glm::dvec3& r, const glm::dvec3& w) {
  const double angle = std::sqrt(glm::dot(r, r));
  // 1/θ² − cot(θ/2)/(2θ), its series below 1e-3 rad (cancellation).
  const double c = angle < 1e-3 ? 1.0 / 12.0 + angle * angle / 720.0
                                : 1.0 / (angle * angle) -
                                      std::cos(0.5 * angle) / (std::sin(0.5 * angle) * 2.0 * angle);
  const glm::dvec3 rw = glm::cross(r, w);
  return w - 0.5 * rw + c * glm::cross(r, rw);
}

// The left Jacobian of exp at r applied to v: exp(r(t)) turns at J(r)·ṙ (parent frame).
glm::dvec3 LeftJacobian(const glm::dvec3& r, const glm::dvec3& v) {
  const double angle = std::sqrt(glm::dot(r, r));
  const glm::dvec3 rv = glm::cross(r, v);
  const glm::dvec3 rrv = glm::cross(r, rv);
  if (angle < 1e-4) return v + 0.5 * rv + rrv / 6.0;  // series (cancellation)
  const double a2 = angle * angle;
  return v + ((1.0 - std::cos(angle)) / a2) * rv + ((angle - std::sin(angle)) / (a2 * angle)) * rrv;
}

}  // namespace

Status Inertializer::Configure(std::size_t jointCount) {
  if (jointCount < 1 || jointCount > kMaxInertializerJoints) return Error("jointCount: must be in [1, 65536]");
  state_.assign(jointCount * kStride, 0.0);
  lanes_.assign(jointCount * kStride, 0.0f);
  jointCount_ = jointCount;
  Reset();
  return Ok();
}

void Inertializer::Reset() {
  std::fill(state_.begin(), state_.end(), 0.0);
  halfLife_ = 0.0;
  elapsed_ = 0.0;
  kp_ = kd_ = 0.0;
}

Status Inertializer::Validate(const InertializerTransition& t) const {
  if (!std::isfinite(t.halfLife) || t.halfLife < 0.0) return Error("halfLife: must be a finite number >= 0");
  if (!std::isfinite(t.dt) || t.dt < 0.0) return Error("dt: must be a finite number >= 0");
  if (jointCount_ == 0) return Error("jointCount: call Configure first");
  if (t.from.size() != jointCount_) return Error("from: must hold jointCount transforms");
  if (t.to.size() != jointCount_) return Error("to: must hold jointCount transforms");
  if (!t.fromPrevious.empty() && t.fromPrevious.size() != jointCount_)
    return Error("fromPrevious: must be empty or hold jointCount transforms");
  if (!t.toPrevious.empty() && t.toPrevious.size() != jointCount_)
    return Error("toPrevious: must be empty or hold jointCount transforms");
  if ((!t.fromPrevious.empty() || !t.toPrevious.empty()) && t.dt < kMinDt)
    return Error("dt: must be >= 1e-6 s when fromPrevious or toPrevious is given");
  if (!UsablePose(t.from)) return Error("from: positions must be finite and rotations non-zero and finite");
  if (!UsablePose(t.to)) return Error("to: positions must be finite and rotations non-zero and finite");
  if (!UsablePose(t.fromPrevious))
    return Error("fromPrevious: positions must be finite and rotations non-zero and finite");
  if (!UsablePose(t.toPrevious)) return Error("toPrevious: positions must be finite and rotations non-zero and finite");
  return Ok();
}

Status Inertializer::Transition(const InertializerTransition& t) {
  if (Status s = Validate(t); !s) return s;
  // During a transition the shown pose is exp(offset)·stream. Its velocity is then the
  // offset's own, in closed form, plus the old stream's (from the two shown poses with
  // the offset taken out). The difference of two shown poses alone would be the average
  // over the last frame, half the spring's speed off at 30 Hz one frame after a switch.
  const bool inTransition = kp_ > 0.0 && !t.fromPrevious.empty() && elapsed_ >= t.dt;
  const StepCoeffs now = inTransition ? ExactStepCoeffs(kp_, kd_, elapsed_) : StepCoeffs{};
  const StepCoeffs before = inTransition ? ExactStepCoeffs(kp_, kd_, elapsed_ - t.dt) : StepCoeffs{};
  elapsed_ = 0.0;
  halfLife_ = t.halfLife;
  if (t.halfLife == 0.0) {  // a cut
    std::fill(state_.begin(), state_.end(), 0.0);
    kp_ = kd_ = 0.0;
    return Ok();
  }
  Gains gains;
  if (!GainsFromHalfLife(t.halfLife, &gains)) gains = {0.0, 0.0};  // too small to represent: a cut
  kp_ = gains.kp;
  kd_ = gains.kd;
  const double inv = t.dt > 0.0 ? 1.0 / t.dt : 0.0;
  for (std::size_t j = 0; j < jointCount_; ++j) {
    double* s = &state_[j * kStride];
    const glm::dquat from = Unit(t.from[j].rotation);
    glm::dquat offset = from * glm::conjugate(Unit(t.to[j].rotation));
    if (offset.w < 0.0) offset = -offset;
    const glm::dvec3 r = Log(offset);
    glm::dvec3 wFrom(0.0), wTo(0.0), vFrom(0.0), vTo(0.0);
    if (inTransition) {
      const glm::dvec3 r0(s[0], s[1], s[2]), p0(s[3], s[4], s[5]), rv0(s[6], s[7], s[8]), pv0(s[9], s[10], s[11]);
      const glm::dvec3 rNow = now.ee * r0 + now.ev * rv0, rBefore = before.ee * r0 + before.ev * rv0;
      const glm::dvec3 pNow = now.ee * p0 + now.ev * pv0, pBefore = before.ee * p0 + before.ev * pv0;
      const glm::dquat streamNow = glm::conjugate(Exp(rNow)) * from;
      const glm::dquat streamBefore = glm::conjugate(Exp(rBefore)) * Unit(t.fromPrevious[j].rotation);
      const glm::dvec3 wStream = Log(streamNow * glm::conjugate(streamBefore)) * inv;
      wFrom = LeftJacobian(rNow, now.ve * r0 + now.vv * rv0) + Exp(rNow) * wStream;
      vFrom = (now.ve * p0 + now.vv * pv0) +
              ((Position(t.from[j]) - pNow) - (Position(t.fromPrevious[j]) - pBefore)) * inv;
    } else if (!t.fromPrevious.empty()) {
      wFrom = Log(from * glm::conjugate(Unit(t.fromPrevious[j].rotation))) * inv;
      vFrom = (Position(t.from[j]) - Position(t.fromPrevious[j])) * inv;
    }
    if (!t.toPrevious.empty()) {
      wTo = Log(Unit(t.to[j].rotation) * glm::conjugate(Unit(t.toPrevious[j].rotation))) * inv;
      vTo = (Position(t.to[j]) - Position(t.toPrevious[j])) * inv;
    }
    // The output exp(r)·to turns at J(r)·ṙ + offset·wTo: match wFrom.
    const glm::dvec3 rDot = InverseLeftJacobian(r, wFrom - offset * wTo);
    const glm::dvec3 p = Position(t.from[j]) - Position(t.to[j]);
    const glm::dvec3 pDot = vFrom - vTo;
    const double values[kStride] = {r.x, r.y, r.z, p.x, p.y, p.z, rDot.x, rDot.y, rDot.z, pDot.x, pDot.y, pDot.z};
    std::copy(values, values + kStride, s);
  }
  if (kp_ == 0.0) std::fill(state_.begin(), state_.end(), 0.0);
  // The float copy Update reads in lanes: component k of joint j at k·jointCount + j.
  for (std::size_t j = 0; j < jointCount_; ++j) {
    for (std::size_t k = 0; k < kStride; ++k) {
      lanes_[k * jointCount_ + j] = static_cast<float>(std::clamp(state_[j * kStride + k], -kFloatMax, kFloatMax));
    }
  }
  return Ok();
}

Status Inertializer::Update(double dt, std::span<const Transform> pose, std::span<Transform> out) {
  if (!std::isfinite(dt) || dt < 0.0) return Error("dt: must be a finite number >= 0");
  if (jointCount_ == 0) return Error("jointCount: call Configure first");
  if (pose.size() != jointCount_) return Error("pose: must hold jointCount transforms");
  if (out.size() != jointCount_) return Error("out: must hold jointCount transforms");
  if (!UsablePose(pose)) return Error("pose: positions must be finite and rotations non-zero and finite");
  elapsed_ = std::min(elapsed_ + dt, 1e300);
  // One set of coefficients for every joint: offset(t) = ee·offset0 + ev·velocity0.
  const StepCoeffs c = kp_ > 0.0 ? ExactStepCoeffs(kp_, kd_, elapsed_) : StepCoeffs{0.0, 0.0, 0.0, 0.0};
  const bool none = c.ee == 0.0 && c.ev == 0.0;
  // Groups of simd::kWide joints in lanes, the rest one by one through the same
  // kernel (the same bits either way).
  const std::size_t grouped = jointCount_ - jointCount_ % simd::kWide;
  for (std::size_t j = 0; j < grouped; j += simd::kWide) ApplyOffsets<simd::Wide>(c, none, j, pose, out);
  for (std::size_t j = grouped; j < jointCount_; ++j) ApplyOffsets<float>(c, none, j, pose, out);
  return Ok();
}

// Joint j of `pose` with its offset at c, in double (a rotation offset past kLaneAngle).
Transform Inertializer::OffsetInDouble(const StepCoeffs& c, const Transform& in, std::size_t j) const {
  const double* s = &state_[j * kStride];
  double o[6];
  for (int k = 0; k < 6; ++k) o[k] = c.ee * s[k] + c.ev * s[6 + k];
  const glm::dquat rotation = Exp({o[0], o[1], o[2]}) * Unit(in.rotation);
  const glm::dvec3 position = Position(in) + glm::dvec3(o[3], o[4], o[5]);
  return {glm::vec3(glm::clamp(position, glm::dvec3(-kFloatMax), glm::dvec3(kFloatMax))),
          glm::quat(glm::normalize(rotation))};
}

// Joints j .. j + lanes − 1 of `pose` with their offsets at c into `out` (docs/pd/inertializer.md,
// "The decay"), in float lanes: exp(rotation offset)·pose rotation, renormalized, and the
// position plus its offset, kept within float. A joint whose rotation offset is larger
// than kLaneAngle (a spin at the switch) is done in double.
template <class F>
void Inertializer::ApplyOffsets(const StepCoeffs& c, bool none, std::size_t j, std::span<const Transform> pose,
                                std::span<Transform> out) const {
  constexpr std::size_t lanes = sizeof(F) / sizeof(float);
  alignas(32) float in[7][lanes];  // the pose, one float per lane per component
  for (std::size_t l = 0; l < lanes; ++l) {
    const Transform& t = pose[j + l];
    in[0][l] = t.position.x, in[1][l] = t.position.y, in[2][l] = t.position.z;
    in[3][l] = t.rotation.x, in[4][l] = t.rotation.y, in[5][l] = t.rotation.z, in[6][l] = t.rotation.w;
  }
  F f[7];
  for (int k = 0; k < 7; ++k) simd::Load1(in[k], 0, &f[k]);
  simd::Q4<F> rotation = simd::NormalizeSafe(simd::Q4<F>{f[3], f[4], f[5], f[6]});
  simd::V3<F> position{f[0], f[1], f[2]};
  alignas(32) float angles[lanes] = {};
  if (!none) {
    // offset(t) = ee·offset0 + ev·velocity0, per component.
    const F ee(static_cast<float>(c.ee)), ev(static_cast<float>(c.ev));
    F o[6];
    for (std::size_t k = 0; k < 6; ++k) {
      F s, v;
      simd::Load1(&lanes_[k * jointCount_], j, &s);
      simd::Load1(&lanes_[(k + 6) * jointCount_], j, &v);
      o[k] = ee * s + ev * v;
    }
    const F angle = simd::Sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
    simd::Store1(angles, 0, angle);
    F sinHalf, cosHalf;
    simd::SinCos(angle * 0.5f, &sinHalf, &cosHalf);
    // sin(θ/2)/θ, its series near 0 (where the quotient loses its digits).
    const F k = simd::Select(angle < F(1e-3f), F(0.5f) - angle * angle * (1.0f / 48.0f), sinHalf / angle);
    rotation = simd::Normalize(simd::Q4<F>{o[0] * k, o[1] * k, o[2] * k, cosHalf} * rotation);
    position = position + simd::V3<F>{o[3], o[4], o[5]};
  }
  const F big(kFloatMax);
  const F result[7] = {simd::Min(simd::Max(position.x, -big), big), simd::Min(simd::Max(position.y, -big), big),
                       simd::Min(simd::Max(position.z, -big), big), rotation.x, rotation.y, rotation.z, rotation.w};
  alignas(32) float r[7][lanes];
  for (int k = 0; k < 7; ++k) simd::Store1(r[k], 0, result[k]);
  for (std::size_t l = 0; l < lanes; ++l) {
    out[j + l].position = {r[0][l], r[1][l], r[2][l]};
    out[j + l].rotation.x = r[3][l], out[j + l].rotation.y = r[4][l], out[j + l].rotation.z = r[5][l];
    out[j + l].rotation.w = r[6][l];
  }
  for (std::size_t l = 0; l < lanes; ++l) {
    if (!(angles[l] <= kLaneAngle)) out[j + l] = OffsetInDouble(c, pose[j + l], j + l);  // far, or not finite
  }
}

Status Inertializer::OffsetAt(std::size_t joint, glm::dvec3* rotation, glm::dvec3* translation) const {
  if (joint >= jointCount_) return Error("joint: must be < jointCount");
  const StepCoeffs c = kp_ > 0.0 ? ExactStepCoeffs(kp_, kd_, elapsed_) : StepCoeffs{0.0, 0.0, 0.0, 0.0};
  const double* s = &state_[joint * kStride];
  *rotation = glm::dvec3(c.ee * s[0] + c.ev * s[6], c.ee * s[1] + c.ev * s[7], c.ee * s[2] + c.ev * s[8]);
  *translation = glm::dvec3(c.ee * s[3] + c.ev * s[9], c.ee * s[4] + c.ev * s[10], c.ee * s[5] + c.ev * s[11]);
  return Ok();
}

}  // namespace ikpd::pd
