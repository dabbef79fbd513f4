// Inertializer::Update in SIMD lanes (docs/pd/inertializer.md, "The decay"): a
// joint's output does not depend on the lane width or on its neighbours, it is
// the closed-form offset within 1e-6 rad (float lanes for offsets up to 4 rad,
// double beyond), and spins at the switch stay finite and unit.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "ikpd/ikpd.h"
#include "native/status_test_util.h"

using namespace ikpd;
using namespace ikpd::pd;

namespace {

double AngleBetween(const glm::quat& a, const glm::quat& b) {
  const glm::dquat q = glm::normalize(glm::dquat(a)) * glm::conjugate(glm::normalize(glm::dquat(b)));
  return 2.0 * std::atan2(glm::length(glm::dvec3(q.x, q.y, q.z)), std::fabs(q.w));
}

glm::dquat ExpD(const glm::dvec3& r) {
  const double a = glm::length(r);
  if (a < 1e-12) return {1.0, 0.0, 0.0, 0.0};
  return glm::angleAxis(a, r / a);
}

// Random poses; `spin` of them turned fast over the previous frame (1e-6 s..1/60 s).
struct Poses {
  std::vector<Transform> from, to, fromPrevious, toPrevious;
};
Poses RandomPoses(std::mt19937& rng, std::size_t n) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  auto pose = [&] {
    std::vector<Transform> p(n);
    for (Transform& t : p) {
      t.position = {u(rng), u(rng), u(rng)};
      t.rotation = glm::quat(u(rng), u(rng), u(rng), u(rng));  // not unit: Update normalizes
    }
    return p;
  };
  return {pose(), pose(), pose(), pose()};
}

}  // namespace

TEST(InertializerLanes, EachJointAsIfAlone) {
  // 13 joints: full lane groups and a tail; each equals, bit for bit, a 1-joint inertializer.
  std::mt19937 rng(11);
  constexpr std::size_t n = 13;
  for (int round = 0; round < 50; ++round) {
    const Poses p = RandomPoses(rng, n);
    const double dt = round % 3 == 0 ? 1e-6 : 1.0 / 60.0;  // 1e-6 s: spins past the lanes' 4 rad
    Inertializer all;
    ASSERT_TRUE(all.Configure(n));
    ASSERT_TRUE(all.Transition({p.from, p.to, p.fromPrevious, p.toPrevious, dt, 0.2}));
    std::vector<Transform> out(n);
    for (double t : {0.0, 0.004, 0.05, 0.3}) {
      ASSERT_TRUE(all.Update(t, p.to, out));
      for (std::size_t j = 0; j < n; ++j) {
        Inertializer one;
        ASSERT_TRUE(one.Configure(1));
        ASSERT_TRUE(one.Transition({std::span(p.from).subspan(j, 1), std::span(p.to).subspan(j, 1),
                                    std::span(p.fromPrevious).subspan(j, 1), std::span(p.toPrevious).subspan(j, 1), dt,
                                    0.2}));
        Transform single;
        ASSERT_TRUE(one.Update(all.elapsed(), std::span(p.to).subspan(j, 1), std::span(&single, 1)));
        ASSERT_EQ(out[j].position, single.position) << "joint " << j << ", round " << round;
        ASSERT_EQ(out[j].rotation, single.rotation) << "joint " << j << ", round " << round;
      }
    }
  }
}

TEST(InertializerLanes, TheClosedFormOffsetWithin1e6Rad) {
  // Every joint's output rotation is exp(OffsetAt)·pose within 1e-6 rad, for offsets
  // in the lanes (slow switches) and in double (spins at the switch), finite and unit.
  std::mt19937 rng(12);
  constexpr std::size_t n = 37;
  std::size_t far = 0, near = 0;
  for (int round = 0; round < 200; ++round) {
    const Poses p = RandomPoses(rng, n);
    const double dt = round % 4 == 0 ? 1e-5 : 1.0 / 30.0;
    Inertializer in;
    ASSERT_TRUE(in.Configure(n));
    ASSERT_TRUE(in.Transition({p.from, p.to, p.fromPrevious, p.toPrevious, dt, 0.05 + 0.01 * (round % 20)}));
    std::vector<Transform> out(n);
    for (int frame = 0; frame < 20; ++frame) {
      ASSERT_TRUE(in.Update(1.0 / 60.0, p.to, out));
      for (std::size_t j = 0; j < n; ++j) {
        glm::dvec3 r, x;
        ASSERT_TRUE(in.OffsetAt(j, &r, &x));
        (glm::length(r) > 4.0 ? far : near)++;
        const glm::quat expected(ExpD(r) * glm::normalize(glm::dquat(p.to[j].rotation)));
        ASSERT_LT(AngleBetween(out[j].rotation, expected), 1e-6) << "joint " << j << ", |offset| " << glm::length(r);
        ASSERT_NEAR(glm::length(out[j].rotation), 1.0f, 1e-6f);
        const glm::dvec3 position = glm::dvec3(p.to[j].position) + x;
        ASSERT_LT(glm::length(glm::dvec3(out[j].position) - position), 1e-6 * (1.0 + glm::length(position)));
      }
    }
  }
  EXPECT_GT(far, 100u);   // both paths were taken
  EXPECT_GT(near, 1000u);
}
