// The springs constraint (docs/rig/springs.md): a 30 cm six-bone hair chain
// under a scripted head (turns, nods, a jump, a 2 m teleport of the body,
// center the neck): the same motion at 30, 90, 144 and 240 Hz as at 60 Hz,
// the motion of VRM's per-frame Verlet step at 60 Hz, rest lengths kept,
// the teleport not felt, the weight and Clear.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "native/springs_test_util.h"

namespace {

using namespace springtest;

float Largest(const std::vector<std::vector<glm::vec3>>& a, const std::vector<std::vector<glm::vec3>>& b) {
  float worst = 0.0f;
  for (std::size_t f = 0; f < a.size(); ++f) {
    for (int j = kHairRoot + 1; j <= kHairEnd; ++j) worst = std::max(worst, glm::length(a[f][j] - b[f][j]));
  }
  return worst;
}

// Within 1 mm of the 60 Hz motion at every rate, compared every 1/6 s (a time every rate has).
TEST(Springs, SameMotionAtEveryFrameRate) {
  const ConstraintSettings s = Hair();
  const auto at60 = Simulate(s, 60, 4.0, 10);  // every 1/6 s; 50, 75 and 165 Hz: every 1/5, 1/5 and 1/3 s below
  ASSERT_EQ(at60.size(), 24u);
  for (const int rate : {30, 90, 144, 240}) {
    const auto other = Simulate(s, rate, 4.0, rate / 6);
    ASSERT_EQ(other.size(), at60.size());
    const float gap = Largest(at60, other);
    std::printf("springs: %d Hz against 60 Hz: %.3f mm\n", rate, gap * 1e3f);
    EXPECT_LT(gap, 1e-3f) << rate << " Hz";
  }
}

// Centered on the head itself, which turns 0.7 rad and nods 0.3 rad, with
// gravity and a side wind: the center turns within each frame, and gravity
// and wind in its space turn with it at each tick's own time, so every rate
// still sees the same motion (taken at the frame's end: 3.3 mm off at 30 Hz,
// 1.1 mm at 90 and 144 Hz).
TEST(Springs, SameMotionAtEveryFrameRateCenteredOnATurningHead) {
  ConstraintSettings s = Hair(true, 2);
  s.springs.joint.gravityPower = 0.4f;
  s.springs.wind = glm::vec3(0.2f, 0.0f, 0.0f);
  const auto at60 = Simulate(s, 60, 4.0, 10);
  for (const int rate : {30, 90, 144, 240}) {
    const float gap = Largest(at60, Simulate(s, rate, 4.0, rate / 6));
    std::printf("springs: centered on the head, %d Hz against 60 Hz: %.3f mm\n", rate, gap * 1e3f);
    EXPECT_LT(gap, 1e-3f) << rate << " Hz";
  }
}

// Rates that share no sub-step with 60 Hz (1/720 s steps): within 1 mm at whole seconds.
TEST(Springs, SameMotionAtOtherFrameRates) {
  const ConstraintSettings s = Hair();
  const auto at60 = Simulate(s, 60, 4.0, 60);
  for (const int rate : {50, 75, 165}) {
    const float gap = Largest(at60, Simulate(s, rate, 4.0, rate));
    std::printf("springs: %d Hz against 60 Hz: %.3f mm\n", rate, gap * 1e3f);
    EXPECT_LT(gap, 1e-3f) << rate << " Hz";
  }
}

// Between the clock's ticks the shown tails move on smoothly: at 240 Hz no
// frame moves a joint (relative to the head) more than 0.4 of the most a 60 Hz frame does.
TEST(Springs, SmoothBetweenTicks) {
  const auto steps = [](const std::vector<std::vector<glm::vec3>>& run) {
    float most = 0.0f;
    for (std::size_t f = 1; f < run.size(); ++f) {
      for (int j = kHairRoot + 1; j <= kHairEnd; ++j) {
        most = std::max(most, glm::length((run[f][j] - run[f][2]) - (run[f - 1][j] - run[f - 1][2])));
      }
    }
    return most;
  };
  const float at60 = steps(Simulate(Hair(), 60, 4.0, 1)), at240 = steps(Simulate(Hair(), 240, 4.0, 1));
  std::printf("springs: most a frame moves a joint: %.2f mm at 60 Hz, %.2f mm at 240 Hz\n", at60 * 1e3f, at240 * 1e3f);
  EXPECT_LT(at240, 0.4f * at60);
}

// VRM's per-frame step (as VRM runtimes and three-vrm step a joint): Verlet
// with (1 − dragForce) per frame, stiffness·dt along the rest direction,
// gravityPower·dt along gravityDir, the tail put back on the bone's length; in
// the neck's space.
struct Verlet {
  std::vector<glm::vec3> current, previous;  // per bone: its tail, center space
};

std::vector<std::vector<glm::vec3>> RunVerlet(const ConstraintSettings& s, int rate, double seconds, int every) {
  const ChainRig c = Head();
  const ikpd::rig::SpringJoint& p = s.springs.joint;
  Verlet v;
  std::vector<std::vector<glm::vec3>> kept;
  const float dt = 1.0f / static_cast<float>(rate);
  const int frames = static_cast<int>(std::lround(seconds * rate));
  for (int k = 0; k <= frames; ++k) {
    std::vector<LocalTransform> pose = HeadPose(c, static_cast<double>(k) / rate);
    std::vector<World> w = Fk(c.parents, pose);
    const World center = w[1];
    const auto toCenter = [&](glm::vec3 x) { return glm::conjugate(center.rotation) * (x - center.position); };
    const auto toWorld = [&](glm::vec3 x) { return center.position + center.rotation * x; };
    if (k == 0) {  // the initial state: every tail where the pose puts it
      for (int j = kHairRoot; j < kHairEnd; ++j) v.current.push_back(toCenter(w[static_cast<std::size_t>(j + 1)].position));
      v.previous = v.current;
      continue;
    }
    for (int j = kHairRoot; j < kHairEnd; ++j) {
      const std::size_t b = static_cast<std::size_t>(j - kHairRoot), J = static_cast<std::size_t>(j);
      w = Fk(c.parents, pose);
      const glm::vec3 boneAxis = glm::normalize(c.rest[J + 1].translation);
      const glm::quat before = w[J - 1].rotation * c.rest[J].rotation;  // the parent's solved rotation · the initial local
      const glm::vec3 axis = before * boneAxis;
      glm::vec3 next = toWorld(v.current[b] + (v.current[b] - v.previous[b]) * (1.0f - p.dragForce));
      next += axis * (p.stiffness * dt) + p.gravityDir * (p.gravityPower * dt);
      const glm::vec3 head = w[J].position;
      const float length = glm::length(w[J + 1].position - head);
      next = head + glm::normalize(next - head) * length;
      v.previous[b] = v.current[b];
      v.current[b] = toCenter(next);
      const glm::vec3 to = glm::normalize(glm::conjugate(before) * (next - head));
      pose[J].rotation = c.rest[J].rotation * glm::quat(boneAxis, to);
    }
    if (k % every != 0) continue;
    std::vector<glm::vec3> positions;
    for (const World& x : Fk(c.parents, pose)) positions.push_back(x.position);
    kept.push_back(positions);
  }
  return kept;
}

// At 60 Hz against VRM's per-frame step (each joint, every frame): within the 2 mm RMS of issue #45.
TEST(Springs, MovesLikeVrmAtSixtyHertz) {
  for (const float drag : {0.4f, 0.1f, 0.8f}) {
    ConstraintSettings s = Hair();
    s.springs.joint.dragForce = drag;
    const auto ours = Simulate(s, 60, 4.0, 1), vrm = RunVerlet(s, 60, 4.0, 1);
    ASSERT_EQ(ours.size(), vrm.size());
    double sum = 0.0;
    std::size_t count = 0;
    for (std::size_t f = 0; f < ours.size(); ++f) {
      for (int j = kHairRoot + 1; j <= kHairEnd; ++j, ++count) sum += glm::dot(ours[f][j] - vrm[f][j], ours[f][j] - vrm[f][j]);
    }
    const double rms = std::sqrt(sum / static_cast<double>(count));
    // How far VRM's own step moves between rates (for the record: it is not frame-rate independent).
    const auto vrm30 = RunVerlet(s, 30, 4.0, 5), vrm240 = RunVerlet(s, 240, 4.0, 40), vrm60 = RunVerlet(s, 60, 4.0, 10);
    std::printf("springs: dragForce %.1f: 60 Hz RMS against VRM's step %.3f mm; VRM's step 30 vs 240 Hz %.1f mm, 60 vs 240 Hz %.1f mm\n",
                drag, rms * 1e3, Largest(vrm30, vrm240) * 1e3f, Largest(vrm60, vrm240) * 1e3f);
    EXPECT_LT(rms, 2e-3) << "dragForce " << drag;
  }
}

// Every bone keeps its length (float rounding), and the 2 m teleport of the
// body with the neck as center moves nothing relative to the head.
TEST(Springs, KeepsLengthsAndIgnoresTheTeleport) {
  const auto run = Simulate(Hair(), 60, 4.0, 1);
  for (const auto& p : run) {
    for (int j = kHairRoot + 1; j <= kHairEnd; ++j) EXPECT_NEAR(glm::length(p[j] - p[j - 1]), kSegment, 2e-6f);
  }
  // Frames 149 and 150 (t = 2.483, 2.5): the teleport between them; the tip's
  // offset from the head changes no more than over the frames around it.
  const auto offset = [&](int f) { return run[static_cast<std::size_t>(f)][kHairEnd] - run[static_cast<std::size_t>(f)][2]; };
  const float across = glm::length(offset(149) - offset(148)), jump = glm::length(offset(150) - offset(149));
  EXPECT_LT(jump, 2.0f * across + 1e-3f);
}

// Disabled (blended out) or weight 0: exactly the animated pose; Clear starts again from the pose.
TEST(Springs, DisabledGivesTheAnimatedPoseAndClearRestarts) {
  const ChainRig c = Head();
  Rig rig = MakeRig(c);
  ConstraintSettings s = Hair();
  ASSERT_TRUE(rig.Add(s).ok());
  std::vector<LocalTransform> out(c.rest.size());
  for (int k = 1; k <= 30; ++k) ASSERT_TRUE(rig.Update(1.0f / 60.0f, HeadPose(c, k / 60.0), {}, out).ok());
  EXPECT_GT(RotationGap(out[kHairRoot].rotation, c.rest[kHairRoot].rotation), 1e-3f);  // it swings
  s.common.enabled = false;
  ASSERT_TRUE(rig.SetSettings(0, s).ok());
  for (int k = 31; k <= 90; ++k) ASSERT_TRUE(rig.Update(1.0f / 60.0f, HeadPose(c, k / 60.0), {}, out).ok());
  const std::vector<LocalTransform> in = HeadPose(c, 91 / 60.0);
  ASSERT_TRUE(rig.Update(1.0f / 60.0f, in, {}, out).ok());
  for (std::size_t j = 0; j < in.size(); ++j) EXPECT_EQ(out[j].rotation, in[j].rotation) << j;
  // Clear: the next frame with dt 0 is the animated pose (the tails start where it puts them).
  s.common.enabled = true;
  ASSERT_TRUE(rig.SetSettings(0, s).ok());
  rig.ClearSmoothing();
  ASSERT_TRUE(rig.Update(0.0f, in, {}, out).ok());
  for (std::size_t j = 0; j < in.size(); ++j) EXPECT_LT(RotationGap(out[j].rotation, in[j].rotation), 1e-5f) << j;
}

}  // namespace
