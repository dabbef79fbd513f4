// The avatar's upper body (docs/rig/avatar.md): the chest turns with the
// hands, the pelvis keeps within maxRootAngle of the head's heading, and a
// calibrated avatar puts head and hands on the user's targets scaled, at 30,
// 60, 90 and 240 Hz; bad settings and samples are named errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "native/avatar_test_util.h"

namespace {

using namespace rigtest;
using avatartest::Targets;

constexpr float kDegree = 0.017453292f;
constexpr float kBlendIn = 1.0f;  // seconds: the weights' PDs have settled

// The turn of q about +Y (the character's up), radians in [−π, π].
float Heading(const glm::quat& q) { return std::remainder(2.0f * std::atan2(q.y, q.w), 6.2831853f); }

LocalTransform Root() {
  LocalTransform root;
  root.translation = glm::vec3(1.0f, 0.0f, 2.0f);
  root.rotation = glm::angleAxis(0.5f, glm::vec3(0, 1, 0));
  return root;
}

struct Motion {
  std::vector<std::vector<World>> frames, animated;
  std::vector<Targets> targets;
};

// The avatar on the humanoid over `seconds` at `rate`, its targets from `aim(t)` (world).
Motion Track(int rate, const ikpd::rig::ConstraintSettings& settings, float seconds, const std::function<Targets(float)>& aim) {
  Motion out;
  const std::vector<int> parents = avatartest::Parents();
  const std::vector<LocalTransform> rest = avatartest::Rest();
  Skeleton skeleton;
  EXPECT_TRUE(skeleton.Init(parents).ok());
  Rig rig;
  EXPECT_TRUE(rig.Init(skeleton, rest).ok());
  const ikpd::Status added = rig.Add(settings);
  EXPECT_TRUE(added.ok()) << added.error;
  std::vector<LocalTransform> solved(rest.size());
  const float dt = 1.0f / static_cast<float>(rate);
  const int count = static_cast<int>(std::lround(seconds * static_cast<float>(rate)));
  for (int frame = 0; frame <= count; ++frame) {
    const float t = static_cast<float>(frame) / static_cast<float>(rate);
    const std::vector<LocalTransform> in = avatartest::Animated(rest, t);
    const Targets targets = aim(t);
    rig.targets()[0] = targets.head, rig.targets()[1] = targets.hands[0], rig.targets()[2] = targets.hands[1];
    const ikpd::Status updated = rig.Update(dt, in, Root(), solved);
    EXPECT_TRUE(updated.ok()) << updated.error;
    out.frames.push_back(Fk(parents, solved, Root()));
    out.animated.push_back(Fk(parents, in, Root()));
    out.targets.push_back(targets);
  }
  return out;
}

// The farthest the head and hands are from `want` (world) after the blend-in.
float Miss(const Motion& run, int rate, const std::function<Targets(std::size_t)>& want) {
  float worst = 0.0f;
  for (std::size_t f = static_cast<std::size_t>(kBlendIn * static_cast<float>(rate)); f < run.frames.size(); ++f) {
    const Targets w = want(f);
    worst = std::max(worst, glm::length(run.frames[f][avatartest::kHead].position - w.head.position));
    worst = std::max(worst, glm::length(run.frames[f][avatartest::kLeftHand].position - w.hands[0].position));
    worst = std::max(worst, glm::length(run.frames[f][avatartest::kRightHand].position - w.hands[1].position));
  }
  return worst;
}

const std::vector<World>& RestWorld() {
  static const std::vector<World> rest = Fk(avatartest::Parents(), avatartest::Rest());
  return rest;
}

// The session's first head target (straight ahead) and its hands reaching
// across to the character's right (−X), each within reach (world).
Targets ReachRight(float t) {
  Targets out = avatartest::Script(0.0f, LocalTransform{}, RestWorld());  // model space
  const float reach = avatartest::Ease(t, 0.5f, 1.5f);
  const glm::vec3 at[2] = {{-0.1f, 1.2f, 0.3f}, {-0.5f, 1.3f, 0.15f}};
  const LocalTransform root = Root();
  for (int side = 0; side < 2; ++side) out.hands[side].position = glm::mix(out.hands[side].position, at[side], reach);
  for (ikpd::rig::TargetPose* p : {&out.head, &out.hands[0], &out.hands[1]}) {
    p->position = root.translation + root.rotation * p->position;
    p->rotation = glm::normalize(root.rotation * p->rotation);
  }
  return out;
}

// The chest's (upperChest's) turn about up from the animation, at the last frame.
float ChestTurn(const Motion& run) {
  const std::vector<World>& w = run.frames.back();
  const std::vector<World>& a = run.animated.back();
  return Heading(w[4].rotation * glm::conjugate(a[4].rotation));
}

class AvatarBody : public ::testing::TestWithParam<int> {};

TEST_P(AvatarBody, ChestTurnsWithTheHands) {
  const int rate = GetParam();
  ikpd::rig::ConstraintSettings s = avatartest::Settings();
  const Motion turned = Track(rate, s, 3.0f, ReachRight);
  s.avatar.chestTurn = 0.0f;
  const Motion still = Track(rate, s, 3.0f, ReachRight);
  const float turn = ChestTurn(turned);
  EXPECT_LT(turn, -10.0f * kDegree) << rate << " Hz";  // toward the right (−X for a +Z-facing body)
  EXPECT_GE(turn, -s.avatar.chestTurnLimit - 1e-4f) << rate << " Hz";
  EXPECT_LT(std::abs(ChestTurn(still)), 2.0f * kDegree) << rate << " Hz";
  // Head and hands still on their targets.
  const auto targets = [&](const Motion& run) { return [&run](std::size_t f) { return run.targets[f]; }; };
  EXPECT_LT(Miss(turned, rate, targets(turned)), 1e-3f) << rate << " Hz";
  EXPECT_LT(Miss(still, rate, targets(still)), 1e-3f) << rate << " Hz";
}

// The head turns 180° about up over 3 s (and back): the pelvis keeps within maxRootAngle of it.
TEST_P(AvatarBody, MaxRootAngleHoldsOverAHalfTurn) {
  const int rate = GetParam();
  ikpd::rig::ConstraintSettings s = avatartest::Settings();
  s.arms.clear();
  s.avatar.pelvisTurn = 0.0f;  // only the limit turns the pelvis
  const auto aim = [](float t) {
    Targets out = avatartest::Script(0.5f, Root(), RestWorld());
    const float yaw = 3.14159265f * avatartest::Ease(t, 0.5f, 3.5f) * (1.0f - avatartest::Ease(t, 4.0f, 5.0f));
    const LocalTransform root = Root();
    const glm::vec3 model = glm::vec3(0.0f, 1.52f, 0.04f);
    out.head.position = root.translation + root.rotation * model;
    out.head.rotation = glm::normalize(root.rotation * glm::angleAxis(yaw, glm::vec3(0, 1, 0)) * RestWorld()[avatartest::kHead].rotation);
    return out;
  };
  const Motion run = Track(rate, s, 5.5f, aim);
  float worst = 0.0f, most = 0.0f;
  for (std::size_t f = static_cast<std::size_t>(kBlendIn * static_cast<float>(rate)); f < run.frames.size(); ++f) {
    const glm::quat head = run.frames[f][avatartest::kHead].rotation * glm::conjugate(RestWorld()[avatartest::kHead].rotation);
    const glm::quat pelvis = run.frames[f][avatartest::kHips].rotation * glm::conjugate(RestWorld()[avatartest::kHips].rotation);
    worst = std::max(worst, std::abs(Heading(head * glm::conjugate(pelvis))));
    most = std::max(most, std::abs(Heading(pelvis * glm::conjugate(Root().rotation))));
  }
  EXPECT_LE(worst, s.avatar.maxRootAngle + 1e-3f) << rate << " Hz";
  EXPECT_GT(most, 3.14159265f - s.avatar.maxRootAngle - 2.0f * kDegree) << rate << " Hz";  // the body turned
  EXPECT_LT(Miss(run, rate, [&](std::size_t f) {
              Targets t = run.targets[f];
              t.hands[0].position = run.frames[f][avatartest::kLeftHand].position;  // no arms: only the head counts
              t.hands[1].position = run.frames[f][avatartest::kRightHand].position;
              return t;
            }), 1e-3f) << rate << " Hz";
}

// The head turns to 170° about up from the root's heading, then slowly
// through 180° to 190° (the heading's wrap at ±π): the pelvis turns on
// continuously, never faster than three times the head, no jump.
TEST_P(AvatarBody, PelvisTurnsOnThroughAHalfTurn) {
  const int rate = GetParam();
  ikpd::rig::ConstraintSettings s = avatartest::Settings();
  s.arms.clear();
  const float deg = kDegree;
  const auto yawAt = [deg](float t) { return 170.0f * deg * avatartest::Ease(t, 0.0f, 2.0f) + 20.0f * deg * std::clamp((t - 2.5f) / 4.0f, 0.0f, 1.0f); };
  const auto aim = [&](float t) {
    Targets out = avatartest::Script(0.0f, Root(), RestWorld());
    const LocalTransform root = Root();
    out.head.position = root.translation + root.rotation * glm::vec3(0.0f, 1.52f, 0.04f);
    out.head.rotation = glm::normalize(root.rotation * glm::angleAxis(yawAt(t), glm::vec3(0, 1, 0)) * RestWorld()[avatartest::kHead].rotation);
    return out;
  };
  const Motion run = Track(rate, s, 7.0f, aim);
  const auto pelvis = [&](std::size_t f) {
    return run.frames[f][avatartest::kHips].rotation * glm::conjugate(RestWorld()[avatartest::kHips].rotation);
  };
  float worst = 0.0f, worstAt = 0.0f;
  for (std::size_t f = static_cast<std::size_t>(2.5f * static_cast<float>(rate)) + 1; f < run.frames.size(); ++f) {
    const float t = static_cast<float>(f) / static_cast<float>(rate), dt = 1.0f / static_cast<float>(rate);
    const float turned = std::abs(Heading(pelvis(f) * glm::conjugate(pelvis(f - 1))));
    const float excess = turned - 3.0f * std::abs(yawAt(t) - yawAt(t - dt));
    if (excess > worst) worst = excess, worstAt = t;
    const glm::quat head = run.frames[f][avatartest::kHead].rotation * glm::conjugate(RestWorld()[avatartest::kHead].rotation);
    EXPECT_LE(std::abs(Heading(head * glm::conjugate(pelvis(f)))), s.avatar.maxRootAngle + 1e-3f) << rate << " Hz at " << t << " s";
  }
  EXPECT_LT(worst, 1e-3f) << rate << " Hz at " << worstAt << " s";
  EXPECT_LT(glm::length(run.frames.back()[avatartest::kHead].position - run.targets.back().head.position), 1e-3f) << rate << " Hz";
}

// A user `height` and `span` times the avatar's, calibrated from a T-pose
// sample: over the session (its targets the user's) the head and hands land
// on the targets scaled back (the head by 1/height, the hands' offsets from
// it by 1/span) within 1 mm.
void CheckCalibration(int rate, float height, float span) {
  const std::vector<int> parents = avatartest::Parents();
  const LocalTransform root = Root();
  const auto user = [&](const glm::vec3& model, const glm::vec3& head) {  // the avatar's model point, the user's (world)
    return root.translation + root.rotation * (head * height + (model - head) * span);
  };
  // The T-pose sample: the rest head and hands, the user's size.
  Skeleton skeleton;
  ASSERT_TRUE(skeleton.Init(parents).ok());
  Rig rig;
  ASSERT_TRUE(rig.Init(skeleton, avatartest::Rest()).ok());
  ASSERT_TRUE(rig.Add(avatartest::Settings()).ok());
  const glm::vec3 head = RestWorld()[avatartest::kHead].position;
  ikpd::rig::AvatarScales scales;
  const ikpd::Status calibrated =
      rig.CalibrateAvatar(0, root, user(head, head), user(RestWorld()[avatartest::kLeftHand].position, head),
                          user(RestWorld()[avatartest::kRightHand].position, head), &scales);
  ASSERT_TRUE(calibrated.ok()) << calibrated.error;
  EXPECT_NEAR(scales.scale, 1.0f / height, 1e-5f);
  EXPECT_NEAR(scales.armScale, 1.0f / span, 1e-5f);
  ikpd::rig::ConstraintSettings s = avatartest::Settings();
  s.avatar.scale = scales.scale, s.avatar.armScale = scales.armScale;
  // The session's targets as the user makes them.
  const auto aim = [&](float t) {
    Targets out = avatartest::Script(t, LocalTransform{}, RestWorld());
    for (ikpd::rig::TargetPose* p : {&out.hands[0], &out.hands[1], &out.head}) {
      p->position = user(p->position, out.head.position);
      p->rotation = glm::normalize(root.rotation * p->rotation);
    }
    return out;
  };
  const Motion run = Track(rate, s, avatartest::kSession, aim);
  const float miss = Miss(run, rate, [&](std::size_t f) {
    const float t = static_cast<float>(f) / static_cast<float>(rate);
    Targets want = avatartest::Script(t, root, RestWorld());  // the avatar's own targets
    return want;
  });
  EXPECT_LT(miss, 1e-3f) << rate << " Hz, height " << height << ", span " << span;
}

TEST_P(AvatarBody, CalibrationPutsHeadAndHandsOnTheScaledTargets) {
  CheckCalibration(GetParam(), 1.2f, 1.2f);
  CheckCalibration(GetParam(), 0.8f, 0.8f);
  CheckCalibration(GetParam(), 1.2f, 1.1f);  // longer-armed avatar than user
}

INSTANTIATE_TEST_SUITE_P(Rates, AvatarBody, ::testing::Values(30, 60, 90, 240));

TEST(AvatarBodyErrors, SettingsNamedAndNothingChanged) {
  Skeleton skeleton;
  ASSERT_TRUE(skeleton.Init(avatartest::Parents()).ok());
  Rig rig;
  ASSERT_TRUE(rig.Init(skeleton, avatartest::Rest()).ok());
  ASSERT_TRUE(rig.Add(avatartest::Settings()).ok());
  const auto fails = [&](void (*edit)(ikpd::rig::AvatarSettings&), const char* expected) {
    ikpd::rig::ConstraintSettings s = avatartest::Settings();
    edit(s.avatar);
    const ikpd::Status st = rig.SetSettings(0, s);
    ASSERT_FALSE(st.ok()) << expected;
    EXPECT_EQ(std::string(st.error), expected);
    EXPECT_EQ(rig.settings(0).avatar.chestTurn, ikpd::rig::AvatarSettings{}.chestTurn);
    EXPECT_EQ(rig.settings(0).avatar.scale, 1.0f);
  };
  fails([](ikpd::rig::AvatarSettings& a) { a.chestTurn = 1.5f; }, "constraints[0].chestTurn: must be in [0, 1]");
  fails([](ikpd::rig::AvatarSettings& a) { a.chestTurnLimit = -0.1f; }, "constraints[0].chestTurnLimit: must be in [0, pi/2]");
  fails([](ikpd::rig::AvatarSettings& a) { a.maxRootAngle = NAN; }, "constraints[0].maxRootAngle: must be in [0, pi]");
  fails([](ikpd::rig::AvatarSettings& a) { a.scale = 0.0f; }, "constraints[0].scale: must be in (0, 10]");
  fails([](ikpd::rig::AvatarSettings& a) { a.armScale = 11.0f; }, "constraints[0].armScale: must be in (0, 10]");
}

TEST(AvatarBodyErrors, CalibrationNamedAndNothingChanged) {
  Skeleton skeleton;
  ASSERT_TRUE(skeleton.Init(avatartest::Parents()).ok());
  Rig rig;
  ASSERT_TRUE(rig.Init(skeleton, avatartest::Rest()).ok());
  ikpd::rig::ConstraintSettings twoBone = ikpd::rig::DefaultSettings(ConstraintKind::kTwoBone);
  twoBone.joints = {8, 9, 10};
  ASSERT_TRUE(rig.Add(twoBone).ok());
  ASSERT_TRUE(rig.Add(avatartest::Settings()).ok());
  const glm::vec3 head(0, 1.7f, 0), left(0.7f, 1.5f, 0), right(-0.7f, 1.5f, 0);
  const auto fails = [&](std::size_t index, const LocalTransform& root, glm::vec3 h, glm::vec3 l, glm::vec3 r, const char* expected) {
    ikpd::rig::AvatarScales scales{2.0f, 3.0f};
    const ikpd::Status st = rig.CalibrateAvatar(index, root, h, l, r, &scales);
    ASSERT_FALSE(st.ok()) << expected;
    EXPECT_EQ(std::string(st.error), expected);
    EXPECT_EQ(scales.scale, 2.0f);
    EXPECT_EQ(scales.armScale, 3.0f);
  };
  const LocalTransform root{};
  fails(0, root, head, left, right, "index: must name an avatar constraint");
  fails(2, root, head, left, right, "index: must name an avatar constraint");
  fails(1, root, glm::vec3(0, -0.1f, 0), left, right, "head: must be above the root");
  fails(1, root, glm::vec3(NAN, 1, 0), left, right, "head: must be finite");
  fails(1, root, head, glm::vec3(INFINITY, 1, 0), right, "leftHand: must be finite");
  fails(1, root, head, left, glm::vec3(0, NAN, 0), "rightHand: must be finite");
  fails(1, root, head, left, left, "leftHand: must be apart from rightHand (the hand span)");
  fails(1, root, glm::vec3(0, 1e-3f, 0), left, right, "head: gives a scale out of (0, 10]");
  LocalTransform flat{};
  flat.scale = glm::vec3(0.0f);
  fails(1, flat, head, left, right, "root.scale: must be non-zero");
  // A good sample: the ratios, the settings untouched (SetSettings applies them).
  ikpd::rig::AvatarScales scales;
  ASSERT_TRUE(rig.CalibrateAvatar(1, root, head, left, right, &scales).ok());
  EXPECT_NEAR(scales.scale, 1.54f / 1.7f, 1e-5f);
  EXPECT_NEAR(scales.armScale, 1.24f / 1.4f, 1e-5f);
  EXPECT_EQ(rig.settings(1).avatar.scale, 1.0f);
}

}  // namespace
