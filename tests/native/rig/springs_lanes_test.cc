// The springs kind's SIMD lanes (docs/rig/springs.md, "Measured"): chains of
// different lengths side by side, with and without virtual tails, pressed into
// every collider shape at 30, 60, 144 Hz and random frame times, give the same
// bits as the one-bone-at-a-time step they replaced. The fingerprints below are
// that step's (computed before the lanes existed), and the same in the
// builds without lanes and for x86-64-v3 (ikpd_tests_nosimd, ikpd_tests_v3).
// Case 5's since the crevice-of-three search (docs/rig/springs.md, "The
// model"): one tick's tail 2.1 mm inside a crevice now goes to a free point.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "native/ik_test_util.h"
#include "native/rig_test_util.h"

namespace {

using ikpd::rig::ConstraintKind;
using ikpd::rig::ConstraintSettings;
using ikpd::rig::LocalTransform;
using ikpd::rig::SpringColliderShape;
using rigtest::At;

// body 0 → neck 1 → head 2 → chains of `lengths` bones fanned round the head.
struct Character {
  std::vector<int> parents{-1, 0, 1};
  std::vector<LocalTransform> rest{At({0.0f, 1.0f, 0.0f}), At({0.0f, 0.45f, 0.0f}), At({0.0f, 0.1f, 0.0f})};
  ConstraintSettings settings = ikpd::rig::DefaultSettings(ConstraintKind::kSprings);
};

Character Build(const std::vector<int>& lengths, float tipLength) {
  Character c;
  ConstraintSettings& s = c.settings;
  s.joints = {0};
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const float a = 3.14159265f * (0.25f + 1.5f * static_cast<float>(i) / static_cast<float>(lengths.size()));
    const glm::vec3 out(std::cos(a), 0.0f, std::sin(a));
    const glm::vec3 step = glm::normalize(out * 0.3f + glm::vec3(0.0f, -0.95f, 0.0f)) * 0.05f;
    s.springChains.push_back(lengths[i]);
    for (int k = 0; k < lengths[i]; ++k) {
      s.legs.push_back(static_cast<int>(c.parents.size()));
      c.parents.push_back(k == 0 ? 2 : static_cast<int>(c.parents.size()) - 1);
      c.rest.push_back(At(k == 0 ? glm::vec3(0.1f * out.x, 0.1f, 0.1f * out.z) : step));
    }
  }
  s.legs.push_back(2), s.legs.push_back(1);  // the colliders' joints
  s.springs.tipLength = tipLength;
  s.springs.joint.stiffness = 0.8f, s.springs.joint.dragForce = 0.3f, s.springs.joint.gravityPower = 0.6f;
  s.springs.joint.hitRadius = 0.01f;
  s.springs.wind = {0.1f, 0.0f, 0.05f};
  ikpd::rig::SpringCollider head, neck, plane, inside;
  head.joint = 2, head.offset = {0.0f, 0.1f, 0.0f}, head.radius = 0.09f;
  neck.joint = 1, neck.shape = SpringColliderShape::kCapsule, neck.offset = {0.0f, -0.1f, 0.0f}, neck.tail = {0.0f, 0.08f, 0.0f};
  neck.radius = 0.06f;
  plane.joint = 1, plane.shape = SpringColliderShape::kPlane, plane.offset = {0.0f, -0.12f, 0.0f}, plane.normal = {0.0f, 1.0f, 0.2f};
  inside.joint = 2, inside.shape = SpringColliderShape::kInsideSphere, inside.offset = {0.0f, 0.0f, 0.0f}, inside.radius = 0.36f;
  s.springColliders = {head, neck, plane, inside};
  return c;
}

// FNV-1a over the bits of every output rotation of `frames` frames of a head
// thrown about (a new pose every 9 frames), dt from `dt` (< 0: random in [0, 0.1]).
std::uint64_t Fingerprint(const Character& c, float dt, int frames) {
  ikpd::rig::Skeleton skeleton;
  ikpd::rig::Rig rig;
  EXPECT_TRUE(skeleton.Init(c.parents));
  EXPECT_TRUE(rig.Init(skeleton, c.rest));
  EXPECT_TRUE(rig.Add(c.settings));
  iktest::Rng rng(45);
  std::vector<LocalTransform> pose = c.rest, out = c.rest;
  std::uint64_t h = 1469598103934665603ull;
  for (int f = 0; f < frames; ++f) {
    if (f % 9 == 0) {
      pose[2].rotation = glm::quat(rng.Vec(-1.2f, 1.2f));
      pose[1].rotation = glm::quat(rng.Vec(-0.4f, 0.4f));
      pose[0].translation = glm::vec3(0.0f, 1.0f, 0.0f) + rng.Vec(-0.2f, 0.2f);
    }
    const float step = dt >= 0.0f ? dt : (f % 11 == 0 ? 0.0f : rng.Uniform(0.0f, 0.1f));
    EXPECT_TRUE(rig.Update(step, pose, {}, out));
    for (const LocalTransform& t : out) {
      const float v[4] = {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
      for (const float x : v) {
        std::uint32_t bits;
        std::memcpy(&bits, &x, sizeof bits);
        h = (h ^ bits) * 1099511628211ull;
      }
    }
  }
  return h;
}

const std::vector<int> kLengths = {7, 7, 3, 7, 5, 7, 7, 4, 7, 6, 2};

TEST(SpringsLanes, SameBitsAsTheScalarStep) {
  const Character tails = Build(kLengths, 0.0f), tips = Build(kLengths, 0.05f);
  const std::uint64_t got[] = {
      Fingerprint(tails, 1.0f / 60.0f, 600), Fingerprint(tails, 1.0f / 30.0f, 300), Fingerprint(tails, 1.0f / 144.0f, 900),
      Fingerprint(tails, -1.0f, 600),        Fingerprint(tips, 1.0f / 60.0f, 600),  Fingerprint(tips, -1.0f, 600),
  };
  const std::uint64_t want[] = {0xeecafb3a94ddfd2full, 0x852633d8b53325caull, 0x8edabc11707e234aull,
                                 0x1cc40aed9fa15f78ull, 0xade5eb3e2bbe24deull, 0x3697dddc433b9a56ull};
  for (std::size_t k = 0; k < std::size(got); ++k) EXPECT_EQ(got[k], want[k]) << "case " << k << ": 0x" << std::hex << got[k];
}

}  // namespace
