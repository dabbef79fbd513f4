#include "ikpd/ik/aim.h"

#include "ik_math.h"

namespace ikpd {
namespace {

using detail::AxisAngle;
using detail::PerpendicularUnit;
using detail::SafeNormalize;

// Joint-local rotation turning unit `f` toward unit direction `d` (SPEC §1).
glm::quat LocalAim(const glm::vec3& f, const glm::vec3& d, AimMethod method) {
  const glm::vec3 pitchAxis = detail::StablePerpendicular(f);  // seed: Y for f = X
  const glm::vec3 yawAxis = glm::cross(f, pitchAxis);           // seed: Z for f = X
  switch (method) {
    case AimMethod::kYawPitch: {
      const float x = glm::dot(d, f), y = glm::dot(d, pitchAxis), z = glm::dot(d, yawAxis);
      const float rho = std::sqrt(x * x + y * y);
      // Target on the yaw axis: θz is undefined, keep it 0 (pure pitch).
      const float yaw = rho > 1e-7f ? std::atan2(y, x) : 0.0f;
      const float pitch = std::atan2(z, rho);
      // Pitch turns forward toward the yaw axis, i.e. by −θy about the pitch axis.
      return AxisAngle(yawAxis, yaw) * AxisAngle(pitchAxis, -pitch);
    }
    case AimMethod::kCrossProduct: {
      // New axes: X' = d, Y' ⟂ (Z, X') horizontal, Z' = X' × Y'.
      glm::vec3 newPitch(0.0f);
      if (!SafeNormalize(glm::cross(yawAxis, d), &newPitch) || glm::length(glm::cross(yawAxis, d)) < 1e-7f) {
        newPitch = pitchAxis;  // target on the yaw axis: same choice as kYawPitch
      }
      return detail::FrameToFrame(f, pitchAxis, d, newPitch);
    }
    case AimMethod::kShortestArc:
    default: {
      // q = normalize(1 + cosθ, f × d), with 1 + cosθ = sin²θ / (1 − cosθ) when
      // cosθ < 0 so that targets nearly behind keep full precision.
      const float c = glm::dot(f, d);
      const glm::vec3 axis = glm::cross(f, d);
      const float sin2 = glm::dot(axis, axis);
      if (c < 0.0f && sin2 < 1e-14f) {
        return AxisAngle(yawAxis, kPi);  // exactly behind: 180° about the yaw axis, like kYawPitch
      }
      const float onePlusCos = c >= 0.0f ? 1.0f + c : sin2 / (1.0f - c);
      return glm::normalize(glm::quat(onePlusCos, axis.x, axis.y, axis.z));
    }
  }
}

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
  if (!(weight >= 0.0f && weight <= 1.0f)) return Error("weight: must be in [0, 1]");
  if (result == nullptr) return Error("result: output pointer must not be null");
  return Ok();
}

Status AimJob::Run() const {
  const Status status = Validate();
  if (!status) return status;

  const glm::quat q = NormalizeSafe(rotation);  // glm::normalize overflows for components beyond ~1e19
  glm::vec3 f(0.0f);
  SafeNormalize(forward, &f);
  const glm::vec3 local = glm::conjugate(q) * (target - position);

  glm::quat aimed = q;
  if (hingeAxis) {
    glm::vec3 h(0.0f), fp(0.0f), dp(0.0f);
    SafeNormalize(*hingeAxis, &h);
    PerpendicularUnit(f, h, &fp);  // validated: forward is not parallel to the hinge
    if (PerpendicularUnit(local, h, &dp)) aimed = q * AxisAngle(h, detail::SignedAngle(fp, dp, h));
  } else {
    glm::vec3 d(0.0f);
    if (SafeNormalize(local, &d)) aimed = q * LocalAim(f, d, method);
  }

  if (pole) {  // SPEC §2: roll about forward so `up` points toward the pole.
    glm::vec3 u(0.0f), p(0.0f);
    PerpendicularUnit(up, f, &u);
    if (PerpendicularUnit(glm::conjugate(aimed) * (*pole - position), f, &p)) {
      aimed = aimed * AxisAngle(f, detail::SignedAngle(u, p, f));
    }
  }

  *result = glm::normalize(weight >= 1.0f ? aimed : glm::slerp(q, aimed, weight));
  return Ok();
}

}  // namespace ikpd
