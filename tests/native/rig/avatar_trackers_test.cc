// The avatar's full-body trackers (docs/rig/avatar.md, "Full-body trackers")
// on the VRM-proportioned humanoid at 30, 60, 90 and 240 Hz: six trackers
// through a crouch, a lunge, a kick, a lifted knee and a walk
// (avatar_trackers.h) put the pelvis, feet, head and hands on their targets
// (1 mm; the head's rotation 0.1°), knees along the feet, bone lengths kept,
// every rate within 1 mm of 30 Hz; a foot tracker lost mid-step blends the
// foot back to a plant without a jump and back to its target when it
// returns; bad trackers are named errors that change nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "native/avatar_trackers.h"

namespace {

using namespace rigtest;

constexpr float kDegree = 0.017453292f;

LocalTransform Base() {
  LocalTransform root;
  root.translation = glm::vec3(1.0f, 0.0f, 2.0f);
  root.rotation = glm::angleAxis(0.5f, glm::vec3(0, 1, 0));
  return root;
}

// The targets' joints, in AvatarTarget order.
constexpr int kTracked[6] = {avatartest::kHead, avatartest::kLeftHand, avatartest::kRightHand,
                             avatartest::kHips, avatartest::kLeftFoot, avatartest::kRightFoot};

struct Session {
  std::vector<std::vector<World>> frames, animated;
  std::vector<avatartest::BodyTargets> targets;
  std::vector<LocalTransform> rest;
};

// `weight(k, t)`: tracker k's given weight at time t.
template <class Weight>
Session Track(int rate, float length, Weight weight) {
  Session out;
  const std::vector<int> parents = avatartest::Parents();
  out.rest = avatartest::Rest();
  Skeleton skeleton;
  EXPECT_TRUE(skeleton.Init(parents).ok());
  Rig rig;
  EXPECT_TRUE(rig.Init(skeleton, out.rest).ok());
  const ikpd::Status added = rig.Add(avatartest::Settings());
  EXPECT_TRUE(added.ok()) << added.error;
  EXPECT_EQ(rig.targets().size(), 6u);
  std::vector<LocalTransform> solved(out.rest.size());
  const float dt = 1.0f / static_cast<float>(rate);
  const int count = static_cast<int>(length * static_cast<float>(rate));
  for (int frame = 0; frame <= count; ++frame) {
    const float t = static_cast<float>(frame) / static_cast<float>(rate);
    const std::vector<LocalTransform> in = avatartest::Animated(out.rest, t);
    avatartest::BodyTargets targets = avatartest::Trackers(out.rest, t, Base());
    for (int k = 0; k < 6; ++k) targets.pose[k].weight = weight(k, t);
    for (int k = 0; k < 6; ++k) rig.targets()[static_cast<std::size_t>(k)] = targets.pose[k];
    const ikpd::Status updated = rig.Update(dt, in, Base(), solved);
    EXPECT_TRUE(updated.ok()) << updated.error;
    out.frames.push_back(Fk(parents, solved, Base()));
    out.animated.push_back(Fk(parents, in, Base()));
    out.targets.push_back(targets);
  }
  return out;
}

const Session& Tracked(int rate) {
  static std::map<int, Session> runs;
  auto it = runs.find(rate);
  if (it == runs.end()) it = runs.emplace(rate, Track(rate, avatartest::kTrackersLength, [](int, float) { return 1.0f; })).first;
  return it->second;
}

class AvatarTrackers : public ::testing::TestWithParam<int> {};

TEST_P(AvatarTrackers, EveryTrackerReachesItsTarget) {
  const int rate = GetParam();
  const Session& r = Tracked(rate);
  float worst[6] = {}, worstAt[6] = {}, headAngle = 0.0f, footAngle = 0.0f;
  int handsReachable = 0, handsTotal = 0;
  for (std::size_t f = static_cast<std::size_t>(rate); f < r.frames.size(); ++f) {  // after the weight's blend-in (1 s)
    const std::vector<World>& w = r.frames[f];
    for (int k = 0; k < 6; ++k) {
      const glm::vec3 target = r.targets[f].pose[k].position;
      if (k == 1 || k == 2) {  // a hand: reachable from where its upper arm is (1 mm short of straight)
        const int upper = k == 1 ? avatartest::kLeftUpper : avatartest::kRightUpper;
        ++handsTotal;
        if (glm::length(target - w[static_cast<std::size_t>(upper)].position) > 0.5f - 1e-3f) continue;
        ++handsReachable;
      }
      const float miss = glm::length(w[static_cast<std::size_t>(kTracked[k])].position - target);
      if (miss > worst[k]) worst[k] = miss, worstAt[k] = static_cast<float>(f) / static_cast<float>(rate);
    }
    headAngle = std::max(headAngle, avatartest::RotationAngle(w[avatartest::kHead].rotation, r.targets[f].pose[0].rotation));
    for (int k : {3, 4, 5}) footAngle = std::max(footAngle, avatartest::RotationAngle(w[static_cast<std::size_t>(kTracked[k])].rotation, r.targets[f].pose[k].rotation));
  }
  for (int k = 0; k < 6; ++k) EXPECT_LT(worst[k], 1e-3f) << rate << " Hz, target " << k << " at " << worstAt[k] << " s";
  EXPECT_LT(headAngle, 0.1f * kDegree) << rate << " Hz";
  EXPECT_LT(footAngle, 0.1f * kDegree) << rate << " Hz (pelvis and feet)";
  EXPECT_GT(handsReachable, handsTotal * 9 / 10) << rate << " Hz";
}

// Each knee bends toward its foot's rest knee direction turned with the foot
// (within 1° of it, normal to the hip–foot line, where the leg is bent);
// bone lengths kept, no NaN.
TEST_P(AvatarTrackers, KneesAlongTheFeetAndBonesKept) {
  const int rate = GetParam();
  const Session& r = Tracked(rate);
  const std::vector<int> parents = avatartest::Parents();
  const std::vector<World> restWorld = Fk(parents, r.rest, Base());
  float kneeWorst = 0.0f, stretch = 0.0f;
  int bent = 0;
  bool finite = true;
  for (std::size_t f = 0; f < r.frames.size(); ++f) {
    const std::vector<World>& w = r.frames[f];
    for (int hip : {15, 18}) {
      const auto at = [&](const std::vector<World>& p, int k) { return p[static_cast<std::size_t>(k)].position; };
      const glm::vec3 line = glm::normalize(at(w, hip + 2) - at(w, hip));
      glm::vec3 knee = at(w, hip + 1) - at(w, hip);
      knee -= glm::dot(knee, line) * line;
      if (glm::length(knee) < 0.02f) continue;
      ++bent;
      // The rest knee direction (from the rest hip–foot line), carried by the foot.
      const glm::vec3 restLine = glm::normalize(at(restWorld, hip + 2) - at(restWorld, hip));
      glm::vec3 restKnee = at(restWorld, hip + 1) - at(restWorld, hip);
      restKnee -= glm::dot(restKnee, restLine) * restLine;
      const glm::quat carry = w[static_cast<std::size_t>(hip + 2)].rotation * glm::conjugate(restWorld[static_cast<std::size_t>(hip + 2)].rotation);
      glm::vec3 expected = carry * glm::normalize(restKnee);
      expected -= glm::dot(expected, line) * line;
      const float angle = std::acos(std::clamp(glm::dot(glm::normalize(knee), glm::normalize(expected)), -1.0f, 1.0f));
      kneeWorst = std::max(kneeWorst, angle);
    }
    for (std::size_t j = 0; j < parents.size(); ++j) {
      finite = finite && std::isfinite(w[j].position.x + w[j].position.y + w[j].position.z + w[j].rotation.w);
      if (parents[j] <= 0) continue;
      const auto p = static_cast<std::size_t>(parents[j]);
      stretch = std::max(stretch, std::abs(glm::length(w[j].position - w[p].position) -
                                           glm::length(r.animated[f][j].position - r.animated[f][p].position)));
    }
  }
  EXPECT_GT(bent, static_cast<int>(r.frames.size()) / 2) << rate << " Hz";
  EXPECT_LT(kneeWorst, 1.0f * kDegree) << rate << " Hz";
  EXPECT_LT(stretch, 1e-4f) << rate << " Hz";
  EXPECT_TRUE(finite) << rate << " Hz";
}

INSTANTIATE_TEST_SUITE_P(Rates, AvatarTrackers, ::testing::Values(30, 60, 90, 240));

TEST(AvatarTrackers, SameMotionAtEveryRate) {
  const Session& base = Tracked(30);
  for (int rate : {60, 90, 240}) {
    const Session& r = Tracked(rate);
    const std::size_t step = static_cast<std::size_t>(rate / 30);
    float worst = 0.0f, worstAt = 0.0f;
    for (std::size_t f = 30; f < base.frames.size(); ++f) {  // after the constraint's weight blends in (1 s)
      for (std::size_t j = 0; j < base.frames[f].size(); ++j) {
        const float d = glm::length(base.frames[f][j].position - r.frames[f * step][j].position);
        if (d > worst) worst = d, worstAt = static_cast<float>(f) / 30.0f;
      }
    }
    EXPECT_LT(worst, 1e-3f) << rate << " Hz at " << worstAt << " s";
  }
}

// The left foot tracker lost at 10.3 s, mid-stride of the walk (the foot off
// the floor and moving), back at 13 s (the walk over at 11.8 s): the foot
// never moves in a frame more than 1.25× its target's own fastest frame over
// the walk plus 1 mm (a step's eased peak, as fast as the tracker's), comes
// down to a plant (still, on the floor within 1 mm or as near as a straight
// leg from the tracked hip reaches) while lost, and is on its target within 1 mm
// 1 s after the tracker returns.
TEST(AvatarTrackers, ALostFootTrackerBlendsBackToAPlant) {
  constexpr float kLost = 10.3f, kBack = 13.0f, kEnd = 14.0f;
  for (int rate : {30, 60, 90, 240}) {
    const Session r = Track(rate, kEnd, [&](int k, float t) { return k == 4 && t >= kLost && t < kBack ? 0.0f : 1.0f; });
    const float dt = 1.0f / static_cast<float>(rate);
    const auto frameAt = [&](float t) { return static_cast<std::size_t>(std::lround(t * static_cast<float>(rate))); };
    float own = 0.0f, jump = 0.0f, jumpAt = 0.0f;
    for (std::size_t f = frameAt(avatartest::kWalkStart); f < frameAt(kLost); ++f) {
      own = std::max(own, glm::length(r.targets[f + 1].pose[4].position - r.targets[f].pose[4].position));
    }
    const float lift = r.targets[frameAt(kLost)].pose[4].position.y - r.animated[frameAt(kLost)][avatartest::kLeftFoot].position.y;
    EXPECT_GT(lift, 0.01f) << rate << " Hz: the foot is off the floor when lost";
    for (std::size_t f = frameAt(kLost) - 1; f + 1 < r.frames.size(); ++f) {
      const float d = glm::length(r.frames[f + 1][avatartest::kLeftFoot].position - r.frames[f][avatartest::kLeftFoot].position);
      if (d > jump) jump = d, jumpAt = static_cast<float>(f + 1) * dt;
    }
    EXPECT_LT(jump, 1.25f * own + 1e-3f) << rate << " Hz at " << jumpAt << " s (the target's own: " << own << ")";
    const std::size_t planted = frameAt(kBack - 0.1f);
    const glm::vec3 foot = r.frames[planted][avatartest::kLeftFoot].position;
    // On the floor, or as near as a straight leg from the tracked hip reaches.
    const std::vector<World>& w = r.frames[planted];
    const float leg = glm::length(w[16].position - w[15].position) + glm::length(w[17].position - w[16].position);
    const bool straight = glm::length(foot - w[15].position) > leg - 1e-3f;
    EXPECT_TRUE(straight || std::abs(foot.y - r.animated[planted][avatartest::kLeftFoot].position.y) < 1e-3f) << rate << " Hz: on the floor";
    EXPECT_LT(foot.y - r.animated[planted][avatartest::kLeftFoot].position.y, 5e-3f) << rate << " Hz: down";
    EXPECT_LT(glm::length(foot - r.frames[planted - static_cast<std::size_t>(rate / 10)][avatartest::kLeftFoot].position), 1e-4f) << rate << " Hz: still";
    const std::size_t last = r.frames.size() - 1;
    EXPECT_LT(glm::length(r.frames[last][avatartest::kLeftFoot].position - r.targets[last].pose[4].position), 1e-3f) << rate << " Hz: back";
  }
}

TEST(AvatarTrackers, BadTrackersAreNamedAndChangeNothing) {
  const std::vector<LocalTransform> rest = avatartest::Rest();
  Skeleton skeleton;
  ASSERT_TRUE(skeleton.Init(avatartest::Parents()).ok());
  Rig rig;
  ASSERT_TRUE(rig.Init(skeleton, rest).ok());
  ASSERT_TRUE(rig.Add(avatartest::Settings()).ok());
  std::vector<LocalTransform> out(rest.size());
  const std::vector<LocalTransform> in = avatartest::Animated(rest, 0.0f);
  const auto aim = [&] {
    const avatartest::BodyTargets targets = avatartest::Trackers(rest, 2.0f, LocalTransform{});
    for (int k = 0; k < 6; ++k) rig.targets()[static_cast<std::size_t>(k)] = targets.pose[k];
  };
  aim();
  ASSERT_TRUE(rig.Update(1.0f / 60.0f, in, LocalTransform{}, out).ok());
  avatartest::ExpectSpoiledTargetsNamed(rig, aim, in, out, {
      {4, [](ikpd::rig::TargetPose& p) { p.position.x = INFINITY; }, "targets[4].position: must be finite"},
      {3, [](ikpd::rig::TargetPose& p) { p.rotation = glm::quat(0, 0, 0, 0); }, "targets[3].rotation: must be finite and non-zero"},
      {5, [](ikpd::rig::TargetPose& p) { p.rotation.w = NAN; }, "targets[5].rotation: must be finite and non-zero"},
      {5, [](ikpd::rig::TargetPose& p) { p.weight = -0.5f; }, "targets[5].weight: must be in [0, 1]"},
      {3, [](ikpd::rig::TargetPose& p) { p.weight = NAN; }, "targets[3].weight: must be in [0, 1]"},
  });
}

// Only the new trackers weighted (head and hands at 0): the pelvis and feet on
// their targets, and all six at 0 the animated pose exactly.
TEST(AvatarTrackers, BodyTrackersAlone) {
  const Session r = Track(60, 4.0f, [](int k, float t) { return k >= 3 && t < 3.0f ? 1.0f : 0.0f; });
  const std::size_t at = 2 * 60;
  for (int k : {3, 4, 5}) {
    EXPECT_LT(glm::length(r.frames[at][static_cast<std::size_t>(kTracked[k])].position - r.targets[at].pose[k].position), 1e-3f) << k;
  }
  const std::size_t last = r.frames.size() - 1;
  for (std::size_t j = 0; j < r.frames[last].size(); ++j) {
    EXPECT_EQ(r.frames[last][j].position, r.animated[last][j].position) << j;
  }
}

}  // namespace
