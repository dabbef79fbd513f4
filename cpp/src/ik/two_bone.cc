#include "ikpd/ik/two_bone.h"

#include <algorithm>

#include <glm/vec3.hpp>

#include "ik_math.h"

namespace ikpd {
namespace {

using detail::PerpendicularUnit;
using detail::SafeNormalize;

Status ValidateJoint(const Transform& joint, const char* positionError, const char* rotationError) {
  if (!IsFinite(joint.position)) return Error(positionError);
  if (!IsUsableRotation(joint.rotation)) return Error(rotationError);
  return Ok();
}

bool IsSide(BendDirection d) { return d == BendDirection::kPositive || d == BendDirection::kNegative; }

// Length of the third side for interior angle θ between sides a and b:
// √(a²+b²−2ab·cosθ), written as √((a−b)² + 4ab·sin²(θ/2)) to stay exact near θ = 0.
double ThirdSide(double a, double b, double sinHalf) {
  return std::sqrt((a - b) * (a - b) + 4.0 * a * b * sinHalf * sinHalf);
}

}  // namespace

Status TwoBoneJob::Validate() const {
  Status s = ValidateJoint(root, "root.position: must be finite", "root.rotation: must be a non-zero finite quaternion");
  if (!s) return s;
  s = ValidateJoint(mid, "mid.position: must be finite", "mid.rotation: must be a non-zero finite quaternion");
  if (!s) return s;
  s = ValidateJoint(end, "end.position: must be finite", "end.rotation: must be a non-zero finite quaternion");
  if (!s) return s;
  if (!IsFinite(target)) return Error("target: must be finite");
  if (pole && !IsFinite(*pole)) return Error("pole: must be finite");
  if (poleDirection) {
    if (!IsFinite(*poleDirection)) return Error("poleDirection: must be finite");
    if (pole) return Error("poleDirection: cannot be combined with pole");
  }
  glm::vec3 f(0.0f), h(0.0f);
  if (!IsFinite(forward) || !SafeNormalize(forward, &f)) return Error("forward: must be a non-zero finite vector");
  if (!IsFinite(bendAxis) || !SafeNormalize(bendAxis, &h)) return Error("bendAxis: must be a non-zero finite vector");
  if (detail::Parallel(f, h)) return Error("bendAxis: must not be parallel to forward");
  if (!IsSide(bendDirection) && bendDirection != BendDirection::kAuto) {
    return Error("bendDirection: must be auto, positive or negative");
  }
  if (!IsSide(straightBend)) return Error("straightBend: must be positive or negative");
  if (!(minAngle >= 0.0f && minAngle <= kPi)) return Error("minAngle: must be in [0, pi]");
  if (!(maxAngle >= 0.0f && maxAngle <= kPi)) return Error("maxAngle: must be in [0, pi]");
  if (minAngle > maxAngle) return Error("minAngle: must not exceed maxAngle");
  if (!IsFinite(effectorOffset)) return Error("effectorOffset: must be finite");
  if (!(weight >= 0.0f && weight <= 1.0f)) return Error("weight: must be in [0, 1]");
  if (!(soften >= 0.0f && soften <= 1.0f)) return Error("soften: must be in [0, 1]");
  if (!(maxStretch >= 1.0f && IsFinite(maxStretch))) return Error("maxStretch: must be finite and >= 1");
  if (!IsFinite(twist)) return Error("twist: must be finite");
  if (endRotation != EndRotation::kWorld && endRotation != EndRotation::kRelative) {
    return Error("endRotation: must be world or relative");
  }
  if (!(tolerance >= 0.0f && IsFinite(tolerance))) return Error("tolerance: must be finite and >= 0");
  if (result == nullptr) return Error("result: output pointer must not be null");
  return Ok();
}

Status TwoBoneJob::Run() const {
  const Status status = Validate();
  if (!status) return status;

  // NormalizeSafe: glm::normalize overflows for components beyond ~1e19.
  const glm::quat q1 = NormalizeSafe(root.rotation);
  const glm::quat q2 = NormalizeSafe(mid.rotation);
  const glm::quat q3 = NormalizeSafe(end.rotation);
  glm::vec3 f(0.0f), h(0.0f);
  SafeNormalize(forward, &f);
  PerpendicularUnit(bendAxis, f, &h);  // local hinge, made perpendicular to the bone axis

  // Lengths and distances in double: exact enough for the law of cosines near
  // full extension and free of overflow for any finite float input.
  const glm::dvec3 p1(root.position);
  const glm::dvec3 v12 = glm::dvec3(mid.position) - p1;
  const glm::dvec3 v23 = glm::dvec3(end.position) - glm::dvec3(mid.position);
  const glm::dvec3 toGoal = glm::dvec3(target) - glm::dvec3(effectorOffset) - p1;
  const double a = glm::length(v12);
  const double b = glm::length(v23);
  const double c = glm::length(toGoal);
  const double limb = a + b;

  TwoBoneResult out;
  out.root = {root.position, q1};
  out.mid = {mid.position, q2};
  out.end = {end.position, q3};

  if (weight > 0.0f) {
    // Direction root → goal; target at the root: keep the limb's current direction.
    glm::vec3 dirT(0.0f);
    if (!SafeNormalize(glm::vec3(toGoal), &dirT) && !SafeNormalize(glm::vec3(v12 + v23), &dirT)) {
      dirT = q1 * f;
    }

    // Side the mid bends to, as the sign of its turn about its world hinge.
    const glm::vec3 hinge = q2 * h;
    const double side = glm::dot(glm::dvec3(hinge), glm::cross(v12, v23));
    float sign = straightBend == BendDirection::kNegative ? -1.0f : 1.0f;
    if (bendDirection == BendDirection::kPositive) {
      sign = 1.0f;
    } else if (bendDirection == BendDirection::kNegative) {
      sign = -1.0f;
    } else if (std::fabs(side) > 1e-5 * a * b) {
      sign = side > 0.0 ? 1.0f : -1.0f;
    }

    // Limb plane normal N = the mid's world hinge after the solve.
    glm::vec3 towardPole(0.0f), n(0.0f);
    const bool hasPole =
        (pole && PerpendicularUnit(*pole - root.position, dirT, &towardPole)) ||
        (poleDirection && PerpendicularUnit(*poleDirection, dirT, &towardPole));
    if (hasPole) {
      n = sign * glm::normalize(glm::cross(towardPole, dirT));  // puts the mid on the pole's side
    } else if (!PerpendicularUnit(hinge, dirT, &n) && !PerpendicularUnit(q1 * h, dirT, &n)) {
      n = detail::StablePerpendicular(dirT);
    }
    if (twist != 0.0f) n = std::cos(twist) * n + std::sin(twist) * glm::cross(dirT, n);

    // Reach: clamp c to the angle limits (SPEC §3.1), soften, stretch.
    const double cMin = minAngle == 0.0f ? std::fabs(a - b) : ThirdSide(a, b, std::sin(0.5 * minAngle));
    const double cMax = maxAngle == kPi ? limb : ThirdSide(a, b, std::sin(0.5 * maxAngle));
    double cEff = std::min(c, cMax);
    if (soften > 0.0f) {
      const double zone = soften * cMax;
      const double start = cMax - zone;
      if (c > start) cEff = start + zone * (1.0 - std::exp(-(c - start) / zone));
    }
    cEff = std::max(cEff, cMin);
    double scale = 1.0;
    if (maxStretch > 1.0f && c > cEff && cEff > 0.0) scale = std::min(c / cEff, static_cast<double>(maxStretch));

    // Law of cosines (SPEC §3 step 2); a zero-length bone leaves the limb straight.
    double cosB = 1.0, sinB = 0.0, cosC = -1.0, sinC = 0.0;
    if (a > 1e-6 * limb && b > 1e-6 * limb) {
      cosB = std::clamp((cEff * cEff + a * a - b * b) / std::max(2.0 * cEff * a, 1e-300), -1.0, 1.0);
      cosC = std::clamp((a * a + b * b - cEff * cEff) / (2.0 * a * b), -1.0, 1.0);
      sinB = std::sqrt(std::max(0.0, 1.0 - cosB * cosB));
      sinC = std::sqrt(std::max(0.0, 1.0 - cosC * cosC));
    }
    // Root turns by −sign·B about N from root→target; mid by sign·(π − C).
    const glm::vec3 perp = glm::cross(n, dirT);
    const glm::vec3 upper = glm::normalize(static_cast<float>(cosB) * dirT - sign * static_cast<float>(sinB) * perp);
    const glm::vec3 lower =
        glm::normalize(static_cast<float>(-cosC) * upper + sign * static_cast<float>(sinC) * glm::cross(n, upper));

    // Rotations: the root swings with the limb plane (keeping its roll relative
    // to it); the mid is rebuilt from its forward and hinge axes.
    const glm::vec3 rootForward = q1 * f;
    glm::vec3 rootRef(0.0f);
    if (!PerpendicularUnit(hinge, rootForward, &rootRef) && !PerpendicularUnit(q1 * h, rootForward, &rootRef)) {
      rootRef = detail::StablePerpendicular(rootForward);
    }
    const glm::quat r1 = glm::normalize(detail::FrameToFrame(rootForward, rootRef, upper, n) * q1);
    const glm::quat r2 = detail::FrameToFrame(f, h, lower, n);

    const glm::quat w1 = weight >= 1.0f ? r1 : glm::normalize(glm::slerp(q1, r1, weight));
    const glm::quat w2 = weight >= 1.0f ? r2 : glm::normalize(glm::slerp(q2, r2, weight));
    const double k = 1.0 + (scale - 1.0) * static_cast<double>(weight);
    const glm::dvec3 midPos = p1 + (k * a) * glm::dvec3(w1 * f);
    const glm::dvec3 endPos = midPos + (k * b) * glm::dvec3(w2 * f);

    out.root.rotation = w1;
    out.mid = {glm::vec3(midPos), w2};
    out.end = {glm::vec3(endPos), endRotation == EndRotation::kWorld ? q3 : glm::normalize(w2 * glm::conjugate(q2) * q3)};
  }

  const double distance = glm::length(glm::dvec3(out.end.position) + glm::dvec3(effectorOffset) - glm::dvec3(target));
  out.distance = static_cast<float>(distance);
  out.reached = distance <= static_cast<double>(tolerance) * limb;
  if (!IsFinite(out.mid) || !IsFinite(out.end) || !IsFinite(out.distance)) {
    return Error("target: too far away for float coordinates (the result would overflow)");
  }
  *result = out;
  return Ok();
}

}  // namespace ikpd
