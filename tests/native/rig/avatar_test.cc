// The avatar constraint (docs/rig/avatar.md) over the scripted 60-second
// tracking session (avatar_session.h) on a VRM-proportioned humanoid at 30,
// 60, 90 and 240 Hz: head and hands on reachable targets and at full reach
// toward the others, elbows continuous, shoulders within their limits and
// moving, knees along the feet, feet planted and stepping (never crossing)
// through the walk, side steps and snap turns, bone lengths kept, the same
// motion at every rate.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include "native/avatar_session.h"

namespace {

using namespace rigtest;

constexpr float kDegree = 0.017453292f;

float VectorAngle(const glm::vec3& a, const glm::vec3& b) {
  return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

LocalTransform Base() {
  LocalTransform root;
  root.translation = glm::vec3(1.0f, 0.0f, 2.0f);
  root.rotation = glm::angleAxis(0.5f, glm::vec3(0, 1, 0));
  return root;
}

// Where the elbow points: its offset from the shoulder→hand line, unit.
glm::vec3 Pole(const std::vector<World>& w, int upper, int lower, int hand) {
  const glm::vec3 line = glm::normalize(w[hand].position - w[upper].position);
  const glm::vec3 e = w[lower].position - w[upper].position;
  return glm::normalize(e - glm::dot(e, line) * line);
}

// How far the elbow is off the shoulder→hand line.
float Bent(const std::vector<World>& w, int upper, int lower, int hand) {
  const glm::vec3 line = glm::normalize(w[hand].position - w[upper].position);
  const glm::vec3 e = w[lower].position - w[upper].position;
  return glm::length(e - glm::dot(e, line) * line);
}
constexpr float kBent = 0.01f;

// Whether the legs hold the pelvis back (docs/rig/avatar.md, "Stages"): a
// hip at its leg's full length (within 1 mm) from its foot or from its
// animated foot.
bool LegBound(const std::vector<World>& w, const std::vector<World>& animated) {
  for (int hip : {15, 18}) {
    const auto at = [&](int k) { return w[static_cast<std::size_t>(k)].position; };
    const float length = glm::length(at(hip + 1) - at(hip)) + glm::length(at(hip + 2) - at(hip + 1)) - 1e-3f;
    if (glm::length(at(hip + 2) - at(hip)) > length) return true;
    if (glm::length(animated[static_cast<std::size_t>(hip + 2)].position - at(hip)) > length) return true;
  }
  return false;
}

struct Session {
  std::vector<std::vector<World>> frames;  // the solved pose per frame (world)
  std::vector<std::vector<World>> animated;
  std::vector<avatartest::Targets> targets;
  float dt = 0.0f;
};

Session Track(int rate, bool framed = false) {
  Session out;
  avatartest::AvatarRig made(avatartest::Settings(), framed);
  auto& [parents, rest, restWorld, skeleton, rig] = made;
  std::vector<LocalTransform> solved(rest.size());
  out.dt = 1.0f / static_cast<float>(rate);
  const int count = static_cast<int>(avatartest::kSessionLength * static_cast<float>(rate));
  for (int frame = 0; frame <= count; ++frame) {
    const float t = static_cast<float>(frame) / static_cast<float>(rate);
    const std::vector<LocalTransform> in = avatartest::Animated(rest, t);
    const avatartest::SessionFrame now = avatartest::Session(t, Base(), restWorld);
    const avatartest::Targets& targets = now.targets;
    rig.targets()[0] = targets.head, rig.targets()[1] = targets.hands[0], rig.targets()[2] = targets.hands[1];
    const ikpd::Status updated = rig.Update(out.dt, in, now.root, solved);
    EXPECT_TRUE(updated.ok()) << updated.error;
    out.frames.push_back(Fk(parents, solved, now.root));
    out.animated.push_back(Fk(parents, in, now.root));
    out.targets.push_back(targets);
  }
  return out;
}

// Each rate's session, run once for every test.
const Session& Tracked(int rate) { return avatartest::PerRate<Session>(rate, [](int r) { return Track(r); }); }

constexpr float kBlendIn = 1.0f;  // seconds: the weight's PD has settled
constexpr float kArmReach = 0.5f;  // the upper arm and forearm (avatar_test_util.h)

class AvatarSession : public ::testing::TestWithParam<int> {};

TEST_P(AvatarSession, HeadAndHandsReachTheirTargets) {
  const int rate = GetParam();
  const Session& s = Tracked(rate);
  const int hands[2] = {avatartest::kLeftHand, avatartest::kRightHand};
  const int uppers[2] = {avatartest::kLeftUpper, avatartest::kRightUpper};
  float worst = 0.0f, worstAngle = 0.0f, worstAt = 0.0f, worstAim = 0.0f;
  int worstPart = 0, unreachable = 0, legBound = 0;
  for (std::size_t f = static_cast<std::size_t>(kBlendIn * static_cast<float>(rate)); f < s.frames.size(); ++f) {
    const std::vector<World>& w = s.frames[f];
    const auto note = [&](float miss, int part) {
      if (miss > worst) worst = miss, worstAt = static_cast<float>(f) / static_cast<float>(rate), worstPart = part;
    };
    // Out of reach of the planted feet (a fast side step): a leg straight, the pelvis as high as it goes.
    const float headMiss = glm::length(w[avatartest::kHead].position - s.targets[f].head.position);
    if (headMiss > 1e-3f && LegBound(w, s.animated[f])) ++legBound;
    else note(headMiss, 0);
    worstAngle = std::max(worstAngle, avatartest::RotationAngle(w[avatartest::kHead].rotation, s.targets[f].head.rotation));
    for (int side = 0; side < 2; ++side) {
      // Out of reach of where the body put the upper arm: the arm straight toward the target.
      const int upper = uppers[side], hand = hands[side];
      const glm::vec3 target = s.targets[f].hands[side].position, from = w[upper].position;
      if (glm::length(target - from) > kArmReach - 1e-3f) {
        ++unreachable;
        note(std::abs(glm::length(w[hand].position - from) - kArmReach), 3 + side);
        worstAim = std::max(worstAim, VectorAngle(w[hand].position - from, target - from));
        continue;
      }
      note(glm::length(w[hand].position - target), 1 + side);
      worstAngle = std::max(worstAngle, avatartest::RotationAngle(w[hand].rotation, s.targets[f].hands[side].rotation));
    }
  }
  EXPECT_GT(unreachable, rate) << rate << " Hz";  // the session reaches out of reach
  EXPECT_LT(legBound, 3 * rate) << rate << " Hz";  // the side steps, a lean after the walk
  EXPECT_LT(worstAim, 0.1f * kDegree) << rate << " Hz";
  EXPECT_LT(worst, 1e-3f) << rate << " Hz, target " << worstPart << " at " << worstAt << " s";
  EXPECT_LT(worstAngle, 0.1f * kDegree) << rate << " Hz";
}

// Through and after the walks, side steps and snap turns the head reaches its
// target within 1 mm unless a leg stands straight to its own (planted or
// stepping) foot: the pelvis is held within reach of the plants, not of the
// animated feet (docs/rig/avatar.md, "Stages").
TEST_P(AvatarSession, HeadReachesAfterAWalk) {
  const int rate = GetParam();
  const Session& s = Tracked(rate);
  float worst = 0.0f, worstAt = 0.0f;
  int straight = 0;
  for (std::size_t f = static_cast<std::size_t>(avatartest::kWalk * static_cast<float>(rate)); f < s.frames.size(); ++f) {
    const std::vector<World>& w = s.frames[f];
    const float miss = glm::length(w[avatartest::kHead].position - s.targets[f].head.position);
    if (miss > 1e-3f && LegBound(w, w)) {
      ++straight;
      continue;
    }
    if (miss > worst) worst = miss, worstAt = static_cast<float>(f) / static_cast<float>(rate);
  }
  EXPECT_LT(worst, 1e-3f) << rate << " Hz at " << worstAt << " s";
  EXPECT_LT(straight, 3 * rate) << rate << " Hz";
}

// While the user stands (from a second after each snap turn to the next
// walk), a leg stands straight with the head out of reach only until the
// settling steps have put the feet under the body (docs/rig/avatar.md,
// "Steps"): at most two steps' time (one foot at a time) in a run and in
// all. Without them a leg stays straight through the rest of the stand.
TEST_P(AvatarSession, NoStraightLegWhileStanding) {
  const int rate = GetParam();
  const Session& s = Tracked(rate);
  const float most = 2.0f * avatartest::Settings().avatar.stepTime;
  const std::pair<float, float> stands[] = {{avatartest::kSnap + 1.0f, avatartest::kHalf + avatartest::kWalk},
                                            {avatartest::kHalf + avatartest::kSnap + 1.0f, avatartest::kSessionLength}};
  int total = 0, run = 0, longest = 0;
  float longestAt = 0.0f;
  for (const auto& [from, to] : stands) {
    for (std::size_t f = static_cast<std::size_t>(from * static_cast<float>(rate)); f < s.frames.size() && static_cast<float>(f) < to * static_cast<float>(rate); ++f) {
      const std::vector<World>& w = s.frames[f];
      const bool straight = glm::length(w[avatartest::kHead].position - s.targets[f].head.position) > 1e-3f && LegBound(w, w);
      run = straight ? run + 1 : 0, total += straight ? 1 : 0;
      if (run > longest) longest = run, longestAt = static_cast<float>(f) / static_cast<float>(rate);
    }
    run = 0;
  }
  EXPECT_LE(static_cast<float>(longest) / static_cast<float>(rate), most) << rate << " Hz, a run ending at " << longestAt << " s";
  EXPECT_LE(static_cast<float>(total) / static_cast<float>(rate), most) << rate << " Hz";
}

TEST_P(AvatarSession, ElbowsFollowTheHandsContinuously) {
  const int rate = GetParam();
  const Session& s = Tracked(rate);
  const int arms[2][3] = {{avatartest::kLeftUpper, avatartest::kLeftLower, avatartest::kLeftHand},
                          {avatartest::kRightUpper, avatartest::kRightLower, avatartest::kRightHand}};
  for (int side = 0; side < 2; ++side) {
    const auto [upper, lower, hand] = arms[side];
    float worst = -1.0f, worstAt = 0.0f;
    for (std::size_t f = 1; f < s.frames.size(); ++f) {
      if (Bent(s.frames[f - 1], upper, lower, hand) < kBent || Bent(s.frames[f], upper, lower, hand) < kBent) continue;  // no pole
      const float turned = VectorAngle(Pole(s.frames[f - 1], upper, lower, hand), Pole(s.frames[f], upper, lower, hand));
      const float handTurned = avatartest::RotationAngle(s.frames[f - 1][hand].rotation, s.frames[f][hand].rotation);
      if (turned - handTurned > worst) worst = turned - handTurned, worstAt = static_cast<float>(f) / static_cast<float>(rate);
    }
    EXPECT_LT(worst, 5.0f * kDegree) << rate << " Hz, side " << side << " at " << worstAt << " s";
  }
}

TEST_P(AvatarSession, ShouldersMoveWithinTheirLimits) {
  const int rate = GetParam();
  const Session& s = Tracked(rate);
  const ikpd::rig::AvatarSettings settings;
  const float limit = std::hypot(settings.shoulderYawLimit, settings.shoulderPitchLimit);
  const int shoulders[2] = {avatartest::kLeftShoulder, avatartest::kRightShoulder};
  for (int side = 0; side < 2; ++side) {
    float most = 0.0f;
    for (std::size_t f = 0; f < s.frames.size(); ++f) {
      // The shoulder's turn against the chest, solved against animated.
      const int k = shoulders[side];
      const glm::quat solved = glm::conjugate(s.frames[f][4].rotation) * s.frames[f][k].rotation;
      const glm::quat animated = glm::conjugate(s.animated[f][4].rotation) * s.animated[f][k].rotation;
      most = std::max(most, avatartest::RotationAngle(solved, animated));
    }
    EXPECT_LE(most, limit + 1e-4f) << rate << " Hz";
    EXPECT_GT(most, 10.0f * kDegree) << rate << " Hz";  // not stiff
  }
}

// The feet stay planted in world space (the session's 90° turn steps them,
// docs/rig/avatar.md "Steps"): a planted foot slides at most 1 mm.
TEST_P(AvatarSession, FeetStayPlantedAndBonesKeepTheirLengths) {
  const int rate = GetParam();
  const Session& s = Tracked(rate);
  const std::vector<int> parents = avatartest::Parents();
  float stretch = 0.0f;
  bool finite = true;
  std::vector<glm::vec3> paths[2];
  for (std::size_t f = 0; f < s.frames.size(); ++f) {
    paths[0].push_back(s.frames[f][avatartest::kLeftFoot].position);
    paths[1].push_back(s.frames[f][avatartest::kRightFoot].position);
    for (std::size_t j = 0; j < parents.size(); ++j) {
      finite = finite && std::isfinite(s.frames[f][j].position.x + s.frames[f][j].rotation.w);
      if (parents[j] <= 0) continue;  // the hips move
      const auto p = static_cast<std::size_t>(parents[j]);
      stretch = std::max(stretch, std::abs(glm::length(s.frames[f][j].position - s.frames[f][p].position) -
                                           glm::length(s.animated[f][j].position - s.animated[f][p].position)));
    }
  }
  for (int side = 0; side < 2; ++side) {
    const avatartest::Planted planted = avatartest::PlantedRuns(paths[side]);
    EXPECT_LT(planted.slide, 1e-3f) << rate << " Hz, side " << side << " at " << planted.at / static_cast<float>(rate) << " s";
    EXPECT_GE(planted.steps, 1) << rate << " Hz, side " << side;  // the turn and back
  }
  EXPECT_TRUE(finite);
  EXPECT_LT(stretch, 1e-4f) << rate << " Hz";
}

INSTANTIATE_TEST_SUITE_P(Rates, AvatarSession, ::testing::Values(30, 60, 90, 240));

// Every rate's pose at the times they share (multiples of 1/30 s) within 1 mm of 30 Hz's, after the blend-in.
TEST(Avatar, SameMotionAtEveryRate) {
  const Session& base = Tracked(30);
  for (int rate : {60, 90, 240}) {
    const Session& s = Tracked(rate);
    const std::size_t step = static_cast<std::size_t>(rate / 30);
    float worst = 0.0f, worstAt = 0.0f;
    std::size_t worstJoint = 0;
    for (std::size_t f = static_cast<std::size_t>(kBlendIn * 30.0f); f < base.frames.size(); ++f) {
      for (std::size_t j = 0; j < base.frames[f].size(); ++j) {
        const float d = glm::length(base.frames[f][j].position - s.frames[f * step][j].position);
        if (d > worst) worst = d, worstAt = static_cast<float>(f) / 30.0f, worstJoint = j;
      }
    }
    EXPECT_LT(worst, 1e-3f) << rate << " Hz at " << worstAt << " s, joint " << worstJoint;
  }
}

// Bone axes do not matter: the same skeleton with random rest frames moves the same.
TEST(Avatar, AnyBoneAxes) {
  const Session& plain = Tracked(60);
  const Session framed = Track(60, true);
  float worst = 0.0f;
  for (std::size_t f = 0; f < plain.frames.size(); ++f) {
    for (std::size_t j = 0; j < plain.frames[f].size(); ++j) {
      worst = std::max(worst, glm::length(plain.frames[f][j].position - framed.frames[f][j].position));
    }
  }
  EXPECT_LT(worst, 1e-3f);
}

}  // namespace
