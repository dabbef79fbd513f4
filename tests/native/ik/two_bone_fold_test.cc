// Two-bone IK on a fully folded limb (target closer than |a − b|): the
// triangle is degenerate, and the mid joint must lie exactly on the
// root → target line (docs/ik/two-bone.md).
#include <gtest/gtest.h>

#include "native/ik_test_util.h"

using ikpd::TwoBoneJob;
using ikpd::TwoBoneResult;

namespace {

// Distance (double) of p from the line through o with direction d.
double OffLine(const glm::vec3& o, const glm::vec3& d, const glm::vec3& p) {
  const glm::dvec3 u = glm::normalize(glm::dvec3(d));
  const glm::dvec3 v = glm::dvec3(p) - glm::dvec3(o);
  return glm::length(v - u * glm::dot(v, u));
}

}  // namespace

// A reproduction from a differential test: the old Heron product kept a
// one-ulp remainder of b + c − a and bent the folded limb by ~3e-4 rad.
TEST(TwoBoneFold, FoldedLimbKeepsTheMidOnTheTargetLine) {
  TwoBoneResult out;
  TwoBoneJob job;
  job.frame.root = {{0.0f, 0.0f, 0.0f}, glm::quat(0.950701714f, 0.017648967f, -0.0550729819f, 0.304666668f)};
  job.frame.mid = {{0.7f, 0.5f, 0.1f}, glm::quat(0.887679458f, 0.0514221825f, -0.0264627747f, -0.456815749f)};
  job.frame.end = {{0.874371469f, 0.255879939f, 0.1f}, glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  job.frame.target = {0.07f, 0.05f, 0.01f};
  job.settings.pole = ikpd::TwoBonePole::kDirection, job.frame.pole = glm::vec3(0.0f, 1.0f, 0.0f);
  job.settings.forward = {1.0f, 0.0f, 0.0f};
  job.settings.bendAxis = {0.0f, 0.0f, 1.0f};
  job.result = &out;
  ASSERT_TRUE(job.Run().ok());
  // The target lies on the upper bone's line: the exact answer leaves the mid in place.
  EXPECT_NEAR(out.mid.position.x, 0.7f, 2e-7f);
  EXPECT_NEAR(out.mid.position.y, 0.5f, 2e-7f);
  EXPECT_NEAR(out.mid.position.z, 0.1f, 2e-7f);
}

// Random folded limbs, upper or lower bone the longer, with and without a
// pole: the mid lies on the root → target line within 1e-6 of the limb.
TEST(TwoBoneFold, MidOnTheRootTargetLineForEveryFoldedLimb) {
  iktest::Rng rng(2024);
  const glm::vec3 kX(1, 0, 0), kZ(0, 0, 1);
  for (int i = 0; i < 20000; ++i) {
    const float a = rng.Uniform(0.2f, 2.0f);
    const float b = a * rng.Uniform(0.05f, 0.95f);
    const bool upperLonger = i % 2 == 0;
    const iktest::Limb l = iktest::MakeLimb(rng.Vec(-3, 3), rng.Rotation(), upperLonger ? a : b, upperLonger ? b : a,
                                            rng.Uniform(0.1f, 3.0f), kX, kZ, rng.Rotation());
    TwoBoneResult out;
    TwoBoneJob job;
    job.frame.root = l.root;
    job.frame.mid = l.mid;
    job.frame.end = l.end;
    const float fold = a - b;
    job.frame.target = l.root.position + rng.Direction() * (fold * rng.Uniform(0.001f, 0.999f));
    if (i % 3 == 1) job.settings.pole = ikpd::TwoBonePole::kDirection, job.frame.pole = rng.Direction();
    if (i % 3 == 2) job.settings.pole = ikpd::TwoBonePole::kPoint, job.frame.pole = l.root.position + rng.Vec(-2, 2);
    job.result = &out;
    ASSERT_TRUE(job.Run().ok()) << i;
    const glm::vec3 toTarget = job.frame.target - l.root.position;
    ASSERT_LT(OffLine(l.root.position, toTarget, out.mid.position), 1e-6 * (a + b)) << i;
    ASSERT_LT(OffLine(l.root.position, toTarget, out.end.position), 2e-6 * (a + b)) << i;
    // Upper bone longer: the mid lies beyond the target; lower longer: behind the root.
    const double side = glm::dot(glm::dvec3(out.mid.position - l.root.position), glm::dvec3(toTarget));
    ASSERT_TRUE(upperLonger ? side > 0.0 : side < 0.0) << i;
  }
}
