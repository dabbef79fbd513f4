// The springs constraint's degenerate inputs (docs/rig/springs.md): no NaN
// for dt in [0, 0.1], a zero-length bone or a collider on the joint, and bad
// settings named with nothing changed.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "native/springs_test_util.h"

namespace {

using namespace springtest;

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
  s = Hair(), s.springJoints.resize(2);
  expect(s, "jointSettings: needs one entry per chain joint");
  s = Hair(), s.springs.wind = glm::vec3(NAN);
  expect(s, "wind");
}

}  // namespace
