// The avatar's steps on uneven ground (docs/rig/avatar.md, "Steps", "Uneven
// ground"): the root walks 1.5 m over a 15 cm stair and up a 15° slope (the
// root on the floor's plane), the head and hands carried with it; each frame the avatar's
// two probes are answered with the ground's plane under them, as grounding's.
// At 30, 60, 90 and 240 Hz: planted feet stand as high above the ground as
// the animation has them above the root's plane (within 1 mm), slide at most
// 1 mm, no foot goes below the ground in a swing, and every rate's feet agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "native/avatar_test_util.h"

namespace {

using namespace rigtest;
using avatartest::Ease;

constexpr float kEnd = 6.0f;
constexpr float kEdge = 0.6f;    // the stair's edge and the slope's foot (z, world)
constexpr float kRise = 0.15f;   // the stair
const float kSlope = std::tan(15.0f * 3.14159265f / 180.0f);

enum Ground { kStair, kRamp };

// The ground's height under (x, z) and its normal.
float Height(Ground g, float z) { return g == kStair ? (z >= kEdge ? kRise : 0.0f) : kSlope * std::max(0.0f, z - kEdge); }
glm::vec3 Normal(Ground g, float z) {
  return g == kRamp && z >= kEdge ? glm::normalize(glm::vec3(0.0f, 1.0f, -kSlope)) : glm::vec3(0.0f, 1.0f, 0.0f);
}

// The root walks 1.5 m forward (1–4 s) from z = 0 on the floor's plane (a VR
// user's floor: the ground rises under the avatar's feet, the knees bend).
// With `follow`, the root's height follows the ground instead (a character
// controller's: raised over ±0.2 m around the stair's edge, along the slope).
LocalTransform Root(float t, Ground g = kStair, bool follow = false) {
  LocalTransform root;
  root.translation = glm::vec3(0.0f, 0.0f, 1.5f * Ease(t, 1.0f, 4.0f));
  const float z = root.translation.z;
  if (follow) root.translation.y = g == kStair ? kRise * Ease(z, kEdge - 0.2f, kEdge + 0.2f) : Height(g, z);
  return root;
}

struct Walk {
  std::vector<std::vector<World>> frames, animated;
  std::vector<LocalTransform> roots;
};

Walk Simulate(Ground g, int rate, bool follow = false) {
  Walk out;
  avatartest::AvatarRig made;
  auto& rig = made.rig;
  const std::size_t first = rig.groundIndex(0);
  EXPECT_EQ(rig.groundLegs(0), 2u);
  std::vector<LocalTransform> solved(made.rest.size());
  const float dt = 1.0f / static_cast<float>(rate);
  const int count = static_cast<int>(kEnd * static_cast<float>(rate));
  for (int frame = 0; frame <= count; ++frame) {
    const float t = static_cast<float>(frame) / static_cast<float>(rate);
    const std::vector<LocalTransform> in = avatartest::Animated(made.rest, 0.0f);
    const LocalTransform root = Root(t, g, follow);
    const avatartest::Targets targets = avatartest::Script(0.0f, root, made.restWorld);
    rig.targets()[0] = targets.head, rig.targets()[1] = targets.hands[0], rig.targets()[2] = targets.hands[1];
    EXPECT_TRUE(rig.Probe(in, root).ok());
    for (std::size_t i = 0; i < rig.groundLegs(0); ++i) {
      const glm::vec3 sole = rig.probes()[first + i].sole;
      ikpd::rig::GroundHit& hit = rig.grounds()[first + i];
      hit.point = glm::vec3(sole.x, Height(g, sole.z), sole.z);
      hit.normal = Normal(g, sole.z);
      hit.hit = 1.0f;
    }
    const ikpd::Status updated = rig.Update(dt, in, root, solved);
    EXPECT_TRUE(updated.ok()) << updated.error;
    out.frames.push_back(Fk(made.parents, solved, root));
    out.animated.push_back(Fk(made.parents, in, root));
    out.roots.push_back(root);
  }
  return out;
}

const Walk& Walked(Ground g, int rate) {
  return avatartest::PerRate<Walk>(rate * 2 + static_cast<int>(g), [g](int key) { return Simulate(g, key / 2); });
}

constexpr int kFeet[2] = {avatartest::kLeftFoot, avatartest::kRightFoot};

// How far foot `foot` of frame f is above where it stands: the ground under
// it plus its animated height above the root's plane.
float AboveStand(Ground g, const Walk& walk, std::size_t f, int foot) {
  const glm::vec3 at = walk.frames[f][foot].position;
  const float clearance = walk.animated[f][foot].position.y - walk.roots[f].translation.y;
  return at.y - (Height(g, at.z) + clearance);
}

class AvatarGround : public ::testing::TestWithParam<std::tuple<int, Ground>> {};

TEST_P(AvatarGround, PlantedFeetStandOnTheGroundWithoutSliding) {
  const auto [rate, g] = GetParam();
  const Walk& walk = Walked(g, rate);
  for (int side = 0; side < 2; ++side) {
    std::vector<glm::vec3> path;
    for (const auto& w : walk.frames) path.push_back(w[kFeet[side]].position);
    const avatartest::Planted planted = avatartest::PlantedRuns(path);
    EXPECT_LT(planted.slide, 1e-3f) << rate << " Hz, side " << side << " at " << planted.at / static_cast<float>(rate) << " s";
    EXPECT_GE(planted.steps, 3) << rate << " Hz, side " << side;
    // Planted (not moving since last frame) after the constraint blended in: on the ground.
    float worst = 0.0f, worstAt = 0.0f;
    for (std::size_t f = static_cast<std::size_t>(rate); f < path.size(); ++f) {
      if (glm::length(path[f] - path[f - 1]) >= 5e-4f) continue;
      const float off = std::abs(AboveStand(g, walk, f, kFeet[side]));
      if (off > worst) worst = off, worstAt = static_cast<float>(f) / static_cast<float>(rate);
    }
    EXPECT_LT(worst, 1e-3f) << rate << " Hz, side " << side << " at " << worstAt << " s";
    // The walk ended up the stair or the slope: the foot stands on the upper ground.
    EXPECT_GT(path.back().z, kEdge + 0.3f) << rate << " Hz, side " << side;
  }
}

TEST_P(AvatarGround, NoFootBelowTheGroundInASwing) {
  const auto [rate, g] = GetParam();
  const Walk& walk = Walked(g, rate);
  float lowest = 1.0f, lowestAt = 0.0f;
  for (std::size_t f = static_cast<std::size_t>(rate); f < walk.frames.size(); ++f) {
    for (int foot : kFeet) {
      const float above = AboveStand(g, walk, f, foot);
      if (above < lowest) lowest = above, lowestAt = static_cast<float>(f) / static_cast<float>(rate);
    }
  }
  EXPECT_GT(lowest, -1e-3f) << rate << " Hz at " << lowestAt << " s";
}

INSTANTIATE_TEST_SUITE_P(Rates, AvatarGround,
                         ::testing::Combine(::testing::Values(30, 60, 90, 240), ::testing::Values(kStair, kRamp)));

// The root's height following the ground: the pelvis rises before the
// trailing foot steps up, and a foot landing within a frame stands on the
// ground as the animation has it above the root's plane at its landing
// instant (planted within 1 mm at 30, 60, 90 and 240 Hz; measured from the
// root's plane at the frame's end it stood 7.2 mm low at 30 Hz, 2.7 mm at
// 90 Hz on the stair, 3.3 and 1.2 mm on the slope).
TEST(AvatarGroundRootFollows, LandedFeetStandOnTheGround) {
  for (Ground g : {kStair, kRamp}) {
    for (int rate : {30, 60, 90, 240}) {
      const Walk walk = Simulate(g, rate, true);
      float worst = 0.0f, worstAt = 0.0f;
      for (int foot : kFeet) {
        for (std::size_t f = static_cast<std::size_t>(rate); f < walk.frames.size(); ++f) {
          if (glm::length(walk.frames[f][foot].position - walk.frames[f - 1][foot].position) >= 5e-4f) continue;
          const float off = std::abs(AboveStand(g, walk, f, foot));
          if (off > worst) worst = off, worstAt = static_cast<float>(f) / static_cast<float>(rate);
        }
      }
      EXPECT_LT(worst, 1e-3f) << (g == kStair ? "stair " : "slope ") << rate << " Hz at " << worstAt << " s: " << worst * 1e3f << " mm";
    }
  }
}

// Every rate's feet at the times they share (multiples of 1/30 s) within 1 mm of 240 Hz's.
TEST(AvatarGroundRate, SameFeetAtEveryRate) {
  for (Ground g : {kStair, kRamp}) {
    const Walk& base = Walked(g, 240);
    for (int rate : {30, 60, 90}) {
      const Walk& walk = Walked(g, rate);
      const std::size_t step = static_cast<std::size_t>(rate / 30);
      float worst = 0.0f, worstAt = 0.0f;
      for (std::size_t f = 30; f * 8 < base.frames.size(); ++f) {
        for (int foot : kFeet) {
          const float d = glm::length(base.frames[f * 8][foot].position - walk.frames[f * step][foot].position);
          if (d > worst) worst = d, worstAt = static_cast<float>(f) / 30.0f;
        }
      }
      EXPECT_LT(worst, 1e-3f) << (g == kStair ? "stair " : "slope ") << rate << " Hz at " << worstAt << " s";
    }
  }
}

// No hit (hit 0: the default) is the root's plane: probing every frame and
// giving no hit leaves every frame of the walk bit for bit as never probing.
TEST(AvatarGroundNone, NoHitIsTheFlatWalkBitForBit) {
  for (int rate : {30, 240}) {
    avatartest::AvatarRig probed, plain;
    std::vector<LocalTransform> a(probed.rest.size()), b(plain.rest.size());
    const float dt = 1.0f / static_cast<float>(rate);
    bool same = true;
    for (int frame = 0; frame <= 5 * rate && same; ++frame) {
      const float t = static_cast<float>(frame) / static_cast<float>(rate);
      const std::vector<LocalTransform> in = avatartest::Animated(probed.rest, 0.0f);
      const LocalTransform root = Root(t);
      EXPECT_TRUE(probed.rig.Probe(in, root).ok());
      for (ikpd::rig::GroundHit& hit : probed.rig.grounds()) hit.hit = 0.0f;
      probed.Carried(dt, in, root, a);
      plain.Carried(dt, in, root, b);
      same = avatartest::SamePose(a, b);
      EXPECT_TRUE(same) << rate << " Hz at " << t << " s";
    }
  }
}

}  // namespace
