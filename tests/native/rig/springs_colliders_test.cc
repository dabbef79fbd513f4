// The springs constraint's colliders and degenerate inputs (docs/rig/springs.md):
// no joint ends a frame inside a collider over 10⁵ random frames with lengths
// kept; no NaN for dt in [0, 0.1], a zero-length bone or a collider on the
// joint; bad settings named with nothing changed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "native/springs_test_util.h"

namespace {

using namespace springtest;

float Clamp01(float x) { return std::min(1.0f, std::max(0.0f, x)); }

// 10⁵ random frames (dt in [0, 0.1], the head thrown about): no chain joint
// ends more than 0.1 mm inside a sphere on the head, a capsule on the neck or
// a sphere on the body (hitRadius 1 cm), and every bone keeps its length.
TEST(SpringsColliders, NoJointEndsInsideACollider) {
  const ChainRig c = Head();
  Rig rig = MakeRig(c);
  ConstraintSettings s = Hair();
  s.springs.joint.hitRadius = 0.01f;
  s.springs.joint.gravityPower = 0.5f;
  ikpd::rig::SpringCollider head, neck, body;
  head.joint = 2, head.offset = {0.0f, 0.1f, 0.0f}, head.radius = 0.07f;
  neck.joint = 1, neck.shape = ikpd::rig::SpringColliderShape::kCapsule, neck.offset = {0.0f, -0.15f, -0.02f};
  neck.tail = {0.0f, 0.05f, -0.02f}, neck.radius = 0.05f;
  body.joint = 0, body.offset = {0.0f, 0.3f, -0.16f}, body.radius = 0.08f;
  s.springColliders = {head, neck, body};
  s.legs.push_back(2), s.legs.push_back(0);  // the colliders' joints, after the chain (the neck is the center)
  ASSERT_TRUE(rig.Add(s).ok());
  iktest::Rng rng(45);
  std::vector<LocalTransform> pose = c.rest, out(c.rest.size());
  float deepest = 0.0f, longest = 0.0f;
  for (int k = 0; k < 100000; ++k) {
    if (k % 7 == 0) {  // a new head target now and then, the head jumping to it
      pose[2].rotation = glm::quat(rng.Vec(-1.0f, 1.0f));
      pose[1].rotation = glm::quat(rng.Vec(-0.3f, 0.3f));
      pose[0].translation = glm::vec3(0.0f, 1.0f, 0.0f) + rng.Vec(-0.3f, 0.3f);
    }
    const float dt = k % 13 == 0 ? 0.0f : rng.Uniform(0.0f, 0.1f);
    ASSERT_TRUE(rig.Update(dt, pose, {}, out).ok());
    const std::vector<World> w = Fk(c.parents, out);
    for (const ikpd::rig::SpringCollider& col : s.springColliders) {
      const World& at = w[static_cast<std::size_t>(col.joint)];
      const glm::vec3 a = at.position + at.rotation * col.offset, b = at.position + at.rotation * col.tail;
      ASSERT_GT(glm::length(w[kHairRoot].position - a), col.radius + 0.01f) << "the chain's root starts outside";
      for (int j = kHairRoot + 1; j <= kHairEnd; ++j) {
        const glm::vec3 x = w[static_cast<std::size_t>(j)].position;
        glm::vec3 nearest = a;
        if (col.shape == ikpd::rig::SpringColliderShape::kCapsule) {
          nearest = a + (b - a) * Clamp01(glm::dot(x - a, b - a) / glm::dot(b - a, b - a));
        }
        const float depth = col.radius + 0.01f - glm::length(x - nearest);
        deepest = std::max(deepest, depth);
      }
    }
    for (int j = kHairRoot + 1; j <= kHairEnd; ++j) {
      const float l = glm::length(w[static_cast<std::size_t>(j)].position - w[static_cast<std::size_t>(j - 1)].position);
      ASSERT_TRUE(std::isfinite(l)) << k;
      longest = std::max(longest, std::abs(l - kSegment));
    }
  }
  std::printf("springs: deepest inside a collider %.4f mm, largest length error %.2e m\n", deepest * 1e3f, longest);
  EXPECT_LT(deepest, 1e-4f);
  EXPECT_LT(longest, 2e-6f);
}

// How far x (a tail of radius hit) is on the wrong side of `col` placed at `at`:
// inside a sphere or capsule, behind a plane, outside an inside sphere or capsule.
float Depth(const ikpd::rig::SpringCollider& col, const World& at, const glm::vec3& x, float hit) {
  using Shape = ikpd::rig::SpringColliderShape;
  const glm::vec3 a = at.position + at.rotation * col.offset, b = at.position + at.rotation * col.tail;
  if (col.shape == Shape::kPlane) return hit - glm::dot(x - a, glm::normalize(at.rotation * col.normal));
  glm::vec3 nearest = a;
  if (col.shape == Shape::kCapsule || col.shape == Shape::kInsideCapsule) {
    nearest = a + (b - a) * Clamp01(glm::dot(x - a, b - a) / glm::dot(b - a, b - a));
  }
  const float d = glm::length(x - nearest);
  return col.shape == Shape::kInsideSphere || col.shape == Shape::kInsideCapsule ? d - (col.radius - hit) : col.radius + hit - d;
}

// The plane and the inside shapes (VRMC_springBone_extended_collider), each
// beside the sphere on the head, over 10⁵ random frames as above: no chain
// joint ends more than 0.1 mm on the wrong side, every bone on its length.
TEST(SpringsColliders, NoJointEndsOnTheWrongSideOfAPlaneOrInsideAnInsideShape) {
  using Shape = ikpd::rig::SpringColliderShape;
  const ChainRig c = Head();
  ikpd::rig::SpringCollider head, plane, ball, capsule;
  head.joint = 2, head.offset = {0.0f, 0.1f, 0.0f}, head.radius = 0.07f;
  // Behind the head (the hair hangs back): tails kept at z >= -0.2 in the neck's frame.
  plane.joint = 1, plane.shape = Shape::kPlane, plane.offset = {0.0f, 0.0f, -0.2f}, plane.normal = {0.0f, 0.0f, 3.0f};
  // Round the head's back: the hair kept within 25 cm of a point behind it.
  ball.joint = 2, ball.shape = Shape::kInsideSphere, ball.offset = {0.0f, -0.05f, -0.1f}, ball.radius = 0.25f;
  // Down the neck's back: the hair kept within 22 cm of a slanted segment.
  capsule.joint = 1, capsule.shape = Shape::kInsideCapsule, capsule.offset = {0.0f, 0.1f, 0.0f};
  capsule.tail = {0.0f, -0.3f, -0.1f}, capsule.radius = 0.22f;
  for (const ikpd::rig::SpringCollider& shape : {plane, ball, capsule}) {
    Rig rig = MakeRig(c);
    ConstraintSettings s = Hair();
    s.springs.joint.hitRadius = 0.01f;
    s.springs.joint.gravityPower = 0.5f;
    s.springColliders = {head, shape};
    s.legs.push_back(2);  // the head's (the neck is the center)
    ASSERT_TRUE(rig.Add(s).ok());
    iktest::Rng rng(46);
    std::vector<LocalTransform> pose = c.rest, out(c.rest.size());
    float deepest = -1.0f, longest = 0.0f;
    int touching = 0;  // frames with a tail within 1 mm of the new shape's surface: it does act
    for (int k = 0; k < 100000; ++k) {
      if (k % 7 == 0) {
        pose[2].rotation = glm::quat(rng.Vec(-1.0f, 1.0f));
        pose[1].rotation = glm::quat(rng.Vec(-0.3f, 0.3f));
        pose[0].translation = glm::vec3(0.0f, 1.0f, 0.0f) + rng.Vec(-0.3f, 0.3f);
      }
      const float dt = k % 13 == 0 ? 0.0f : rng.Uniform(0.0f, 0.1f);
      ASSERT_TRUE(rig.Update(dt, pose, {}, out).ok());
      const std::vector<World> w = Fk(c.parents, out);
      ASSERT_LT(Depth(shape, w[static_cast<std::size_t>(shape.joint)], w[kHairRoot].position, 0.01f), -0.01f) << "the root starts free";
      bool touched = false;
      for (int j = kHairRoot + 1; j <= kHairEnd; ++j) {
        const glm::vec3 x = w[static_cast<std::size_t>(j)].position;
        for (const ikpd::rig::SpringCollider& col : s.springColliders) {
          const float depth = Depth(col, w[static_cast<std::size_t>(col.joint)], x, 0.01f);
          deepest = std::max(deepest, depth);
          if (&col == &s.springColliders[1] && depth > -1e-3f) touched = true;
        }
        const float l = glm::length(x - w[static_cast<std::size_t>(j - 1)].position);
        ASSERT_TRUE(std::isfinite(l)) << k;
        longest = std::max(longest, std::abs(l - kSegment));
      }
      touching += touched ? 1 : 0;
    }
    std::printf("springs: shape %d: deepest on the wrong side %.4f mm, largest length error %.2e m, %d frames touching\n",
                static_cast<int>(shape.shape), deepest * 1e3f, longest, touching);
    EXPECT_LT(deepest, 1e-4f) << static_cast<int>(shape.shape);
    EXPECT_LT(longest, 2e-6f);
    EXPECT_GT(touching, 1000) << "the shape must act";
  }
}

// The scripted head (springs_test_util.h) with a plane behind the neck and an
// inside sphere round the head: at 30 and 240 Hz within 1 mm of 60 Hz.
TEST(SpringsColliders, NewShapesMoveTheSameAtEveryFrameRate) {
  using Shape = ikpd::rig::SpringColliderShape;
  ConstraintSettings s = Hair();
  s.springs.joint.gravityPower = 0.3f;
  ikpd::rig::SpringCollider plane, ball, capsule;
  plane.joint = 1, plane.shape = Shape::kPlane, plane.offset = {0.0f, 0.0f, -0.22f}, plane.normal = {0.0f, 0.0f, 1.0f};
  ball.joint = 2, ball.shape = Shape::kInsideSphere, ball.offset = {0.0f, -0.05f, -0.1f}, ball.radius = 0.26f;
  capsule.joint = 1, capsule.shape = Shape::kInsideCapsule, capsule.offset = {0.0f, 0.1f, 0.0f};
  capsule.tail = {0.0f, -0.3f, -0.1f}, capsule.radius = 0.24f;
  s.springColliders = {plane, ball, capsule};
  s.legs.push_back(2);
  const auto at60 = Simulate(s, 60, 4.0, 10);
  for (const int rate : {30, 240}) {
    const auto other = Simulate(s, rate, 4.0, rate / 6);
    ASSERT_EQ(other.size(), at60.size());
    float gap = 0.0f;
    for (std::size_t f = 0; f < at60.size(); ++f) {
      for (int j = kHairRoot; j <= kHairEnd; ++j) gap = std::max(gap, glm::length(other[f][j] - at60[f][j]));
    }
    std::printf("springs: plane and inside shapes, %d Hz against 60 Hz: %.3f mm\n", rate, gap * 1e3f);
    EXPECT_LT(gap, 1e-3f) << rate;
  }
}

// A zero-length bone and a collider on the chain's root: finite poses for any dt in [0, 0.1].
TEST(SpringsColliders, DegenerateChainsStayFinite) {
  ChainRig c = Head();
  c.rest[5].translation = glm::vec3(0.0f);  // joint 5 on joint 4: bone 4 has no length
  Rig rig = MakeRig(c);
  ConstraintSettings s = Hair();
  ikpd::rig::SpringCollider on;
  on.joint = kHairRoot, on.radius = 0.5f;  // swallows the whole chain
  s.springColliders = {on};
  s.springs.tipLength = 0.05f;
  ASSERT_TRUE(rig.Add(s).ok());
  iktest::Rng rng(9);
  std::vector<LocalTransform> out(c.rest.size());
  for (int k = 0; k < 2000; ++k) {
    const std::vector<LocalTransform> pose = RandomPose(rng, c.rest);
    ASSERT_TRUE(rig.Update(rng.Uniform(0.0f, 0.1f), pose, {}, out).ok());
    for (const LocalTransform& t : out) ASSERT_TRUE(std::isfinite(t.rotation.x) && std::isfinite(t.rotation.w));
  }
}

// Each bad setting named after constraints[0]., the rig unchanged.
TEST(SpringsColliders, BadSettingsNamedAndNothingChanged) {
  const ChainRig c = Head();
  Rig rig = MakeRig(c);
  const auto expect = [&](ConstraintSettings s, const char* text) {
    const ikpd::Status st = rig.Add(s);
    ASSERT_FALSE(st.ok()) << text;
    EXPECT_NE(std::strstr(st.error, text), nullptr) << st.error;
    EXPECT_EQ(rig.constraintCount(), 0u);
  };
  ConstraintSettings s = Hair();
  s.springChains = {};
  expect(s, "chains: needs at least one chain");
  s = Hair(), s.legs[2] = 9;
  expect(s, "chains[0][2]");
  s = Hair(), s.springs.joint.dragForce = 1.5f;
  expect(s, "dragForce: must be in [0, 1]");
  s = Hair(), s.springs.joint.stiffness = NAN;
  expect(s, "stiffness");
  s = Hair(), s.springColliders = {ikpd::rig::SpringCollider{}};
  s.springColliders[0].joint = 0;
  expect(s, "colliders[0].joint");
  s = Hair(), s.springColliders = {ikpd::rig::SpringCollider{}};
  s.springColliders[0].joint = 1, s.springColliders[0].shape = ikpd::rig::SpringColliderShape::kPlane;
  s.springColliders[0].normal = glm::vec3(0.0f);
  expect(s, "colliders[0].normal: must be finite and non-zero");
  s.springColliders[0].shape = static_cast<ikpd::rig::SpringColliderShape>(7);
  expect(s, "colliders[0].shape: must be");
  s.springColliders[0].shape = ikpd::rig::SpringColliderShape::kInsideSphere, s.springColliders[0].radius = -1.0f;
  expect(s, "colliders[0].radius: must be");
  s = Hair(), s.springJoints.resize(2);
  expect(s, "jointSettings: needs one entry per chain joint");
  s = Hair(), s.springs.wind = glm::vec3(NAN);
  expect(s, "wind");
}

}  // namespace
