// RigBatch: every character gets its own Rig's result (the template copied,
// weight = common.weight × weights(i)[c]), over random creatures, poses,
// roots, targets, poles and weights, at 30, 60 and 240 Hz.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "native/rig_batch_test_util.h"

namespace {

using namespace rigbatchtest;

constexpr float kExact = 1e-5f;     // settleTime 0 (rad)
constexpr float kSmoothed = 1e-4f;  // float lane PD vs the Rig's double PD (rad)

// `creatures` random creatures × `count` characters × `frames` frames at `hz`.
float Equivalence(unsigned seed, int creatures, std::size_t count, int frames, float hz, float settleTime) {
  iktest::Rng rng(seed);
  float worst = 0.0f;
  for (int k = 0; k < creatures; ++k) {
    const Creature creature = RandomCreature(rng, settleTime);
    const Rig rig = MakeTemplate(creature);
    RigBatch batch;
    EXPECT_TRUE(batch.Init(rig, count).ok());
    Mirror mirror(rig, count);
    RandomInputs(rng, batch, rig);
    for (int f = 0; f < frames; ++f) {
      if (f % 4 == 3) RandomInputs(rng, batch, rig);  // jumps: the PDs have work to do
      EXPECT_TRUE(batch.Update(1.0f / hz).ok());
      mirror.Update(batch, 1.0f / hz);
      worst = std::max(worst, mirror.Gap(batch));
      // Results: settleTime 0 as exact as the pose; with smoothing the earlier
      // constraints' float-rounded pose moves an aim's acos by its float step near 0 (~5e-4).
      EXPECT_LT(mirror.ResultGap(batch), settleTime == 0.0f ? 1e-5f : 2e-3f) << "creature " << k << " frame " << f;
    }
  }
  return worst;
}

// Over 1,200+ characters at 30, 60 and 240 Hz, within `tolerance` rad of each character's Rig.
void ExpectEquivalent(unsigned seed, int creatures, std::size_t count, int frames, float settleTime, float tolerance) {
  for (const float hz : {30.0f, 60.0f, 240.0f}) {
    const float gap = Equivalence(seed, creatures, count, frames, hz, settleTime);
    EXPECT_LT(gap, tolerance) << hz << " Hz";
    std::printf("settleTime %g, %g Hz: worst %g rad\n", settleTime, hz, gap);
  }
}

TEST(RigBatch, EqualsRigPerCharacterWithoutSmoothing) { ExpectEquivalent(2901, 4, 300, 3, 0.0f, kExact); }

TEST(RigBatch, EqualsRigPerCharacterWithSmoothing) { ExpectEquivalent(2902, 5, 250, 12, 0.15f, kSmoothed); }

// Disabling every constraint blends each character out with its Rig, to
// exactly the animated pose (output == rotations bit for bit); enabling it
// again blends back in. At 30, 60 and 240 Hz.
TEST(RigBatch, DisableBlendsOutToExactlyTheAnimatedPose) {
  for (const float hz : {30.0f, 60.0f, 240.0f}) {
    iktest::Rng rng(2903);
    const Creature creature = RandomCreature(rng, 0.2f);
    const Rig rig = MakeTemplate(creature);
    RigBatch batch;
    ASSERT_TRUE(batch.Init(rig, 37).ok());
    Mirror mirror(rig, 37);
    RandomInputs(rng, batch, rig);
    float worst = 0.0f;
    const auto frames = [&](float seconds) {
      for (int f = 0; f < static_cast<int>(seconds * hz); ++f) {
        ASSERT_TRUE(batch.Update(1.0f / hz).ok());
        mirror.Update(batch, 1.0f / hz);
        worst = std::max(worst, mirror.Gap(batch));
      }
    };
    const auto enable = [&](bool on) {
      for (std::size_t i = 0; i < rig.constraintCount(); ++i) {
        ConstraintSettings s = batch.rig().settings(i);
        s.common.enabled = on;
        ASSERT_TRUE(batch.SetSettings(i, s).ok());
        mirror.SetSettings(i, s);
      }
    };
    frames(0.5f);
    enable(false);
    frames(0.05f);
    bool moving = false;  // mid blend-out: not yet the animated pose
    for (std::size_t k = 0; k < batch.output().size(); ++k) moving = moving || batch.output()[k] != batch.rotations()[k];
    EXPECT_TRUE(moving) << hz << " Hz";
    frames(3.0f);
    for (std::size_t k = 0; k < batch.output().size(); ++k) {
      ASSERT_EQ(batch.output()[k], batch.rotations()[k]) << hz << " Hz, float " << k;
    }
    enable(true);
    frames(0.5f);
    EXPECT_LT(worst, kSmoothed) << hz << " Hz";
    std::printf("blend-out %g Hz: worst %g rad\n", hz, worst);
  }
}

// The limbs' direct writes (docs/rig/rig-batch.md): a two-bone whose mid is
// not its root's child (a twist joint between them, so the mid's local goes
// through the twist's model rotation), with its end's world rotation kept or
// relative, and a pseudo three-bone on a plain chain: each character's output
// is its Rig's bit for bit, at 30, 60 and 240 Hz (9 characters: a lane group
// and one item).
TEST(RigBatch, LimbWritesEqualTheRigBitForBit) {
  for (const float hz : {30.0f, 60.0f, 240.0f}) {
    iktest::Rng rng(2916);
    for (int k = 0; k < 12; ++k) {
      Creature c;
      auto add = [&](int parent, float length) {
        LocalTransform t;
        t.translation = parent < 0 ? rng.Vec(-1.0f, 1.0f) : rng.Direction() * length;
        t.rotation = rng.Rotation();
        if (rng.Uniform(0.0f, 1.0f) < 0.3f) t.scale = glm::vec3(rng.Uniform(0.7f, 1.4f));
        c.skeleton.parents.push_back(parent);
        c.skeleton.rest.push_back(t);
        return static_cast<int>(c.skeleton.parents.size()) - 1;
      };
      const int pelvis = add(-1, 0.0f), spine = add(pelvis, 0.3f);
      const int upper = add(spine, 0.3f), twist = add(upper, 0.1f), fore = add(twist, 0.2f), hand = add(fore, 0.28f);
      const int hip = add(pelvis, 0.2f), knee = add(hip, 0.45f), ankle = add(knee, 0.42f), toe = add(ankle, 0.12f);
      ConstraintSettings arm = rigtest::Settings(ConstraintKind::kTwoBone, {upper, fore, hand});
      arm.twoBone.settings.endRotation = (k % 2 == 0) ? ikpd::EndRotation::kWorld : ikpd::EndRotation::kRelative;
      arm.common.weight = k % 3 == 0 ? 1.0f : rng.Uniform(0.2f, 1.0f);
      ConstraintSettings leg = rigtest::Settings(ConstraintKind::kPseudoThreeBone, {hip, knee, ankle, toe});
      leg.pseudoThreeBone.frame.blend = rng.Uniform(0.0f, 1.0f);
      c.stack = {arm, leg};
      const Rig rig = MakeTemplate(c);
      RigBatch batch;
      ASSERT_TRUE(batch.Init(rig, 9).ok());
      Mirror mirror(rig, 9);
      for (int f = 0; f < 4; ++f) {
        RandomInputs(rng, batch, rig);
        ASSERT_TRUE(batch.Update(1.0f / hz).ok());
        mirror.Update(batch, 1.0f / hz);
        for (std::size_t ch = 0; ch < batch.count(); ++ch) {
          for (std::size_t j = 0; j < batch.jointCount(); ++j) {
            const glm::quat a = OutputOf(batch, j, ch), b = mirror.out[ch][j].rotation;
            ASSERT_EQ(std::memcmp(&a, &b, sizeof(a)), 0) << hz << " Hz, creature " << k << ", frame " << f << ", character " << ch << ", joint " << j;
          }
        }
      }
    }
  }
}

}  // namespace
