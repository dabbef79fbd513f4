// Shared helpers for the rig GoogleTests: random skeletons and poses, and a
// forward-kinematics pass written independently of the rig's.
#pragma once

#include <vector>

#include "ikpd/rig/rig.h"
#include "native/ik_test_util.h"

namespace rigtest {

// A local transform at `t`, turned by `r`, unit scale.
inline ikpd::rig::LocalTransform At(glm::vec3 t, glm::quat r = glm::quat(1.0f, 0.0f, 0.0f, 0.0f)) {
  ikpd::rig::LocalTransform l;
  l.translation = t, l.rotation = r;
  return l;
}

// The rig types every rig test names (`using namespace rigtest` brings them).
using ikpd::rig::ConstraintKind;
using ikpd::rig::ConstraintSettings;
using ikpd::rig::LocalTransform;
using ikpd::rig::Rig;
using ikpd::rig::Skeleton;

struct World {
  glm::vec3 position{0.0f};
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 scale{1.0f};
};

// Normalized as the rig normalizes (so a job fed from Fk sees the rig's inputs bit for bit).
inline glm::quat Unit(const glm::quat& q) {
  const float n = glm::dot(q, q);
  if (n > 0.25f && n < 4.0f) return q * (1.0f / std::sqrt(n));
  return ikpd::NormalizeOr(q, ikpd::kIdentityRotation);
}

// World transforms of every joint: root × locals (parents come first).
inline std::vector<World> Fk(const std::vector<int>& parents, const std::vector<LocalTransform>& locals,
                             const LocalTransform& root = {}) {
  std::vector<World> w(parents.size());
  const World top{root.translation, Unit(root.rotation), root.scale};
  for (std::size_t i = 0; i < parents.size(); ++i) {
    const World& p = parents[i] >= 0 ? w[static_cast<std::size_t>(parents[i])] : top;
    const LocalTransform& l = locals[i];
    w[i] = {p.position + p.rotation * (p.scale * l.translation), Unit(p.rotation * Unit(l.rotation)),
            p.scale * l.scale};
  }
  return w;
}

// Largest component difference of two rotations (q and −q are equal).
inline float RotationGap(const glm::quat& a, const glm::quat& b) {
  const glm::quat c = glm::dot(a, b) < 0.0f ? -b : b;
  return std::max(std::max(std::abs(a.x - c.x), std::abs(a.y - c.y)), std::max(std::abs(a.z - c.z), std::abs(a.w - c.w)));
}

// A chain skeleton 0 → 1 → … → n−1 under joint 0 (a "body" root), random rest
// rotations and bone translations of length in [0.5, 1.5].
struct ChainRig {
  std::vector<int> parents;
  std::vector<LocalTransform> rest;
};
inline ChainRig RandomChain(iktest::Rng& rng, std::size_t n) {
  ChainRig c;
  for (std::size_t i = 0; i < n; ++i) {
    c.parents.push_back(static_cast<int>(i) - 1);
    LocalTransform t;
    if (i == 0) {
      t.translation = rng.Vec(-1.0f, 1.0f);
    } else {  // one draw per statement, in GCC's order (iktest::Rng::Rotation)
      const float length = rng.Uniform(0.5f, 1.5f);
      t.translation = rng.Direction() * length;
    }
    t.rotation = rng.Rotation();
    c.rest.push_back(t);
  }
  return c;
}

// The same skeleton animated: the rest translations, random rotations.
inline std::vector<LocalTransform> RandomPose(iktest::Rng& rng, const std::vector<LocalTransform>& rest) {
  std::vector<LocalTransform> pose = rest;
  for (LocalTransform& t : pose) t.rotation = rng.Rotation();
  return pose;
}

inline ikpd::rig::Rig MakeRig(const ChainRig& c) {
  ikpd::rig::Skeleton skeleton;
  EXPECT_TRUE(skeleton.Init(c.parents).ok());
  ikpd::rig::Rig rig;
  EXPECT_TRUE(rig.Init(skeleton, c.rest).ok());
  return rig;
}

inline ikpd::rig::ConstraintSettings Settings(ikpd::rig::ConstraintKind kind, std::vector<int> joints) {
  ikpd::rig::ConstraintSettings s = ikpd::rig::DefaultSettings(kind);
  s.joints = std::move(joints);
  return s;
}

}  // namespace rigtest
