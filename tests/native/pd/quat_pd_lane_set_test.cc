// UpdateQuatPDs with a QuatPdLaneSet (docs/pd/pd.md, "Lanes kept between
// updates"): the controllers' state kept in the lanes between updates gives,
// once committed, the same bits as UpdateQuatPDs alone, over random sequences
// of updates (dt changing, dt 0, targets too large for float, angle limits,
// 'linear' targets, a diverging lane), commits, blend-outs and Save/Restore.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "ikpd/ikpd.h"

using namespace ikpd;
using namespace ikpd::pd;

namespace {

glm::dquat RandomRotation(std::mt19937& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  const double z = n(rng), y = n(rng), x = n(rng), w = n(rng);
  return glm::normalize(glm::dquat(w, x, y, z));
}

// The whole state a later update, blend-out or query reads (StateAt: the target's velocity too).
bool SameBits(const QuatPD& a, const QuatPD& b) {
  const glm::dquat va = a.value(), vb = b.value(), ta = a.target(), tb = b.target();
  const glm::dvec3 wa = a.velocity(), wb = b.velocity();
  glm::dquat sa, sb;
  glm::dvec3 xa, xb;
  const bool stateAt = a.StateAt(0.1, &sa, &xa) && b.StateAt(0.1, &sb, &xb);
  const double ea = a.Energy(), eb = b.Energy();
  return std::memcmp(&va, &vb, sizeof va) == 0 && std::memcmp(&wa, &wb, sizeof wa) == 0 &&
         std::memcmp(&ta, &tb, sizeof ta) == 0 && a.blendPhase() == b.blendPhase() && std::memcmp(&ea, &eb, sizeof ea) == 0 &&
         (!stateAt || (std::memcmp(&sa, &sb, sizeof sa) == 0 && std::memcmp(&xa, &xb, sizeof xa) == 0));
}

std::vector<QuatPD> RandomControllers(std::mt19937& rng, std::size_t count) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<QuatPD> pds;
  for (std::size_t i = 0; i < count; ++i) {
    PdSettings s;
    EXPECT_TRUE(SettingsFromSettleTime(0.05 + 1.5 * u(rng), 0.5 + u(rng), &s));
    s.maxVelocity = u(rng) < 0.2 ? std::numeric_limits<double>::infinity() : 0.5 + 20.0 * u(rng);
    s.substepSplit = u(rng) < 0.9 ? SubstepSplit::kEqual : SubstepSplit::kClassic;
    if (u(rng) < 0.2) s.maxAngle = 0.1 + 3.0 * u(rng);
    if (u(rng) < 0.1) s.targetMotion = TargetMotion::kLinear;
    s.blendOutTime = 0.1;
    QuatPD pd(s);
    EXPECT_TRUE(pd.Reset(RandomRotation(rng), 10.0 * u(rng) * glm::dvec3(glm::axis(RandomRotation(rng)))));
    pds.push_back(pd);
  }
  return pds;
}

}  // namespace

TEST(QuatPdLaneSet, CommittedAsUpdateQuatPDsBitForBit) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int run = 0; run < 60; ++run) {
    const std::size_t count = 1 + static_cast<std::size_t>(u(rng) * 19.0);
    std::vector<QuatPD> pds = RandomControllers(rng, count), plain = pds;
    QuatPdLaneSet lanes;
    ASSERT_TRUE(lanes.Allocate(count));
    double dt = 1.0 / 60.0;
    for (int frame = 0; frame < 120; ++frame) {
      const double pick = u(rng);
      if (pick < 0.05) dt = 0.0;
      else if (pick < 0.15) dt = 0.1 * u(rng);
      else if (pick < 0.3) dt = 1.0 / 60.0;
      std::vector<glm::quat> targets;
      for (std::size_t i = 0; i < count; ++i) {
        const double t = u(rng);
        targets.push_back(t < 0.02 ? glm::quat(3e18f, 1e18f, 0, 0) : glm::quat(RandomRotation(rng)));
      }
      const double what = u(rng);
      if (what < 0.05) {  // a blend-out frame: committed first, then each in double
        lanes.Commit(pds);
        for (std::size_t i = 0; i < count; ++i) {
          ASSERT_TRUE(pds[i].UpdateBlendOut(dt));
          ASSERT_TRUE(plain[i].UpdateBlendOut(dt));
        }
      } else if (what < 0.1) {  // an update undone
        lanes.Save();
        std::vector<QuatPD> saved = pds;
        ASSERT_TRUE(UpdateQuatPDs(dt, pds, targets, &lanes));
        lanes.Restore();
        for (std::size_t i = 0; i < count; ++i) {
          if (!lanes.kept(i)) pds[i] = saved[i];
        }
      } else {
        ASSERT_TRUE(UpdateQuatPDs(dt, pds, targets, &lanes));
        ASSERT_TRUE(UpdateQuatPDs(dt, plain, targets));
      }
      for (std::size_t i = 0; i < count; ++i) {
        const glm::quat a = lanes.valuef(pds, i), b = plain[i].valuef();
        ASSERT_EQ(std::memcmp(&a, &b, sizeof a), 0) << run << " " << frame << " " << i;
      }
      if (u(rng) < 0.1) {
        lanes.Commit(pds);
        for (std::size_t i = 0; i < count; ++i) ASSERT_TRUE(SameBits(pds[i], plain[i])) << run << " " << frame << " " << i;
      }
    }
    lanes.Commit(pds);
    for (std::size_t i = 0; i < count; ++i) EXPECT_TRUE(SameBits(pds[i], plain[i])) << run << " " << i;
  }
}

TEST(QuatPdLaneSet, KeepsOnlyWhatCommitsUnchanged) {
  // Kept: 'hold' targets without an angle limit; a limited or 'linear' one is committed each update.
  PdSettings s;
  ASSERT_TRUE(SettingsFromSettleTime(0.3, 1.0, &s));
  PdSettings limited = s, linear = s;
  limited.maxAngle = 0.5;
  linear.targetMotion = TargetMotion::kLinear;
  std::vector<QuatPD> pds = {QuatPD(s), QuatPD(limited), QuatPD(linear)};
  QuatPdLaneSet lanes;
  ASSERT_TRUE(lanes.Allocate(3));
  const std::vector<glm::quat> targets(3, glm::angleAxis(0.4f, glm::vec3(0, 1, 0)));
  ASSERT_TRUE(UpdateQuatPDs(1.0 / 60.0, pds, targets, &lanes));
  EXPECT_TRUE(lanes.kept(0));
  EXPECT_FALSE(lanes.kept(1));
  EXPECT_FALSE(lanes.kept(2));
  EXPECT_EQ(lanes.Save(), 2u);  // the controllers not kept
  EXPECT_EQ(pds[0].value(), glm::dquat(1, 0, 0, 0));  // stale until committed
  lanes.Commit(pds);
  EXPECT_FALSE(lanes.kept(0));
  EXPECT_NE(pds[0].value(), glm::dquat(1, 0, 0, 0));
}

TEST(QuatPdLaneSet, ADivergingLaneRunsUpdateFromItsKeptState) {
  // A huge velocity makes the float lane's result unusable: Update (double)
  // runs from the state the lane kept, as UpdateQuatPDs alone would.
  PdSettings s;
  ASSERT_TRUE(SettingsFromSettleTime(0.3, 1.0, &s));
  s.maxVelocity = std::numeric_limits<double>::infinity();
  std::vector<QuatPD> pds(2, QuatPD(s)), plain = pds;
  QuatPdLaneSet lanes;
  ASSERT_TRUE(lanes.Allocate(2));
  const std::vector<glm::quat> targets(2, glm::angleAxis(0.4f, glm::vec3(0, 1, 0)));
  ASSERT_TRUE(UpdateQuatPDs(1.0 / 60.0, pds, targets, &lanes));
  ASSERT_TRUE(UpdateQuatPDs(1.0 / 60.0, plain, targets));
  ASSERT_TRUE(lanes.kept(1));
  lanes.Commit(pds);
  for (QuatPD* p : {&pds[1], &plain[1]}) ASSERT_TRUE(p->Reset(p->value(), glm::dvec3(0.0, 3e38, 0.0)));
  for (int frame = 0; frame < 3; ++frame) {
    ASSERT_TRUE(UpdateQuatPDs(1.0 / 60.0, pds, targets, &lanes));
    ASSERT_TRUE(UpdateQuatPDs(1.0 / 60.0, plain, targets));
  }
  lanes.Commit(pds);
  for (std::size_t i = 0; i < 2; ++i) EXPECT_TRUE(SameBits(pds[i], plain[i])) << i;
}

TEST(QuatPdLaneSet, BadInputChangesNothing) {
  std::vector<QuatPD> pds(3);
  QuatPdLaneSet lanes;
  ASSERT_TRUE(lanes.Allocate(3));
  std::vector<glm::quat> targets(3, glm::quat(0.9f, 0.1f, 0.0f, 0.0f));
  ASSERT_TRUE(UpdateQuatPDs(1.0 / 60.0, pds, targets, &lanes));
  const glm::quat before = lanes.valuef(pds, 2);
  QuatPdLaneSet small;
  ASSERT_TRUE(small.Allocate(2));
  Status st = UpdateQuatPDs(1.0 / 60.0, pds, targets, &small);
  EXPECT_STREQ(st.error, "lanes: needs one lane per controller");
  st = UpdateQuatPDs(1.0 / 60.0, pds, targets, nullptr);
  EXPECT_STREQ(st.error, "lanes: needs one lane per controller");
  st = UpdateQuatPDs(-1.0, pds, targets, &lanes);
  EXPECT_STREQ(st.error, "dt: must be a finite number >= 0");
  targets[1] = glm::quat(0, 0, 0, 0);
  st = UpdateQuatPDs(1.0 / 60.0, pds, targets, &lanes);
  EXPECT_STREQ(st.error, "target: quaternion must not be zero");
  for (const glm::quat& bad : {glm::quat(std::nanf(""), 0, 0, 1), glm::quat(1, INFINITY, 0, 0)}) {
    targets[1] = bad;
    st = UpdateQuatPDs(1.0 / 60.0, pds, targets, &lanes);
    EXPECT_STREQ(st.error, "target: must be finite");
  }
  const glm::quat after = lanes.valuef(pds, 2);
  EXPECT_EQ(std::memcmp(&before, &after, sizeof before), 0);
  EXPECT_TRUE(lanes.kept(2));
}
