// Input checks and error texts shared by the PD sources (private to cpp/src/pd).
#pragma once

#include <cmath>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "ikpd/common.h"

namespace ikpd::pd::detail {

constexpr double kTwoPiD = 6.283185307179586476925;
constexpr double kPiD = 3.141592653589793238463;
constexpr const char* kDiverged = "dt: the integrator diverged (step too large for these gains; see checkStability)";

inline bool FiniteD(double v) { return std::isfinite(v); }
inline bool FiniteV(const glm::dvec3& v) { return FiniteD(v.x) && FiniteD(v.y) && FiniteD(v.z); }
inline bool FiniteQ(const glm::dquat& q) { return FiniteD(q.x) && FiniteD(q.y) && FiniteD(q.z) && FiniteD(q.w); }
inline bool Finite(double v) { return FiniteD(v); }
inline bool Finite(const glm::dvec3& v) { return FiniteV(v); }
inline bool Finite(const glm::dquat& q) { return FiniteQ(q); }

// Finite and not (nearly) zero: a direction or rotation can be taken from it.
inline bool UsableVector(const glm::dvec3& v) { return FiniteV(v) && glm::dot(v, v) > 1e-24; }
inline bool UsableQuat(const glm::dquat& q) { return FiniteQ(q) && glm::dot(q, q) > 1e-24; }

inline Status CheckDt(double dt) {
  if (!FiniteD(dt) || dt < 0.0) return Error("dt: must be a finite number >= 0");
  return Ok();
}

// x wrapped into (−π, π].
inline double WrapAngle(double x) {
  double r = std::remainder(x, kTwoPiD);  // [−π, π]
  if (r <= -kPiD) r += kTwoPiD;
  return r;
}

}  // namespace ikpd::pd::detail
