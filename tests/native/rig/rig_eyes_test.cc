// The look-ats' eye joints in the rig (docs/rig/look-at.md, "Eyes"; docs/rig/rig.md):
// the rig with eyes equals the core LookAt / BodyLookAt with eyes, the eye
// limits hold, the eyes lead the head, any eye bone axis works, and bad eye
// joints are named errors that change nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "native/rig_test_util.h"

namespace {

using namespace rigtest;
using ikpd::Transform;
using ikpd::rig::ConstraintKind;
using ikpd::rig::ConstraintSettings;
using ikpd::rig::Rig;

constexpr int kCases = 500;

// A chain 0 → … → 4 (4: the head) and two eyes 5, 6 under the head, every
// rest rotation random (eye bones of any axis, as exporters make them).
ChainRig HeadWithEyes(iktest::Rng& rng) {
  ChainRig c = RandomChain(rng, 5);
  for (float side : {1.0f, -1.0f}) {
    c.parents.push_back(4);
    LocalTransform eye;
    eye.translation = glm::vec3(0.03f * side, 0.06f, 0.08f) + rng.Vec(-0.01f, 0.01f);
    eye.rotation = rng.Rotation();
    c.rest.push_back(eye);
  }
  return c;
}

bool StartsWith(const ikpd::Status& s, const std::string& prefix) {
  return !s.ok() && std::string(s.error).rfind(prefix, 0) == 0;
}

// The gaze of an eye relative to the solved head (yaw toward the head's left,
// pitch up), in the frame the core uses: the head's look axis and the world up
// as the animated head carries it (docs/rig/look-at.md, "Eyes").
glm::vec2 GazeOf(const glm::vec3& eyeDirection, const glm::quat& animatedHead, const glm::quat& solvedHead,
                 const glm::vec3& look) {
  glm::vec3 up = glm::conjugate(animatedHead) * glm::vec3(0.0f, 1.0f, 0.0f);
  up = glm::normalize(up - glm::dot(up, look) * look);
  const glm::vec3 left = glm::cross(up, look);
  const glm::vec3 d = glm::conjugate(solvedHead) * eyeDirection;
  return {std::atan2(glm::dot(d, left), glm::dot(d, look)), std::asin(std::clamp(glm::dot(d, up), -1.0f, 1.0f))};
}

// Joints first … first + count − 1 of a forward-kinematics pose, as the core look-ats take them.
std::vector<Transform> JointsOf(const std::vector<World>& w, int first, int count) {
  std::vector<Transform> out;
  for (int k = first; k < first + count; ++k) out.push_back({w[static_cast<std::size_t>(k)].position, w[static_cast<std::size_t>(k)].rotation});
  return out;
}

// The rig's eye joints 5 and 6 (world rotations of its output) against the core's eyes.
void ExpectSameEyes(const std::vector<World>& after, const std::vector<Transform>& eyes, int i) {
  for (int k = 0; k < 2; ++k) {
    ASSERT_LT(RotationGap(after[static_cast<std::size_t>(5 + k)].rotation, eyes[static_cast<std::size_t>(k)].rotation), 2e-5f)
        << "case " << i << " eye " << k;
  }
}

// One random case: the rig with constraint `s` (its eyes 5 and 6), a random pose and target.
struct EyeCase {
  ChainRig chain;
  Rig rig;
  std::vector<LocalTransform> pose, out;
  std::vector<World> before;
};
EyeCase MakeCase(iktest::Rng& rng, const ConstraintSettings& s) {
  EyeCase c{HeadWithEyes(rng), {}, {}, {}, {}};
  c.rig = MakeRig(c.chain);
  EXPECT_TRUE(c.rig.Add(s).ok());
  c.pose = RandomPose(rng, c.chain.rest);
  c.out.resize(c.pose.size());
  c.rig.frames()[0].target = rng.Vec(-3.0f, 3.0f);
  c.before = Fk(c.chain.parents, c.pose);
  return c;
}

TEST(RigEyes, LookAtWithEyesEqualsTheLookAt) {
  iktest::Rng rng(2604);
  for (int i = 0; i < kCases; ++i) {
    ConstraintSettings s = Settings(ConstraintKind::kLookAt, {1, 2, 3, 4});
    s.eyes = {5, 6};
    s.lookAt.eyeYaw = rng.Uniform(0.1f, 1.5f);
    s.lookAt.eyeSettleTime = rng.Uniform(0.02f, 0.2f);
    EyeCase c = MakeCase(rng, s);
    ikpd::LookAt look;
    const float weights[4] = {0.25f, 1.0f / 3.0f, 0.5f, 1.0f};
    ikpd::LookAtSettings ls = s.lookAt;
    ls.weights = weights;
    ls.forward = c.rig.lookAxis(0);
    ASSERT_TRUE(look.Reset(ls).ok());
    const std::vector<Transform> joints = JointsOf(c.before, 1, 4), eyes = JointsOf(c.before, 5, 2);
    std::vector<Transform> output(4), eyesOut(2);
    for (int frame = 0; frame < 3; ++frame) {
      ASSERT_TRUE(c.rig.Update(1.0f / 60.0f, c.pose, {}, c.out).ok());
      ASSERT_TRUE(look.Update(1.0f / 60.0f, joints, c.rig.frames()[0].target, true, output, eyes, eyesOut).ok());
    }
    const auto after = Fk(c.chain.parents, c.out);
    ExpectSameEyes(after, eyesOut, i);
    for (int k = 0; k < 2; ++k) ASSERT_LT(iktest::Dist(after[5 + k].position, eyesOut[k].position), 1e-4) << "case " << i;
    ASSERT_LT(RotationGap(after[4].rotation, output[3].rotation), 2e-5f) << "case " << i;
  }
}

TEST(RigEyes, BodyLookAtWithEyesEqualsTheBodyLookAt) {
  iktest::Rng rng(2605);
  for (int i = 0; i < kCases; ++i) {
    ConstraintSettings s = Settings(ConstraintKind::kBodyLookAt, {0, 1, 2, 3, 4});
    s.eyes = {5, 6};
    s.bodyLookAt.eyePitchUp = rng.Uniform(0.1f, 1.5f);
    EyeCase c = MakeCase(rng, s);
    ikpd::BodyLookAt body;
    ikpd::BodyLookAtSettings bs = s.bodyLookAt;
    float weights[5];
    ikpd::DefaultBodyLookAtWeights(weights);
    bs.spineJoints = 5;
    bs.spine.weights = weights;
    bs.forward = c.rig.lookAxis(0);
    ASSERT_TRUE(body.Reset(bs).ok());
    const std::vector<Transform> spine = JointsOf(c.before, 0, 5), eyes = JointsOf(c.before, 5, 2);
    std::vector<Transform> spineOut(5), eyesOut(2);
    ikpd::BodyLookAtInput input;
    input.spine = spine, input.eyes = eyes, input.target = c.rig.frames()[0].target;
    const ikpd::BodyLookAtOutput output{spineOut, {}, {}, eyesOut};
    for (int frame = 0; frame < 3; ++frame) {
      ASSERT_TRUE(c.rig.Update(1.0f / 60.0f, c.pose, {}, c.out).ok());
      ASSERT_TRUE(body.Update(1.0f / 60.0f, input, output).ok());
    }
    ExpectSameEyes(Fk(c.chain.parents, c.out), eyesOut, i);
  }
}

// Eyes at rest relative to the head (as animated characters' usually are):
// after every frame the eyes' look axes are within the eye limits of the solved head.
TEST(RigEyes, EyeLimitsHold) {
  iktest::Rng rng(2606);
  for (int i = 0; i < 200; ++i) {
    const ChainRig chain = HeadWithEyes(rng);
    Rig rig = MakeRig(chain);
    ConstraintSettings s = Settings(ConstraintKind::kLookAt, {1, 2, 3, 4});
    s.eyes = {5, 6};
    s.lookAt.eyeYaw = rng.Uniform(0.0f, 1.5f);
    s.lookAt.eyePitchUp = rng.Uniform(0.0f, 1.5f);
    s.lookAt.eyePitchDown = rng.Uniform(0.0f, 1.5f);
    ASSERT_TRUE(rig.Add(s).ok());
    std::vector<LocalTransform> pose = RandomPose(rng, chain.rest);
    pose[5] = chain.rest[5], pose[6] = chain.rest[6];
    std::vector<LocalTransform> out(pose.size());
    const auto before = Fk(chain.parents, pose);
    for (int frame = 0; frame < 40; ++frame) {
      if (frame % 10 == 0) rig.frames()[0].target = rng.Vec(-3.0f, 3.0f);
      ASSERT_TRUE(rig.Update(1.0f / 60.0f, pose, {}, out).ok());
      const auto after = Fk(chain.parents, out);
      for (int k = 0; k < 2; ++k) {
        const glm::vec3 direction = after[5 + k].rotation * rig.eyeAxes(0)[k];
        const glm::vec2 gaze = GazeOf(direction, before[4].rotation, after[4].rotation, rig.lookAxis(0));
        ASSERT_LE(std::abs(gaze.x), s.lookAt.eyeYaw + 1e-4f) << "case " << i << " frame " << frame;
        ASSERT_LE(gaze.y, s.lookAt.eyePitchUp + 1e-4f) << "case " << i << " frame " << frame;
        ASSERT_GE(gaze.y, -s.lookAt.eyePitchDown - 1e-4f) << "case " << i << " frame " << frame;
      }
    }
  }
}

// A target stepping to the side: the eyes get there first (their settle time
// is short), at 30, 60 and 240 Hz; once settled, each eye's detected look axis
// (any bone axis) points at a target within the eye limits.
TEST(RigEyes, EyesLeadTheHeadAndLookAtTheTarget) {
  iktest::Rng rng(2607);
  for (int i = 0; i < 50; ++i) {
    const ChainRig chain = HeadWithEyes(rng);
    for (float hz : {30.0f, 60.0f, 240.0f}) {
      Rig rig = MakeRig(chain);
      ConstraintSettings s = Settings(ConstraintKind::kLookAt, {1, 2, 3, 4});
      s.eyes = {5, 6};
      ASSERT_TRUE(rig.Add(s).ok());
      std::vector<LocalTransform> out(chain.rest.size());
      const auto rest = Fk(chain.parents, chain.rest);
      const glm::vec3 look = glm::normalize(rest[4].rotation * rig.lookAxis(0));
      glm::vec3 side = glm::cross(look, glm::vec3(0.0f, 1.0f, 0.0f));
      if (glm::length(side) < 0.3f) continue;  // a head looking up or down: no clear side
      side = glm::normalize(side);
      const glm::vec3 eyes = 0.5f * (rest[5].position + rest[6].position);
      // 0.4 rad to the side: within eyeYaw 0.6, so the eyes turn fully before the head does.
      rig.frames()[0].target = eyes + 4.0f * (std::cos(0.4f) * look + std::sin(0.4f) * side);
      const glm::vec3 target = rig.frames()[0].target;
      const auto angle = [&](const glm::vec3& from, const glm::vec3& direction) {
        return std::acos(std::clamp(glm::dot(glm::normalize(direction), glm::normalize(target - from)), -1.0f, 1.0f));
      };
      const int frames = static_cast<int>(std::lround(0.1f * hz));
      for (int f = 0; f < frames; ++f) ASSERT_TRUE(rig.Update(1.0f / hz, chain.rest, {}, out).ok());
      auto after = Fk(chain.parents, out);
      const float head = angle(after[4].position, after[4].rotation * rig.lookAxis(0));
      const glm::vec3 mid = 0.5f * (after[5].position + after[6].position);
      for (int k = 0; k < 2; ++k) {
        const float eye = angle(mid, after[5 + k].rotation * rig.eyeAxes(0)[k]);
        EXPECT_LT(eye, 0.5f * head) << "case " << i << " at " << hz << " Hz, eye " << k;
      }
      for (int f = 0; f < static_cast<int>(3.0f * hz); ++f) ASSERT_TRUE(rig.Update(1.0f / hz, chain.rest, {}, out).ok());
      after = Fk(chain.parents, out);
      const glm::vec3 settled = 0.5f * (after[5].position + after[6].position);
      for (int k = 0; k < 2; ++k) {
        EXPECT_LT(angle(settled, after[5 + k].rotation * rig.eyeAxes(0)[k]), 2e-3f) << "case " << i << " at " << hz << " Hz";
      }
    }
  }
}

TEST(RigEyes, EyeAxesAreTheHeadsLookAxisAtRest) {
  iktest::Rng rng(2608);
  for (int i = 0; i < 100; ++i) {
    const ChainRig chain = HeadWithEyes(rng);
    Rig rig = MakeRig(chain);
    ConstraintSettings s = Settings(ConstraintKind::kBodyLookAt, {0, 1, 2, 3, 4});
    s.eyes = {6, 5};
    ASSERT_TRUE(rig.Add(s).ok());
    const auto rest = Fk(chain.parents, chain.rest);
    ASSERT_EQ(rig.eyeAxes(0).size(), 2u);
    for (int k = 0; k < 2; ++k) {
      // Without `forward`: the character's facing (+Z) in the eye's rest frame.
      EXPECT_LT(glm::length(rest[6 - k].rotation * rig.eyeAxes(0)[k] - glm::vec3(0.0f, 0.0f, 1.0f)), 1e-5f);
    }
  }
}

TEST(RigEyes, BadEyesAreNamedAndChangeNothing) {
  iktest::Rng rng(2609);
  ChainRig chain = HeadWithEyes(rng);
  chain.parents.push_back(3);  // joint 7: under the neck, not the head
  chain.rest.push_back(LocalTransform{});
  Rig rig = MakeRig(chain);
  ConstraintSettings s = Settings(ConstraintKind::kLookAt, {1, 2, 3, 4});
  s.eyes = {5, 7};
  EXPECT_TRUE(StartsWith(rig.Add(s), "constraints[0].eyes[1]: must be a descendant of the head joints[3] (joint 4)"));
  s.eyes = {4};
  EXPECT_TRUE(StartsWith(rig.Add(s), "constraints[0].eyes[0]: must be a descendant of the head"));
  s.eyes = {5, 5};
  EXPECT_TRUE(StartsWith(rig.Add(s), "constraints[0].eyes[1]: must differ from eyes[0]"));
  s.eyes = {5, 6, 5};
  EXPECT_TRUE(StartsWith(rig.Add(s), "constraints[0].eyes: needs 0, 1 or 2 joints"));
  s.eyes = {9};
  EXPECT_TRUE(StartsWith(rig.Add(s), "constraints[0].eyes[0]: must be a joint index in [0, 8)"));
  ConstraintSettings limb = Settings(ConstraintKind::kTwoBone, {1, 2, 3});
  limb.eyes = {5};
  EXPECT_TRUE(StartsWith(rig.Add(limb), "constraints[0].eyes: only lookAt and bodyLookAt take eyes"));
  ConstraintSettings body = Settings(ConstraintKind::kBodyLookAt, {0, 1, 2, 3});
  body.arms = {4, 5, 5};  // not a chain: rejected before the eyes
  EXPECT_FALSE(rig.Add(body).ok());
  EXPECT_EQ(rig.constraintCount(), 0u);

  // SetSettings: a bad eye leaves the constraint as it was.
  s.eyes = {5, 6};
  ASSERT_TRUE(rig.Add(s).ok());
  ConstraintSettings bad = s;
  bad.eyes = {7};
  EXPECT_TRUE(StartsWith(rig.SetSettings(0, bad), "constraints[0].eyes[0]: must be a descendant of the head"));
  EXPECT_EQ(rig.settings(0).eyes, (std::vector<int>{5, 6}));
  EXPECT_EQ(rig.eyeAxes(0).size(), 2u);
  bad = s;
  bad.lookAt.eyeYaw = 2.0f;
  EXPECT_FALSE(rig.SetSettings(0, bad).ok());
  EXPECT_EQ(rig.settings(0).lookAt.eyeYaw, s.lookAt.eyeYaw);
}

// Eyes off (an empty list) or removed later: the eye joints keep the animated pose.
TEST(RigEyes, WithoutEyesTheEyeJointsStayAnimated) {
  iktest::Rng rng(2610);
  const ChainRig chain = HeadWithEyes(rng);
  Rig rig = MakeRig(chain);
  ConstraintSettings s = Settings(ConstraintKind::kLookAt, {1, 2, 3, 4});
  ASSERT_TRUE(rig.Add(s).ok());
  rig.frames()[0].target = glm::vec3(1.0f, 2.0f, 3.0f);
  std::vector<LocalTransform> out(chain.rest.size());
  for (int f = 0; f < 10; ++f) ASSERT_TRUE(rig.Update(1.0f / 60.0f, chain.rest, {}, out).ok());
  EXPECT_EQ(out[5].rotation, chain.rest[5].rotation);
  s.eyes = {5, 6};
  ASSERT_TRUE(rig.SetSettings(0, s).ok());
  for (int f = 0; f < 10; ++f) ASSERT_TRUE(rig.Update(1.0f / 60.0f, chain.rest, {}, out).ok());
  EXPECT_NE(out[5].rotation, chain.rest[5].rotation);
  s.eyes = {};
  ASSERT_TRUE(rig.SetSettings(0, s).ok());
  ASSERT_TRUE(rig.Update(1.0f / 60.0f, chain.rest, {}, out).ok());
  EXPECT_EQ(out[5].rotation, chain.rest[5].rotation);
  EXPECT_EQ(out[6].rotation, chain.rest[6].rotation);
}

}  // namespace
