// Limb smoothing under a moving animation (docs/rig/rig.md, "Weight, enabled
// and smoothing"): a procedural body sways, bobs and swings its limbs under
// fixed targets while an aim, a two-bone arm, a chain arm and a pseudo
// three-bone leg reach them, at 30, 60 and 240 Hz. Smoothing blends weight,
// enable and target jumps; a steady target is held as the unsmoothed solve
// holds it, whatever the animation does.
#include <gtest/gtest.h>

#include <cmath>

#include "native/rig_test_util.h"

namespace {

using namespace rigtest;
using ikpd::rig::ConstraintKind;
using ikpd::rig::ConstraintSettings;
using ikpd::rig::Rig;

constexpr float kPi = 3.14159265358979f;

// body 0; right arm 1 (shoulder) → 2 → 3 → 4 (hand); head 5; left arm 6 → 7 → 8 → 9;
// leg 10 → 11 → 12 → 13 (toe).
ChainRig Body() {
  ChainRig c;
  c.parents = {-1, 0, 1, 2, 3, 0, 0, 6, 7, 8, 0, 10, 11, 12};
  c.rest = {At({0.0f, 1.0f, 0.0f}),       At({-0.2f, 0.3f, 0.0f}),  At({-0.05f, 0.0f, 0.0f}), At({0.0f, -0.3f, 0.03f}),
            At({0.0f, -0.28f, 0.0f}),     At({0.0f, 0.5f, 0.0f}),   At({0.25f, 0.3f, 0.0f}),   At({0.0f, -0.25f, 0.02f}),
            At({0.0f, -0.2f, 0.0f}),      At({0.0f, -0.1f, 0.0f}),  At({-0.1f, -0.1f, 0.0f}),  At({0.0f, -0.45f, 0.02f}),
            At({0.0f, -0.45f, -0.02f}),   At({0.0f, -0.05f, 0.12f})};
  return c;
}

const glm::vec3 kX(1.0f, 0.0f, 0.0f), kY(0.0f, 1.0f, 0.0f);

// The animated pose and root at time t: the body sways, bobs and turns, the limbs swing.
std::vector<LocalTransform> Animated(const ChainRig& c, float t, LocalTransform* root) {
  std::vector<LocalTransform> pose = c.rest;
  const float s = std::sin(2.0f * kPi * t), s2 = std::sin(4.0f * kPi * t);
  pose[0].translation.y += 0.03f * s2;
  pose[0].rotation = glm::angleAxis(0.15f * s, kY) * glm::angleAxis(0.08f * s2, kX);
  pose[2].rotation = glm::angleAxis(0.5f * s, kX);
  pose[3].rotation = glm::angleAxis(-0.3f + 0.2f * s, kX);
  pose[5].rotation = glm::angleAxis(0.2f * s2, kY);
  pose[6].rotation = glm::angleAxis(-0.4f * s, kX);
  pose[7].rotation = glm::angleAxis(-0.2f - 0.2f * s, kX);
  pose[10].rotation = glm::angleAxis(0.4f * s, kX);
  pose[11].rotation = glm::angleAxis(0.3f + 0.3f * s, kX);
  *root = LocalTransform{};
  root->translation = glm::vec3(0.0f, 0.0f, 0.04f * std::sin(kPi * t));
  return pose;
}

const glm::vec3 kHandTarget(-0.35f, 1.0f, 0.25f), kHeadTarget(0.5f, 1.6f, 2.0f), kLeftTarget(0.4f, 1.0f, 0.2f),
    kFootTarget(-0.1f, 0.25f, 0.25f);

Rig Reaching(const ChainRig& body, float settleTime) {
  Rig rig = MakeRig(body);
  const std::pair<ConstraintKind, std::vector<int>> kinds[] = {{ConstraintKind::kTwoBone, {2, 3, 4}},
                                                               {ConstraintKind::kAim, {5}},
                                                               {ConstraintKind::kChain, {6, 7, 8, 9}},
                                                               {ConstraintKind::kPseudoThreeBone, {10, 11, 12, 13}}};
  for (const auto& [kind, joints] : kinds) {
    ConstraintSettings s = Settings(kind, joints);
    s.common.settleTime = settleTime;
    EXPECT_TRUE(rig.Add(s).ok());
  }
  rig.frames()[0].target = kHandTarget, rig.frames()[1].target = kHeadTarget;
  rig.frames()[2].target = kLeftTarget, rig.frames()[3].target = kFootTarget;
  return rig;
}

// Once blended in (1 s at settleTime 0.2), the smoothed rig writes what the
// unsmoothed one writes every frame: nothing trails the animation, and the
// two-bone hand sits on its target.
TEST(RigReach, SteadyTargetsAreHeldExactlyUnderAMovingAnimation) {
  const ChainRig body = Body();
  for (int hz : {30, 60, 240}) {
    Rig smoothed = Reaching(body, 0.2f), raw = Reaching(body, 0.0f);
    std::vector<LocalTransform> a(body.parents.size()), b(body.parents.size());
    float gap = 0.0f, hand = 0.0f;
    const float dt = 1.0f / static_cast<float>(hz);
    for (int f = 0; f < 3 * hz; ++f) {
      const float t = static_cast<float>(f + 1) * dt;
      LocalTransform root;
      const std::vector<LocalTransform> pose = Animated(body, t, &root);
      ASSERT_TRUE(smoothed.Update(dt, pose, root, a).ok());
      ASSERT_TRUE(raw.Update(dt, pose, root, b).ok());
      if (t < 1.0f) continue;
      for (std::size_t j = 0; j < a.size(); ++j) gap = std::max(gap, RotationGap(a[j].rotation, b[j].rotation));
      ASSERT_EQ(raw.results()[0].reached, 1.0f) << "the test's target must stay in reach";
      hand = std::max(hand, glm::length(Fk(body.parents, a, root)[4].position - kHandTarget));
    }
    EXPECT_LT(gap, 1e-6f) << hz << " Hz: the smoothed rig trails the unsmoothed solve";
    EXPECT_LT(hand, 1e-4f) << hz << " Hz: the hand is off its steady target";
  }
}

struct ToggleRun {
  std::vector<glm::vec3> hands;  // every 1/30 s
  float offsetSpeed = 0.0f;      // largest per-frame change of hand − animated hand, over dt
  float largestOffset = 0.0f;    // largest |hand − animated hand|
  float animatedSpeed = 0.0f;    // largest speed of the animated hand
  float settledError = 0.0f;     // the hand's distance to the jumped target, from 4.5 s on
};

// Disable at 1.5 s, enable at 2.2 s, the hand's target jumps 9 cm at 3 s.
ToggleRun Toggle(int hz) {
  const ChainRig body = Body();
  Rig rig = Reaching(body, 0.2f);
  ConstraintSettings arm = rig.settings(0);
  std::vector<LocalTransform> out(body.parents.size());
  ToggleRun run;
  glm::vec3 lastOffset(0.0f), lastAnimated(0.0f);
  const float dt = 1.0f / static_cast<float>(hz);
  const glm::vec3 jumped = kHandTarget + glm::vec3(0.05f, 0.05f, -0.05f);
  for (int f = 0; f < 5 * hz; ++f) {
    const int tick = f * 30 / hz;
    if (f * 30 % hz == 0) {
      if (tick == 45) arm.common.enabled = false;
      if (tick == 66) arm.common.enabled = true;
      if (tick == 90) rig.frames()[0].target = jumped;
      EXPECT_TRUE(rig.SetSettings(0, arm).ok());
    }
    const float t = static_cast<float>(f + 1) * dt;
    LocalTransform root;
    const std::vector<LocalTransform> pose = Animated(body, t, &root);
    EXPECT_TRUE(rig.Update(dt, pose, root, out).ok());
    const glm::vec3 hand = Fk(body.parents, out, root)[4].position, animated = Fk(body.parents, pose, root)[4].position;
    const glm::vec3 offset = hand - animated;
    if (f > 0) {
      run.offsetSpeed = std::max(run.offsetSpeed, glm::length(offset - lastOffset) / dt);
      run.animatedSpeed = std::max(run.animatedSpeed, glm::length(animated - lastAnimated) / dt);
    }
    run.largestOffset = std::max(run.largestOffset, glm::length(offset));
    lastOffset = offset, lastAnimated = animated;
    if ((f + 1) * 30 % hz == 0) run.hands.push_back(hand);
    if (t >= 4.5f) run.settledError = std::max(run.settledError, glm::length(hand - jumped));
  }
  return run;
}

// Toggling enabled and jumping the target glide at the PD's speed at every
// rate (a pop would move the hand by the whole offset in one frame), the same
// at 30, 60 and 240 Hz, and the hand then holds the new target exactly.
TEST(RigReach, ToggleAndTargetJumpGlideFrameRateIndependently) {
  const ToggleRun at30 = Toggle(30), at60 = Toggle(60), at240 = Toggle(240);
  ASSERT_EQ(at30.hands.size(), 150u);
  ASSERT_EQ(at60.hands.size(), at30.hands.size());
  ASSERT_EQ(at240.hands.size(), at30.hands.size());
  float gap = 0.0f;
  for (std::size_t s = 0; s < at30.hands.size(); ++s) {
    gap = std::max(gap, glm::length(at30.hands[s] - at60.hands[s]));
    gap = std::max(gap, glm::length(at30.hands[s] - at240.hands[s]));
  }
  EXPECT_LT(gap, 1e-4f) << "hand positions at common times differ between rates";
  // The weight's PD (kp = (2π/0.2)², critical) moves at most ω/e per second;
  // the hand's offset from the animation then changes at most that times the
  // offset (with the arc of each turned joint, < 2×), plus the animation's own
  // hand speed while the hand is held.
  const float peak = 2.0f * kPi / 0.2f / std::exp(1.0f);
  for (const ToggleRun* r : {&at30, &at60, &at240}) {
    EXPECT_LT(r->offsetSpeed, 2.0f * peak * r->largestOffset + r->animatedSpeed);
    EXPECT_LT(r->settledError, 1e-4f);
  }
  EXPECT_LT(at240.offsetSpeed, 1.25f * at30.offsetSpeed) << "the per-frame step does not shrink with dt (a pop)";
}

}  // namespace
