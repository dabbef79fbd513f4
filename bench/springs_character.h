// The spring-bone character of the springs rows (bench/js/springs.js and the
// crowd of bench/js/springs_crowd.js): body 0 → neck 1 → head 2, `chains`
// chains of `bones` bones fanned round the back of the head (the last bone of
// each a tail only), VRM-like joint settings, a sphere collider on the head and,
// with `neckCapsule`, a capsule on the neck; the springs' center is `center`.
#pragma once

#include <cmath>
#include <cstdlib>
#include <vector>

#include "ikpd/rig/rig.h"

namespace bench {

struct SpringsCharacter {
  std::vector<int> parents;
  std::vector<ikpd::rig::LocalTransform> rest;
  ikpd::rig::ConstraintSettings settings;
};

inline SpringsCharacter MakeSpringsCharacter(int chains, int bones, int center, bool neckCapsule) {
  constexpr float kSegment = 0.05f, kPi = 3.14159265f;
  constexpr int kNeck = 1, kHead = 2;
  SpringsCharacter c{{-1, 0, 1}, std::vector<ikpd::rig::LocalTransform>(3),
                     ikpd::rig::DefaultSettings(ikpd::rig::ConstraintKind::kSprings)};
  c.rest[0].translation = {0, 1, 0}, c.rest[1].translation = {0, 0.45f, 0}, c.rest[2].translation = {0, 0.1f, 0};
  ikpd::rig::ConstraintSettings& s = c.settings;
  s.joints = {center};
  for (int k = 0; k < chains; ++k) {
    const float a = kPi * (0.25f + 0.5f * static_cast<float>(k) / static_cast<float>(chains - 1)) + kPi / 2;
    const glm::vec3 out(std::cos(a), 0, std::sin(a));
    const glm::vec3 step = glm::normalize(out * 0.3f + glm::vec3(0, -0.95f, 0)) * kSegment;
    s.springChains.push_back(bones);
    for (int b = 0; b < bones; ++b) {
      s.legs.push_back(static_cast<int>(c.parents.size()));
      c.parents.push_back(b == 0 ? kHead : static_cast<int>(c.parents.size()) - 1);
      ikpd::rig::LocalTransform t;
      t.translation = b == 0 ? glm::vec3(0.1f * out.x, 0.1f, 0.1f * out.z) : step;
      c.rest.push_back(t);
    }
  }
  s.legs.push_back(kHead);  // the colliders' joints after the chains
  if (neckCapsule) s.legs.push_back(kNeck);
  s.springs.joint.stiffness = 1.0f, s.springs.joint.dragForce = 0.4f, s.springs.joint.gravityPower = 0.2f;
  s.springs.joint.hitRadius = 0.01f;
  s.springColliders = {{kHead, ikpd::rig::SpringColliderShape::kSphere, {0, 0.1f, 0}, {0, 0, 0}, 0.09f}};
  if (neckCapsule) s.springColliders.push_back({kNeck, ikpd::rig::SpringColliderShape::kCapsule, {0, -0.05f, 0}, {0, 0.05f, 0}, 0.05f});
  return c;
}

// The character's Rig with its springs constraint (aborts the benchmark if it cannot be built).
inline ikpd::rig::Rig MakeSpringsRig(const SpringsCharacter& c) {
  ikpd::rig::Skeleton skeleton;
  ikpd::rig::Rig rig;
  if (!skeleton.Init(c.parents) || !rig.Init(skeleton, c.rest) || !rig.Add(c.settings)) std::abort();
  return rig;
}

}  // namespace bench
