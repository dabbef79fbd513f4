#include <gtest/gtest.h>

#include <limits>

#include "native/ik_test_util.h"

using ikpd::BendDirection;
using ikpd::TwoBoneJob;
using ikpd::TwoBoneResult;
using iktest::AngleBetween;
using iktest::Dist;
using iktest::MakeLimb;
using iktest::Same;

namespace {

const glm::vec3 kX(1, 0, 0), kY(0, 1, 0), kZ(0, 0, 1);

// The shared two-bone jobs (native/ik_test_util.h): one on a limb's joints, and
// the straight-forward limb along +X bent about +Z (root at origin, a = b = 1).
constexpr auto JobFor = iktest::TwoBoneJobFor;
constexpr auto BasicJob = iktest::BasicTwoBoneJob;

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
    job.frame.root = l.root;
    job.frame.mid = l.mid;
    job.frame.end = l.end;
    job.settings.forward = f;
    job.settings.bendAxis = h;
    job.settings.bendDirection = static_cast<BendDirection>(i % 3);
    job.settings.minAngle = (i % 4 == 0) ? rng.Uniform(0.0f, 1.0f) : 0.0f;
    job.settings.maxAngle = (i % 5 == 0) ? rng.Uniform(2.0f, ikpd::kPi) : ikpd::kPi;
    // Reachable target: distance strictly inside [c_min, c_max].
    const double cMin = std::sqrt(std::max(0.0, a * a + b * b - 2.0 * a * b * std::cos(double(job.settings.minAngle))));
    const double cMax = std::sqrt(a * a + b * b - 2.0 * a * b * std::cos(double(job.settings.maxAngle)));
    const float c = static_cast<float>(cMin + (cMax - cMin) * rng.Uniform(0.001f, 0.999f));
    job.frame.target = l.root.position + c * rng.Direction();
    const int poleKind = i % 8;  // 0..2 none, 3..5 point, 6 direction, 7 point on the root→target line
    glm::vec3 pole = l.root.position + rng.Vec(-3, 3);
    if (poleKind >= 3 && poleKind <= 5) job.settings.pole = ikpd::TwoBonePole::kPoint, job.frame.pole = pole;
    if (poleKind == 6) {
      job.settings.pole = ikpd::TwoBonePole::kDirection, job.frame.pole = rng.Direction();
      pole = l.root.position + job.frame.pole;
    }
    if (poleKind == 7) job.settings.pole = ikpd::TwoBonePole::kPoint, job.frame.pole = l.root.position + 2.0f * (job.frame.target - l.root.position);
    job.result = &r;
    const ikpd::Status status = job.Run();
    ASSERT_TRUE(status.ok()) << i << " " << status.error;
    ASSERT_TRUE(iktest::Finite(r)) << i;
    const double limb = a + b;
    worstReach = std::max(worstReach, Dist(r.end.position, job.frame.target) / limb);
    worstLength = std::max({worstLength, std::fabs(Dist(r.mid.position, r.root.position) - a) / a,
                            std::fabs(Dist(r.end.position, r.mid.position) - b) / b});
    EXPECT_TRUE(r.reached) << i;
    EXPECT_EQ(r.root.position, l.root.position);
    const double angle = iktest::InteriorAngle(r);
    worstLimit = std::max({worstLimit, double(job.settings.minAngle) - angle, angle - double(job.settings.maxAngle)});
    // Forward axes point at the children; the mid's hinge is the plane normal.
    worstAxis = std::max({worstAxis, AngleBetween(r.root.rotation * f, r.mid.position - r.root.position),
                          AngleBetween(r.mid.rotation * f, r.end.position - r.mid.position)});
    if (job.settings.bendDirection != BendDirection::kAuto) {
      EXPECT_GT(BendSide(r, h) * (job.settings.bendDirection == BendDirection::kPositive ? 1 : -1), 0.0) << i;
    }
    if (poleKind >= 3 && poleKind <= 6) {
      // Plane through root, mid, end contains the pole, and the mid is on its side.
      const glm::dvec3 n = glm::normalize(glm::cross(glm::dvec3(r.mid.position - r.root.position),
                                                     glm::dvec3(job.frame.target - r.root.position)));
      const glm::dvec3 toPole = glm::dvec3(pole) - glm::dvec3(r.root.position);
      worstPlane = std::max(worstPlane, std::fabs(glm::dot(n, toPole)) / glm::length(toPole));
      const glm::dvec3 t = glm::normalize(glm::dvec3(job.frame.target - r.root.position));
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
  job.frame.target = {0, 5, 0};
  ASSERT_TRUE(job.Run().ok());
  EXPECT_FALSE(r.reached);
  EXPECT_NEAR(r.distance, 3.0f, 1e-5f);
  EXPECT_NEAR(Dist(r.mid.position, {0, 1, 0}), 0.0, 1e-6);
  EXPECT_NEAR(Dist(r.end.position, {0, 2, 0}), 0.0, 1e-6);
}

TEST(TwoBone, ReferenceTriangle) {
  // a = b = c = 1: B = C = 60°. positive: root (cosB, −sinB), mid (−cosC, sinC) about +Z.
  TwoBoneResult r;
  TwoBoneJob job = BasicJob(0.8f, &r);
  job.frame.target = {1, 0, 0};
  job.settings.bendDirection = BendDirection::kPositive;
  ASSERT_TRUE(job.Run().ok());
  EXPECT_LT(Dist(r.mid.position, {0.5f, -std::sqrt(3.0f) / 2, 0}), 1e-6);
  EXPECT_LT(Dist(r.end.position, {1, 0, 0}), 1e-6);
  EXPECT_NEAR(std::fabs(glm::dot(r.root.rotation, iktest::AxisAngle(kZ, -ikpd::kPi / 3))), 1.0f, 1e-6f);
  EXPECT_NEAR(std::fabs(glm::dot(r.mid.rotation, iktest::AxisAngle(kZ, ikpd::kPi / 3))), 1.0f, 1e-6f);
  job.settings.bendDirection = BendDirection::kNegative;  // root (cosB, sinB), mid (−cosC, −sinC)
  ASSERT_TRUE(job.Run().ok());
  EXPECT_LT(Dist(r.mid.position, {0.5f, std::sqrt(3.0f) / 2, 0}), 1e-6);
}

TEST(TwoBone, AutoKeepsSideAndStraightTieBreak) {
  for (float bend : {0.7f, -0.7f}) {
    TwoBoneResult r;
    TwoBoneJob job = BasicJob(bend, &r);
    job.frame.target = {1.2f, 0.3f, 0};
    ASSERT_TRUE(job.Run().ok());
    EXPECT_GT(BendSide(r, kZ) * bend, 0.0);
  }
  for (BendDirection tie : {BendDirection::kPositive, BendDirection::kNegative}) {
    TwoBoneResult r;
    TwoBoneJob job = BasicJob(0.0f, &r);
    job.frame.target = {1.2f, 0, 0};
    job.settings.straightBend = tie;
    ASSERT_TRUE(job.Run().ok());
    EXPECT_GT(BendSide(r, kZ) * (tie == BendDirection::kPositive ? 1 : -1), 0.0);
  }
}

// Output rotations stay in the hemisphere of the input rotations, so an
// animation driven frame by frame never sees q flip to −q.
TEST(TwoBone, RotationsKeepTheInputHemisphere) {
  std::uint32_t seed = 7;
  auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) / 16777216.0f * 2.0f - 1.0f;
  };
  for (int i = 0; i < 2000; ++i) {
    const glm::quat rootRot = glm::normalize(glm::quat(next(), next(), next(), next()));
    const glm::quat midRot = glm::normalize(glm::quat(next(), next(), next(), next()));
    const iktest::Limb l = MakeLimb(glm::vec3(next(), next(), next()), rootRot, 1.0f, 0.7f, 2.0f * next(), kX, kZ, midRot);
    TwoBoneResult r;
    TwoBoneJob job = JobFor(l, &r);
    job.frame.target = glm::vec3(2.0f * next(), 2.0f * next(), 2.0f * next());
    job.settings.pole = ikpd::TwoBonePole::kPoint, job.frame.pole = glm::vec3(next(), next(), next()) * 3.0f;
    job.frame.weight = i % 3 == 0 ? 0.5f : 1.0f;
    job.settings.endRotation = i % 2 == 0 ? ikpd::EndRotation::kRelative : ikpd::EndRotation::kWorld;
    ASSERT_TRUE(job.Run().ok());
    EXPECT_GE(glm::dot(r.root.rotation, glm::normalize(l.root.rotation)), 0.0f) << i;
    EXPECT_GE(glm::dot(r.mid.rotation, glm::normalize(l.mid.rotation)), 0.0f) << i;
    EXPECT_GE(glm::dot(r.end.rotation, glm::normalize(l.end.rotation)), 0.0f) << i;
  }
}

TEST(TwoBone, AngleLimitsClampViaReach) {
  TwoBoneResult r;
  TwoBoneJob job = BasicJob(0.8f, &r);
  job.settings.maxAngle = 170.0f * ikpd::kPi / 180.0f;
  job.frame.target = {1.999f, 0, 0};
  ASSERT_TRUE(job.Run().ok());
  EXPECT_NEAR(iktest::InteriorAngle(r), double(job.settings.maxAngle), 1e-4);
  EXPECT_FALSE(r.reached);
  job.settings.maxAngle = ikpd::kPi;
  job.settings.minAngle = ikpd::kPi / 6;
  job.frame.target = {0.1f, 0, 0};
  ASSERT_TRUE(job.Run().ok());
  EXPECT_NEAR(iktest::InteriorAngle(r), double(job.settings.minAngle), 1e-4);
}

TEST(TwoBone, EffectorOffsetWeightSoftenStretchTwist) {
  TwoBoneResult r;
  TwoBoneJob job = BasicJob(0.8f, &r);
  job.frame.target = {1, 1, 0};
  job.frame.effectorOffset = {0.1f, 0.2f, 0};
  ASSERT_TRUE(job.Run().ok());
  EXPECT_LT(Dist(r.end.position + job.frame.effectorOffset, job.frame.target), 1e-5);
  EXPECT_TRUE(r.reached);

  job = BasicJob(0.8f, &r);
  job.frame.target = {0, 1.5f, 0};
  job.frame.weight = 0.0f;
  ASSERT_TRUE(job.Run().ok());
  EXPECT_EQ(r.end.position, job.frame.end.position);
  EXPECT_EQ(r.mid.rotation, glm::normalize(job.frame.mid.rotation));

  job = BasicJob(0.8f, &r);
  job.settings.soften = 0.2f;
  float previous = 1.5f;
  for (float c = 1.5f; c <= 3.0f; c += 0.01f) {
    job.frame.target = {c, 0, 0};
    ASSERT_TRUE(job.Run().ok());
    const float reach = glm::length(r.end.position);
    EXPECT_GE(reach, previous - 1e-6f);
    EXPECT_LT(reach, 2.0f);
    EXPECT_LT(reach - previous, 0.011f);
    previous = reach;
  }

  job = BasicJob(0.8f, &r);
  job.settings.maxStretch = 1.5f;
  job.frame.target = {0, 2.4f, 0};
  ASSERT_TRUE(job.Run().ok());
  EXPECT_TRUE(r.reached);
  EXPECT_NEAR(Dist(r.mid.position, r.root.position), 1.2, 1e-5);
  job.frame.target = {0, 4, 0};
  ASSERT_TRUE(job.Run().ok());
  EXPECT_NEAR(r.distance, 1.0f, 1e-5f);

  TwoBoneResult base;
  job = BasicJob(0.8f, &base);
  job.frame.target = {1.5f, 0, 0};
  ASSERT_TRUE(job.Run().ok());
  job.settings.twist = ikpd::kPi / 2;
  job.result = &r;
  ASSERT_TRUE(job.Run().ok());
  EXPECT_LT(Dist(r.mid.position, iktest::AxisAngle(kX, ikpd::kPi / 2) * base.mid.position), 1e-5);
}

TEST(TwoBone, EndRotationModes) {
  TwoBoneResult r;
  TwoBoneJob job = BasicJob(0.8f, &r);
  job.frame.end.rotation = iktest::AxisAngle(kY, 0.4f);
  job.frame.target = {0, 1.5f, 0};
  ASSERT_TRUE(job.Run().ok());
  EXPECT_NEAR(std::fabs(glm::dot(r.end.rotation, job.frame.end.rotation)), 1.0f, 1e-6f);
  job.settings.endRotation = ikpd::EndRotation::kRelative;
  ASSERT_TRUE(job.Run().ok());
  const glm::quat before = glm::conjugate(job.frame.mid.rotation) * job.frame.end.rotation;
  const glm::quat after = glm::conjugate(r.mid.rotation) * r.end.rotation;
  EXPECT_NEAR(std::fabs(glm::dot(before, after)), 1.0f, 1e-6f);
}

TEST(TwoBone, ValidateNamesTheParameter) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  TwoBoneResult r;
  auto err = [&](auto mutate) {
    TwoBoneJob job = BasicJob(0.8f, &r);
    job.frame.target = {1, 1, 0};
    mutate(job);
    r.distance = -7.0f;
    const ikpd::Status s = job.Run();
    if (!s.ok()) {
      EXPECT_EQ(r.distance, -7.0f);  // untouched on error
    }
    return std::string(s.error ? s.error : "");
  };
  auto starts = [](const std::string& s, const char* p) { return s.rfind(p, 0) == 0; };
  EXPECT_EQ(err([](TwoBoneJob&) {}), "");
  EXPECT_TRUE(starts(err([&](TwoBoneJob& j) { j.frame.root.position.x = nan; }), "root.position:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.frame.mid.rotation = glm::quat(0, 0, 0, 0); }), "mid.rotation:"));
  EXPECT_TRUE(starts(err([&](TwoBoneJob& j) { j.frame.end.rotation.w = nan; }), "end.rotation:"));
  EXPECT_TRUE(starts(err([&](TwoBoneJob& j) { j.frame.target.z = nan; }), "target:"));
  EXPECT_TRUE(starts(err([&](TwoBoneJob& j) { j.settings.pole = ikpd::TwoBonePole::kPoint, j.frame.pole = glm::vec3(nan); }), "pole:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.settings.pole = static_cast<ikpd::TwoBonePole>(3), j.frame.pole = glm::vec3(1); }),  // JS: pole and poleDirection
                     "poleDirection:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.settings.forward = glm::vec3(0); }), "forward:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.settings.bendAxis = glm::vec3(-3, 0, 0); }), "bendAxis:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.settings.bendDirection = static_cast<BendDirection>(9); }), "bendDirection:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.settings.straightBend = BendDirection::kAuto; }), "straightBend:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.settings.minAngle = -0.1f; }), "minAngle:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.settings.minAngle = 2; j.settings.maxAngle = 1; }), "minAngle:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.settings.maxAngle = 4; }), "maxAngle:"));
  EXPECT_TRUE(starts(err([&](TwoBoneJob& j) { j.frame.effectorOffset.x = nan; }), "effectorOffset:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.frame.weight = -0.5f; }), "weight:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.settings.soften = 1.5f; }), "soften:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.settings.maxStretch = 0.9f; }), "maxStretch:"));
  EXPECT_TRUE(starts(err([&](TwoBoneJob& j) { j.settings.twist = nan; }), "twist:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.settings.endRotation = static_cast<ikpd::EndRotation>(5); }), "endRotation:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.settings.tolerance = -1; }), "tolerance:"));
  EXPECT_TRUE(starts(err([](TwoBoneJob& j) { j.result = nullptr; }), "result:"));
}

// forward/bendAxis are memoized per thread for the last valid pair: switching
// rigs, and invalid axes right after a valid job, must behave as if fresh.
TEST(TwoBone, AxesMemoNeverLeaksBetweenJobs) {
  TwoBoneResult first, other, again;
  TwoBoneJob x = BasicJob(0.8f, &first);
  x.frame.target = {1, 1, 0};
  ASSERT_TRUE(x.Run());
  // The same limb described in a rig whose bones point along +Y (still bent about +Z).
  const glm::quat toY = glm::angleAxis(glm::half_pi<float>(), kZ);
  TwoBoneJob y = x;
  y.result = &other;
  y.settings.forward = kY;
  y.settings.bendAxis = kZ;
  y.frame.root.rotation = y.frame.root.rotation * glm::inverse(toY);
  y.frame.mid.rotation = y.frame.mid.rotation * glm::inverse(toY);
  ASSERT_TRUE(y.Run());
  EXPECT_LT(Dist(first.end.position, other.end.position), 1e-5f);
  EXPECT_LT(AngleBetween(first.mid.rotation * kX, other.mid.rotation * kY), 1e-4f);
  // Back to the first rig: bit-identical to its first run.
  x.result = &again;
  ASSERT_TRUE(x.Run());
  EXPECT_TRUE(Same(first, again));
  // Invalid axes right after valid ones still fail, with their own errors.
  TwoBoneJob bad = x;
  bad.settings.bendAxis = 2.0f * x.settings.forward;
  EXPECT_STREQ(bad.Run().error, "bendAxis: must not be parallel to forward");
  bad = x;
  bad.settings.forward = glm::vec3(0.0f);
  EXPECT_STREQ(bad.Run().error, "forward: must be a non-zero finite vector");
  bad = x;
  bad.settings.bendAxis.z = std::numeric_limits<float>::infinity();
  EXPECT_STREQ(bad.Run().error, "bendAxis: must be a non-zero finite vector");
  // −0 and 0 are the same axis (same result), though they differ bit-wise.
  TwoBoneJob negativeZero = x;
  negativeZero.settings.forward = {1.0f, -0.0f, 0.0f};
  negativeZero.result = &again;
  ASSERT_TRUE(negativeZero.Run());
  EXPECT_TRUE(Same(first, again));
}

TEST(LocalRotations, ComposeBackToWorld) {
  const glm::quat parent = iktest::AxisAngle({1, 2, 3}, 0.7f);
  glm::quat world[3] = {iktest::AxisAngle(kX, 0.3f), iktest::AxisAngle(kY, 1.1f) * 2.0f, iktest::AxisAngle(kZ, -0.4f)};
  glm::quat local[3];
  ASSERT_TRUE(ikpd::ToLocalRotations(world, local, parent).ok());
  glm::quat acc = parent;
  for (int i = 0; i < 3; ++i) {
    acc = acc * local[i];
    EXPECT_NEAR(std::fabs(glm::dot(acc, glm::normalize(world[i]))), 1.0f, 1e-6f);
  }
  // In place.
  glm::quat inPlace[3] = {world[0], world[1], world[2]};
  ASSERT_TRUE(ikpd::ToLocalRotations(inPlace, inPlace, parent).ok());
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(std::fabs(glm::dot(inPlace[i], local[i])), 1.0f, 1e-6f);
  EXPECT_FALSE(ikpd::ToLocalRotations(std::span<const glm::quat>(world, 3), std::span<glm::quat>(local, 2)).ok());
  world[1] = glm::quat(0, 0, 0, 0);
  EXPECT_STREQ(ikpd::ToLocalRotations(world, local).error, "rotations: must be non-zero finite quaternions");
}
