// The avatar's arm stretch (docs/rig/avatar.md, "Arm stretch"), at 30, 60, 90
// and 240 Hz: a hand target beyond the arm's reach is reached up to
// `armStretch` times it, and beyond that the arm is at full stretch on the
// line to the target; the forearm's and hand's translations scale along
// their bones (the bone lengths change only then); off (the default, or
// `armStretch` back to 1 once the blend is done, or the hand's weight 0)
// gives the unstretched solve and the animated translations bit for bit;
// turning it on, changing it and turning it off blend with no frame jump, the
// same at every rate within 1 mm.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "native/avatar_test_util.h"

namespace {

using namespace rigtest;
using avatartest::kLeftHand;
using avatartest::kLeftLower;
using avatartest::kLeftUpper;
using avatartest::SamePose;

constexpr float kReach = 0.5f;  // the left arm's upper (0.26 m) plus lower (0.24 m) rest length
constexpr int kRates[] = {30, 60, 90, 240};

// Out and forward from the left shoulder, a little up.
const glm::vec3 kOut = glm::normalize(glm::vec3(0.6f, 0.15f, 0.8f));

ikpd::rig::ConstraintSettings Stretching(float ratio, float soften) {
  ikpd::rig::ConstraintSettings s = avatartest::Settings();
  s.avatar.armStretch = ratio, s.avatar.armSoften = soften;
  return s;
}

// The head where the script starts it, the right hand at rest, the left hand
// target `distance` from the animated left upper arm along kOut (its rest
// world rotation).
void Aim(avatartest::AvatarRig& x, float distance) {
  const avatartest::Targets targets = avatartest::Script(0.0f, LocalTransform{}, x.restWorld);
  x.rig.targets()[0] = targets.head, x.rig.targets()[2] = targets.hands[1];
  x.rig.targets()[1] = {x.restWorld[kLeftUpper].position + distance * kOut, x.restWorld[kLeftHand].rotation, 1.0f};
}

// The target's distance at time t: from 0.8 to 1.6 of the arm's reach over 0.5–3.5 s.
float Distance(float t) { return kReach * (0.8f + 0.8f * avatartest::Ease(t, 0.5f, 3.5f)); }

struct Run {
  std::vector<glm::vec3> hands;  // the left hand per frame (world)
  std::vector<float> misses;     // |hand − target| per frame
};

// Up to the limit the hand is on its target; beyond it the arm is at full
// stretch, on the line from the upper arm to the target; the forearm's and
// hand's translations are the animated ones scaled along the bone, by the same
// ratio, at most the limit.
void ExpectReach(float ratio, float soften, int rate) {
  avatartest::AvatarRig x(Stretching(ratio, soften));
  const std::vector<LocalTransform> in = avatartest::Animated(x.rest, 0.0f);
  std::vector<LocalTransform> out(in.size());
  const int frames = 4 * rate;
  int reached = 0, full = 0;
  float stretchedMost = 1.0f;
  for (int f = 0; f <= frames; ++f) {
    const float t = static_cast<float>(f) / static_cast<float>(rate);
    Aim(x, Distance(t));
    ASSERT_TRUE(x.rig.Update(1.0f / static_cast<float>(rate), in, LocalTransform{}, out).ok());
    if (f < rate / 2) continue;  // the constraint's weight blending in
    const std::vector<World> w = Fk(x.parents, out);
    const glm::vec3 upper = w[kLeftUpper].position, hand = w[kLeftHand].position, target = x.rig.targets()[1].position;
    const float c = glm::length(target - upper);
    // Both bones scaled alike along their animated translations.
    const float k = glm::length(out[kLeftLower].translation) / glm::length(in[kLeftLower].translation);
    EXPECT_NEAR(glm::length(out[kLeftHand].translation) / glm::length(in[kLeftHand].translation), k, 1e-4f) << rate << " Hz, frame " << f;
    EXPECT_NEAR(glm::dot(glm::normalize(out[kLeftLower].translation), glm::normalize(in[kLeftLower].translation)), 1.0f, 1e-5f);
    EXPECT_NEAR(glm::dot(glm::normalize(out[kLeftHand].translation), glm::normalize(in[kLeftHand].translation)), 1.0f, 1e-5f);
    EXPECT_LE(k, ratio + 1e-4f) << rate << " Hz, frame " << f;
    EXPECT_GE(k, 1.0f - 1e-5f) << rate << " Hz, frame " << f;
    stretchedMost = std::max(stretchedMost, k);
    // Where the soft zone leaves the limit: ratio × the softened reach (docs/ik/two-bone.md, "Reach").
    const float z = soften * kReach, c0 = kReach - z;
    const float softened = z > 0.0f && c > c0 ? c0 + z * (1.0f - std::exp(-(c - c0) / z)) : std::min(c, kReach);
    const float limit = ratio * softened;
    if (c <= limit - 1e-3f) {
      EXPECT_LE(glm::length(hand - target), 1e-3f) << rate << " Hz, frame " << f << ": " << c / kReach << " of the reach";
      ++reached;
    } else if (c >= limit + 1e-3f) {
      EXPECT_NEAR(glm::length(hand - upper), limit, 1e-3f) << rate << " Hz, frame " << f;
      const glm::vec3 line = glm::normalize(target - upper);
      EXPECT_LE(glm::length((hand - upper) - glm::dot(hand - upper, line) * line), 1e-3f) << rate << " Hz, frame " << f;
      EXPECT_NEAR(k, ratio, 1e-4f) << rate << " Hz, frame " << f;
      ++full;
    }
  }
  EXPECT_GT(reached, rate) << rate << " Hz";   // the target within the limit a good while (more than 1 s)
  EXPECT_GT(full, rate / 2) << rate << " Hz";  // and beyond it
  EXPECT_NEAR(stretchedMost, ratio, 1e-4f) << rate << " Hz";
}

TEST(AvatarStretch, ReachesUpToTheLimitThenFullStretchOnTheLine) {
  for (int rate : kRates) ExpectReach(1.3f, 0.0f, rate);
}

TEST(AvatarStretch, SoftStartReachesUpToTheSoftenedLimit) {
  for (int rate : kRates) ExpectReach(1.25f, 0.1f, rate);
}

// The soft zone starts the stretch below full reach: a target at 0.97 of
// the reach is reached with the arm bent and lengthened, where the
// unstretched arm would stand almost straight.
TEST(AvatarStretch, SoftStartLengthensBeforeTheArmIsStraight) {
  avatartest::AvatarRig x(Stretching(1.3f, 0.1f));
  const std::vector<LocalTransform> in = avatartest::Animated(x.rest, 0.0f);
  std::vector<LocalTransform> out(in.size());
  for (int f = 0; f < 60; ++f) {  // past the constraint's weight blending in
    Aim(x, 0.97f * kReach);
    ASSERT_TRUE(x.rig.Update(1.0f / 60.0f, in, LocalTransform{}, out).ok());
  }
  const std::vector<World> w = Fk(x.parents, out);
  EXPECT_LE(glm::length(w[kLeftHand].position - x.rig.targets()[1].position), 1e-3f);
  const float k = glm::length(out[kLeftLower].translation) / glm::length(in[kLeftLower].translation);
  EXPECT_GT(k, 1.001f);
  EXPECT_LT(k, 1.05f);
}

// Off: the default settings and armStretch 1 (whatever the soften) give the
// same pose bit for bit, the arm's translations the animated ones.
TEST(AvatarStretch, OffIsTheUnstretchedArmBitForBit) {
  for (int rate : {30, 240}) {
    avatartest::AvatarRig plain;
    avatartest::AvatarRig off(Stretching(1.0f, 0.7f));
    std::vector<LocalTransform> a(plain.rest.size()), b(plain.rest.size());
    for (int f = 0; f <= 4 * rate; ++f) {
      const float t = static_cast<float>(f) / static_cast<float>(rate);
      const std::vector<LocalTransform> in = avatartest::Animated(plain.rest, t);
      Aim(plain, Distance(t)), Aim(off, Distance(t));
      ASSERT_TRUE(plain.rig.Update(1.0f / static_cast<float>(rate), in, LocalTransform{}, a).ok());
      ASSERT_TRUE(off.rig.Update(1.0f / static_cast<float>(rate), in, LocalTransform{}, b).ok());
      ASSERT_TRUE(SamePose(a, b)) << rate << " Hz, frame " << f;
      for (int j : {kLeftLower, kLeftHand}) {
        ASSERT_EQ(std::memcmp(&b[static_cast<std::size_t>(j)].translation, &in[static_cast<std::size_t>(j)].translation, sizeof(glm::vec3)), 0);
      }
    }
  }
}

struct Toggled {
  std::vector<glm::vec3> hands;                        // the left hand per frame (world)
  std::vector<std::vector<LocalTransform>> poses, plain;  // the stretched rig's and an unstretched rig's output per frame
};

// A target 1.5 of the reach away all along; armStretch 1 → 1.3 at 0.5 s,
// → 1.15 at 1.5 s, back to 1 at 2.5 s; a rig that never stretches beside it.
Toggled Toggle(int rate, float settleTime) {
  Toggled run;
  ikpd::rig::ConstraintSettings s = avatartest::Settings();
  s.common.settleTime = settleTime;
  avatartest::AvatarRig x(s), plain(s);
  const std::vector<LocalTransform> in = avatartest::Animated(x.rest, 0.0f);
  std::vector<LocalTransform> out(in.size()), still(in.size());
  for (int f = 0; f <= 4 * rate; ++f) {
    for (const auto& [at, ratio] : {std::pair{15, 1.3f}, std::pair{45, 1.15f}, std::pair{75, 1.0f}}) {
      if ((f - 1) * 30 == at * rate) {  // from at / 30 s: the frame after it (each rate's blend starts then)
        s.avatar.armStretch = ratio;
        EXPECT_TRUE(x.rig.SetSettings(0, s).ok());
      }
    }
    Aim(x, 1.5f * kReach), Aim(plain, 1.5f * kReach);
    EXPECT_TRUE(x.rig.Update(1.0f / static_cast<float>(rate), in, LocalTransform{}, out).ok());
    EXPECT_TRUE(plain.rig.Update(1.0f / static_cast<float>(rate), in, LocalTransform{}, still).ok());
    run.hands.push_back(Fk(x.parents, out)[kLeftHand].position);
    run.poses.push_back(out), run.plain.push_back(still);
  }
  return run;
}

// The hand moves no faster than 2 m/s (the blend's pace, 1.7 m/s at most; a
// jump of the stretch is 0.15 m in one frame, 36 m/s at 240 Hz), the same path at every rate within
// 1 mm, and back to the unstretched pose bit for bit once the blend is done.
TEST(AvatarStretch, TurningOnChangingAndOffBlendWithNoFrameJump) {
  const Toggled& base = avatartest::PerRate<Toggled>(30, [](int r) { return Toggle(r, 0.2f); });
  for (int rate : kRates) {
    const Toggled& run = avatartest::PerRate<Toggled>(rate, [](int r) { return Toggle(r, 0.2f); });
    float fastest = 0.0f, apart = 0.0f;
    for (std::size_t f = static_cast<std::size_t>(rate) * 2 / 5; f < run.hands.size(); ++f) {  // from 0.4 s: blended in
      fastest = std::max(fastest, glm::length(run.hands[f] - run.hands[f - 1]) * static_cast<float>(rate));
    }
    for (std::size_t f = 12; f < base.hands.size(); ++f) apart = std::max(apart, glm::length(run.hands[f * static_cast<std::size_t>(rate) / 30] - base.hands[f]));
    EXPECT_LE(fastest, 2.0f) << rate << " Hz";
    EXPECT_GT(fastest, 0.1f) << rate << " Hz";  // it did move
    EXPECT_LE(apart, 1e-3f) << rate << " Hz";
    // Stretched while on (the hand off its unstretched place), unstretched bit for bit from 3.5 s.
    const std::size_t on = static_cast<std::size_t>(rate) * 13 / 10;
    EXPECT_FALSE(SamePose(run.poses[on], run.plain[on])) << rate << " Hz";
    for (std::size_t f = static_cast<std::size_t>(rate) * 7 / 2; f < run.poses.size(); ++f) {
      ASSERT_TRUE(SamePose(run.poses[f], run.plain[f])) << rate << " Hz, frame " << f;
    }
  }
  // Unsmoothed (settleTime 0) the stretch takes each change at once: the jump the PD blends.
  const Toggled sudden = Toggle(240, 0.0f);
  float fastest = 0.0f;
  for (std::size_t f = 96; f < sudden.hands.size(); ++f) fastest = std::max(fastest, glm::length(sudden.hands[f] - sudden.hands[f - 1]) * 240.0f);
  EXPECT_GT(fastest, 10.0f);
}

// A hand whose weight fades to 0 unstretches with it: its arm's translations
// the animated ones and the arm the unstretched one bit for bit at weight 0,
// and no frame jump on the way: the stretched hand's offset from an
// unstretched rig's changes at much the same pace at every rate (4.3 m/s at
// most, 3.7 at 60 Hz; a jump would be 4 times faster at 240 Hz than at 60).
TEST(AvatarStretch, HandWeightZeroGivesTheAnimatedTranslations) {
  float paces[2] = {0.0f, 0.0f};
  for (int rate : kRates) {
    avatartest::AvatarRig x(Stretching(1.3f, 0.1f)), plain;
    const std::vector<LocalTransform> in = avatartest::Animated(x.rest, 0.0f);
    std::vector<LocalTransform> out(in.size()), still(in.size());
    glm::vec3 last(0.0f);
    float fastest = 0.0f;
    for (int f = 0; f <= 2 * rate; ++f) {
      Aim(x, 1.5f * kReach), Aim(plain, 1.5f * kReach);
      if (f > rate / 2) x.rig.targets()[1].weight = plain.rig.targets()[1].weight = 0.0f;
      ASSERT_TRUE(x.rig.Update(1.0f / static_cast<float>(rate), in, LocalTransform{}, out).ok());
      ASSERT_TRUE(plain.rig.Update(1.0f / static_cast<float>(rate), in, LocalTransform{}, still).ok());
      const glm::vec3 apart = Fk(x.parents, out)[kLeftHand].position - Fk(plain.parents, still)[kLeftHand].position;
      if (f > rate * 2 / 5) fastest = std::max(fastest, glm::length(apart - last) * static_cast<float>(rate));
      last = apart;
      if (f == rate / 2) {
        EXPECT_GT(glm::length(apart), 0.1f) << rate << " Hz";  // stretched before the fade
      }
    }
    EXPECT_LE(fastest, 6.0f) << rate << " Hz";
    if (rate == 60) paces[0] = fastest;
    if (rate == 240) paces[1] = fastest;
    for (int j = avatartest::kLeftShoulder; j <= kLeftHand; ++j) {  // the left arm (the right one reaches, stretched)
      EXPECT_EQ(std::memcmp(&out[static_cast<std::size_t>(j)], &still[static_cast<std::size_t>(j)], sizeof(LocalTransform)), 0)
          << rate << " Hz, joint " << j;
    }
    for (int j : {kLeftLower, kLeftHand}) {
      EXPECT_EQ(std::memcmp(&out[static_cast<std::size_t>(j)].translation, &in[static_cast<std::size_t>(j)].translation, sizeof(glm::vec3)), 0)
          << rate << " Hz, joint " << j;
    }
  }
  EXPECT_LE(paces[1], 1.3f * paces[0]);
}

TEST(AvatarStretch, BadSettingsAreNamedAndChangeNothing) {
  avatartest::AvatarRig x(Stretching(1.2f, 0.1f));
  const auto fails = [&](float ratio, float soften, const char* message) {
    const ikpd::Status st = x.rig.SetSettings(0, Stretching(ratio, soften));
    EXPECT_FALSE(st.ok()) << message;
    EXPECT_EQ(std::string(st.ok() ? "" : st.error), message);
    EXPECT_EQ(x.rig.settings(0).avatar.armStretch, 1.2f);
    EXPECT_EQ(x.rig.settings(0).avatar.armSoften, 0.1f);
  };
  fails(0.9f, 0.1f, "constraints[0].armStretch: must be in [1, 3]");
  fails(NAN, 0.1f, "constraints[0].armStretch: must be in [1, 3]");
  fails(3.5f, 0.1f, "constraints[0].armStretch: must be in [1, 3]");
  fails(1.3f, -0.1f, "constraints[0].armSoften: must be in [0, 1]");
  fails(1.3f, INFINITY, "constraints[0].armSoften: must be in [0, 1]");
}

}  // namespace
