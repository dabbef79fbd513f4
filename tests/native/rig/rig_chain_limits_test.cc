// A chain's local limits (ConstraintSettings::chainLimitsLocal, docs/rig/rig.md,
// "Chain limits"): on joints that share one bone axis the rig gives the chain
// job's result on the joints' own rotations (Euler limits on each local
// rotation, as three.js CCDIKSolver's); on mixed axes cone limits hold on the
// joints' local bone directions and Euler limits are a named error.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "native/rig_test_util.h"

namespace {

using namespace rigtest;
using ikpd::JointLimit;
using ikpd::Transform;
using ikpd::rig::ConstraintKind;
using ikpd::rig::Rig;

// joint 0 a random parent, 1..n its chain, each child `length` along +Y of its parent.
ChainRig SharedAxisChain(iktest::Rng& rng, std::size_t n) {
  ChainRig c;
  for (std::size_t i = 0; i <= n; ++i) {
    c.parents.push_back(static_cast<int>(i) - 1);
    LocalTransform t;
    t.translation = i == 0 ? rng.Vec(-1.0f, 1.0f) : glm::vec3(0.0f, rng.Uniform(0.4f, 1.2f), 0.0f);
    t.rotation = rng.Rotation();
    c.rest.push_back(t);
  }
  return c;
}

JointLimit Euler(const glm::vec3& min, const glm::vec3& max) {
  JointLimit l;
  l.kind = JointLimit::Kind::kEuler, l.min = min, l.max = max;
  return l;
}

TEST(RigChainLimits, LocalLimitsOnASharedAxisEqualTheJobOnTheJointsOwnRotations) {
  iktest::Rng rng(2601);
  float worstLimit = 0.0f;
  for (int i = 0; i < 300; ++i) {
    const ChainRig chain = SharedAxisChain(rng, 5);
    Rig rig = MakeRig(chain);
    ikpd::rig::ConstraintSettings s = Settings(ConstraintKind::kChain, {1, 2, 3, 4, 5});
    s.chain.settings.method = i % 2 ? ikpd::ChainMethod::kCcd : ikpd::ChainMethod::kFabrik;
    s.chain.settings.iterations = 10;
    s.chainLimitsLocal = true;
    for (int k = 0; k < 5; ++k) s.chainLimits.push_back(Euler(glm::vec3(-0.05f, -0.3f, -0.9f), glm::vec3(0.05f, 0.3f, 0.9f)));
    ASSERT_TRUE(rig.Add(s).ok());
    // A pose within the limits (the job clamps what it turns).
    std::vector<LocalTransform> pose = chain.rest;
    for (std::size_t k = 1; k < pose.size(); ++k) pose[k].rotation = Unit(glm::quat(glm::vec3(0.0f, 0.0f, rng.Uniform(-0.5f, 0.5f))));
    pose[0].rotation = rng.Rotation();
    rig.frames()[0].target = rng.Vec(-3.0f, 3.0f);
    std::vector<LocalTransform> out(pose.size());
    ASSERT_TRUE(rig.Update(1.0f / 60.0f, pose, {}, out).ok());
    const auto before = Fk(chain.parents, pose), after = Fk(chain.parents, out);
    std::vector<Transform> joints(5), output(5);
    for (int k = 0; k < 5; ++k) joints[k] = {before[1 + k].position, before[1 + k].rotation};
    ikpd::ChainJob job = s.chain;
    job.settings.limits = s.chainLimits;
    job.settings.forward = glm::vec3(0.0f, 1.0f, 0.0f);
    job.frame.parentRotation = before[0].rotation;
    job.frame.joints = joints, job.output = output, job.frame.target = rig.frames()[0].target;
    ASSERT_TRUE(job.Run().ok());
    for (int k = 0; k < 4; ++k) {
      ASSERT_LT(RotationGap(after[1 + k].rotation, output[k].rotation), 1e-4f) << "case " << i << " joint " << k;
      // The local rotation the rig wrote is within the Euler limits (XYZ, as three.js).
      const glm::quat local = Unit(out[1 + k].rotation);
      const glm::mat3 m = glm::mat3_cast(local);
      const float y = std::asin(std::clamp(m[2][0], -1.0f, 1.0f));
      const float x = std::atan2(-m[2][1], m[2][2]), z = std::atan2(-m[1][0], m[0][0]);
      worstLimit = std::max({worstLimit, std::abs(x) - 0.05f, std::abs(y) - 0.3f, std::abs(z) - 0.9f});
    }
  }
  EXPECT_LT(worstLimit, 1e-3f);
}

TEST(RigChainLimits, LocalConeLimitsOnMixedAxesHoldOnTheJointsBoneDirections) {
  iktest::Rng rng(2602);
  for (int i = 0; i < 300; ++i) {
    const ChainRig chain = RandomChain(rng, 6);
    Rig rig = MakeRig(chain);
    ikpd::rig::ConstraintSettings s = Settings(ConstraintKind::kChain, {1, 2, 3, 4, 5});
    s.chain.settings.method = i % 2 ? ikpd::ChainMethod::kCcd : ikpd::ChainMethod::kFabrik;
    s.chainLimitsLocal = true;
    std::vector<glm::vec3> forward(5);  // each joint's own bone axis at rest
    for (int k = 0; k < 4; ++k) forward[k] = glm::normalize(chain.rest[2 + k].translation);
    for (int k = 0; k < 5; ++k) {
      JointLimit l;
      l.kind = JointLimit::Kind::kCone, l.angle = 0.4f;
      l.axis = k == 0 ? glm::vec3(0.0f) : forward[k - 1];  // the parent's own axis; zero on the root: its own forward
      s.chainLimits.push_back(l);
    }
    ASSERT_TRUE(rig.Add(s).ok());
    const std::vector<LocalTransform> pose = chain.rest;
    rig.frames()[0].target = rng.Vec(-3.0f, 3.0f);
    std::vector<LocalTransform> out(pose.size());
    ASSERT_TRUE(rig.Update(1.0f / 60.0f, pose, {}, out).ok());
    for (int k = 1; k < 4; ++k) {
      // Joint k's bone in its parent joint's frame (parent = the previous joint): within 0.4 rad of the parent's axis.
      const glm::vec3 direction = Unit(out[1 + k].rotation) * forward[k];
      EXPECT_LT(std::acos(std::clamp(glm::dot(direction, forward[k - 1]), -1.0f, 1.0f)), 0.4f + 2e-3f) << "case " << i << " joint " << k;
    }
  }
}

TEST(RigChainLimits, LocalEulerLimitsOnMixedAxesAreANamedError) {
  iktest::Rng rng(2603);
  const ChainRig chain = RandomChain(rng, 6);
  Rig rig = MakeRig(chain);
  ikpd::rig::ConstraintSettings s = Settings(ConstraintKind::kChain, {1, 2, 3, 4, 5});
  s.chainLimits.assign(5, Euler(glm::vec3(-0.1f), glm::vec3(0.1f)));
  ASSERT_TRUE(rig.Add(s).ok());  // on the canonical frames: fine
  s.chainLimitsLocal = true;
  const ikpd::Status status = rig.Add(s);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(std::string(status.error).find("limits: 'euler' limits on local rotations need joints that share one bone axis"), std::string::npos)
      << status.error;
  EXPECT_EQ(rig.constraintCount(), 1u);
  // Given one forward, every joint shares it.
  s.common.forward = glm::vec3(0.0f, 1.0f, 0.0f);
  EXPECT_TRUE(rig.Add(s).ok());
}

}  // namespace
