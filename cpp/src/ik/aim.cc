#include "ikpd/ik/aim.h"

#include "aim_kernel.h"
#include "ik_math.h"

namespace ikpd {
namespace {

using detail::PerpendicularUnit;
using detail::SafeNormalize;

}  // namespace

Status AimJob::Validate() const {
  glm::vec3 unit(0.0f);
  if (!IsFinite(position)) return Error("position: must be finite");
  if (!IsUsableRotation(rotation)) return Error("rotation: must be a non-zero finite quaternion");
  if (!IsFinite(target)) return Error("target: must be finite");
  if (!IsFinite(forward) || !SafeNormalize(forward, &unit)) return Error("forward: must be a non-zero finite vector");
  const glm::vec3 f = unit;
  if (method != AimMethod::kYawPitch && method != AimMethod::kCrossProduct && method != AimMethod::kShortestArc) {
    return Error("method: must be yawPitch, crossProduct or shortestArc");
  }
  if (pole) {
    if (!IsFinite(*pole)) return Error("pole: must be finite");
    if (hingeAxis) return Error("pole: cannot be combined with hingeAxis (a hinge cannot roll)");
    if (!IsFinite(up) || !SafeNormalize(up, &unit)) return Error("up: must be a non-zero finite vector");
    if (detail::Parallel(unit, f)) return Error("up: must not be parallel to forward");
  }
  if (hingeAxis) {
    if (!IsFinite(*hingeAxis) || !SafeNormalize(*hingeAxis, &unit)) {
      return Error("hingeAxis: must be a non-zero finite vector");
    }
    if (detail::Parallel(unit, f)) return Error("hingeAxis: must not be parallel to forward");
  }
  if (!IsFinite(offset)) return Error("offset: must be finite");
  if (hingeAxis && offset != glm::vec3(0.0f)) return Error("offset: cannot be combined with hingeAxis");
  if (!(weight >= 0.0f && weight <= 1.0f)) return Error("weight: must be in [0, 1]");
  if (result == nullptr) return Error("result: output pointer must not be null");
  return Ok();
}

namespace detail {

AimShared MakeAimShared(const AimJob& job, bool pole) {
  glm::vec3 f(0.0f);
  SafeNormalize(job.forward, &f);
  const glm::vec3 pitchAxis = StablePerpendicular(f);  // seed: Y for f = X
  AimShared s;
  s.method = job.method;
  s.forward = simd::FromGlm(f);
  s.pitchAxis = simd::FromGlm(pitchAxis);
  s.yawAxis = simd::FromGlm(glm::cross(f, pitchAxis));  // seed: Z for f = X
  s.frameInverse = simd::Conjugate(simd::FrameQuat(s.forward, s.pitchAxis));
  if (job.hingeAxis) {
    glm::vec3 h(0.0f), fp(0.0f);
    SafeNormalize(*job.hingeAxis, &h);
    PerpendicularUnit(f, h, &fp);  // validated: forward is not parallel to the hinge
    s.hinge = true;
    s.hingeAxis = simd::FromGlm(h);
    s.hingeForward = simd::FromGlm(fp);
    s.hingeSide = simd::FromGlm(glm::cross(h, fp));
  }
  if (pole) {
    glm::vec3 u(0.0f);
    PerpendicularUnit(job.up, f, &u);  // validated: up is not parallel to forward
    s.pole = true;
    s.up = simd::FromGlm(u);
    s.upSide = simd::FromGlm(glm::cross(f, u));
  }
  if (job.offset != glm::vec3(0.0f)) {
    s.offset = true;
    s.offsetHalf = simd::FromGlm(job.offset * 0.5f);
    s.offsetHalfMax = simd::MaxAbs(s.offsetHalf);
  }
  return s;
}

}  // namespace detail

Status AimJob::Run() const {
  const Status status = Validate();
  if (!status) return status;
  const detail::AimShared shared = detail::MakeAimShared(*this, pole.has_value());
  detail::AimLanes<float> io;
  io.position = simd::FromGlm(position);
  io.rotation = simd::FromGlm(rotation);
  io.target = simd::FromGlm(target);
  io.pole = simd::FromGlm(pole.value_or(glm::vec3(0.0f)));
  io.weight = weight;
  detail::SolveAim(shared, io);
  *result = simd::ToGlm(io.outRotation);
  return Ok();
}

}  // namespace ikpd
