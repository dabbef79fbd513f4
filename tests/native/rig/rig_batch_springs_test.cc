// RigBatch with springs constraints (docs/rig/rig-batch.md, "Kinds with
// state"): each character keeps its own spring state and moves bit for bit as
// its own Rig with the same inputs, over random chains, colliders, weights,
// enables and dt in [0, 0.1] (0 included), on the whole batch and on disjoint
// ranges (as threads run them); ClearSmoothing per character; the errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "native/rig_batch_test_util.h"

namespace {

using namespace rigbatchtest;
using ikpd::rig::SpringCollider;
using ikpd::rig::SpringColliderShape;
using ikpd::rig::SpringJoint;

// body 0 → neck 1 → head 2, then `chains` chains off the head (2–8 joints,
// random directions and lengths), an aim on the head first (so the hair
// follows a turned head), then springs over the chains, center the neck or
// the root, a sphere on the head and a capsule on the neck (random), random
// per-joint parameters, a virtual tip or not.
Creature SpringCreature(iktest::Rng& rng, int chains, float settleTime) {
  Creature c;
  c.skeleton.parents = {-1, 0, 1};
  c.skeleton.rest = {rigtest::At({0.0f, 1.0f, 0.0f}), rigtest::At({0.0f, 0.45f, 0.0f}), rigtest::At({0.0f, 0.1f, 0.0f})};
  ConstraintSettings s = ikpd::rig::DefaultSettings(ConstraintKind::kSprings);
  if (rng.Uniform(0.0f, 1.0f) < 0.7f) s.joints = {1};
  for (int k = 0; k < chains; ++k) {
    const int n = static_cast<int>(rng.Uniform(2.0f, 8.99f));
    int parent = 2;
    for (int j = 0; j < n; ++j) {
      LocalTransform t = rigtest::At(j == 0 ? rng.Vec(-0.1f, 0.1f) : rng.Direction() * rng.Uniform(0.0f, 0.08f));
      if (rng.Uniform(0.0f, 1.0f) < 0.3f) t.rotation = rng.Rotation();
      c.skeleton.parents.push_back(parent);
      c.skeleton.rest.push_back(t);
      parent = static_cast<int>(c.skeleton.parents.size()) - 1;
      s.legs.push_back(parent);
    }
    s.springChains.push_back(n);
  }
  const bool perJoint = rng.Uniform(0.0f, 1.0f) < 0.5f;
  for (std::size_t k = 0; perJoint && k < s.legs.size(); ++k) {
    SpringJoint p;
    p.stiffness = rng.Uniform(0.0f, 4.0f), p.dragForce = rng.Uniform(0.0f, 1.0f), p.gravityPower = rng.Uniform(0.0f, 2.0f);
    p.gravityDir = rng.Direction(), p.hitRadius = rng.Uniform(0.0f, 0.03f);
    s.springJoints.push_back(p);
  }
  s.springs.tipLength = rng.Uniform(0.0f, 1.0f) < 0.4f ? rng.Uniform(0.01f, 0.1f) : 0.0f;
  s.springs.wind = rng.Uniform(0.0f, 1.0f) < 0.3f ? rng.Vec(-0.5f, 0.5f) : glm::vec3(0.0f);
  if (rng.Uniform(0.0f, 1.0f) < 0.8f) {
    s.legs.push_back(2);  // colliders' joints after the chains
    SpringCollider ball;
    ball.joint = 2, ball.offset = rng.Vec(-0.05f, 0.05f), ball.radius = rng.Uniform(0.02f, 0.12f);
    s.springColliders.push_back(ball);
    if (rng.Uniform(0.0f, 1.0f) < 0.5f) {
      SpringCollider capsule;
      capsule.joint = s.joints.empty() ? 2 : 1, capsule.shape = SpringColliderShape::kCapsule;
      capsule.offset = rng.Vec(-0.05f, 0.05f), capsule.tail = rng.Vec(-0.1f, 0.1f), capsule.radius = rng.Uniform(0.02f, 0.08f);
      s.springColliders.push_back(capsule);
    }
  }
  s.common.weight = rng.Uniform(0.0f, 1.0f) < 0.4f ? 1.0f : rng.Uniform(0.2f, 1.0f);
  s.common.settleTime = settleTime;
  // The aim unsmoothed: the lanes' float PD of a smoothed limb is the Rig's to
  // ~1e-4 rad only (docs/rig/rig-batch.md); the springs' smoothing is the Rig's own.
  const ConstraintSettings aim = rigtest::Settings(ConstraintKind::kAim, {2});
  c.stack = {aim, s};
  return c;
}

// Bit for bit: every output float of every character equals its Rig's.
std::size_t Mismatches(const RigBatch& b, const Mirror& m) {
  std::size_t bad = 0;
  for (std::size_t c = 0; c < b.count(); ++c) {
    for (std::size_t j = 0; j < b.jointCount(); ++j) {
      const glm::quat q = OutputOf(b, j, c), r = m.out[c][j].rotation;
      bad += std::memcmp(&q, &r, sizeof(q)) != 0 ? 1 : 0;
    }
    for (std::size_t i = 0; i < b.constraintCount(); ++i) {
      bad += b.distance(i)[c] != m.rigs[c].results()[i].distance ? 1 : 0;
      bad += b.reached(i)[c] != m.rigs[c].results()[i].reached ? 1 : 0;
    }
  }
  return bad;
}

// A frame's inputs: the previous pose moved a little (the head turned, the body
// carried), now and then a jump; weights changed now and then.
void MoveInputs(iktest::Rng& rng, RigBatch& b, bool jump) {
  const std::size_t n = b.count();
  for (std::size_t c = 0; c < n; ++c) {
    for (std::size_t j = 0; j < 3; ++j) {
      const glm::quat q = ikpd::batch::LoadQuat(b.rotations().data(), j * n + c);
      const glm::quat turn = jump ? rng.Rotation() : glm::normalize(glm::quat(1.0f, rng.Vec(-0.05f, 0.05f)));
      ikpd::batch::StoreQuat(b.rotations().data(), j * n + c, glm::normalize(turn * q));
    }
    const glm::vec3 p = ikpd::batch::LoadVec3(b.rootPositions().data(), c) + rng.Vec(-0.05f, 0.05f) * (jump ? 40.0f : 1.0f);
    ikpd::batch::StoreVec3(b.rootPositions().data(), c, p);
    for (std::size_t i = 0; i < b.constraintCount(); ++i) {
      ikpd::batch::StoreVec3(b.targets(i).data(), c, p + rng.Vec(-2.0f, 2.0f));
      if (jump) b.weights(i)[c] = rng.Uniform(0.0f, 1.0f) < 0.3f ? 1.0f : rng.Uniform(0.0f, 1.0f);
    }
  }
}

float RandomDt(iktest::Rng& rng) {
  const float pick = rng.Uniform(0.0f, 1.0f);
  return pick < 0.1f ? 0.0f : pick < 0.2f ? 0.1f : rng.Uniform(0.0f, 0.1f);
}

// `creatures` × `count` characters × `frames`, dt random (or 1/hz when hz > 0);
// `ranges`: each frame in two disjoint ranges (as two threads).
void ExpectBitForBit(unsigned seed, int creatures, std::size_t count, int frames, float hz, float settleTime, bool ranges) {
  iktest::Rng rng(seed);
  for (int k = 0; k < creatures; ++k) {
    const Creature creature = SpringCreature(rng, 1 + k % 5, settleTime);
    const Rig rig = MakeTemplate(creature);
    RigBatch batch;
    ASSERT_TRUE(batch.Init(rig, count).ok());
    Mirror mirror(rig, count);
    RandomInputs(rng, batch, rig);
    for (int f = 0; f < frames; ++f) {
      MoveInputs(rng, batch, f % 17 == 16);
      if (f == frames / 2) {  // toggled for every character: blends out, then (next run) in
        ConstraintSettings s = mirror.settings[1];
        s.common.enabled = !s.common.enabled;
        ASSERT_TRUE(batch.SetSettings(1, s).ok());
        mirror.SetSettings(1, s);
      }
      const float dt = hz > 0.0f ? (f == 0 ? 0.0f : 1.0f / hz) : RandomDt(rng);
      if (ranges) {
        const std::size_t half = count / 2;
        ASSERT_TRUE(batch.Update(dt, 0, half).ok());
        ASSERT_TRUE(batch.Update(dt, half, count - half).ok());
      } else {
        ASSERT_TRUE(batch.Update(dt).ok());
      }
      mirror.Update(batch, dt);
      ASSERT_EQ(Mismatches(batch, mirror), 0u) << "creature " << k << " frame " << f << " dt " << dt;
    }
  }
}

TEST(RigBatchSprings, BitForBitAsRigRandomDt) { ExpectBitForBit(4501, 6, 37, 60, 0.0f, 0.0f, false); }
TEST(RigBatchSprings, BitForBitAsRigSmoothed) { ExpectBitForBit(4502, 5, 29, 60, 0.0f, 0.2f, false); }
TEST(RigBatchSprings, BitForBitInRanges) { ExpectBitForBit(4503, 4, 41, 40, 0.0f, 0.1f, true); }
TEST(RigBatchSprings, BitForBitAtFrameRates) {
  for (const float hz : {30.0f, 60.0f, 240.0f}) ExpectBitForBit(4504, 3, 19, 90, hz, 0.15f, false);
}

// SetSettings that change the chains (more joints: the scratch grows), the
// parameters or the tip: every character's state reconfigured as its Rig's.
TEST(RigBatchSprings, SetSettingsAsRig) {
  iktest::Rng rng(4507);
  Creature creature = SpringCreature(rng, 2, 0.1f);
  // Two more joints off the head, not in the template's chains: a later setting adds them as a chain.
  creature.skeleton.parents.push_back(2);
  creature.skeleton.rest.push_back(rigtest::At({0.0f, 0.05f, -0.05f}));
  creature.skeleton.parents.push_back(static_cast<int>(creature.skeleton.parents.size()) - 1);
  creature.skeleton.rest.push_back(rigtest::At({0.0f, -0.05f, -0.02f}));
  const int extra = static_cast<int>(creature.skeleton.parents.size()) - 2;
  const Rig rig = MakeTemplate(creature);
  RigBatch batch;
  ASSERT_TRUE(batch.Init(rig, 9).ok());
  Mirror mirror(rig, 9);
  RandomInputs(rng, batch, rig);
  for (int f = 0; f < 45; ++f) {
    MoveInputs(rng, batch, false);
    ConstraintSettings s = mirror.settings[1];
    if (f == 10) s.springs.joint.stiffness = 3.0f, s.springs.tipLength = 0.05f;  // same joints: tails kept
    if (f == 20) {  // a third chain: new joints, the states start again
      std::ptrdiff_t chained = 0;
      for (const int n : s.springChains) chained += n;
      std::vector<int> legs(s.legs.begin(), s.legs.begin() + chained);
      const std::vector<int> colliders(s.legs.begin() + chained, s.legs.end());
      legs.push_back(extra), legs.push_back(extra + 1);
      legs.insert(legs.end(), colliders.begin(), colliders.end());
      s.legs = legs;
      s.springChains.push_back(2);
      if (!s.springJoints.empty()) s.springJoints.resize(s.springJoints.size() + 2);
    }
    if (f == 10 || f == 20) {
      ASSERT_TRUE(batch.SetSettings(1, s).ok()) << f;
      mirror.SetSettings(1, s);
    }
    ASSERT_TRUE(batch.Update(1.0f / 60.0f).ok());
    mirror.Update(batch, 1.0f / 60.0f);
    ASSERT_EQ(Mismatches(batch, mirror), 0u) << "frame " << f;
  }
}

// ClearSmoothing(first, count): those characters start again from their next
// frame's pose, as Rig::ClearSmoothing; the others go on.
TEST(RigBatchSprings, ClearSmoothingPerCharacter) {
  iktest::Rng rng(4505);
  const Creature creature = SpringCreature(rng, 3, 0.1f);
  const Rig rig = MakeTemplate(creature);
  RigBatch batch;
  ASSERT_TRUE(batch.Init(rig, 12).ok());
  Mirror mirror(rig, 12);
  RandomInputs(rng, batch, rig);
  for (int f = 0; f < 40; ++f) {
    MoveInputs(rng, batch, false);
    if (f == 20) {
      ASSERT_TRUE(batch.ClearSmoothing(3, 4).ok());
      for (std::size_t c = 3; c < 7; ++c) mirror.rigs[c].ClearSmoothing();
    }
    ASSERT_TRUE(batch.Update(1.0f / 60.0f).ok());
    mirror.Update(batch, 1.0f / 60.0f);
    ASSERT_EQ(Mismatches(batch, mirror), 0u) << "frame " << f;
  }
  EXPECT_EQ(batch.ClearSmoothing(10, 3).error, std::string("range: [first, first + count) must lie in [0, count())"));
  ASSERT_TRUE(batch.ClearSmoothing().ok());
}

// A springs rig is taken (it was refused); bad input is named and changes nothing.
TEST(RigBatchSprings, ErrorsChangeNothing) {
  iktest::Rng rng(4506);
  const Creature creature = SpringCreature(rng, 2, 0.0f);
  const Rig rig = MakeTemplate(creature);
  RigBatch batch;
  ASSERT_TRUE(batch.Init(rig, 8).ok());
  Mirror mirror(rig, 8);
  RandomInputs(rng, batch, rig);
  for (int f = 0; f < 5; ++f) {
    ASSERT_TRUE(batch.Update(1.0f / 60.0f).ok());
    mirror.Update(batch, 1.0f / 60.0f);
  }
  std::vector<float> before(batch.output().begin(), batch.output().end());
  batch.rotations()[(1 * 8 + 5) * 4 + 3] = NAN;
  EXPECT_EQ(batch.Update(1.0f / 60.0f).error, std::string("characters[5].in[1].rotation: must be finite and non-zero"));
  EXPECT_TRUE(std::equal(before.begin(), before.end(), batch.output().begin()));
  batch.rotations()[(1 * 8 + 5) * 4 + 3] = 1.0f;
  EXPECT_EQ(batch.Update(-1.0f).error, std::string("dt: must be finite and >= 0"));
  ConstraintSettings bad = mirror.settings[1];
  bad.springs.joint.dragForce = 2.0f;
  EXPECT_FALSE(batch.SetSettings(1, bad).ok());
  // Nothing moved: the next frame still equals each Rig's.
  ASSERT_TRUE(batch.Update(1.0f / 60.0f).ok());
  mirror.Update(batch, 1.0f / 60.0f);
  EXPECT_EQ(Mismatches(batch, mirror), 0u);
}

}  // namespace
