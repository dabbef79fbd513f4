#include <gtest/gtest.h>

#include <limits>

#include "ik_test_util.h"

using ikpd::BendDirection;
using ikpd::TwoBoneJob;
using ikpd::TwoBoneResult;
using iktest::AngleBetween;
using iktest::Dist;
using iktest::MakeLimb;

namespace {

const glm::vec3 kX(1, 0, 0), kY(0, 1, 0), kZ(0, 0, 1);

// Straight-forward rig along +X bent about +Z: root at origin, a = b = 1.
TwoBoneJob BasicJob(float bend, TwoBoneResult* out) {
  const iktest::Limb l = MakeLimb(glm::vec3(0), glm::quat(1, 0, 0, 0), 1.0f, 1.0f, bend, kX, kZ, glm::quat(1, 0, 0, 0));
  TwoBoneJob job;
  job.root = l.root;
  job.mid = l.mid;
  job.end = l.end;
  job.result = out;
  return job;
}

// Sign of the mid's turn about the result's mid hinge (bendAxis in world).
double BendSide(const TwoBoneResult& r, const glm::vec3& bendAxisLocal) {
  const glm::dvec3 u = glm::dvec3(r.mid.position) - glm::dvec3(r.root.position);
  const glm::dvec3 v = glm::dvec3(r.end.position) - glm::dvec3(r.mid.position);
  return glm::dot(glm::dvec3(r.mid.rotation * bendAxisLocal), glm::cross(u, v));
}

}  // namespace

TEST(TwoBone, PropertyRandomReachablePoses) {
  iktest::Rng rng(12345);
  const glm::vec3 forwards[] = {kX, kY, -kZ};
  const glm::vec3 hinges[] = {kZ, kX, kY};
  double worstReach = 0, worstLength = 0, worstPlane = 0, worstLimit = 0, worstAxis = 0;
  for (int i = 0; i < 10000; ++i) {
    const int axes = i % 3;
    const glm::vec3 f = forwards[axes], h = hinges[axes];
    const float a = rng.Uniform(0.2f, 2.0f), b = rng.Uniform(0.2f, 2.0f);
    const iktest::Limb l = MakeLimb(rng.Vec(-5, 5), rng.Rotation(), a, b, rng.Uniform(-3.0f, 3.0f), f, h, rng.Rotation());
    TwoBoneResult r;
    TwoBoneJob job;
    job.root = l.root;
    job.mid = l.mid;
    job.end = l.end;
    job.forward = f;
    job.bendAxis = h;
    job.bendDirection = static_cast<BendDirection>(i % 3);
    job.minAngle = (i % 4 == 0) ? rng.Uniform(0.0f, 1.0f) : 0.0f;
    job.maxAngle = (i % 5 == 0) ? rng.Uniform(2.0f, ikpd::kPi) : ikpd::kPi;
    // Reachable target: distance strictly inside [c_min, c_max].
    const double cMin = std::sqrt(a * a + b * b - 2.0 * a * b * std::cos(double(job.minAngle)));
    const double cMax = std::sqrt(a * a + b * b - 2.0 * a * b * std::cos(double(job.maxAngle)));
    const float c = static_cast<float>(cMin + (cMax - cMin) * rng.Uniform(0.001f, 0.999f));
    job.target = l.root.position + c * rng.Direction();
    const int poleKind = i % 7;  // 0..2 none, 3..5 point, 6 direction
    glm::vec3 pole = l.root.position + rng.Vec(-3, 3);
    if (poleKind >= 3 && poleKind <= 5) job.pole = pole;
    if (poleKind == 6) {
      job.poleDirection = rng.Direction();
      pole = l.root.position + *job.poleDirection;
    }
    job.result = &r;
    ASSERT_TRUE(job.Run().ok()) << i;
    ASSERT_TRUE(iktest::Finite(r)) << i;
    const double limb = a + b;
    worstReach = std::max(worstReach, Dist(r.end.position, job.target) / limb);
    worstLength = std::max({worstLength, std::fabs(Dist(r.mid.position, r.root.position) - a) / a,
                            std::fabs(Dist(r.end.position, r.mid.position) - b) / b});
    EXPECT_TRUE(r.reached) << i;
    EXPECT_EQ(r.root.position, l.root.position);
    const double angle = iktest::InteriorAngle(r);
    worstLimit = std::max({worstLimit, double(job.minAngle) - angle, angle - double(job.maxAngle)});
    // Forward axes point at the children; the mid's hinge is the plane normal.
    worstAxis = std::max({worstAxis, AngleBetween(r.root.rotation * f, r.mid.position - r.root.position),
                          AngleBetween(r.mid.rotation * f, r.end.position - r.mid.position)});
    if (job.bendDirection != BendDirection::kAuto) {
      EXPECT_GT(BendSide(r, h) * (job.bendDirection == BendDirection::kPositive ? 1 : -1), 0.0) << i;
    }
    if (poleKind >= 3) {
      // Plane through root, mid, end contains the pole, and the mid is on its side.
      const glm::dvec3 n = glm::normalize(glm::cross(glm::dvec3(r.mid.position - r.root.position),
                                                     glm::dvec3(job.target - r.root.position)));
      const glm::dvec3 toPole = glm::dvec3(pole) - glm::dvec3(r.root.position);
      worstPlane = std::max(worstPlane, std::fabs(glm::dot(n, toPole)) / glm::length(toPole));
      const glm::dvec3 t = glm::normalize(glm::dvec3(job.target - r.root.position));
      EXPECT_GT(glm::dot(glm::dvec3(r.mid.position - r.root.position), toPole - glm::dot(toPole, t) * t), 0.0) << i;
    }
  }
  EXPECT_LT(worstReach, 1e-4);
  EXPECT_LT(worstLength, 1e-5);
  EXPECT_LT(worstPlane, 1e-4);
  EXPECT_LT(worstLimit, 1e-4);
  EXPECT_LT(worstAxis, 1e-4);
  std::printf("worst: reach %.3g length %.3g plane %.3g limit %.3g axis %.3g\n", worstReach, worstLength, worstPlane,
              worstLimit, worstAxis);
}

TEST(TwoBone, UnreachableGoesStraight) {
  TwoBoneResult r;
  TwoBoneJob job = BasicJob(1.0f, &r);
  job.target = {0, 5, 0};
  ASSERT_TRUE(job.Run().ok());
  EXPECT_FALSE(r.reached);
  EXPECT_NEAR(r.distance, 3.0f, 1e-5f);
  EXPECT_NEAR(Dist(r.mid.position, {0, 1, 0}), 0.0, 1e-6);
  EXPECT_NEAR(Dist(r.end.position, {0, 2, 0}), 0.0, 1e-6);
}
