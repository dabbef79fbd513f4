// RigBatch: every character gets its own Rig's result (the template copied,
// weight = common.weight × weights(i)[c]), over random creatures, poses,
// roots, targets, poles and weights, at 30, 60 and 240 Hz.
#include <gtest/gtest.h>

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
      mirror.Update(batch, rig, 1.0f / hz);
      worst = std::max(worst, mirror.Gap(batch));
      EXPECT_LT(mirror.ResultGap(batch), 1e-4f) << "creature " << k << " frame " << f;
    }
  }
  return worst;
}

TEST(RigBatch, EqualsRigPerCharacterWithoutSmoothing) {
  for (const float hz : {30.0f, 60.0f, 240.0f}) {
    const float gap = Equivalence(2901, 4, 300, 3, hz, 0.0f);
    EXPECT_LT(gap, kExact) << hz << " Hz";
    RecordProperty("worstGap" + std::to_string(static_cast<int>(hz)), std::to_string(gap));
  }
}

}  // namespace
