// The avatar's procedural steps (docs/rig/avatar.md, "Steps") on the
// VRM-proportioned humanoid: the root walks 1.5 m, side-steps 0.5 m and
// snap-turns 90° (within one 30 Hz frame), the head and hands carried with
// it, at 30, 60, 90 and 240 Hz: planted feet slide at most 1 mm, the feet
// step and land on their places, never cross, the same motion at every rate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "native/avatar_test_util.h"

namespace {

using namespace rigtest;
using avatartest::Ease;

constexpr float kEnd = 9.0f;
constexpr float kSideStepEnd = 5.1f, kSnap = 6.5f;  // the snap turns over the 30 Hz frame ending here

// The root at time t: still, a 1.5 m walk forward (1–4 s), a 0.5 m side step
// to the left (4.5–5.1 s), a 90° snap turn to the left.
LocalTransform Root(float t) {
  LocalTransform root;
  const float snap = std::clamp((t - (kSnap - 1.0f / 30.0f)) * 30.0f, 0.0f, 1.0f);
  root.rotation = glm::angleAxis(0.3f + 1.5707963f * snap, glm::vec3(0, 1, 0));
  const glm::quat heading = glm::angleAxis(0.3f, glm::vec3(0, 1, 0));
  root.translation = glm::vec3(1.0f, 0.0f, 2.0f) + heading * glm::vec3(0.5f * Ease(t, 4.5f, kSideStepEnd), 0.0f, 1.5f * Ease(t, 1.0f, 4.0f));
  return root;
}

struct Walk {
  std::vector<std::vector<World>> frames, animated;
};

Walk Simulate(int rate, ikpd::rig::AvatarSettings settings = {}) {
  Walk out;
  ConstraintSettings s = avatartest::Settings();
  s.avatar = settings;
  avatartest::AvatarRig made(s);
  const auto& [parents, rest, restWorld, skeleton, rig] = made;
  std::vector<LocalTransform> solved(rest.size());
  const float dt = 1.0f / static_cast<float>(rate);
  const int count = static_cast<int>(kEnd * static_cast<float>(rate));
  for (int frame = 0; frame <= count; ++frame) {
    const float t = static_cast<float>(frame) / static_cast<float>(rate);
    const std::vector<LocalTransform> in = avatartest::Animated(rest, 0.0f);
    const LocalTransform root = Root(t);
    made.Carried(dt, in, root, solved);  // the head and hands carried with the root
    out.frames.push_back(Fk(parents, solved, root));
    out.animated.push_back(Fk(parents, in, root));
  }
  return out;
}

// The body's frame (world): the hips on the ground and their heading.
struct Body {
  glm::vec3 at, side, forward;
};
Body BodyOf(const std::vector<World>& w) {
  const glm::vec3 up(0, 1, 0);
  glm::vec3 forward = w[avatartest::kHips].rotation * glm::vec3(0, 0, 1);
  forward = glm::normalize(forward - glm::dot(forward, up) * up);
  const glm::vec3 at = w[avatartest::kHips].position;
  return {glm::vec3(at.x, 0.0f, at.z), glm::cross(up, forward), forward};  // side: the character's left
}

// A foot's place under the body: its animated offset from the animated body (model) turned with the body.
glm::vec3 Place(const Walk& walk, std::size_t f, int foot) {
  const Body b = BodyOf(walk.frames[f]), animated = BodyOf(walk.animated[f]);
  const glm::vec3 d = walk.animated[f][foot].position - animated.at;
  return b.at + b.side * glm::dot(d, animated.side) + b.forward * glm::dot(d, animated.forward) + glm::vec3(0, d.y, 0);
}

std::size_t At(float t, int rate) { return static_cast<std::size_t>(std::lround(t * static_cast<float>(rate))); }

class AvatarSteps : public ::testing::TestWithParam<int> {};

TEST_P(AvatarSteps, PlantedFeetDoNotSlideAndStep) {
  const int rate = GetParam();
  const Walk walk = Simulate(rate);
  const int feet[2] = {avatartest::kLeftFoot, avatartest::kRightFoot};
  for (int side = 0; side < 2; ++side) {
    std::vector<glm::vec3> path;
    for (const auto& w : walk.frames) path.push_back(w[feet[side]].position);
    const avatartest::Planted planted = avatartest::PlantedRuns(path);
    EXPECT_LT(planted.slide, 1e-3f) << rate << " Hz, side " << side << " at " << planted.at / static_cast<float>(rate) << " s";
    EXPECT_GE(planted.steps, 5) << rate << " Hz, side " << side;  // the walk, the side step, the turn
    // Each event moved the foot: the walk's end, the side step, the snap turn.
    const float before[3] = {1.0f, 4.5f, kSnap - 0.1f}, after[3] = {4.45f, kSnap - 0.1f, kEnd};
    for (int e = 0; e < 3; ++e) {
      const float moved = glm::length(path[At(after[e], rate)] - path[At(before[e], rate)]);
      EXPECT_GT(moved, 0.05f) << rate << " Hz, side " << side << ", event " << e;
    }
  }
}

TEST_P(AvatarSteps, FeetNeverCrossAndLandOnTheirPlaces) {
  const int rate = GetParam();
  const Walk walk = Simulate(rate);
  float crossed = 1.0f, crossedAt = 0.0f;  // the least left-minus-right distance across the body
  for (std::size_t f = 0; f < walk.frames.size(); ++f) {
    const std::vector<World>& w = walk.frames[f];
    const float apart = glm::dot(w[avatartest::kLeftFoot].position - w[avatartest::kRightFoot].position, BodyOf(w).side);
    if (apart < crossed) crossed = apart, crossedAt = static_cast<float>(f) / static_cast<float>(rate);
  }
  EXPECT_GT(crossed, -1e-3f) << rate << " Hz at " << crossedAt << " s";
  // Settled after the side step and after the snap turn: both feet apart, the
  // last to land on its place, the other within the step threshold of it
  // (both on their places after the turn, which needs both to step).
  const float threshold = ikpd::rig::AvatarSettings{}.stepThreshold;
  for (float t : {kSnap - 0.1f, kEnd}) {
    const std::size_t f = At(t, rate);
    const Body b = BodyOf(walk.frames[f]);
    const glm::vec3 left = walk.frames[f][avatartest::kLeftFoot].position, right = walk.frames[f][avatartest::kRightFoot].position;
    EXPECT_GT(glm::dot(left - right, b.side), 0.1f) << rate << " Hz at " << t << " s";
    float nearest = 1.0f;
    for (int foot : {avatartest::kLeftFoot, avatartest::kRightFoot}) {
      const float off = glm::length(walk.frames[f][foot].position - Place(walk, f, foot));
      EXPECT_LE(off, t == kEnd ? 1e-3f : threshold) << rate << " Hz at " << t << " s, foot " << foot;
      nearest = std::min(nearest, off);
    }
    EXPECT_LT(nearest, 1e-3f) << rate << " Hz at " << t << " s";
  }
}

TEST_P(AvatarSteps, BonesKeepTheirLengths) {
  const int rate = GetParam();
  const Walk walk = Simulate(rate);
  const std::vector<int> parents = avatartest::Parents();
  float stretch = 0.0f;
  bool finite = true;
  for (std::size_t f = 0; f < walk.frames.size(); ++f) {
    for (std::size_t j = 0; j < parents.size(); ++j) {
      finite = finite && std::isfinite(walk.frames[f][j].position.x + walk.frames[f][j].position.y + walk.frames[f][j].rotation.w);
      if (parents[j] <= 0) continue;
      const auto p = static_cast<std::size_t>(parents[j]);
      stretch = std::max(stretch, std::abs(glm::length(walk.frames[f][j].position - walk.frames[f][p].position) -
                                           glm::length(walk.animated[f][j].position - walk.animated[f][p].position)));
    }
  }
  EXPECT_TRUE(finite);
  EXPECT_LT(stretch, 1e-4f) << rate << " Hz";
}

// steps: false: the feet stay where the animation puts them (carried with the
// root: a clip that walks), within 0.05 mm, the pelvis still following the head.
TEST_P(AvatarSteps, StepsOffKeepTheAnimatedFeet) {
  const int rate = GetParam();
  ikpd::rig::AvatarSettings settings;
  settings.steps = false;
  const Walk walk = Simulate(rate, settings);
  float worst = 0.0f, pelvisMoved = 0.0f;
  for (std::size_t f = 0; f < walk.frames.size(); ++f) {
    for (int foot : {avatartest::kLeftFoot, avatartest::kRightFoot}) {
      worst = std::max(worst, glm::length(walk.frames[f][foot].position - walk.animated[f][foot].position));
    }
    pelvisMoved = std::max(pelvisMoved, glm::length(walk.frames[f][avatartest::kHips].position - walk.animated[f][avatartest::kHips].position));
  }
  EXPECT_LT(worst, 5e-5f) << rate << " Hz";
  EXPECT_GT(pelvisMoved, 0.01f) << rate << " Hz";
}

INSTANTIATE_TEST_SUITE_P(Rates, AvatarSteps, ::testing::Values(30, 60, 90, 240));

// Every rate's pose at the times they share (multiples of 1/30 s) within 1 mm
// of 30 Hz's, after the constraint's weight has blended in (1 s, standing).
TEST(AvatarStepsRate, SameTrajectoryAtEveryRate) {
  const Walk base = Simulate(30);
  for (int rate : {60, 90, 240}) {
    const Walk walk = Simulate(rate);
    const std::size_t step = static_cast<std::size_t>(rate / 30);
    float worst = 0.0f, worstAt = 0.0f;
    for (std::size_t f = 30; f < base.frames.size(); ++f) {
      for (std::size_t j = 0; j < base.frames[f].size(); ++j) {
        const float d = glm::length(base.frames[f][j].position - walk.frames[f * step][j].position);
        if (d > worst) worst = d, worstAt = static_cast<float>(f) / 30.0f;
      }
    }
    EXPECT_LT(worst, 1e-3f) << rate << " Hz at " << worstAt << " s";
  }
}

}  // namespace
