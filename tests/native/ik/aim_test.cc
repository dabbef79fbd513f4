#include <gtest/gtest.h>

#include <limits>

#include "native/ik_test_util.h"

using ikpd::AimJob;
using ikpd::AimMethod;
using iktest::AngleBetween;
using iktest::Aim;

namespace {

const glm::vec3 kX(1, 0, 0), kY(0, 1, 0), kZ(0, 0, 1);

AimJob JobAt(const glm::vec3& target, AimMethod method = AimMethod::kYawPitch) {
  AimJob job;
  job.frame.target = target;
  job.settings.method = method;
  return job;
}

void ExpectVecNear(const glm::vec3& a, const glm::vec3& b, float tol = 1e-5f) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

// Same rotation up to the quaternion sign.
void ExpectSameRotation(const glm::quat& a, const glm::quat& b, float tol = 1e-5f) {
  EXPECT_NEAR(std::fabs(glm::dot(a, b)), 1.0f, tol) << "a=(" << a.w << "," << a.x << "," << a.y << "," << a.z
                                                   << ") b=(" << b.w << "," << b.x << "," << b.y << "," << b.z << ")";
}

}  // namespace

// Reference formulas (docs/ik/aim.md, yaw then pitch): local target (x, y, z), yaw about Z, pitch about Y.
TEST(Aim, YawPitchMatchesSeedFormulas) {
  const glm::vec3 t(2.0f, 3.0f, -1.5f);
  const glm::quat q = Aim(JobAt(t));
  const float rxy = std::sqrt(t.x * t.x + t.y * t.y), r = glm::length(t);
  const float cz = t.x / rxy, sz = t.y / rxy, cy = rxy / r, sy = t.z / r;
  // Rotate by yaw, then pitch: X' = (cz·cy, sz·cy, sy), Y' = (−sz, cz, 0), Z' = X' × Y'.
  ExpectVecNear(q * kX, {cz * cy, sz * cy, sy});
  ExpectVecNear(q * kY, {-sz, cz, 0.0f});
  ExpectVecNear(q * kZ, {-cz * sy, -sz * sy, cy});
}

TEST(Aim, MethodsAgreeOnForward) {
  iktest::Rng rng(7);
  for (int i = 0; i < 10000; ++i) {
    AimJob job;
    job.frame.position = rng.Vec(-10, 10);
    job.frame.rotation = rng.Rotation() * (1.0f + rng.Uniform(0.0f, 3.0f));  // non-unit on purpose
    job.frame.target = job.frame.position + rng.Direction() * rng.Uniform(0.01f, 20.0f);
    const glm::vec3 forwards[] = {kX, kY, -kZ, glm::normalize(glm::vec3(1, 2, 3))};
    job.settings.forward = forwards[i % 4];
    const glm::vec3 want = job.frame.target - job.frame.position;
    job.settings.method = AimMethod::kYawPitch;
    const glm::quat yp = Aim(job);
    job.settings.method = AimMethod::kCrossProduct;
    const glm::quat cp = Aim(job);
    job.settings.method = AimMethod::kShortestArc;
    const glm::quat sa = Aim(job);
    ASSERT_LT(AngleBetween(yp * job.settings.forward, want), 1e-4) << i;
    ASSERT_LT(AngleBetween(cp * job.settings.forward, want), 1e-4) << i;
    ASSERT_LT(AngleBetween(sa * job.settings.forward, want), 1e-4) << i;
    ExpectSameRotation(yp, cp, 1e-5f);  // the cross-product method builds the same axes
    EXPECT_NEAR(glm::length(yp), 1.0f, 1e-6f);
  }
}

TEST(Aim, ShortestArcHasNoRollAndYawPitchDiffers) {
  const glm::vec3 t(1.0f, 1.0f, 1.0f);
  const glm::quat sa = Aim(JobAt(t, AimMethod::kShortestArc));
  // Shortest arc rotates about X × t only.
  const glm::quat expected = iktest::AxisAngle(glm::cross(kX, t), std::acos(glm::dot(kX, glm::normalize(t))));
  ExpectSameRotation(sa, expected);
  const glm::quat yp = Aim(JobAt(t));
  ExpectVecNear(sa * kX, yp * kX);
  EXPECT_GT(glm::length(sa * kY - yp * kY), 1e-3f);  // Y and Z differ (docs/ik/aim.md)
}

TEST(Aim, TargetBehindTurns180AboutYawAxis) {
  for (AimMethod m : {AimMethod::kYawPitch, AimMethod::kCrossProduct, AimMethod::kShortestArc}) {
    const glm::quat q = Aim(JobAt({-3.0f, 0.0f, 0.0f}, m));
    ExpectVecNear(q * kX, -kX);
    ExpectVecNear(q * kZ, kZ);  // about Z (the yaw axis), never NaN
    ExpectVecNear(q * kY, -kY);
  }
  // Almost behind: still finite and accurate.
  const glm::quat q = Aim(JobAt({-1.0f, 1e-7f, -1e-7f}, AimMethod::kShortestArc));
  EXPECT_LT(AngleBetween(q * kX, {-1.0f, 1e-7f, -1e-7f}), 1e-5);
}

// A fuzzer find: the current forward almost exactly opposite the target.
// The shortest arc's axis, dominated by the cross product's rounding, tilted
// the solved forward 9.5° off the target (now within float rounding).
TEST(Aim, ShortestArcNearlyOppositeForwardReachesTheTarget) {
  AimJob job;
  job.frame.position = glm::vec3(-1e-7f);
  job.frame.rotation = glm::quat(-1e-7f, -1e-7f, 99.215683f, 99.215683f);  // wxyz, not unit
  job.frame.target = glm::vec3(99.215683f);
  job.settings.forward = {99.2156677f, -99.215683f, -99.2156677f};
  job.settings.method = AimMethod::kShortestArc;
  job.settings.up = {0.0f, 0.0f, -1.0f};
  job.settings.pole = true, job.frame.pole = glm::vec3(99.2156677f, -99.215683f, -99.215683f);
  const glm::quat q = Aim(job);
  EXPECT_LT(AngleBetween(q * glm::normalize(job.settings.forward), job.frame.target - job.frame.position), 2e-6);
}

// Many current forwards within 1e-3 .. 1e-7 rad of opposite the target, all methods.
TEST(Aim, NearlyOppositeForwardsReachTheTarget) {
  iktest::Rng rng(16);
  for (int i = 0; i < 20000; ++i) {
    AimJob job;
    job.settings.method = static_cast<AimMethod>(i % 3);
    job.frame.rotation = rng.Rotation();
    job.settings.forward = rng.Direction();
    const glm::vec3 back = -(job.frame.rotation * job.settings.forward);
    const float tilt = std::pow(10.0f, rng.Uniform(-7.0f, -3.0f));
    job.frame.target = glm::normalize(back + glm::normalize(glm::cross(back, rng.Direction())) * tilt) * rng.Uniform(0.1f, 100.0f);
    const glm::quat q = Aim(job);
    ASSERT_LT(AngleBetween(q * job.settings.forward, job.frame.target), 2e-6) << i << " method " << (i % 3) << " tilt " << tilt;
  }
}

TEST(Aim, TargetOnYawAxisPitchesOnly) {
  for (AimMethod m : {AimMethod::kYawPitch, AimMethod::kCrossProduct, AimMethod::kShortestArc}) {
    const glm::quat q = Aim(JobAt({0.0f, 0.0f, 2.0f}, m));
    ExpectVecNear(q * kX, kZ);
    ExpectVecNear(q * kY, kY);
  }
}

TEST(Aim, TargetAtJointLeavesRotationUnchanged) {
  AimJob job = JobAt({1.0f, 2.0f, 3.0f});
  job.frame.position = job.frame.target;
  job.frame.rotation = glm::quat(2.0f, 0.0f, 0.0f, 0.0f) * iktest::AxisAngle(kY, 0.3f);
  for (AimMethod m : {AimMethod::kYawPitch, AimMethod::kCrossProduct, AimMethod::kShortestArc}) {
    job.settings.method = m;
    ExpectSameRotation(Aim(job), iktest::AxisAngle(kY, 0.3f));
  }
}

// Up-vector reference (docs/ik/aim.md): pole in joint space (x, y, z): roll by atan2(z, y) for up = +Y,
// (cos, sin) ← (sin, −cos) for +Z, both negated for −Y / −Z.
TEST(Aim, UpVectorRollMatchesSeedFormulas) {
  const glm::vec3 pole(5.0f, 0.6f, 0.8f);
  struct Case {
    glm::vec3 up;
    float cosX, sinX;
  } cases[] = {{kY, 0.6f, 0.8f}, {kZ, 0.8f, -0.6f}, {-kY, -0.6f, -0.8f}, {-kZ, -0.8f, 0.6f}};
  for (const Case& c : cases) {
    AimJob job = JobAt({3.0f, 0.0f, 0.0f});  // already aimed: only the roll acts
    job.settings.up = c.up;
    job.settings.pole = true, job.frame.pole = pole;
    const glm::quat q = Aim(job);
    ExpectSameRotation(q, glm::quat(std::cos(0.5f * std::atan2(c.sinX, c.cosX)), std::sin(0.5f * std::atan2(c.sinX, c.cosX)), 0, 0));
    // The up axis now points toward the pole's projection.
    ExpectVecNear(q * c.up, {0.0f, 0.6f, 0.8f});
  }
}

TEST(Aim, UpVectorAfterAimPointsAtPole) {
  iktest::Rng rng(99);
  for (int i = 0; i < 2000; ++i) {
    AimJob job;
    job.frame.position = rng.Vec(-5, 5);
    job.frame.rotation = rng.Rotation();
    job.frame.target = job.frame.position + rng.Direction() * 3.0f;
    job.settings.forward = (i % 2) ? kY : kX;
    job.settings.up = (i % 2) ? kZ : -kZ;
    job.settings.pole = true, job.frame.pole = job.frame.position + rng.Vec(-4, 4);
    job.settings.method = static_cast<AimMethod>(i % 3);
    const glm::quat q = Aim(job);
    const glm::vec3 fw = q * job.settings.forward;
    ASSERT_LT(AngleBetween(fw, job.frame.target - job.frame.position), 1e-4);
    // up lies in the plane of forward and the pole, on the pole's side.
    const glm::vec3 p = job.frame.pole - job.frame.position;
    const glm::vec3 pPerp = glm::normalize(p - glm::dot(p, fw) * fw);
    ASSERT_LT(AngleBetween(q * job.settings.up, pPerp), 1e-3) << i;
  }
}

TEST(Aim, PoleOnForwardAxisMeansNoRoll) {
  AimJob job = JobAt({3.0f, 0.0f, 0.0f});
  job.settings.pole = true, job.frame.pole = glm::vec3(7.0f, 0.0f, 0.0f);
  ExpectSameRotation(Aim(job), glm::quat(1, 0, 0, 0));
}

TEST(Aim, HingeAxisGives2DYaw) {
  AimJob job = JobAt({1.0f, 1.0f, 5.0f});
  job.settings.hingeAxis = kZ;
  const glm::quat q = Aim(job);
  // Yaw only (the 2D version): rotation about Z by atan2(y, x).
  ExpectSameRotation(q, iktest::AxisAngle(kZ, std::atan2(1.0f, 1.0f)));
  // Same as yaw/pitch with the pitch ignored.
  job.settings.hingeAxis.reset();
  job.frame.target.z = 0.0f;
  ExpectSameRotation(Aim(job), q);
  // Target on the hinge axis: unchanged.
  job.settings.hingeAxis = kZ;
  job.frame.target = {0.0f, 0.0f, 4.0f};
  ExpectSameRotation(Aim(job), glm::quat(1, 0, 0, 0));
}

TEST(Aim, WeightSlerps) {
  AimJob job = JobAt({0.0f, 1.0f, 0.0f});
  job.frame.weight = 0.0f;
  ExpectSameRotation(Aim(job), glm::quat(1, 0, 0, 0));
  job.frame.weight = 0.5f;
  ExpectSameRotation(Aim(job), iktest::AxisAngle(kZ, ikpd::kPi / 4));
}

TEST(Aim, ThreeJsForwardAxis) {
  AimJob job = JobAt({0.0f, 0.0f, 2.0f});
  job.settings.forward = kY;
  const glm::quat q = Aim(job);
  ExpectVecNear(q * kY, kZ);
}

TEST(Aim, ValidateNamesTheParameter) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  glm::quat out(1, 0, 0, 0);
  auto err = [&](auto mutate) {
    AimJob job = JobAt({1, 2, 3});
    job.result = &out;
    mutate(job);
    out = glm::quat(1, 0, 0, 0);
    const ikpd::Status s = job.Run();
    if (!s.ok()) {
      EXPECT_EQ(out, glm::quat(1, 0, 0, 0));  // untouched on error
    }
    return std::string(s.error ? s.error : "");
  };
  EXPECT_EQ(err([](AimJob&) {}), "");
  EXPECT_EQ(err([&](AimJob& j) { j.frame.position.x = nan; }).rfind("position:", 0), 0u);
  EXPECT_EQ(err([](AimJob& j) { j.frame.rotation = glm::quat(0, 0, 0, 0); }).rfind("rotation:", 0), 0u);
  EXPECT_EQ(err([&](AimJob& j) { j.frame.target.y = std::numeric_limits<float>::infinity(); }).rfind("target:", 0), 0u);
  EXPECT_EQ(err([](AimJob& j) { j.settings.forward = glm::vec3(0); }).rfind("forward:", 0), 0u);
  EXPECT_EQ(err([](AimJob& j) { j.settings.method = static_cast<AimMethod>(7); }).rfind("method:", 0), 0u);
  EXPECT_EQ(err([](AimJob& j) { j.frame.weight = 1.5f; }).rfind("weight:", 0), 0u);
  EXPECT_EQ(err([&](AimJob& j) { j.frame.weight = nan; }).rfind("weight:", 0), 0u);
  EXPECT_EQ(err([](AimJob& j) { j.settings.pole = true, j.frame.pole = glm::vec3(0, 1, 0); j.settings.up = glm::vec3(2, 0, 0); }).rfind("up:", 0), 0u);
  EXPECT_EQ(err([&](AimJob& j) { j.settings.pole = true, j.frame.pole = glm::vec3(nan); }).rfind("pole:", 0), 0u);
  EXPECT_EQ(err([](AimJob& j) { j.settings.pole = true, j.frame.pole = glm::vec3(1); j.settings.hingeAxis = kZ; }).rfind("pole:", 0), 0u);
  EXPECT_EQ(err([](AimJob& j) { j.settings.hingeAxis = kX; }).rfind("hingeAxis:", 0), 0u);
  EXPECT_EQ(err([](AimJob& j) { j.settings.hingeAxis = glm::vec3(0); }).rfind("hingeAxis:", 0), 0u);
  EXPECT_EQ(err([](AimJob& j) { j.result = nullptr; }).rfind("result:", 0), 0u);
}

TEST(Aim, ExtremeButFiniteInputStaysFinite) {
  const float big = 3e38f, tiny = 1e-38f;
  for (AimMethod m : {AimMethod::kYawPitch, AimMethod::kCrossProduct, AimMethod::kShortestArc}) {
    AimJob job = JobAt({tiny, -tiny, tiny}, m);
    glm::quat q = Aim(job);
    EXPECT_TRUE(ikpd::IsFinite(q));
    job.frame.target = {big, big, -big};
    job.frame.position = {-big, 0, 0};
    q = Aim(job);
    EXPECT_TRUE(ikpd::IsFinite(q));
  }
}
