// Shared helpers for the PD controller GoogleTests (tests/native/pd/).
#pragma once

#include <gtest/gtest.h>

#include "ikpd/ikpd.h"

namespace pdtest {

inline constexpr double kPi = 3.141592653589793;

// Settings from a settle time and damping ratio; the conversion must succeed.
inline ikpd::pd::PdSettings Settings(double settleTime = 1.0, double zeta = 1.0) {
  ikpd::pd::PdSettings s;
  EXPECT_TRUE(ikpd::pd::SettingsFromSettleTime(settleTime, zeta, &s));
  return s;
}

// The angle between two rotations, radians.
inline double QuatAngle(const glm::dquat& a, const glm::dquat& b) { return glm::length(ikpd::pd::QuatLogChart(a, b)); }

inline glm::dquat AxisAngle(glm::dvec3 axis, double angle) { return glm::angleAxis(angle, glm::normalize(axis)); }

}  // namespace pdtest
