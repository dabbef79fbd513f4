// PD controllers: scalar, angle, unit vector, quaternion; integrators, limits,
// moving targets, errors (time queries and blend-out: controllers_time_test.cc).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "ikpd/ikpd.h"
#include "native/pd_test_util.h"

using namespace ikpd::pd;
using pdtest::AxisAngle;
using pdtest::kPi;
using pdtest::QuatAngle;
using pdtest::Settings;

TEST(PdControllers, ScalarDefaultsAndDtZero) {
  ScalarPD pd;
  EXPECT_EQ(pd.settings().integrator, Integrator::kExact);
  EXPECT_NEAR(pd.settings().kp, 4.0 * kPi * kPi, 1e-12);
  pd.Reset(2.0, 1.0);
  ASSERT_TRUE(pd.Update(0.0, 10.0));
  EXPECT_EQ(pd.value(), 2.0);
  EXPECT_EQ(pd.velocity(), 1.0);
  for (Integrator in : {Integrator::kExact, Integrator::kStable, Integrator::kExplicit, Integrator::kSubstep}) {
    PdSettings s = Settings();
    s.integrator = in;
    s.maxVelocity = 3.0;
    s.ki = 1.0;
    ScalarPD p(s);
    p.Reset(0.5, 0.0);
    ASSERT_TRUE(p.Update(0.0, 1.0));
    EXPECT_EQ(p.value(), 0.5);
    EXPECT_EQ(p.velocity(), 0.0);
  }
}

TEST(PdControllers, ErrorsNameTheParameter) {
  ScalarPD pd;
  EXPECT_STREQ(pd.Update(-0.1, 1.0).error, "dt: must be a finite number >= 0");
  EXPECT_STREQ(pd.Update(NAN, 1.0).error, "dt: must be a finite number >= 0");
  EXPECT_STREQ(pd.Update(0.1, INFINITY).error, "target: must be a finite number");
  EXPECT_STREQ(pd.Update(0.1, 1.0, NAN).error, "targetVelocity: must be a finite number");
  PdSettings s;
  s.kd = -1.0;
  EXPECT_STREQ(pd.Configure(s).error, "kd: must be a finite number >= 0");
  s = PdSettings{};
  s.kp = -1.0;
  EXPECT_STREQ(pd.Configure(s).error, "kp: must be a finite number > 0");
  EXPECT_STREQ(SettingsFromSettleTime(0.0, 1.0, &s).error, "settleTime: must be a finite number > 0");
  Vec3PD v;
  EXPECT_STREQ(v.Update(0.1, glm::dvec3(0.0)).error, "target: must not be zero");
  QuatPD q;
  EXPECT_STREQ(q.Update(0.1, glm::dquat(0.0, 0.0, 0.0, 0.0)).error, "target: quaternion must not be zero");
  double T;
  EXPECT_STREQ(pd.TimeToSettle(0.0, &T).error, "tolerance: must be a finite number > 0");
  s = PdSettings{};
  s.maxAngle = 4.0;
  EXPECT_STREQ(q.Configure(s).error, "maxAngle: must be in (0, pi]");
}

TEST(PdControllers, ExplicitDivergenceIsAnErrorNotNaN) {
  PdSettings s = Settings(2.0 * kPi / 100.0);  // kp = 1e4
  s.integrator = Integrator::kExplicit;
  ScalarPD pd(s);
  pd.Reset(1.0);
  // The step is outside the explicit stability region: an error before stepping (not
  // ~200 diverging updates first), state untouched.
  const ikpd::Status last = pd.Update(1.0 / 30.0, 0.0);
  EXPECT_FALSE(last.ok());
  EXPECT_EQ(pd.value(), 1.0);
  EXPECT_EQ(pd.velocity(), 0.0);
  // The exact controller with the same gains converges.
  s.integrator = Integrator::kExact;
  ScalarPD ex(s);
  ex.Reset(1.0);
  for (int i = 0; i < 60; ++i) ASSERT_TRUE(ex.Update(1.0 / 30.0, 0.0));
  EXPECT_LT(std::fabs(ex.value()), 1e-10);
}

TEST(PdControllers, NStepsEqualOneStepForEveryController) {
  PdSettings s = Settings(0.8, 0.6);
  for (int n : {1, 10, 30, 60, 144, 240}) {
    ScalarPD a(s), b(s);
    AnglePD c(s);
    Vec3PD v(s);
    QuatPD q(s);
    a.Reset(0.2, 3.0);
    c.Reset(3.0, -1.0);
    ASSERT_TRUE(v.Reset(glm::dvec3(1.0, 0.2, 0.0), glm::dvec3(0.0, 0.0, 2.0)));
    ASSERT_TRUE(q.Reset(AxisAngle({0, 1, 0}, 0.3), glm::dvec3(1.0, 0.0, -2.0)));
    static ScalarPD ra(s);
    static AnglePD rc(s);
    static Vec3PD rv(s);
    static QuatPD rq(s);
    const glm::dvec3 vt(0.0, 1.0, 1.0);
    const glm::dquat qt = AxisAngle({1, 1, 0}, 2.5);
    for (int k = 0; k < n; ++k) {
      ASSERT_TRUE(a.Update(1.0 / n, -1.0, 0.0));
      ASSERT_TRUE(c.Update(1.0 / n, -3.0));
      ASSERT_TRUE(v.Update(1.0 / n, vt));
      ASSERT_TRUE(q.Update(1.0 / n, qt));
    }
    if (n == 1) {
      ra = a, rc = c, rv = v, rq = q;
      continue;
    }
    EXPECT_NEAR(a.value(), ra.value(), 1e-9);
    EXPECT_NEAR(a.velocity(), ra.velocity(), 1e-9);
    EXPECT_NEAR(c.value(), rc.value(), 1e-9);
    EXPECT_NEAR(c.velocity(), rc.velocity(), 1e-9);
    EXPECT_NEAR(glm::length(v.value() - rv.value()), 0.0, 1e-9);
    EXPECT_NEAR(glm::length(v.velocity() - rv.velocity()), 0.0, 1e-8);
    EXPECT_NEAR(QuatAngle(q.value(), rq.value()), 0.0, 1e-9);
    EXPECT_NEAR(glm::length(q.velocity() - rq.velocity()), 0.0, 1e-8);
    (void)b;
  }
}

TEST(PdControllers, AngleTurnsTheShortWayAcrossPi) {
  AnglePD pd(Settings(0.5));
  pd.Reset(3.0);
  double minAbs = 10.0;
  bool crossed = false;
  for (int i = 0; i < 120; ++i) {
    ASSERT_TRUE(pd.Update(1.0 / 60.0, -3.0));
    minAbs = std::min(minAbs, std::fabs(pd.value()));
    EXPECT_GT(pd.value(), -kPi);
    EXPECT_LE(pd.value(), kPi);
    if (pd.value() < 0.0) crossed = true;
  }
  EXPECT_TRUE(crossed);
  EXPECT_GT(minAbs, 2.9);  // never swung through 0
  EXPECT_NEAR(pd.value(), -3.0, 1e-3);
  // Targets given outside (−π, π] are equivalent.
  AnglePD b(Settings(0.5));
  b.Reset(3.0);
  for (int i = 0; i < 120; ++i) ASSERT_TRUE(b.Update(1.0 / 60.0, -3.0 + 4.0 * kPi));
  EXPECT_NEAR(b.value(), pd.value(), 1e-9);
}

TEST(PdControllers, QuaternionHemisphereFlip) {
  QuatPD a(Settings()), b(Settings());
  const glm::dquat g = AxisAngle({0, 0, 1}, 1.0);
  for (RotationUpdate m : {RotationUpdate::kLogMap, RotationUpdate::kComponentwise}) {
    PdSettings s = Settings();
    s.method = m;
    ASSERT_TRUE(a.Configure(s));
    ASSERT_TRUE(b.Configure(s));
    ASSERT_TRUE(a.Reset(AxisAngle({1, 0, 0}, 0.2)));
    ASSERT_TRUE(b.Reset(-AxisAngle({1, 0, 0}, 0.2)));  // same rotation, other sign
    double maxStep = 0.0;
    glm::dquat prev = a.value();
    for (int i = 0; i < 90; ++i) {
      ASSERT_TRUE(a.Update(1.0 / 60.0, g));
      ASSERT_TRUE(b.Update(1.0 / 60.0, -g));  // target given in the other hemisphere
      EXPECT_NEAR(QuatAngle(a.value(), b.value()), 0.0, 1e-9);
      maxStep = std::max(maxStep, QuatAngle(a.value(), prev));
      prev = a.value();
    }
    EXPECT_LT(maxStep, 0.1);  // no long-way-round jump
    EXPECT_NEAR(QuatAngle(a.value(), g), 0.0, 1e-3);
  }
}

TEST(PdControllers, OppositeUnitVectorsAndQuaternions) {
  for (RotationUpdate m : {RotationUpdate::kLogMap, RotationUpdate::kComponentwise}) {
    PdSettings s = Settings(0.5);
    s.method = m;
    Vec3PD v(s);
    ASSERT_TRUE(v.Reset(glm::dvec3(1.0, 0.0, 0.0)));
    for (int i = 0; i < 120; ++i) {
      ASSERT_TRUE(v.Update(1.0 / 60.0, glm::dvec3(-2.0, 0.0, 0.0)));
      ASSERT_TRUE(std::isfinite(v.value().x) && std::isfinite(v.value().y) && std::isfinite(v.value().z));
      EXPECT_NEAR(glm::length(v.value()), 1.0, 1e-12);
    }
    EXPECT_LT(v.value().x, -0.999) << "did not reach the opposite target";
  }
  // Rotation by exactly π (w = 0 relative).
  QuatPD q(Settings(0.5));
  ASSERT_TRUE(q.Reset(glm::dquat(1, 0, 0, 0)));
  for (int i = 0; i < 120; ++i) ASSERT_TRUE(q.Update(1.0 / 60.0, glm::dquat(0, 0, 1, 0)));
  EXPECT_NEAR(QuatAngle(q.value(), glm::dquat(0, 0, 1, 0)), 0.0, 1e-3);
}

TEST(PdControllers, MaxAngleClamp) {
  PdSettings s = Settings(0.3);
  s.maxAngle = 0.5;
  for (RotationUpdate m : {RotationUpdate::kLogMap, RotationUpdate::kComponentwise}) {
    s.method = m;
    QuatPD q(s);
    const glm::dquat g = AxisAngle({0, 1, 1}, 1.2);
    for (int i = 0; i < 120; ++i) {
      ASSERT_TRUE(q.Update(1.0 / 60.0, g));
      const double w = std::fabs(q.value().w);
      EXPECT_GE(w, std::cos(0.25) - 1e-12);  // w >= cos(θmax/2)
    }
    // Ends at the limit, on the way to the target, without pushing outward.
    EXPECT_NEAR(QuatAngle(q.value(), glm::dquat(1, 0, 0, 0)), 0.5, 1e-9);
    EXPECT_NEAR(QuatAngle(q.value(), g), 0.7, 1e-6);
  }
}

TEST(PdControllers, VelocityClamp) {
  for (Integrator in : {Integrator::kExact, Integrator::kStable, Integrator::kExplicit, Integrator::kSubstep}) {
    PdSettings s = Settings(0.5);
    s.integrator = in;
    s.maxVelocity = 2.0;
    ScalarPD pd(s);
    pd.Reset(0.0);
    double prev = 0.0;
    for (int i = 0; i < 200; ++i) {
      ASSERT_TRUE(pd.Update(1.0 / 60.0, 3.0));
      EXPECT_LE(std::fabs(pd.velocity()), 2.0 + 1e-12);
      EXPECT_LE(std::fabs(pd.value() - prev), 2.0 / 60.0 + 1e-12);
      prev = pd.value();
    }
    EXPECT_NEAR(pd.value(), 3.0, 1e-3);
    // Rotations clamp the angular speed.
    QuatPD q(s);
    for (int i = 0; i < 30; ++i) {
      ASSERT_TRUE(q.Update(1.0 / 30.0, AxisAngle({0, 0, 1}, 3.0)));
      EXPECT_LE(glm::length(q.velocity()), 2.0 + 1e-9);
    }
  }
}

TEST(PdControllers, MovingTargetLinearInStepBeatsHeld) {
  // Sine target; reference = the exact controller at 4800 Hz with linear target motion.
  auto target = [](double t) { return std::sin(3.0 * t) + 0.5 * std::sin(7.0 * t); };
  auto run = [&](int hz, TargetMotion motion) -> double {
    PdSettings s = Settings(0.4, 0.8);
    s.targetMotion = motion;
    ScalarPD pd(s);
    pd.Reset(target(0.0));
    EXPECT_TRUE(pd.Update(0.0, target(0.0)));
    const int n = hz * 2;
    for (int k = 1; k <= n; ++k) EXPECT_TRUE(pd.Update(1.0 / hz, target(static_cast<double>(k) / hz)));
    return pd.value();
  };
  const double ref = run(4800, TargetMotion::kLinear);
  for (int hz : {30, 60, 120}) {
    const double held = run(hz, TargetMotion::kHold), linear = run(hz, TargetMotion::kLinear);
    EXPECT_LT(std::fabs(linear - ref), 0.2 * std::fabs(held - ref)) << hz << " Hz";
  }
}

TEST(PdControllers, FeedForwardRemovesRampLag) {
  const double speed = 2.0;
  for (double ff : {0.0, 1.0}) {
    PdSettings s = Settings(0.5);
    s.feedForward = ff;
    ScalarPD pd(s);
    pd.Reset(0.0);
    double t = 0.0;
    for (int i = 0; i < 300; ++i) {
      t += 1.0 / 60.0;
      ASSERT_TRUE(pd.Update(1.0 / 60.0, speed * t, speed));
    }
    const double lag = pd.value() - speed * t;
    if (ff == 0.0) {
      EXPECT_NEAR(lag, -s.kd * speed / s.kp, 1e-6);
    } else {
      EXPECT_NEAR(lag, 0.0, 1e-6);
    }
  }
}

TEST(PdControllers, IntegralTermRemovesRampLagWithAntiWindup) {
  PdSettings s = Settings(0.5);
  s.ki = 150.0;
  ScalarPD pd(s);
  pd.Reset(0.0);
  double t = 0.0;
  for (int i = 0; i < 1800; ++i) {
    t += 1.0 / 60.0;
    ASSERT_TRUE(pd.Update(1.0 / 60.0, 2.0 * t, 2.0));
  }
  EXPECT_NEAR(pd.value() - 2.0 * t, 0.0, 1e-3);
  // Anti-windup: the integral's equilibrium shift is limited to maxIntegral.
  s.maxIntegral = 0.05;
  ScalarPD lim(s);
  lim.Reset(0.0);
  t = 0.0;
  for (int i = 0; i < 1800; ++i) {
    t += 1.0 / 60.0;
    ASSERT_TRUE(lim.Update(1.0 / 60.0, 2.0 * t, 2.0));
  }
  EXPECT_NEAR(lim.value() - 2.0 * t, -s.kd * 2.0 / s.kp + 0.05, 1e-4);
}

TEST(PdControllers, RandomInputsNeverProduceNaN) {
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int i = 0; i < 3000; ++i) {
    PdSettings s = Settings(std::pow(10.0, u(rng)), std::pow(10.0, u(rng)));
    s.integrator = static_cast<Integrator>(i % 4);
    s.method = static_cast<RotationUpdate>(i % 2);
    s.maxAngle = (i % 3 == 0) ? 0.3 + 2.5 * (u(rng) + 1.0) / 2.0 : kPi;
    s.targetMotion = static_cast<TargetMotion>((i / 2) % 2);
    Vec3PD v(s);
    QuatPD q(s);
    AnglePD a(s);
    for (int k = 0; k < 20; ++k) {
      const double dt = (k % 5 == 0) ? 0.0 : std::pow(10.0, 2.0 * u(rng) - 2.0);
      const glm::dvec3 vt(u(rng), u(rng), u(rng));
      if (glm::length(vt) > 1e-6) {
        (void)v.Update(dt, k % 7 == 0 ? -v.value() : vt);
      }
      (void)q.Update(dt, glm::dquat(u(rng), u(rng), u(rng), u(rng)) + glm::dquat(1e-3, 0, 0, 0));
      (void)a.Update(dt, 10.0 * u(rng));
      ASSERT_TRUE(ikpd::IsFinite(glm::vec3(v.value())) && std::isfinite(v.velocity().x) &&
                  std::isfinite(v.velocity().y) && std::isfinite(v.velocity().z));
      ASSERT_TRUE(std::isfinite(q.value().x) && std::isfinite(q.value().y) && std::isfinite(q.value().z) &&
                  std::isfinite(q.value().w) && std::isfinite(q.velocity().x) && std::isfinite(q.velocity().y) &&
                  std::isfinite(q.velocity().z));
      ASSERT_TRUE(std::isfinite(a.value()) && std::isfinite(a.velocity()));
      ASSERT_NEAR(glm::length(v.value()), 1.0, 1e-9);
      ASSERT_NEAR(glm::length(q.value()), 1.0, 1e-9) << i << " " << k << " " << q.value().w << " " << q.value().x;
    }
  }
}

namespace {

// The fused exact step QuatPD::Update takes for plain settings must equal the
// chart step composed from the public chart functions (log map, inverse
// Jacobian, ExactStep per component, exp map, Jacobian), in double.
TEST(PdControllers, QuaternionFusedExactStepIsTheChartStep) {
  std::mt19937 rng(41u);
  std::uniform_real_distribution<double> d(-1.0, 1.0), angle(0.0, 3.14159);
  for (double zeta : {0.3, 1.0, 2.5}) {
    const PdSettings s = Settings(0.4, zeta);
    for (int k = 0; k < 400; ++k) {
      const glm::dvec3 axis(d(rng), d(rng), d(rng) + 1.5);
      // Errors from tiny (the series side of the Jacobians) to almost π.
      const double a = k % 4 == 0 ? 1e-6 * angle(rng) : (k % 4 == 1 ? 3.14159 : angle(rng));
      const glm::dquat g = AxisAngle(glm::dvec3(d(rng), d(rng) + 1.5, d(rng)), angle(rng));
      const glm::dquat q0 = AxisAngle(axis, a) * g;
      const glm::dvec3 w0 = (k % 3 == 0 ? 0.0 : 5.0) * glm::dvec3(d(rng), d(rng), d(rng));
      const double dt = k % 5 == 0 ? 2.0 : 1.0 / 60.0;
      QuatPD q(s);
      ASSERT_TRUE(q.Reset(q0, w0));
      ASSERT_TRUE(q.Update(dt, k % 2 ? g : -g));  // either sign of the target
      glm::dvec3 u = QuatLogChart(q0, g);
      glm::dvec3 w = LeftJacobianInverseTimes(u, w0);
      for (int c = 0; c < 3; ++c) ExactStep(s.kp, s.kd, dt, 0.0, 0.0, 0.0, u[c], w[c]);
      const glm::dquat expected = QuatExpChart(u, glm::dot(q0, g) < 0.0 ? -g : g);
      const glm::dvec3 omega = LeftJacobianTimes(u, w);
      EXPECT_NEAR(QuatAngle(q.value(), expected), 0.0, 1e-12) << k;
      EXPECT_NEAR(glm::length(q.velocity() - omega), 0.0, 1e-12 * std::max(1.0, glm::length(omega))) << k;
    }
  }
}

}  // namespace
