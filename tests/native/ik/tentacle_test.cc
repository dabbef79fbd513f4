// Tentacle2D (docs/ik/tentacle.md): its rules reproduced by hand, limits, lengths, convergence.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "ikpd/ikpd.h"

namespace {

constexpr float kHalfPi = 1.5707963267948966f;

ikpd::Tentacle2D Make(std::vector<float>& lengths, float step, float limit) {
  ikpd::Tentacle2D t;
  ikpd::Tentacle2DSettings s;
  s.lengths = lengths;
  s.step = step;
  s.limit = limit;
  EXPECT_TRUE(t.Reset(s).ok());
  return t;
}

void ExpectPositions(const ikpd::Tentacle2D& t, std::initializer_list<glm::vec2> expected) {
  ASSERT_EQ(t.positions().size(), expected.size());
  std::size_t i = 0;
  for (const glm::vec2& e : expected) {
    EXPECT_NEAR(t.positions()[i].x, e.x, 1e-5f) << "joint " << i;
    EXPECT_NEAR(t.positions()[i].y, e.y, 1e-5f) << "joint " << i;
    ++i;
  }
}

TEST(Tentacle, HandWorkedThreeJoints) {
  // Three unit bones along +X, step 90°, target (0, 3). Worked by hand from docs/ik/tentacle.md:
  // update 1: joint 2 turns + (dots -2 | 3 | -3), joint 1 turns + (2 | 4 | -4),
  //           joint 0 keeps still (3 | 0 | 0) → angles (0, 90°, 90°).
  // update 2: joint 2 turns − (1 | -2 | 2), joints 1 and 0 keep still → (0, 90°, 0).
  std::vector<float> lengths{1.0f, 1.0f, 1.0f};
  ikpd::Tentacle2D t = Make(lengths, kHalfPi, ikpd::kPi);
  ExpectPositions(t, {{0, 0}, {1, 0}, {2, 0}, {3, 0}});
  ASSERT_TRUE(t.Update({0.0f, 3.0f}).ok());
  EXPECT_NEAR(t.angles()[0], 0.0f, 1e-6f);
  EXPECT_NEAR(t.angles()[1], kHalfPi, 1e-6f);
  EXPECT_NEAR(t.angles()[2], kHalfPi, 1e-6f);
  ExpectPositions(t, {{0, 0}, {1, 0}, {1, 1}, {0, 1}});
  ASSERT_TRUE(t.Update({0.0f, 3.0f}).ok());
  EXPECT_NEAR(t.angles()[0], 0.0f, 1e-6f);
  EXPECT_NEAR(t.angles()[1], kHalfPi, 1e-6f);
  EXPECT_NEAR(t.angles()[2], 0.0f, 1e-6f);
  ExpectPositions(t, {{0, 0}, {1, 0}, {1, 1}, {1, 2}});
}

TEST(Tentacle, TieKeepsJointStill) {
  // One bone along +X, target straight behind: +90° and -90° give equal dots (0) → no turn.
  std::vector<float> lengths{1.0f};
  ikpd::Tentacle2D t = Make(lengths, kHalfPi, ikpd::kPi);
  ASSERT_TRUE(t.Update({-1.0f, 0.0f}).ok());
  EXPECT_EQ(t.angles()[0], 0.0f);
}

TEST(Tentacle, LimitBlocksTurnThatWouldExceedIt) {
  std::vector<float> lengths{1.0f, 1.0f};
  ikpd::Tentacle2D t = Make(lengths, kHalfPi, 0.25f * ikpd::kPi);
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(t.Update({0.0f, 2.0f}).ok());
  EXPECT_EQ(t.angles()[0], 0.0f);
  EXPECT_EQ(t.angles()[1], 0.0f);
}

// The reference MoveJoints (D code) of docs/ik/tentacle.md, transcribed in double with one bone length.
struct SeedNode {
  double x = 0, y = 0, rad = 0;
};
void SeedMoveJoints(std::vector<SeedNode>& nodes, double vRad, double lRad, double distance, double x, double y) {
  const double c = std::cos(vRad), s = std::sin(vRad);
  SeedNode tip = nodes.back();
  for (int i = static_cast<int>(nodes.size()) - 1; i >= 0; --i) {
    SeedNode& n = nodes[static_cast<std::size_t>(i)];
    const double dx = x - n.x, dy = y - n.y;
    const double jx = tip.x - n.x, jy = tip.y - n.y, jn = jx * dx + jy * dy;
    double rx = 0, ry = 0, rn = jn, lx = 0, ly = 0, ln = jn;
    if (n.rad + vRad <= lRad) {
      rx = c * jx - s * jy;
      ry = s * jx + c * jy;
      rn = rx * dx + ry * dy;
    }
    if (n.rad - vRad >= -lRad) {
      lx = c * jx + s * jy;
      ly = -s * jx + c * jy;
      ln = lx * dx + ly * dy;
    }
    if (rn > jn && rn > ln) {
      n.rad += vRad;
      tip.x = n.x + rx;
      tip.y = n.y + ry;
    }
    if (ln > jn && ln > rn) {
      n.rad -= vRad;
      tip.x = n.x + lx;
      tip.y = n.y + ly;
    }
  }
  double px = distance, py = 0;
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    const double cc = std::cos(nodes[i - 1].rad), ss = std::sin(nodes[i - 1].rad);
    const double dx = cc * px - ss * py, dy = ss * px + cc * py;
    nodes[i].x = nodes[i - 1].x + dx;
    nodes[i].y = nodes[i - 1].y + dy;
    px = dx;
    py = dy;
  }
}

TEST(Tentacle, MatchesSeedCodeOnAMovingTarget) {
  // 3 joints + tip (the reference code's node list has 4 nodes; its tip node never turns).
  std::vector<float> lengths{2.0f, 2.0f, 2.0f};
  const double step = 0.07, limit = 1.1;
  ikpd::Tentacle2D t = Make(lengths, static_cast<float>(step), static_cast<float>(limit));
  std::vector<SeedNode> nodes(4);
  for (std::size_t i = 0; i < 4; ++i) nodes[i].x = 2.0 * static_cast<double>(i);
  for (int frame = 0; frame < 400; ++frame) {
    const double tx = 3.0 * std::cos(0.013 * frame) + 1.0, ty = 4.0 * std::sin(0.021 * frame);
    SeedMoveJoints(nodes, step, limit, 2.0, tx, ty);
    ASSERT_TRUE(t.Update({static_cast<float>(tx), static_cast<float>(ty)}).ok());
    for (std::size_t i = 0; i < 3; ++i) {
      // Same decisions: identical multiples of the step.
      ASSERT_EQ(std::lround(t.angles()[i] / step), std::lround(nodes[i].rad / step)) << "frame " << frame << " joint " << i;
    }
    for (std::size_t i = 0; i < 4; ++i) {
      ASSERT_NEAR(t.positions()[i].x, nodes[i].x, 1e-4) << "frame " << frame;
      ASSERT_NEAR(t.positions()[i].y, nodes[i].y, 1e-4) << "frame " << frame;
    }
  }
}

TEST(Tentacle, RandomRunsKeepLimitsAndLengths) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + static_cast<std::size_t>(u(rng) * 9.0f);
    std::vector<float> lengths(n), limits(n);
    for (std::size_t i = 0; i < n; ++i) {
      lengths[i] = trial % 10 == 0 && i == 0 ? 0.0f : 0.1f + 2.0f * u(rng);
      limits[i] = 0.05f + 2.0f * u(rng);
    }
    ikpd::Tentacle2DSettings s;
    s.lengths = lengths;
    s.limits = limits;
    s.step = 0.01f + 0.3f * u(rng);
    s.root = {u(rng) - 0.5f, u(rng) - 0.5f};
    s.baseAngle = 6.0f * u(rng);
    ikpd::Tentacle2D t;
    ASSERT_TRUE(t.Reset(s).ok());
    for (int frame = 0; frame < 100; ++frame) {
      const glm::vec2 target(20.0f * (u(rng) - 0.5f), 20.0f * (u(rng) - 0.5f));
      ASSERT_TRUE(t.Update(target).ok());
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_LE(std::abs(t.angles()[i]), limits[i]);
        ASSERT_NEAR(glm::distance(t.positions()[i + 1], t.positions()[i]), lengths[i], 2e-5f * (1.0f + lengths[i]));
      }
      ASSERT_EQ(t.positions()[0], s.root);
    }
  }
}

TEST(Tentacle, ConvergesTowardAReachableFixedTarget) {
  std::vector<float> lengths{1.0f, 0.8f, 0.6f, 0.4f};
  ikpd::Tentacle2D t = Make(lengths, 0.01f, ikpd::kPi);
  const glm::vec2 target(0.5f, 2.0f);
  float previous = glm::distance(t.positions().back(), target);
  for (int frame = 0; frame < 3000; ++frame) {
    ASSERT_TRUE(t.Update(target).ok());
    const float d = glm::distance(t.positions().back(), target);
    // Every turn is chosen because it brings the tip closer along X, so the
    // distance never grows by more than one step's worth of sideways motion.
    ASSERT_LE(d, previous + 0.03f);
    previous = d;
  }
  EXPECT_LT(previous, 0.01f);  // settles within about one step's arc (0.01 rad × 2.8 length)
}

TEST(Tentacle, Validation) {
  ikpd::Tentacle2D t;
  ikpd::Tentacle2DSettings s;
  EXPECT_STREQ(t.Reset(s).error, "lengths: must have at least one bone");
  std::vector<float> lengths{1.0f, -1.0f};
  s.lengths = lengths;
  EXPECT_STREQ(t.Reset(s).error, "lengths: every length must be finite and >= 0");
  lengths[1] = 1.0f;
  s.step = 4.0f;
  EXPECT_STREQ(t.Reset(s).error, "step: must be in [0, pi]");
  s.step = 0.1f;
  std::vector<float> limits{1.0f};
  s.limits = limits;
  EXPECT_STREQ(t.Reset(s).error, "limit: needs one limit per bone");
  s.limits = {};
  s.limit = -1.0f;
  EXPECT_STREQ(t.Reset(s).error, "limit: must be >= 0 (Infinity for no limit)");
  s.limit = 1.0f;
  ASSERT_TRUE(t.Reset(s).ok());
  EXPECT_STREQ(t.Update({NAN, 0.0f}).error, "target: must be finite");
  std::vector<float> angles{0.5f, 2.0f};
  EXPECT_STREQ(t.SetAngles(angles).error, "angles: every angle must be within its joint's limit");
  angles[1] = -0.5f;
  ASSERT_TRUE(t.SetAngles(angles).ok());
  EXPECT_NEAR(t.positions()[2].x, std::cos(0.5f) + 1.0f, 1e-6f);
  EXPECT_NEAR(t.positions()[2].y, std::sin(0.5f), 1e-6f);
  ikpd::Tentacle2D empty;
  EXPECT_FALSE(empty.Update({0.0f, 0.0f}).ok());
}


// The opt-in escape (escapeAfter): the demo's tentacle, 14 bones over 2.8, step 3°, limit 40°.
namespace escape {

constexpr float kDeg = ikpd::kPi / 180.0f;
const glm::vec2 kFar{1.4f, 2.6f};    // over the wall, within reach
const glm::vec2 kNear{0.0f, 0.3f};   // next to the base: curls the chain up

ikpd::Tentacle2D MakeDemo(std::vector<float>& lengths, std::uint32_t escapeAfter, float limit = 40.0f * kDeg) {
  lengths.assign(14, 2.8f / 14.0f);
  ikpd::Tentacle2D t;
  ikpd::Tentacle2DSettings s;
  s.lengths = lengths;
  s.step = 3.0f * kDeg;
  s.limit = limit;
  s.root = {0.0f, 0.2f};
  s.baseAngle = kHalfPi;
  s.escapeAfter = escapeAfter;
  EXPECT_TRUE(t.Reset(s).ok());
  return t;
}

float Gap(const ikpd::Tentacle2D& t, glm::vec2 target) { return glm::length(t.positions().back() - target); }

void Knot(ikpd::Tentacle2D& t) {
  for (int i = 0; i < 120; ++i) ASSERT_TRUE(t.Update(kFar).ok());
  for (int i = 0; i < 300; ++i) ASSERT_TRUE(t.Update(kNear).ok());
}

TEST(TentacleEscape, OffByDefaultTheKnotStays) {
  std::vector<float> lengths;
  ikpd::Tentacle2D t = MakeDemo(lengths, 0);
  Knot(t);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(t.Update(kFar).ok());
  EXPECT_GT(Gap(t, kFar), 1.5f);  // the plain rule's dead end, kept as the default
  EXPECT_FALSE(t.unwinding());
}

TEST(TentacleEscape, UnwindsOutOfTheKnotAndReaches) {
  std::vector<float> lengths;
  ikpd::Tentacle2D t = MakeDemo(lengths, 30);
  Knot(t);
  bool unwound = false;
  for (int i = 0; i < 1000; ++i) {
    ASSERT_TRUE(t.Update(kFar).ok());
    unwound = unwound || t.unwinding();
  }
  EXPECT_TRUE(unwound);
  EXPECT_LT(Gap(t, kFar), 0.2f);  // as close as the plain rule gets from the straight pose
  EXPECT_FALSE(t.unwinding());
}

TEST(TentacleEscape, EveryUpdateTurnsAJointAtMostOneStepWithinItsLimit) {
  std::vector<float> lengths;
  ikpd::Tentacle2D t = MakeDemo(lengths, 5);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  std::vector<float> before(14);
  int unwindingUpdates = 0;
  for (int run = 0; run < 200; ++run) {
    const glm::vec2 target{u(rng), u(rng) + 1.0f};
    for (int i = 0; i < 40; ++i) {
      before.assign(t.angles().begin(), t.angles().end());
      ASSERT_TRUE(t.Update(target).ok());
      unwindingUpdates += t.unwinding() ? 1 : 0;
      for (std::size_t k = 0; k < 14; ++k) {
        EXPECT_LE(std::abs(t.angles()[k] - before[k]), 3.0f * kDeg + 1e-6f);
        EXPECT_LE(std::abs(t.angles()[k]), 40.0f * kDeg + 1e-6f);
        EXPECT_NEAR(glm::length(t.positions()[k + 1] - t.positions()[k]), 0.2f, 1e-5f);
      }
    }
  }
  EXPECT_GT(unwindingUpdates, 0);  // the random targets do knot it
}

TEST(TentacleEscape, NeverUnwindsTowardATargetOutOfReach) {
  // Straight at the target is the best pose: the gap that stays is the best possible one.
  std::vector<float> lengths;
  ikpd::Tentacle2D t = MakeDemo(lengths, 3);
  for (int i = 0; i < 500; ++i) {
    ASSERT_TRUE(t.Update({6.0f, 5.0f}).ok());
    ASSERT_FALSE(t.unwinding()) << "update " << i;
  }
}

TEST(TentacleEscape, UnwindsAtMostOncePerTarget) {
  // Limit 5°: the chain cannot curl back to a point beside its base; unwinding does not help,
  // so it must not repeat while the target stays put.
  std::vector<float> lengths;
  ikpd::Tentacle2D t = MakeDemo(lengths, 3, 5.0f * kDeg);
  int starts = 0;
  bool was = false;
  for (int i = 0; i < 2000; ++i) {
    ASSERT_TRUE(t.Update({0.4f, 0.2f}).ok());
    starts += t.unwinding() && !was ? 1 : 0;
    was = t.unwinding();
  }
  EXPECT_LE(starts, 1);
}

TEST(TentacleEscape, StepZeroNeverUnwinds) {
  std::vector<float> lengths(3, 1.0f);
  ikpd::Tentacle2D t;
  ikpd::Tentacle2DSettings s;
  s.lengths = lengths;
  s.step = 0.0f;
  s.escapeAfter = 1;
  ASSERT_TRUE(t.Reset(s).ok());
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(t.Update({0.0f, 1.0f}).ok());
    ASSERT_FALSE(t.unwinding());
  }
}

TEST(TentacleEscape, ResetAndSetAnglesStopUnwinding) {
  std::vector<float> lengths;
  ikpd::Tentacle2D t = MakeDemo(lengths, 30);
  Knot(t);
  for (int i = 0; i < 1000 && !t.unwinding(); ++i) ASSERT_TRUE(t.Update(kFar).ok());
  ASSERT_TRUE(t.unwinding());
  ASSERT_TRUE(t.SetAngles(std::vector<float>(14, 0.0f)).ok());
  EXPECT_FALSE(t.unwinding());
}

}  // namespace escape
}  // namespace
