// Rotation charts in double precision: the sphere's log/exp maps and their
// velocities, and the quaternion chart (written once over a lane type in
// quat_pd_kernel.h; these are its double instances).
#include <cmath>

#include <glm/geometric.hpp>

#include "ikpd/pd/charts.h"
#include "quat_pd_kernel.h"

namespace ikpd::pd {

glm::dvec3 AnyPerpendicular(const glm::dvec3& v) {
  const glm::dvec3 axis = std::fabs(v.x) < 0.57 ? glm::dvec3(1, 0, 0)
                          : std::fabs(v.y) < 0.57 ? glm::dvec3(0, 1, 0)
                                                  : glm::dvec3(0, 0, 1);
  return NormalizeSafe(glm::cross(v, axis));
}

glm::dvec3 SphereLog(const glm::dvec3& p, const glm::dvec3& g, const glm::dvec3& hint) {
  const double d = glm::dot(p, g);
  const glm::dvec3 perp = p - d * g;
  const double s = glm::length(perp);
  const double angle = std::atan2(s, d);
  if (s > 1e-12) return perp * (angle / s);
  if (d > 0.0) return perp;  // p == g
  // Exactly opposite: any direction is a shortest path; use the hint's tangential part.
  glm::dvec3 h = hint - glm::dot(hint, g) * g;
  const double hl = glm::length(h);
  const glm::dvec3 dir = hl > 1e-12 ? h / hl : AnyPerpendicular(g);
  return dir * angle;
}

glm::dvec3 SphereExp(const glm::dvec3& u, const glm::dvec3& g) {
  const double t = LengthSafe(u);
  if (t < 1e-12) return NormalizeSafe(g + u);
  return NormalizeSafe(std::cos(t) * g + std::sin(t) * (u / t));
}

// dp/dt of p = SphereExp(u, g) for du/dt = udot (udot ⊥ g).
glm::dvec3 SphereExpVelocity(const glm::dvec3& u, const glm::dvec3& g, const glm::dvec3& udot) {
  const double t = glm::length(u);
  const glm::dvec3 ud = udot - glm::dot(udot, g) * g;
  if (t < 1e-12) return ud;
  const glm::dvec3 uh = u / t;
  const double r = glm::dot(ud, uh);
  const glm::dvec3 perp = ud - r * uh;
  return r * (-std::sin(t) * g + std::cos(t) * uh) + (std::sin(t) / t) * perp;
}

// du/dt for p = SphereExp(u, g) moving at pdot (the inverse of SphereExpVelocity).
glm::dvec3 SphereLogVelocity(const glm::dvec3& u, const glm::dvec3& g, const glm::dvec3& p, const glm::dvec3& pdot) {
  const double t = glm::length(u);
  if (t < 1e-12) return pdot - glm::dot(pdot, g) * g;
  const glm::dvec3 uh = u / t;
  const glm::dvec3 dir = -std::sin(t) * g + std::cos(t) * uh;  // unit tangent at p, away from g
  const double r = glm::dot(pdot, dir);
  const glm::dvec3 perp = pdot - r * dir - glm::dot(pdot, p) * p;
  const double st = std::sin(t);
  const glm::dvec3 across = st > 1e-9 ? perp * (t / st) : glm::dvec3(0.0);
  return r * uh + across;
}

// The rotation chart is written once, over a lane type, in quat_pd_kernel.h
// (QuatPdBatchJob runs it in float lanes); these are its double instances.
glm::dvec3 QuatLogChart(const glm::dquat& q, const glm::dquat& g) {
  kernel::HalfAngle<double> half;
  simd::Q4<double> target = simd::FromGlm(g);
  return simd::ToGlm(kernel::QuatLog(simd::FromGlm(q), &target, &half));
}

glm::dquat QuatExpChart(const glm::dvec3& u, const glm::dquat& g) {
  const simd::V3<double> v = simd::FromGlm(u);
  return simd::ToGlm(kernel::QuatExp(v, kernel::HalfAngleOf(v), simd::FromGlm(g)));
}

glm::dvec3 LeftJacobianTimes(const glm::dvec3& u, const glm::dvec3& udot) {
  const simd::V3<double> v = simd::FromGlm(u);
  return simd::ToGlm(kernel::JTimes(v, kernel::HalfAngleOf(v), simd::FromGlm(udot)));
}

glm::dvec3 LeftJacobianInverseTimes(const glm::dvec3& u, const glm::dvec3& omega) {
  const simd::V3<double> v = simd::FromGlm(u);
  return simd::ToGlm(kernel::JInvTimes(v, kernel::HalfAngleOf(v), simd::FromGlm(omega)));
}

}  // namespace ikpd::pd
