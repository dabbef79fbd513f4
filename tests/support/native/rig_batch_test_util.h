// Shared helpers for the RigBatch tests and fuzz harness: a random creature
// (spine, head, two arms, two legs; random rest rotations and scales, so bone
// axes are whatever the rest pose makes), random per-character inputs, and a
// mirror that runs each character through its own Rig (the template copied).
#pragma once

#include <cmath>
#include <vector>

#include "ikpd/rig/rig_batch.h"
#include "native/rig_test_util.h"

namespace rigbatchtest {

using ikpd::rig::ConstraintKind;
using ikpd::rig::ConstraintSettings;
using ikpd::rig::LocalTransform;
using ikpd::rig::Rig;
using ikpd::rig::RigBatch;

// The angle between two rotations (q and −q are equal), radians.
inline float Angle(const glm::quat& a, const glm::quat& b) {
  const glm::quat d = a * glm::conjugate(b);
  const float v = std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  return 2.0f * std::atan2(v, std::abs(d.w));
}

struct Creature {
  rigtest::ChainRig skeleton;
  std::vector<ConstraintSettings> stack;
};

// pelvis 0; spine 1–3 and head 4; per arm: clavicle, upper, fore, hand, a
// finger (read by nothing); per leg: hip, knee, ankle, toe. The right leg's
// toe is added last (a skeleton that is not depth-first). Some joints scaled
// (uniform or not), every rest rotation random. `zeroBone`: the left forearm
// has length 0. Stack: spine aim, left arm two-bone, left leg pseudo
// three-bone, head aim, right arm two-bone, right leg pseudo three-bone.
inline Creature RandomCreature(iktest::Rng& rng, float settleTime, bool zeroBone = false) {
  Creature c;
  auto add = [&](int parent, float length) {
    LocalTransform t;
    t.translation = parent < 0 ? rng.Vec(-1.0f, 1.0f) : rng.Direction() * length;
    t.rotation = rng.Rotation();
    const float pick = rng.Uniform(0.0f, 1.0f);
    if (pick < 0.2f) t.scale = glm::vec3(rng.Uniform(0.6f, 1.5f));
    else if (pick < 0.3f) t.scale = rng.Vec(0.8f, 1.25f);
    c.skeleton.parents.push_back(parent);
    c.skeleton.rest.push_back(t);
    return static_cast<int>(c.skeleton.parents.size()) - 1;
  };
  const int pelvis = add(-1, 0.0f);
  const int spine = add(pelvis, 0.3f), chest = add(spine, 0.3f), neck = add(chest, 0.25f), head = add(neck, 0.2f);
  (void)head;
  std::vector<int> arms[2], legs[2];
  for (int side = 0; side < 2; ++side) {
    const int clavicle = add(neck, 0.15f), upper = add(clavicle, 0.15f);
    const int fore = add(upper, 0.3f), hand = add(fore, zeroBone && side == 0 ? 0.0f : 0.28f);
    add(hand, 0.08f);
    arms[side] = {upper, fore, hand};
  }
  for (int side = 0; side < 2; ++side) {
    const int hip = add(pelvis, 0.15f), knee = add(hip, 0.45f), ankle = add(knee, 0.42f);
    legs[side] = {hip, knee, ankle};
  }
  legs[0].push_back(add(legs[0][2], 0.12f));
  legs[1].push_back(add(legs[1][2], 0.12f));  // last: not depth-first
  auto settings = [&](ConstraintKind kind, std::vector<int> joints) {
    ConstraintSettings s = rigtest::Settings(kind, std::move(joints));
    s.common.weight = rng.Uniform(0.0f, 1.0f) < 0.3f ? 1.0f : rng.Uniform(0.2f, 1.0f);
    s.common.settleTime = settleTime;
    s.common.damping = rng.Uniform(0.0f, 1.0f) < 0.5f ? 1.0f : rng.Uniform(0.5f, 1.5f);
    if (kind == ConstraintKind::kAim) s.aim.settings.method = static_cast<ikpd::AimMethod>(static_cast<int>(rng.Uniform(0.0f, 2.99f)));
    if (kind == ConstraintKind::kTwoBone && rng.Uniform(0.0f, 1.0f) < 0.3f) s.twoBone.settings.pole = ikpd::TwoBonePole::kDirection, s.twoBone.frame.pole = rng.Direction();
    if (kind == ConstraintKind::kPseudoThreeBone) s.pseudoThreeBone.frame.blend = rng.Uniform(0.0f, 1.0f);
    return s;
  };
  c.stack = {settings(ConstraintKind::kAim, {chest}),
             settings(ConstraintKind::kTwoBone, arms[0]),
             settings(ConstraintKind::kPseudoThreeBone, legs[0]),
             settings(ConstraintKind::kAim, {head}),
             settings(ConstraintKind::kTwoBone, arms[1]),
             settings(ConstraintKind::kPseudoThreeBone, legs[1])};
  return c;
}

inline Rig MakeTemplate(const Creature& c) {
  Rig rig = rigtest::MakeRig(c.skeleton);
  for (const ConstraintSettings& s : c.stack) EXPECT_TRUE(rig.Add(s).ok());
  return rig;
}

inline std::vector<LocalTransform> PoseOf(RigBatch& b, std::size_t c) {
  std::vector<LocalTransform> pose(b.jointCount());
  const std::size_t n = b.count();
  for (std::size_t j = 0; j < pose.size(); ++j) {
    pose[j].translation = ikpd::batch::LoadVec3(b.translations().data(), j * n + c);
    pose[j].rotation = ikpd::batch::LoadQuat(b.rotations().data(), j * n + c);
    pose[j].scale = ikpd::batch::LoadVec3(b.scales().data(), j * n + c);
  }
  return pose;
}
inline LocalTransform RootOf(RigBatch& b, std::size_t c) {
  return {ikpd::batch::LoadVec3(b.rootPositions().data(), c), ikpd::batch::LoadQuat(b.rootRotations().data(), c),
          glm::vec3(b.rootScales()[c])};
}
inline glm::quat OutputOf(const RigBatch& b, std::size_t j, std::size_t c) {
  return ikpd::batch::LoadQuat(b.output().data(), j * b.count() + c);
}

// Random animated locals (rest translations and scales, rotations near or far
// from rest), roots, targets around each root, poles, weights and pole flags.
inline void RandomInputs(iktest::Rng& rng, RigBatch& b, const Rig& rig, bool randomWeights = true) {
  const std::size_t n = b.count();
  for (std::size_t c = 0; c < n; ++c) {
    const bool far = rng.Uniform(0.0f, 1.0f) < 0.3f;
    for (std::size_t j = 0; j < b.jointCount(); ++j) {
      const glm::quat rest = rig.rest()[j].rotation;
      const glm::quat q = far ? rng.Rotation() : glm::normalize(rest * glm::quat(1.0f, rng.Vec(-0.3f, 0.3f)));
      ikpd::batch::StoreQuat(b.rotations().data(), j * n + c, q * rng.Uniform(0.9f, 1.1f));  // not quite unit
    }
    const glm::vec3 root = rng.Vec(-20.0f, 20.0f);
    ikpd::batch::StoreVec3(b.rootPositions().data(), c, root);
    ikpd::batch::StoreQuat(b.rootRotations().data(), c, rng.Rotation());
    b.rootScales()[c] = rng.Uniform(0.0f, 1.0f) < 0.5f ? 1.0f : rng.Uniform(0.5f, 2.0f);
    for (std::size_t i = 0; i < b.constraintCount(); ++i) {
      ikpd::batch::StoreVec3(b.targets(i).data(), c, root + rng.Vec(-2.0f, 2.0f));
      ikpd::batch::StoreVec3(b.poles(i).data(), c, root + rng.Vec(-3.0f, 3.0f));
      if (randomWeights) b.weights(i)[c] = rng.Uniform(0.0f, 1.0f) < 0.3f ? 1.0f : rng.Uniform(0.0f, 1.0f);
    }
  }
  for (std::size_t i = 0; i < b.constraintCount(); ++i) b.poleSet()[i] = rng.Uniform(0.0f, 1.0f) < 0.5f ? 1 : 0;
}

// Every character through its own Rig: the template copied, weight =
// common.weight × weights(i)[c] (SetSettings when it changes: smoothing kept).
struct Mirror {
  std::vector<Rig> rigs;
  std::vector<std::vector<LocalTransform>> out;
  std::vector<std::vector<float>> weights;
  std::vector<ConstraintSettings> settings;  // as given (weight not yet multiplied)

  Mirror(const Rig& rig, std::size_t count)
      : rigs(count, rig), out(count), weights(count, std::vector<float>(rig.constraintCount(), 1.0f)) {
    for (std::size_t i = 0; i < rig.constraintCount(); ++i) settings.push_back(rig.settings(i));
  }

  // Settings of constraint i for all characters (as RigBatch::SetSettings).
  void SetSettings(std::size_t i, const ConstraintSettings& s) {
    settings[i] = s;
    for (std::size_t c = 0; c < rigs.size(); ++c) {
      ConstraintSettings mine = s;
      mine.common.weight = s.common.weight * weights[c][i];
      EXPECT_TRUE(rigs[c].SetSettings(i, mine).ok());
    }
  }

  // One frame for characters [first, first + count) with the batch's inputs.
  void Update(RigBatch& b, float dt, std::size_t first, std::size_t count) {
    for (std::size_t c = first; c < first + count; ++c) {
      Rig& r = rigs[c];
      for (std::size_t i = 0; i < b.constraintCount(); ++i) {
        const float w = b.weights(i)[c];
        if (w != weights[c][i]) {
          ConstraintSettings s = settings[i];
          s.common.weight = s.common.weight * w;
          EXPECT_TRUE(r.SetSettings(i, s).ok());
          weights[c][i] = w;
        }
        ikpd::rig::ConstraintFrame& f = r.frames()[i];
        f.target = ikpd::batch::LoadVec3(b.targets(i).data(), c);
        f.pole = ikpd::batch::LoadVec3(b.poles(i).data(), c);
        f.poleSet = b.poleSet()[i] != 0 ? 1.0f : 0.0f;
      }
      const std::vector<LocalTransform> in = PoseOf(b, c);
      out[c].resize(in.size());
      EXPECT_TRUE(r.Update(dt, in, RootOf(b, c), out[c]).ok());
    }
  }
  void Update(RigBatch& b, float dt) { Update(b, dt, 0, b.count()); }

  // Largest angle between a character's batch output and its Rig's.
  float Gap(const RigBatch& b) const {
    float worst = 0.0f;
    for (std::size_t c = 0; c < rigs.size(); ++c) {
      for (std::size_t j = 0; j < b.jointCount(); ++j) worst = std::max(worst, Angle(OutputOf(b, j, c), out[c][j].rotation));
    }
    return worst;
  }
  // Largest difference of the results (reached exactly, distance relatively).
  float ResultGap(const RigBatch& b) const {
    float worst = 0.0f;
    for (std::size_t c = 0; c < rigs.size(); ++c) {
      for (std::size_t i = 0; i < b.constraintCount(); ++i) {
        const ikpd::rig::ConstraintResult& r = rigs[c].results()[i];
        const float d = std::abs(b.distance(i)[c] - r.distance) / std::max(1.0f, std::abs(r.distance));
        worst = std::max(worst, d);
      }
    }
    return worst;
  }
};

}  // namespace rigbatchtest
