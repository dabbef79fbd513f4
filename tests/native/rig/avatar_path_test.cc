// The avatar steps' bound on a foot's thresholds (docs/rig/avatar.md,
// "Steps"; kinds/avatar_path.h, Frame::Clear): over random bodies, plants,
// offsets, settings and drifts, whenever the bound from a judgement in full
// at an earlier frame's end says a foot is surely inside both thresholds,
// the judgement in full at this frame's end says it is not past them. And a
// clip that moves the animated feet moves their places: the thresholds' inputs
// kept while the animated pose holds are made again when it changes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "../../../cpp/src/rig/kinds/avatar_path.h"
#include "native/avatar_test_util.h"

namespace {

using ikpd::Transform;
using ikpd::rig::AvatarSettings;
using ikpd::rig::LocalTransform;
using ikpd::rig::detail::AvatarPastRef;
using ikpd::rig::detail::avatar_path::Frame;

struct Draw {
  std::mt19937 rng{20261201u};
  float Uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }
  glm::vec3 Vec(float r) { return {Uniform(-r, r), Uniform(-r, r), Uniform(-r, r)}; }
  glm::quat Yaw(float r) { return glm::angleAxis(Uniform(-r, r), glm::vec3(0, 1, 0)); }
  glm::quat Any() { return glm::normalize(glm::quat(Uniform(-1, 1), Uniform(-1, 1), Uniform(-1, 1), Uniform(-1, 1))); }
};

// The frame's motion terms moved at random by up to `speed` (Calm's smoothed velocity at its end).
void Motion(Draw& draw, Frame& f, float speed) {
  f.dt = 1.0f / 60.0f;
  f.velocity += draw.Vec(speed), f.d2 += draw.Vec(speed), f.d3 += draw.Vec(speed), f.before = f.dt;
  f.calm += draw.Vec(speed);
  f.fadeEnd = std::exp(-f.dt / 0.1f);
  f.PrepareMotion();
  f.calmEnd = f.Calm(1.0f);
}

TEST(AvatarPath, ClearOnlyWhereTheFullJudgementIsInside) {
  Draw draw;
  int cleared = 0, pastAfter = 0;
  for (int trial = 0; trial < 200000; ++trial) {
    AvatarSettings s;
    s.stepThreshold = draw.Uniform(0.02f, 0.4f);
    s.stepPrediction = draw.Uniform(0.0f, 1.0f);
    s.angleThreshold = draw.Uniform(0.05f, 3.0f);
    Transform plants[2];
    const glm::vec3 origin = draw.Vec(trial % 4 == 0 ? 100.0f : 2.0f);
    Frame f;
    f.s = &s;
    f.up = glm::vec3(0, 1, 0);
    f.left = glm::vec3(1, 0, 0);
    f.scale = draw.Uniform(0.5f, 2.0f);
    f.plants = plants;
    f.cosHalf = std::cos(0.5f * s.angleThreshold), f.sinHalf = std::sin(0.5f * s.angleThreshold);
    for (Transform& o : f.offsets) o = {draw.Vec(0.3f) * glm::vec3(1, 0.2f, 1), draw.Yaw(1.0f)};
    f.gap = 0.5f * f.scale * std::abs(glm::dot(f.offsets[0].position - f.offsets[1].position, f.left));
    const int side = trial % 2;
    // The reference: the body near the plants, the judgement in full at its end.
    f.velocity = f.d2 = f.d3 = f.calm = glm::vec3(0.0f);
    f.to = {origin + draw.Vec(0.3f) * glm::vec3(1, 0, 1), draw.Yaw(3.0f)};
    if (trial % 5 == 0) f.to.rotation = glm::normalize(f.to.rotation * glm::quat(1.0f, draw.Vec(0.01f)));  // off up a little
    Motion(draw, f, 0.3f);
    // The plants near their places (the other's first: the place keeps clear of it), up to twice the thresholds off.
    for (int k : {1 - side, side}) {
      plants[1 - k] = {f.to.position + draw.Vec(0.5f) * glm::vec3(1, 0, 1), f.to.rotation};
      const Transform place = f.Place(k, 1.0f);
      plants[k] = {place.position + draw.Vec(0.6f * s.stepThreshold) * glm::vec3(1, 0.2f, 1),
                   glm::normalize(draw.Yaw(0.6f * s.angleThreshold) * place.rotation)};
    }
    AvatarPastRef ref;
    (void)f.Past(plants[side], side, 1.0f, &ref);
    // A later frame: the body drifted and turned, the velocity changed.
    const float reach = trial % 3 == 0 ? 0.003f : trial % 3 == 1 ? 0.03f : 0.2f;
    f.to = {f.to.position + draw.Vec(reach) * glm::vec3(1, 0.1f, 1), glm::normalize(draw.Yaw(reach * 3.0f) * f.to.rotation)};
    if (trial % 7 == 0) f.to.rotation = draw.Any();
    Motion(draw, f, reach);
    const bool clear = f.Clear(ref, f.DriftFrom(ref));
    const bool past = f.Past(plants[side], side, 1.0f);
    cleared += clear ? 1 : 0;
    pastAfter += past ? 1 : 0;
    ASSERT_FALSE(clear && past) << "trial " << trial;
  }
  // The draws reach both ways: many cleared, many past.
  EXPECT_GT(cleared, 20000);
  EXPECT_GT(pastAfter, 20000);
  std::printf("avatar path: %d of 200000 cleared by the bound, %d past in full\n", cleared, pastAfter);
}

// A still body whose animated left leg swings forward at 0.5 s (a clip under
// the avatar; the hips sway every frame): the left foot's place moves with
// it, so the foot steps there, at every rate.
TEST(AvatarPath, AnimatedFeetMoveTheirPlaces) {
  for (int rate : {30, 60, 90, 240}) {
    avatartest::AvatarRig made;
    const auto& [parents, rest, restWorld, skeleton, rig] = made;
    std::vector<LocalTransform> solved(rest.size());
    const float dt = 1.0f / static_cast<float>(rate);
    const std::vector<LocalTransform> idle = avatartest::Animated(rest, 0.0f);
    glm::vec3 start(0.0f), end(0.0f), animatedEnd(0.0f);
    for (int frame = 0; frame <= 2 * rate; ++frame) {
      const float t = static_cast<float>(frame) * dt;
      std::vector<LocalTransform> in = idle;
      in[avatartest::kHips].translation.x += 0.01f * std::sin(5.0f * t);
      if (t >= 0.5f) in[15].rotation = glm::normalize(glm::angleAxis(-0.5f, glm::vec3(1, 0, 0)) * in[15].rotation);
      made.Carried(dt, in, LocalTransform{}, solved);
      const glm::vec3 foot = rigtest::Fk(parents, solved, LocalTransform{})[avatartest::kLeftFoot].position;
      if (frame == 0) start = foot;
      end = foot;
      animatedEnd = rigtest::Fk(parents, in, LocalTransform{})[avatartest::kLeftFoot].position;
    }
    const glm::vec2 stepped(end.x - start.x, end.z - start.z), off(end.x - animatedEnd.x, end.z - animatedEnd.z);
    EXPECT_GT(glm::length(stepped), 0.3f) << rate << " Hz";  // the foot stepped forward
    EXPECT_LT(glm::length(off), 0.02f) << rate << " Hz";     // onto its animated place
  }
}

}  // namespace
