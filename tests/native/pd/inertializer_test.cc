// Inertializer (docs/pd/inertializer.md): the switch instant equals the old pose,
// the derivative is continuous, the offset decays as the closed-form critically
// damped spring at 30/60/240 Hz, chained switches never jump, half-life 0 cuts,
// no NaN, named errors that change nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "ikpd/ikpd.h"
#include "native/status_test_util.h"

using namespace ikpd;
using namespace ikpd::pd;

namespace {

constexpr double kHalfS = 1.6783469900166610;  // (1 + s)·e^{−s} = 1/2

glm::dquat ExpD(const glm::dvec3& r) {
  const double a = glm::length(r);
  if (a < 1e-12) return {1.0, 0.0, 0.0, 0.0};
  return glm::angleAxis(a, r / a);
}

// Angle between two rotations (radians, the short way).
double AngleBetween(const glm::quat& a, const glm::quat& b) {
  const double d = std::fabs(glm::dot(glm::dquat(a), glm::dquat(b)) /
                             (glm::length(glm::dquat(a)) * glm::length(glm::dquat(b))));
  const glm::dquat q = glm::dquat(a) * glm::conjugate(glm::dquat(b));
  return 2.0 * std::atan2(glm::length(glm::dvec3(q.x, q.y, q.z)), d * glm::length(q));
}

// Angular velocity (parent frame) from b to a over dt.
glm::dvec3 AngularVelocity(const glm::quat& a, const glm::quat& b, double dt) {
  glm::dquat q = glm::normalize(glm::dquat(a) * glm::conjugate(glm::dquat(b)));
  if (q.w < 0.0) q = -q;
  const glm::dvec3 v(q.x, q.y, q.z);
  const double s = glm::length(v);
  return s > 0.0 ? v * (2.0 * std::atan2(s, q.w) / s / dt) : glm::dvec3(0.0);
}

// A clip: each joint turns at a constant angular velocity and moves at a constant velocity.
struct Clip {
  std::vector<glm::dquat> base;
  std::vector<glm::dvec3> omega, position, velocity;
  void Sample(double t, std::vector<Transform>* out) const {
    out->resize(base.size());
    for (std::size_t j = 0; j < base.size(); ++j) {
      (*out)[j].rotation = glm::quat(ExpD(omega[j] * t) * base[j]);
      (*out)[j].position = glm::vec3(position[j] + velocity[j] * t);
    }
  }
};

glm::dvec3 RandomVec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return {u(rng), u(rng), u(rng)};
}

Clip RandomClip(std::mt19937& rng, std::size_t joints, double speed) {
  Clip c;
  for (std::size_t j = 0; j < joints; ++j) {
    c.base.push_back(ExpD(RandomVec(rng, 2.0)));
    c.omega.push_back(RandomVec(rng, speed));
    c.position.push_back(RandomVec(rng, 1.0));
    c.velocity.push_back(RandomVec(rng, speed));
  }
  return c;
}

TEST(Inertializer, SwitchInstantEqualsOldPose) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 50; ++trial) {
    const Clip a = RandomClip(rng, 16, 3.0), b = RandomClip(rng, 16, 3.0);
    std::vector<Transform> from, fromPrev, to, toPrev, out(16);
    a.Sample(0.0, &from);
    a.Sample(-1.0 / 60.0, &fromPrev);
    b.Sample(0.0, &to);
    b.Sample(-1.0 / 60.0, &toPrev);
    Inertializer in;
    ASSERT_TRUE(in.Configure(16));
    ASSERT_TRUE(in.Transition({from, to, fromPrev, toPrev, 1.0 / 60.0, 0.2}));
    ASSERT_TRUE(in.Update(0.0, to, out));
    for (std::size_t j = 0; j < 16; ++j) {
      EXPECT_LT(AngleBetween(out[j].rotation, from[j].rotation), 1e-6) << j;
      EXPECT_LT(glm::length(out[j].position - from[j].position), 1e-6f) << j;
    }
  }
}

// The output's velocity just after the switch equals the old pose's (rotation and
// translation), also for offsets near π; a cut would not.
TEST(Inertializer, DerivativeIsContinuous) {
  std::mt19937 rng(2);
  for (int trial = 0; trial < 40; ++trial) {
    const Clip a = RandomClip(rng, 4, 2.0), b = RandomClip(rng, 4, 2.0);
    const double h = 1.0 / 60.0, d = 1e-4;
    std::vector<Transform> from, fromPrev, to, toPrev, next, out(4);
    a.Sample(0.0, &from);
    a.Sample(-h, &fromPrev);
    b.Sample(0.0, &to);
    b.Sample(-h, &toPrev);
    b.Sample(d, &next);
    Inertializer in;
    ASSERT_TRUE(in.Configure(4));
    ASSERT_TRUE(in.Transition({from, to, fromPrev, toPrev, h, 0.3}));
    ASSERT_TRUE(in.Update(d, next, out));
    for (std::size_t j = 0; j < 4; ++j) {
      const glm::dvec3 w = AngularVelocity(out[j].rotation, from[j].rotation, d);
      EXPECT_LT(glm::length(w - a.omega[j]), 0.01) << "joint " << j << " trial " << trial;
      const glm::dvec3 v = glm::dvec3(out[j].position - from[j].position) / d;
      EXPECT_LT(glm::length(v - a.velocity[j]), 0.01) << "joint " << j << " trial " << trial;
    }
  }
}

// Offsets about one axis (so the rate is the angular velocity): the output is
// exp(x(t)·n)·to(t) with x(t) = (x0 + (v0 + λx0)t)e^{−λt}, within 1e-6 rad.
TEST(Inertializer, DecaysAsTheClosedFormSpringAt30_60_240Hz) {
  std::mt19937 rng(3);
  for (double hz : {30.0, 60.0, 240.0}) {
    const double dt = 1.0 / hz, halfLife = 0.15;
    const double lambda = kHalfS / halfLife;
    for (int trial = 0; trial < 10; ++trial) {
      const glm::dvec3 n = glm::normalize(RandomVec(rng, 1.0));
      std::uniform_real_distribution<double> u(-2.5, 2.5);
      const double angleFrom = u(rng), angleTo = u(rng), wFrom = u(rng), wTo = u(rng);
      const glm::dvec3 pFrom = RandomVec(rng, 1.0), pTo = RandomVec(rng, 1.0);
      const glm::dvec3 vFrom = RandomVec(rng, 2.0), vTo = RandomVec(rng, 2.0);
      auto pose = [&](double angle, double w, glm::dvec3 p, glm::dvec3 v, double t) {
        return std::vector<Transform>{{glm::vec3(p + v * t), glm::quat(ExpD(n * (angle + w * t)))}};
      };
      Inertializer in;
      ASSERT_TRUE(in.Configure(1));
      ASSERT_TRUE(in.Transition({pose(angleFrom, wFrom, pFrom, vFrom, 0.0), pose(angleTo, wTo, pTo, vTo, 0.0),
                                 pose(angleFrom, wFrom, pFrom, vFrom, -dt), pose(angleTo, wTo, pTo, vTo, -dt), dt,
                                 halfLife}));
      // Offset and rates as recorded, from the same float inputs.
      const auto from0 = pose(angleFrom, wFrom, pFrom, vFrom, 0.0), to0 = pose(angleTo, wTo, pTo, vTo, 0.0);
      const auto from1 = pose(angleFrom, wFrom, pFrom, vFrom, -dt), to1 = pose(angleTo, wTo, pTo, vTo, -dt);
      const glm::dvec3 r0 = AngularVelocity(from0[0].rotation, to0[0].rotation, 1.0);
      const glm::dvec3 rv0 = AngularVelocity(from0[0].rotation, from1[0].rotation, dt) -
                             AngularVelocity(to0[0].rotation, to1[0].rotation, dt);
      const glm::dvec3 p0 = glm::dvec3(from0[0].position) - glm::dvec3(to0[0].position);
      const glm::dvec3 pv0 = (glm::dvec3(from0[0].position) - glm::dvec3(from1[0].position)) / dt -
                             (glm::dvec3(to0[0].position) - glm::dvec3(to1[0].position)) / dt;
      std::vector<Transform> out(1);
      for (int k = 1; k <= static_cast<int>(hz); ++k) {
        const double t = k * dt;
        const auto to = pose(angleTo, wTo, pTo, vTo, t);
        ASSERT_TRUE(in.Update(dt, to, out));
        const glm::dvec3 x = (r0 + (rv0 + lambda * r0) * t) * std::exp(-lambda * t);
        const glm::quat expected = glm::quat(ExpD(x) * glm::dquat(to[0].rotation));
        ASSERT_LT(AngleBetween(out[0].rotation, expected), 1e-6) << hz << " Hz, t = " << t;
        const glm::dvec3 p = (p0 + (pv0 + lambda * p0) * t) * std::exp(-lambda * t);
        ASSERT_LT(glm::length(glm::dvec3(out[0].position) - (glm::dvec3(to[0].position) + p)), 2e-6)
            << hz << " Hz, t = " << t;
      }
    }
  }
}

// Switching between three clips every 50 ms: the output never moves faster than
// the clips and the decaying offsets allow; cutting the same sequence jumps.
TEST(Inertializer, ChainedSwitchesEvery50msNeverJump) {
  std::mt19937 rng(4);
  std::vector<Clip> clips;
  for (int c = 0; c < 3; ++c) clips.push_back(RandomClip(rng, 8, 2.0));
  for (double hz : {30.0, 60.0, 240.0}) {
    for (double halfLife : {0.1, 0.0}) {
      const double dt = 1.0 / hz;
      Inertializer in;
      ASSERT_TRUE(in.Configure(8));
      std::vector<Transform> out(8), prevOut, to, toPrev;
      int clip = 0;
      clips[0].Sample(0.0, &out);
      prevOut = out;
      double maxSpeed = 0.0, nextSwitch = 0.05;
      for (int k = 1; k <= static_cast<int>(2.0 * hz); ++k) {
        const double t = k * dt;
        if (t >= nextSwitch - 1e-9) {
          nextSwitch += 0.05;
          clip = (clip + 1) % 3;
          clips[clip].Sample(t - dt, &to);
          clips[clip].Sample(t - 2 * dt, &toPrev);
          ASSERT_TRUE(in.Transition({out, to, prevOut, toPrev, dt, halfLife}));
        }
        clips[clip].Sample(t, &to);
        prevOut = out;
        ASSERT_TRUE(in.Update(dt, to, out));
        for (std::size_t j = 0; j < 8; ++j) {
          maxSpeed = std::max(maxSpeed, AngleBetween(out[j].rotation, prevOut[j].rotation) / dt);
          maxSpeed = std::max(maxSpeed, double(glm::length(out[j].position - prevOut[j].position)) / dt);
        }
      }
      // Clips turn at <= 3.5 rad/s; an offset of <= π decays at <= λπ/e ≈ 19 rad/s
      // (halfLife 0.1) plus the rate it starts with: below 45. A cut jumps by radians.
      std::printf("[ inertia  ] %g Hz, halfLife %g: max speed %.1f rad/s or m/s\n", hz, halfLife, maxSpeed);
      if (halfLife > 0.0) {
        EXPECT_LT(maxSpeed, 45.0) << hz << " Hz";
      } else {
        EXPECT_GT(maxSpeed, 90.0) << hz << " Hz (the cut should jump)";
      }
    }
  }
}

// A second switch one frame after the first: the new offset starts at the shown pose's
// own velocity (the spring's, in closed form), not at the average over the last frame,
// which at 30 Hz is half the spring's speed off. Still poses, one joint turning about x.
TEST(Inertializer, ASwitchDuringATransitionKeepsTheSpringsVelocity) {
  const double halfLife = 0.1, lambda = kHalfS / halfLife, x0 = 0.3;
  std::vector<Transform> a(1), b(1), shown(1), before(1);
  b[0].rotation = glm::quat(ExpD({x0, 0.0, 0.0}));
  for (double hz : {30.0, 60.0, 240.0}) {
    const double dt = 1.0 / hz;
    Inertializer in;
    ASSERT_TRUE(in.Configure(1));
    before = a;
    ASSERT_TRUE(in.Transition({a, b, {}, {}, 0.0, halfLife}));  // from a at rest toward b
    ASSERT_TRUE(in.Update(dt, b, shown));
    ASSERT_TRUE(in.Transition({shown, a, before, a, dt, halfLife}));  // back toward a, one frame later
    glm::dvec3 r0, r1, p;
    ASSERT_TRUE(in.OffsetAt(0, &r0, &p));
    const double h = 1e-5;
    ASSERT_TRUE(in.Update(h, a, before));
    ASSERT_TRUE(in.OffsetAt(0, &r1, &p));
    // The shown angle about x was x0 − x0·(1 + λt)·e^{−λt}: its rate at t = dt.
    const double expected = x0 * lambda * lambda * dt * std::exp(-lambda * dt);
    const double measured = (r1.x - r0.x) / h;
    EXPECT_NEAR(measured, expected, 0.01 * expected) << hz << " Hz";
  }
}

TEST(Inertializer, HalfLifeZeroIsACut) {
  std::mt19937 rng(5);
  const Clip a = RandomClip(rng, 5, 2.0), b = RandomClip(rng, 5, 2.0);
  std::vector<Transform> from, to, out(5);
  a.Sample(0.0, &from);
  b.Sample(0.0, &to);
  Inertializer in;
  ASSERT_TRUE(in.Configure(5));
  ASSERT_TRUE(in.Transition({from, to, {}, {}, 0.0, 0.0}));
  ASSERT_TRUE(in.Update(0.0, to, out));
  for (std::size_t j = 0; j < 5; ++j) {
    EXPECT_LT(AngleBetween(out[j].rotation, to[j].rotation), 1e-6);
    EXPECT_EQ(out[j].position, to[j].position);
  }
}

TEST(Inertializer, NoNaNForRandomPosesAndSteps) {
  std::mt19937 rng(6);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Inertializer in;
  ASSERT_TRUE(in.Configure(6));
  std::vector<Transform> a(6), b(6), c(6), d(6), out(6);
  auto random = [&](std::vector<Transform>* p) {
    for (Transform& t : *p) {
      const double scale = u(rng) < 0.1 ? 1e30 : 10.0;
      t.position = glm::vec3(RandomVec(rng, scale));
      t.rotation = glm::quat(float(u(rng) - 0.5), float(u(rng) - 0.5), float(u(rng) - 0.5), float(u(rng) - 0.5));
      if (u(rng) < 0.1) t.rotation = glm::quat(1e-3f, 0.0f, 0.0f, 0.0f);
    }
  };
  for (int step = 0; step < 20000; ++step) {
    random(&b);
    if (u(rng) < 0.2) {
      random(&a), random(&c), random(&d);
      const double dt = u(rng) < 0.5 ? 1e-6 + 0.1 * u(rng) : 1.0 / 60.0;
      const double halfLife = u(rng) < 0.1 ? 0.0 : 0.5 * u(rng);
      ASSERT_TRUE(in.Transition({a, b, u(rng) < 0.5 ? std::span<const Transform>(c) : std::span<const Transform>(),
                                 d, dt, halfLife}));
    }
    ASSERT_TRUE(in.Update(0.1 * u(rng), b, out));
    for (const Transform& t : out) {
      ASSERT_TRUE(IsFinite(t));
      ASSERT_NEAR(glm::length(t.rotation), 1.0f, 1e-5f);
    }
  }
}

TEST(Inertializer, ErrorsNameTheFieldAndChangeNothing) {
  using statustest::StartsWith;
  Inertializer empty;
  std::vector<Transform> pose(3), out(3), two(2);
  EXPECT_TRUE(StartsWith(empty.Update(0.1, pose, out), "jointCount"));
  EXPECT_TRUE(StartsWith(empty.Configure(0), "jointCount"));
  EXPECT_TRUE(StartsWith(empty.Configure(70000), "jointCount"));

  Inertializer in;
  ASSERT_TRUE(in.Configure(3));
  std::vector<Transform> from(3);
  from[1].rotation = glm::angleAxis(1.0f, glm::vec3(0, 0, 1));
  from[2].position = glm::vec3(1, 2, 3);
  ASSERT_TRUE(in.Transition({from, pose, {}, {}, 0.0, 0.2}));
  ASSERT_TRUE(in.Update(0.05, pose, out));
  auto snapshot = [&]() {
    std::vector<double> s{in.elapsed(), in.halfLife()};
    for (std::size_t j = 0; j < 3; ++j) {
      glm::dvec3 r, t;
      EXPECT_TRUE(in.OffsetAt(j, &r, &t));
      s.insert(s.end(), {r.x, r.y, r.z, t.x, t.y, t.z});
    }
    return s;
  };
  const std::vector<double> before = snapshot();
  std::vector<Transform> bad = pose;
  bad[2].rotation = glm::quat(0, 0, 0, 0);
  std::vector<Transform> nan = pose;
  nan[0].position.x = std::nanf("");
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(StartsWith(in.Transition({from, pose, {}, {}, 0.0, -1.0}), "halfLife"));
  EXPECT_TRUE(StartsWith(in.Transition({from, pose, {}, {}, 0.0, inf}), "halfLife"));
  EXPECT_TRUE(StartsWith(in.Transition({from, pose, {}, {}, -1.0, 0.2}), "dt"));
  EXPECT_TRUE(StartsWith(in.Transition({from, pose, from, {}, 0.0, 0.2}), "dt"));
  EXPECT_TRUE(StartsWith(in.Transition({two, pose, {}, {}, 0.0, 0.2}), "from"));
  EXPECT_TRUE(StartsWith(in.Transition({from, two, {}, {}, 0.0, 0.2}), "to"));
  EXPECT_TRUE(StartsWith(in.Transition({from, pose, two, {}, 0.1, 0.2}), "fromPrevious"));
  EXPECT_TRUE(StartsWith(in.Transition({from, pose, {}, two, 0.1, 0.2}), "toPrevious"));
  EXPECT_TRUE(StartsWith(in.Transition({bad, pose, {}, {}, 0.0, 0.2}), "from"));
  EXPECT_TRUE(StartsWith(in.Transition({from, nan, {}, {}, 0.0, 0.2}), "to"));
  EXPECT_TRUE(StartsWith(in.Transition({from, pose, nan, {}, 0.1, 0.2}), "fromPrevious"));
  EXPECT_TRUE(StartsWith(in.Transition({from, pose, {}, bad, 0.1, 0.2}), "toPrevious"));
  EXPECT_TRUE(StartsWith(in.Validate({from, pose, {}, bad, 0.1, 0.2}), "toPrevious"));
  std::vector<Transform> kept = out;
  EXPECT_TRUE(StartsWith(in.Update(-0.1, pose, out), "dt"));
  EXPECT_TRUE(StartsWith(in.Update(std::nan(""), pose, out), "dt"));
  EXPECT_TRUE(StartsWith(in.Update(0.1, two, out), "pose"));
  EXPECT_TRUE(StartsWith(in.Update(0.1, bad, out), "pose"));
  EXPECT_TRUE(StartsWith(in.Update(0.1, nan, out), "pose"));
  EXPECT_TRUE(StartsWith(in.Update(0.1, pose, two), "out"));
  glm::dvec3 r, t;
  EXPECT_TRUE(StartsWith(in.OffsetAt(3, &r, &t), "joint"));
  EXPECT_EQ(snapshot(), before);
  for (std::size_t j = 0; j < 3; ++j) {
    EXPECT_EQ(out[j].position, kept[j].position);
    EXPECT_EQ(out[j].rotation, kept[j].rotation);
  }
}

}  // namespace
