// The avatar's elbow pole near the shoulder (docs/rig/avatar.md, "Stages",
// Arms): a hand raised from out in front of its shoulder to behind the head
// in 1.3 s (0.7 m), passing within 3 cm of the shoulder, where the
// shoulder–hand line swings through most of a half turn in a few frames. No
// frame turns the elbow's pole by more than the hand's own rotation that frame
// plus 5°, at 30, 60, 90 and 240 Hz (the pole projected from the hand's rest
// bend alone turned it 23° beyond at 30 Hz, 10° at 90 Hz), and every rate
// moves the elbow the same within 1 mm.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "native/avatar_test_util.h"

namespace {

using namespace rigtest;

constexpr float kDegree = 0.017453292f;
constexpr float kPass = 1.0f, kPassEnd = 2.3f, kLength = 2.8f;  // seconds: hold, pass, hold

float VectorAngle(const glm::vec3& a, const glm::vec3& b) { return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b)); }

struct Pass {
  std::vector<std::vector<World>> frames;
  float nearest = 1.0f;  // the hand's least distance from its upper arm joint (solved)
  float miss = 0.0f;     // the hand's largest distance from its target
};

// The left hand from out, forward and down of its shoulder to in, up and back
// (behind the head), a straight line passing 2.5 cm from the animated upper
// arm joint across the folded elbow's direction (the kind's, avatar.cc
// FoldedElbow: a pass along it swings the elbow with the line, as any pole
// normal to the line must); the hand turned as the session turns it (from inside the
// shoulder), the head and right hand left to the animation, the shoulder and
// chest still (shoulderWeight and chestTurn 0), so the upper arm joint stays put.
Pass Run(int rate) {
  Pass out;
  ikpd::rig::ConstraintSettings s = avatartest::Settings();
  s.avatar.shoulderWeight = 0.0f, s.avatar.chestTurn = 0.0f;
  avatartest::AvatarRig made(s);
  auto& [parents, rest, restWorld, skeleton, rig] = made;
  // Across the folded elbow's direction (out, down and back, 1 : 0.5 : 1.5)
  // toward in, up and back, 2.5 cm from the shoulder at the nearest.
  const glm::vec3 fold = glm::normalize(glm::vec3(1.0f, -0.5f, -1.5f));
  glm::vec3 along = glm::vec3(-1.0f, 1.0f, -1.0f);
  along = glm::normalize(along - glm::dot(along, fold) * fold);
  const glm::vec3 nearest = 0.025f * glm::normalize(glm::cross(along, fold));
  const glm::vec3 from = nearest - 0.35f * along, to = nearest + 0.35f * along;
  std::vector<LocalTransform> solved(rest.size());
  const float dt = 1.0f / static_cast<float>(rate);
  for (int frame = 0; frame <= static_cast<int>(kLength * static_cast<float>(rate)); ++frame) {
    const float t = static_cast<float>(frame) * dt;
    const std::vector<LocalTransform> in = avatartest::Animated(rest, t);
    const std::vector<World> animated = Fk(parents, in);
    const glm::vec3 rel = glm::mix(from, to, avatartest::Ease(t, kPass, kPassEnd));
    const glm::quat turn = avatartest::Swing(glm::vec3(1, 0, 0), rel + glm::vec3(0.2f, 0.0f, 0.0f));
    rig.targets()[0].weight = 0.0f, rig.targets()[2].weight = 0.0f;
    rig.targets()[1] = {animated[avatartest::kLeftUpper].position + rel, glm::normalize(turn * restWorld[avatartest::kLeftHand].rotation), 1.0f};
    const ikpd::Status updated = rig.Update(dt, in, LocalTransform{}, solved);
    EXPECT_TRUE(updated.ok()) << updated.error;
    out.frames.push_back(Fk(parents, solved));
    const std::vector<World>& w = out.frames.back();
    if (t < kPass - 0.2f) continue;  // the hand's weight has settled
    out.nearest = std::min(out.nearest, glm::length(w[avatartest::kLeftHand].position - w[avatartest::kLeftUpper].position));
    out.miss = std::max(out.miss, glm::length(w[avatartest::kLeftHand].position - rig.targets()[1].position));
  }
  return out;
}

const Pass& Passed(int rate) { return avatartest::PerRate<Pass>(rate, Run); }

class AvatarElbowPass : public ::testing::TestWithParam<int> {};

TEST_P(AvatarElbowPass, PoleTurnsNoMoreThanTheHandNearTheShoulder) {
  const int rate = GetParam();
  const Pass& p = Passed(rate);
  EXPECT_LT(p.nearest, 0.03f) << rate << " Hz";  // the pass comes within 3 cm
  EXPECT_LT(p.miss, 1e-3f) << rate << " Hz";
  const int upper = avatartest::kLeftUpper, lower = avatartest::kLeftLower, hand = avatartest::kLeftHand;
  const auto pole = [&](const std::vector<World>& w) {
    const glm::vec3 line = glm::normalize(w[hand].position - w[upper].position), e = w[lower].position - w[upper].position;
    return e - glm::dot(e, line) * line;
  };
  float worst = -1.0f, worstAt = 0.0f;
  for (std::size_t f = 1; f < p.frames.size(); ++f) {
    const glm::vec3 a = pole(p.frames[f - 1]), b = pole(p.frames[f]);
    if (glm::length(a) < 0.01f || glm::length(b) < 0.01f) continue;  // no pole (as the session test)
    const float excess = VectorAngle(a, b) - avatartest::RotationAngle(p.frames[f - 1][hand].rotation, p.frames[f][hand].rotation);
    if (excess > worst) worst = excess, worstAt = static_cast<float>(f) / static_cast<float>(rate);
  }
  EXPECT_LT(worst, 5.0f * kDegree) << rate << " Hz at " << worstAt << " s";
}

INSTANTIATE_TEST_SUITE_P(Rates, AvatarElbowPass, ::testing::Values(30, 60, 90, 240));

// The elbow at the times every rate shares (multiples of 1/30 s) within 1 mm of 30 Hz's.
TEST(AvatarElbowPass, SameMotionAtEveryRate) {
  const Pass& base = Passed(30);
  for (int rate : {60, 90, 240}) {
    const Pass& p = Passed(rate);
    const auto step = static_cast<std::size_t>(rate / 30);
    float worst = 0.0f;
    for (std::size_t f = static_cast<std::size_t>(kPass * 30.0f); f < base.frames.size(); ++f) {
      for (int j : {avatartest::kLeftLower, avatartest::kLeftHand}) {
        worst = std::max(worst, glm::length(base.frames[f][static_cast<std::size_t>(j)].position - p.frames[f * step][static_cast<std::size_t>(j)].position));
      }
    }
    EXPECT_LT(worst, 1e-3f) << rate << " Hz";
  }
}

}  // namespace
