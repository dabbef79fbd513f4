// The controllers' per-type Reset (the rest of their behaviour is PdController).
#include "ikpd/pd/controllers.h"

#include "pd_checks.h"

namespace ikpd::pd {

void ScalarPD::Reset(double value, double velocity) {
  ResetState(detail::FiniteD(value) ? chart().Canonical(value) : 0.0, detail::FiniteD(velocity) ? velocity : 0.0);
}

Status Vec3PD::Reset(const glm::dvec3& value, const glm::dvec3& velocity) {
  if (!detail::UsableVector(value)) return Error("value: must be a finite, non-zero vector");
  if (!detail::FiniteV(velocity)) return Error("velocity: must be finite");
  ResetState(NormalizeSafe(value), velocity);
  return Ok();
}

Status QuatPD::Reset(const glm::dquat& value, const glm::dvec3& angularVelocity) {
  if (!detail::UsableQuat(value)) return Error("value: must be a finite, non-zero quaternion");
  if (!detail::FiniteV(angularVelocity)) return Error("velocity: must be finite");
  ResetState(NormalizeSafe(value), angularVelocity);
  return Ok();
}

}  // namespace ikpd::pd
