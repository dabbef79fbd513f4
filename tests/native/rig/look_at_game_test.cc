// Game behaviour of LookAt and BodyLookAt (docs/rig/look-at.md): targets behind
// (no sweep through the front), yaw/pitch limits in the character's frame,
// the speed cap, 'linear' target motion, and the eyes leading the head.
// Every timing test runs at 30, 60 and 240 Hz.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ikpd/ikpd.h"
#include "native/humanoid_test_util.h"
#include "native/look_at_test_util.h"

namespace {

using humanoid::InputOf;
using humanoid::Pose;
using humanoid::Solved;
using ikpd::kPi;
using ikpd::Transform;

constexpr float kDeg = kPi / 180.0f;
constexpr float kRates[] = {30.0f, 60.0f, 240.0f};

using lookattest::Chain;  // the LookAt test chain
using lookattest::kWeights;

// World yaw (about +Y, from +Z toward +X) and pitch of a direction.
float YawOf(const glm::vec3& d) { return std::atan2(d.x, d.z); }
float PitchOf(const glm::vec3& d) { return std::atan2(d.y, std::sqrt(d.x * d.x + d.z * d.z)); }
float Wrap(float a) { return std::remainder(a, 2.0f * kPi); }

// A point at azimuth `deg` (0: in front, +Z; 180: behind) around `centre`.
glm::vec3 Around(const glm::vec3& centre, float deg, float radius = 2.0f) {
  return centre + radius * glm::vec3(std::sin(deg * kDeg), 0.0f, std::cos(deg * kDeg));
}

// The orbit of issue #26: settle at 150°, then swing 150° → 210° → 150° twice
// at 90°/s, crossing straight behind four times. Returns the largest change
// of the head's yaw in one frame (radians) from `step(dt, target)` (the head's
// world look direction).
template <class Step>
float LargestYawStep(float rate, Step& step) {
  const float dt = 1.0f / rate;
  const glm::vec3 centre(0.0f, 1.75f, 0.0f);
  float previous = YawOf(step(dt, Around(centre, 150.0f)));
  for (int i = 0; i < static_cast<int>(2.0f * rate); ++i) previous = YawOf(step(dt, Around(centre, 150.0f)));
  float largest = 0.0f;
  const int frames = static_cast<int>(rate * 4.0f * 60.0f / 90.0f);
  for (int i = 1; i <= frames; ++i) {
    const float phase = std::fmod(90.0f * static_cast<float>(i) * dt, 120.0f);  // 0 … 120
    const float azimuth = 150.0f + (phase < 60.0f ? phase : 120.0f - phase);
    const float yaw = YawOf(step(dt, Around(centre, azimuth)));
    largest = std::max(largest, std::abs(Wrap(yaw - previous)));
    previous = yaw;
  }
  return largest;
}

// Steps that turn a look-at toward `target` and give the head's world look
// direction: LookAt on Chain() with kWeights, BodyLookAt on the rest humanoid.
struct ChainLook {
  ikpd::LookAt look;
  std::vector<Transform> pose = Chain();
  std::vector<Transform> out = std::vector<Transform>(pose.size());
  ChainLook() {
    ikpd::LookAtSettings s;
    s.weights = kWeights;
    EXPECT_TRUE(look.Reset(s).ok());
  }
  glm::vec3 operator()(float dt, const glm::vec3& target) {
    EXPECT_TRUE(look.Update(dt, pose, target, true, out).ok());
    return out.back().rotation * glm::vec3(0, 0, 1);
  }
};
struct BodyLook {
  ikpd::BodyLookAt rig;
  Pose pose = humanoid::RestPose();
  Solved out;
  BodyLook() { EXPECT_TRUE(rig.Reset({}).ok()); }
  glm::vec3 operator()(float dt, const glm::vec3& target) {
    EXPECT_TRUE(rig.Update(dt, InputOf(pose, target), out.View()).ok());
    return out.pose.spine[humanoid::kHead].rotation * glm::vec3(0, 0, 1);
  }
};

// No frame turns the head more than 10° at 60 Hz (scaled with the rate).
void ExpectNoSweep(float largest, float rate) {
  EXPECT_LE(largest, 10.0f * kDeg * 60.0f / rate) << rate << " Hz: " << largest / kDeg << "°";
}

TEST(LookAtBehind, TheHeadNeverSweepsThroughTheFront) {
  for (float rate : kRates) {
    ChainLook look;
    ExpectNoSweep(LargestYawStep(rate, look), rate);
  }
}

TEST(BodyLookAtBehind, TheHeadNeverSweepsThroughTheFront) {
  for (float rate : kRates) {
    BodyLook look;
    ExpectNoSweep(LargestYawStep(rate, look), rate);
  }
}

// Two full turns of a target around the head at 90°/s: when it comes back in
// front on the other side the head crosses over, at most maxSpeed (default
// 8 rad/s) fast, never in one sweep.
template <class Step>
float LargestYawStepFullOrbit(float rate, Step& step) {
  const float dt = 1.0f / rate;
  const glm::vec3 centre(0.0f, 1.75f, 0.0f);
  float previous = 0.0f, largest = 0.0f;
  for (int i = 0; i < static_cast<int>(rate * 8.0f); ++i) {
    const float yaw = YawOf(step(dt, Around(centre, 90.0f * static_cast<float>(i) * dt)));
    if (i > 0) largest = std::max(largest, std::abs(Wrap(yaw - previous)));
    previous = yaw;
  }
  return largest;
}

TEST(LookAtBehind, FullOrbitsNeverWhipTheHead) {
  for (float rate : kRates) {
    ChainLook look;
    ExpectNoSweep(LargestYawStepFullOrbit(rate, look), rate);
    BodyLook body;
    ExpectNoSweep(LargestYawStepFullOrbit(rate, body), rate);
  }
}

// Past maxYaw: 'keep' holds the side the target left from, 'front' looks ahead,
// 'follow' takes the target's side.
TEST(LookAtBehind, PoliciesPastTheLimit) {
  const glm::vec3 centre(0.0f, 1.75f, 0.0f);
  for (ikpd::LookBehind behind : {ikpd::LookBehind::kKeep, ikpd::LookBehind::kFront, ikpd::LookBehind::kFollow}) {
    ikpd::LookAtSettings s;
    s.weights = kWeights;
    s.behind = behind;
    ikpd::LookAt look;
    ASSERT_TRUE(look.Reset(s).ok());
    const std::vector<Transform> pose = Chain();
    std::vector<Transform> out(pose.size());
    // From the left (+X side, azimuth 90°) around to behind-right (200°).
    for (float azimuth = 90.0f; azimuth <= 200.0f; azimuth += 1.0f) {
      ASSERT_TRUE(look.Update(1.0f / 60.0f, pose, Around(centre, azimuth), true, out).ok());
    }
    for (int i = 0; i < 120; ++i) ASSERT_TRUE(look.Update(1.0f / 60.0f, pose, Around(centre, 200.0f), true, out).ok());
    const float yaw = YawOf(out.back().rotation * glm::vec3(0, 0, 1));
    const float expected = behind == ikpd::LookBehind::kKeep ? s.maxYaw
                           : behind == ikpd::LookBehind::kFront ? 0.0f
                                                                : -s.maxYaw;
    EXPECT_NEAR(yaw, expected, 2e-3f) << static_cast<int>(behind);
  }
}

// The head's settled look direction stays inside maxYaw, maxPitchUp and
// maxPitchDown of the animated facing, for random limits, targets and facings.
TEST(LookAtLimits, SettledDirectionRespectsYawAndPitchLimits) {
  chaintest::Rng rng(26);
  int clamped = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    ikpd::LookAtSettings s;
    s.weights = kWeights;
    s.maxYaw = rng.Uniform(0.0f, kPi);
    s.maxPitchUp = rng.Uniform(0.0f, kPi / 2.0f);
    s.maxPitchDown = rng.Uniform(0.0f, kPi / 2.0f);
    s.maxSpeed = std::numeric_limits<float>::infinity();  // settles in a few long steps (no sub-steps)
    ikpd::LookAt look;
    ASSERT_TRUE(look.Reset(s).ok());
    const glm::quat facing = glm::angleAxis(rng.Uniform(-kPi, kPi), glm::vec3(0, 1, 0));
    std::vector<Transform> pose = Chain();
    for (Transform& j : pose) j = {facing * j.position, facing};
    const glm::vec3 head = pose.back().position;
    const glm::vec3 target = head + rng.Uniform(0.5f, 5.0f) * rng.Direction();
    std::vector<Transform> out(pose.size());
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(look.Update(100.0f, pose, target, true, out).ok());
    const glm::vec3 d = glm::conjugate(facing) * (out.back().rotation * glm::vec3(0, 0, 1));
    const glm::vec3 want = glm::conjugate(facing) * (target - out.back().position);
    EXPECT_LE(std::abs(YawOf(d)), s.maxYaw + 2e-3f) << trial;
    EXPECT_LE(PitchOf(d), s.maxPitchUp + 2e-3f) << trial;
    EXPECT_GE(PitchOf(d), -s.maxPitchDown - 2e-3f) << trial;
    // Inside the limits seen from both the animated and the solved head (the
    // head moves as the spine turns), with a margin.
    const glm::vec3 wantBefore = glm::conjugate(facing) * (target - head);
    auto within = [&](const glm::vec3& w) {
      return std::abs(YawOf(w)) < s.maxYaw - 0.05f && PitchOf(w) < s.maxPitchUp - 0.05f && PitchOf(w) > -s.maxPitchDown + 0.05f;
    };
    const bool inside = within(want) && within(wantBefore);
    if (inside) {
      EXPECT_LT(std::acos(std::clamp(glm::dot(glm::normalize(d), glm::normalize(want)), -1.0f, 1.0f)), 3e-3f) << trial;
    } else {
      ++clamped;
    }
  }
  EXPECT_GT(clamped, 500);
}

TEST(BodyLookAtLimits, SettledDirectionRespectsYawAndPitchLimits) {
  chaintest::Rng rng(2026);
  for (int trial = 0; trial < 1000; ++trial) {
    ikpd::BodyLookAtSettings s;
    s.maxYaw = rng.Uniform(0.0f, 2.5f);  // within what the spine's joint limits allow together
    s.maxPitchUp = rng.Uniform(0.0f, 1.2f);
    s.maxPitchDown = rng.Uniform(0.0f, 1.2f);
    s.weightShift.amount = 0.0f;  // the head stays where the spine puts it
    s.spine.maxSpeed = std::numeric_limits<float>::infinity();  // settles in a few long steps (no sub-steps)
    ikpd::BodyLookAt rig;
    ASSERT_TRUE(rig.Reset(s).ok());
    const Pose pose = humanoid::RestPose();
    const glm::vec3 head = pose.spine[humanoid::kHead].position;
    const glm::vec3 target = head + rng.Uniform(1.0f, 5.0f) * rng.Direction();
    Solved out;
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(rig.Update(100.0f, InputOf(pose, target), out.View()).ok());
    const glm::vec3 d = out.pose.spine[humanoid::kHead].rotation * glm::vec3(0, 0, 1);
    EXPECT_LE(std::abs(YawOf(d)), s.maxYaw + 2e-3f) << trial;
    EXPECT_LE(PitchOf(d), s.maxPitchUp + 2e-3f) << trial;
    EXPECT_GE(PitchOf(d), -s.maxPitchDown - 2e-3f) << trial;
  }
}

// maxSpeed caps every joint's offset speed, at every update rate.
TEST(LookAtSpeed, OffsetsNeverTurnFasterThanMaxSpeed) {
  for (float rate : kRates) {
    ikpd::LookAtSettings s;
    s.weights = kWeights;
    s.settleTime = 0.1f;
    s.maxSpeed = 2.0f;
    ikpd::LookAt look;
    ASSERT_TRUE(look.Reset(s).ok());
    const std::vector<Transform> pose = Chain();
    std::vector<Transform> out(pose.size());
    std::vector<glm::quat> previous(pose.size(), glm::quat(1, 0, 0, 0));
    const float dt = 1.0f / rate;
    float fastest = 0.0f;
    for (int i = 0; i < static_cast<int>(3.0f * rate); ++i) {
      const glm::vec3 target = static_cast<float>(i) < rate ? glm::vec3(2, 2.5f, 1) : glm::vec3(-2, 1, 1);
      ASSERT_TRUE(look.Update(dt, pose, target, true, out).ok());
      for (std::size_t j = 0; j < pose.size(); ++j) {
        fastest = std::max(fastest, chaintest::Angle(previous[j], look.offsets()[j]) / dt);
        previous[j] = look.offsets()[j];
      }
    }
    EXPECT_LE(fastest, s.maxSpeed * 1.001f) << rate;
    EXPECT_GT(fastest, s.maxSpeed * 0.9f) << rate;  // the cap was reached
  }
}

// A target circling at a constant angular speed: 'linear' target motion
// (feed-forward) tracks it with less lag than 'hold'.
TEST(LookAtSpeed, LinearTargetMotionLagsLessThanHold) {
  for (float rate : kRates) {
    float lag[2] = {0.0f, 0.0f};
    for (int k = 0; k < 2; ++k) {
      ikpd::LookAtSettings s;
      s.weights = kWeights;
      s.targetMotion = k == 0 ? ikpd::pd::TargetMotion::kHold : ikpd::pd::TargetMotion::kLinear;
      ikpd::LookAt look;
      ASSERT_TRUE(look.Reset(s).ok());
      const std::vector<Transform> pose = Chain();
      std::vector<Transform> out(pose.size());
      const float dt = 1.0f / rate;
      const glm::vec3 centre(0.0f, 1.75f, 0.0f);
      for (int i = 0; i <= static_cast<int>(2.0f * rate); ++i) {
        const float azimuth = -60.0f + 45.0f * static_cast<float>(i) * dt;  // 45°/s
        ASSERT_TRUE(look.Update(dt, pose, Around(centre, azimuth, 3.0f), true, out).ok());
        if (static_cast<float>(i) > rate) lag[k] = std::max(lag[k], std::abs(Wrap(azimuth * kDeg - YawOf(out.back().rotation * glm::vec3(0, 0, 1)))));
      }
    }
    EXPECT_LT(lag[1], 0.25f * lag[0]) << rate << " Hz: hold " << lag[0] << ", linear " << lag[1];
  }
}

// ki (PID) on the joints' controllers: a still target is still reached, at every rate.
TEST(LookAtSpeed, IntegralGainStillSettlesOnTheTarget) {
  for (float rate : kRates) {
    ikpd::LookAtSettings s;
    s.weights = kWeights;
    s.ki = 20.0f;
    ikpd::LookAt look;
    ASSERT_TRUE(look.Reset(s).ok());
    const std::vector<Transform> pose = Chain();
    std::vector<Transform> out(pose.size());
    const glm::vec3 target(1.5f, 2.2f, 2.0f);
    for (int i = 0; i < static_cast<int>(4.0f * rate); ++i) ASSERT_TRUE(look.Update(1.0f / rate, pose, target, true, out).ok());
    const glm::vec3 head = out.back().rotation * glm::vec3(0, 0, 1);
    EXPECT_LT(std::acos(std::min(1.0f, glm::dot(head, glm::normalize(target - out.back().position)))), 3e-3f) << rate;
  }
  ikpd::LookAtSettings bad;
  bad.weights = kWeights;
  bad.ki = -1.0f;
  EXPECT_STREQ(ikpd::LookAt().Reset(bad).error, "ki: must be a finite number >= 0");
}

// The eyes: within their limits, ahead of the head after a jump, and the
// reported gaze matches the eye joints' turn relative to the head.
TEST(LookAtEyes, TheEyesLeadTheHeadWithinTheirLimits) {
  for (float rate : kRates) {
    ikpd::LookAtSettings s;
    s.weights = kWeights;
    ikpd::LookAt look;
    ASSERT_TRUE(look.Reset(s).ok());
    const std::vector<Transform> pose = Chain();
    const Transform eyes[2] = {{glm::vec3(0.03f, 1.82f, 0.08f), glm::quat(1, 0, 0, 0)},
                               {glm::vec3(-0.03f, 1.82f, 0.08f), glm::quat(1, 0, 0, 0)}};
    std::vector<Transform> out(pose.size());
    Transform eyesOut[2];
    const glm::vec3 target(1.5f, 2.2f, 2.0f);
    const float dt = 1.0f / rate;
    bool led = false;
    for (int i = 0; i < static_cast<int>(2.0f * rate); ++i) {
      ASSERT_TRUE(look.Update(dt, pose, target, true, out, eyes, eyesOut).ok());
      EXPECT_LE(std::abs(look.gazeYaw()), s.eyeYaw + 1e-6f);
      EXPECT_LE(look.gazePitch(), s.eyePitchUp + 1e-6f);
      EXPECT_GE(look.gazePitch(), -s.eyePitchDown - 1e-6f);
      const glm::vec3 eye = 0.5f * (eyesOut[0].position + eyesOut[1].position);
      const glm::vec3 toTarget = glm::normalize(target - eye);
      const glm::vec3 head = out.back().rotation * glm::vec3(0, 0, 1);
      const glm::vec3 gaze = eyesOut[0].rotation * glm::vec3(0, 0, 1);
      const float eyeError = std::acos(std::min(1.0f, glm::dot(gaze, toTarget)));
      const float headError = std::acos(std::min(1.0f, glm::dot(head, toTarget)));
      EXPECT_LE(eyeError, headError + 1e-3f) << rate << " frame " << i;
      if (static_cast<float>(i + 1) * dt >= 0.1f && !led) {
        led = true;  // 0.1 s after the jump the eyes are nearly there, the head is not
        EXPECT_LT(eyeError, 0.07f) << rate;
        EXPECT_GT(headError, 0.2f) << rate;
      }
      // The reported gaze is the eyes' turn relative to the head.
      const glm::vec3 local = glm::conjugate(out.back().rotation) * gaze;
      EXPECT_NEAR(YawOf(local), look.gazeYaw(), 1e-4f);
      EXPECT_NEAR(PitchOf(local), look.gazePitch(), 1e-4f);
      // Carried by the head: the eyes keep their place on it.
      EXPECT_NEAR(glm::distance(eyesOut[0].position, out.back().position), glm::distance(eyes[0].position, pose.back().position), 1e-5f);
    }
  }
}

// Configure (a settings change with the same joints, e.g. the rig's weight or
// gains) keeps the game state too: the gaze, and under 'keep' the side a
// target behind was last seen on; Reset forgets both.
TEST(LookAtConfigure, KeepsTheGazeAndTheBehindSide) {
  ikpd::LookAtSettings s;
  s.weights = kWeights;
  ikpd::LookAt look;
  ASSERT_TRUE(look.Reset(s).ok());
  const std::vector<Transform> pose = Chain();
  std::vector<Transform> out(pose.size());
  const glm::vec3 centre(0.0f, 1.75f, 0.0f);
  const float dt = 1.0f / 60.0f;
  // Settle at 150° (the head's left, +X), with the gaze mid-way: the target jumps to 100°.
  for (int i = 0; i < 120; ++i) ASSERT_TRUE(look.Update(dt, pose, Around(centre, 150.0f), true, out).ok());
  ASSERT_TRUE(look.Update(dt, pose, Around(centre, 100.0f), true, out).ok());
  const float gaze = look.gazeYaw();
  ASSERT_NE(gaze, 0.0f);
  s.settleTime = 0.4f;
  ASSERT_TRUE(look.Configure(s).ok());
  EXPECT_EQ(look.gazeYaw(), gaze);
  // Back behind, then straight behind and a little to the right: 'keep' holds the left.
  for (int i = 0; i < 120; ++i) ASSERT_TRUE(look.Update(dt, pose, Around(centre, 170.0f), true, out).ok());
  ASSERT_TRUE(look.Configure(s).ok());
  for (int i = 0; i < 120; ++i) ASSERT_TRUE(look.Update(dt, pose, Around(centre, 190.0f), true, out).ok());
  EXPECT_GT(YawOf(out.back().rotation * glm::vec3(0, 0, 1)), 1.5f);
  ASSERT_TRUE(look.Reset(s).ok());
  EXPECT_EQ(look.gazeYaw(), 0.0f);
}

}  // namespace
