// AimJob::offset: a joint-local point (the eyes, a fingertip) that aims at
// the target instead of the joint (docs/ik/aim.md).
#include <gtest/gtest.h>

#include <cmath>

#include "native/ik_test_util.h"

using ikpd::AimJob;
using ikpd::AimMethod;
using iktest::Aim;

namespace {

constexpr AimMethod kMethods[] = {AimMethod::kYawPitch, AimMethod::kCrossProduct, AimMethod::kShortestArc};

// Distance (double) of point t from the line p + s·d, and the s of its foot.
double LineDistance(const glm::dvec3& p, const glm::dvec3& d, const glm::dvec3& t, double* along) {
  const glm::dvec3 u = glm::normalize(d);
  *along = glm::dot(t - p, u);
  return glm::length((t - p) - u * *along);
}

}  // namespace

// Offset (0, 1, 0) with forward +X: the eye at (0, 1, 0) already looks along
// +X at (2, 1, 0), so no method turns; at (−1, 2, 0) = Rz(90°)·(2, 1, 0) the
// turn is exactly 90° about Z.
TEST(AimOffset, ExactReferenceValues) {
  for (AimMethod method : kMethods) {
    AimJob job;
    job.settings.method = method;
    job.settings.offset = {0.0f, 1.0f, 0.0f};
    job.frame.target = {2.0f, 1.0f, 0.0f};
    const glm::quat still = Aim(job);
    EXPECT_NEAR(std::fabs(still.w), 1.0f, 1e-6f) << static_cast<int>(method);
    job.frame.target = {-1.0f, 2.0f, 0.0f};
    const glm::quat turned = Aim(job);
    const float h = std::sqrt(0.5f);
    EXPECT_NEAR(std::fabs(glm::dot(turned, glm::quat(h, 0.0f, 0.0f, h))), 1.0f, 1e-6f) << static_cast<int>(method);
  }
}

// An offset on the forward axis changes nothing (to float rounding).
TEST(AimOffset, OffsetAlongForwardMatchesNoOffset) {
  iktest::Rng rng(5);
  for (int i = 0; i < 2000; ++i) {
    AimJob job;
    job.settings.method = kMethods[i % 3];
    job.frame.position = rng.Vec(-5, 5);
    job.frame.rotation = rng.Rotation();
    job.frame.target = job.frame.position + rng.Direction() * rng.Uniform(0.5f, 10.0f);
    const glm::quat plain = Aim(job);
    job.settings.offset = job.settings.forward * rng.Uniform(-0.4f, 0.4f);
    const glm::quat offset = Aim(job);
    ASSERT_NEAR(std::fabs(glm::dot(plain, offset)), 1.0f, 1e-6f) << i;
  }
}

// The ray from the solved offset point along the solved forward passes
// through the target, for every method, with and without a pole; the roll
// still points up toward the pole about the joint → target axis.
TEST(AimOffset, OffsetRayPassesThroughTheTarget) {
  iktest::Rng rng(11);
  int reachable = 0;
  for (int i = 0; i < 20000; ++i) {
    AimJob job;
    job.settings.method = kMethods[i % 3];
    job.frame.position = rng.Vec(-5, 5);
    job.frame.rotation = rng.Rotation() * rng.Uniform(0.5f, 2.0f);  // not unit on purpose
    job.settings.forward = rng.Direction();
    job.settings.up = glm::normalize(glm::cross(job.settings.forward, rng.Direction()));
    job.settings.offset = rng.Direction() * rng.Uniform(0.0f, 1.0f);
    job.frame.target = job.frame.position + rng.Direction() * rng.Uniform(0.01f, 4.0f);
    if (i % 2 == 1) job.settings.pole = true, job.frame.pole = job.frame.position + rng.Vec(-3, 3);
    const glm::vec3 f = glm::normalize(job.settings.forward);
    const double across = glm::length(job.settings.offset - f * glm::dot(f, job.settings.offset));
    const double r = glm::length(glm::dvec3(job.frame.target) - glm::dvec3(job.frame.position));
    if (r < across * 1.001) continue;  // inside (or at the rim of) the offset sphere
    ++reachable;
    const glm::quat q = Aim(job);
    ASSERT_NEAR(glm::length(q), 1.0f, 1e-5f);
    const glm::dvec3 p = glm::dvec3(job.frame.position) + glm::dvec3(q * job.settings.offset);
    double along = 0.0;
    const double miss = LineDistance(p, glm::dvec3(q * f), glm::dvec3(job.frame.target), &along);
    ASSERT_LT(miss, 2e-5 * (r + 1.0)) << i << " method " << static_cast<int>(job.settings.method);
    ASSERT_GT(along + glm::dot(f, job.settings.offset), -1e-5) << i;  // ahead of the offset's foot on the forward line
    if (job.settings.pole) {
      // up and the pole lie on the same side of the plane containing the target axis and up.
      const glm::dvec3 axis = glm::normalize(glm::dvec3(job.frame.target) - glm::dvec3(job.frame.position));
      const glm::dvec3 toPole = glm::dvec3(job.frame.pole) - glm::dvec3(job.frame.position);
      const glm::dvec3 up = glm::dvec3(q * job.settings.up);
      const glm::dvec3 upAcross = up - axis * glm::dot(up, axis);
      const glm::dvec3 poleAcross = toPole - axis * glm::dot(toPole, axis);
      if (glm::length(upAcross) < 1e-2 || glm::length(poleAcross) < 1e-2 * glm::length(toPole)) continue;
      ASSERT_GT(glm::dot(glm::normalize(upAcross), glm::normalize(poleAcross)), 1.0 - 1e-5) << i;
    }
  }
  EXPECT_GT(reachable, 10000);
}

// Target inside the offset sphere (the joint itself included): no aim turn,
// the input rotation (normalized), as documented.
TEST(AimOffset, TargetInsideTheOffsetSphereKeepsTheInputRotation) {
  for (AimMethod method : kMethods) {
    AimJob job;
    job.settings.method = method;
    job.frame.rotation = glm::quat(2.0f, 0.0f, 0.0f, 2.0f);
    job.settings.offset = {0.5f, 1.0f, 0.0f};
    for (const glm::vec3 target : {glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, -0.999f), glm::vec3(-0.3f, 0.2f, 0.1f)}) {
      job.frame.target = target;
      const glm::quat q = Aim(job);
      EXPECT_NEAR(std::fabs(glm::dot(q, glm::normalize(job.frame.rotation))), 1.0f, 1e-7f);
    }
  }
}

// Huge and tiny scales give the same rotation as the unit-size problem.
TEST(AimOffset, ScaleInvariant) {
  AimJob job;
  job.settings.method = AimMethod::kYawPitch;
  job.settings.offset = {0.2f, 0.5f, 0.1f};
  job.frame.target = {1.0f, 2.0f, -0.5f};
  const glm::quat unitSize = Aim(job);
  for (float k : {1e-20f, 1e-6f, 1e6f, 1e30f}) {
    AimJob scaled = job;
    scaled.settings.offset *= k;
    scaled.frame.target *= k;
    EXPECT_NEAR(std::fabs(glm::dot(Aim(scaled), unitSize)), 1.0f, 1e-6f) << k;
  }
}

TEST(AimOffset, ValidationNamesOffset) {
  glm::quat out;
  AimJob job;
  job.result = &out;
  job.settings.offset = {std::nanf(""), 0.0f, 0.0f};
  EXPECT_EQ(job.Run().error, std::string("offset: must be finite"));
  job.settings.offset = {0.0f, 1.0f, 0.0f};
  job.settings.hingeAxis = glm::vec3(0.0f, 0.0f, 1.0f);
  EXPECT_EQ(job.Run().error, std::string("offset: cannot be combined with hingeAxis"));
  job.settings.offset = glm::vec3(0.0f);
  EXPECT_TRUE(job.Run().ok());
}

// A target within ~1e-30 of the joint has no direction even when a far
// smaller offset sets the scale: no aim turn, and a finite unit result
// (found by the fuzz soak: it gave NaN).
TEST(AimOffset, TargetAtTheJointWithATinyOffsetKeepsTheInputRotation) {
  for (AimMethod method : kMethods) {
    AimJob job;
    job.settings.method = method;
    job.frame.rotation = glm::quat(-3.0f, 0.0f, 0.0f, 0.0f);
    job.settings.forward = {0.0f, 1.0f, 0.0f};
    job.settings.up = {-1.0f, 0.0f, 0.0f};
    job.settings.offset = {0.0f, 1.05877673e-22f, 0.0f};
    job.frame.target = {0.0f, 0.0f, -3.3190494e-37f};
    const glm::quat q = Aim(job);
    EXPECT_TRUE(std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z));
    EXPECT_NEAR(std::fabs(glm::dot(q, glm::normalize(job.frame.rotation))), 1.0f, 1e-7f) << static_cast<int>(method);
  }
}
