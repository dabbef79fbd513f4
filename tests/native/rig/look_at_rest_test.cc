// Look-at at rest (docs/rig/look-at.md, "Stage 1" and "Stage 2"): a still
// character looking at a still target. The desired offsets are the PDs' goal,
// so once the controllers settle the pose is the one-shot solve and the head
// looks exactly at the target, whatever the frame rate (30, 60, 240 Hz and a
// jittered dt). The chain is CesiumMan's as the demo's character scene rigs
// it (demo/scenes/character.js: lookAt over spine, chest, neck and head,
// settle time 0.25 s, the rig's default shares 1/4, 1/3, 1/2, 1): the world
// transforms below are the glTF's (demo/assets/CesiumMan.gltf) framed as
// demo/lib/droppedModel.js frameModel frames it, at rest and with its clip
// (three's AnimationMixer, demo/lib/characters.js seamlessClip) stopped at
// 0.5, 1, 1.3 and 10 s, read with three's getWorldPosition/Quaternion.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "ikpd/ikpd.h"
#include "native/chain_test_util.h"

namespace {

using ikpd::LookAt;
using ikpd::LookAtSettings;
using ikpd::Transform;

// Spine (Skeleton_torso_joint_2), chest (torso_joint_3), neck
// (Skeleton_neck_joint_1), head (Skeleton_neck_joint_2); quaternions w, x, y, z.
using Pose = std::vector<Transform>;
const Pose kRest = {{{-0.0000182488108f, 1.12802593f, -0.0206984131f}, {0.70678377f, -0.021370573f, -0.0213706039f, -0.706783771f}},
                    {{-0.0000174166361f, 1.4703418f, -0.041518138f}, {0.539721341f, -0.456837885f, -0.456837908f, -0.539721361f}},
                    {{-0.0000141126134f, 1.55788124f, -0.0268587539f}, {0.706975853f, 0.0136067924f, 0.0136067615f, -0.706975852f}},
                    {{-0.0000141592687f, 1.6290697f, -0.0241211331f}, {0.00398646474f, 0.707095544f, 0.707095544f, -0.00398643384f}}};
const std::vector<Pose> kPoses = {
    kRest,
    // clip at 0.5 s
    {{{-0.0418398125f, 1.11925102f, -0.0270982226f}, {0.7142135f, 0.024296555f, 0.035038203f, -0.698627996f}},
     {{-0.0491737104f, 1.46091694f, 0.00160945051f}, {0.577606203f, -0.493932962f, -0.354170759f, -0.544944384f}},
     {{-0.0377039508f, 1.54582733f, 0.0247889218f}, {0.639901434f, -0.0282783941f, 0.101906203f, -0.761144931f}},
     {{-0.0249202752f, 1.61563494f, 0.031009838f}, {-0.0576768468f, 0.758802325f, 0.64368018f, -0.0810448299f}}},
    // clip at 1 s
    {{{-0.0443896901f, 1.08818085f, -0.0208626223f}, {0.713137876f, 0.0204832332f, 0.0435308288f, -0.699371055f}},
     {{-0.0505551576f, 1.42966787f, 0.0101565049f}, {0.625964443f, -0.468734494f, -0.364594935f, -0.505496859f}},
     {{-0.049004633f, 1.51447433f, 0.0363122203f}, {0.713075365f, -0.0204741116f, 0.136622606f, -0.687341689f}},
     {{-0.0502729212f, 1.58470728f, 0.0481845035f}, {-0.111240348f, 0.682620053f, 0.720849945f, -0.0450643867f}}},
    // clip at 1.3 s
    {{{-0.0510761582f, 1.15949711f, -0.0194423051f}, {0.718904099f, 0.0295715237f, 0.0505499334f, -0.692637802f}},
     {{-0.0632172484f, 1.50001862f, 0.0194333272f}, {0.614138277f, -0.375658786f, -0.43934717f, -0.537297676f}},
     {{-0.0752819912f, 1.58288204f, 0.0488731165f}, {0.718993232f, 0.068706747f, 0.0786455556f, -0.687126632f}},
     {{-0.0783698965f, 1.65250409f, 0.0636528263f}, {-0.0482619822f, 0.707299577f, 0.704305068f, 0.0367759771f}}},
    // clip at 10 s
    {{{-0.0397679637f, 1.13303558f, -0.0270673928f}, {0.713418818f, 0.0270247168f, 0.0355005142f, -0.699316071f}},
     {{-0.046419414f, 1.47458375f, 0.00316749841f}, {0.57795502f, -0.476755132f, -0.367647833f, -0.550915329f}},
     {{-0.0375105828f, 1.55945586f, 0.0275802195f}, {0.651460609f, -0.0127740259f, 0.090962689f, -0.75310138f}},
     {{-0.0267629585f, 1.62952519f, 0.034649195f}, {-0.0429881819f, 0.752907464f, 0.65313364f, -0.0685480034f}}},
};

// The head's look axis (head-local): the character's facing, +Z, in the rest head's frame (the rig's DetectLook).
glm::vec3 LookAxis() { return glm::normalize(glm::conjugate(glm::normalize(kRest.back().rotation)) * glm::vec3(0.0f, 0.0f, 1.0f)); }

// Angle between the head's look ray and the direction to the target (the rig's `distance`, in double).
double Miss(const Transform& head, const glm::vec3& axis, const glm::vec3& target) {
  const glm::dvec3 look = glm::dquat(glm::normalize(head.rotation)) * glm::dvec3(axis);
  const glm::dvec3 to = glm::dvec3(target) - glm::dvec3(head.position);
  return std::atan2(glm::length(glm::cross(look, to)), glm::dot(look, to));
}

struct Rested {
  double miss = 0.0;       // the head's look against the target, after the last frame
  float fromOneShot = 0.0f;  // largest angle between a smoothed offset and the one-shot solve's
};

// A still pose, a still target (after `before` frames looking at `first`), 600 frames of dt(k).
template <class Dt>
Rested Rest(const Pose& pose, const glm::vec3& target, Dt dt, const glm::vec3* first = nullptr, int before = 0) {
  std::vector<float> weights{1.0f / 4.0f, 1.0f / 3.0f, 1.0f / 2.0f, 1.0f};
  LookAtSettings s;
  s.weights = weights;
  s.settleTime = 0.25f;
  s.eyeSettleTime = 0.05f;
  s.forward = LookAxis();
  LookAt look, once;
  EXPECT_TRUE(look.Reset(s).ok());
  EXPECT_TRUE(once.Reset(s).ok());
  Pose out(pose.size());
  for (int k = 0; k < before; ++k) EXPECT_TRUE(look.Update(dt(k), pose, *first, true, out).ok());
  for (int k = 0; k < 600; ++k) EXPECT_TRUE(look.Update(dt(k), pose, target, true, out).ok());
  Pose one(pose.size());
  EXPECT_TRUE(once.Update(1.0f / 60.0f, pose, target, true, one).ok());  // the one-shot solve: its desired offsets
  Rested r;
  r.miss = Miss(out.back(), s.forward, target);
  for (std::size_t i = 0; i < pose.size(); ++i) r.fromOneShot = std::max(r.fromOneShot, chaintest::Angle(look.offsets()[i], once.desired()[i]));
  return r;
}

TEST(LookAtRest, StillCesiumManLooksExactlyAtAStillTargetAtEveryRate) {
  // The browser test's target (tests/browser/samples.test.js) and others around the head, near and far.
  const glm::vec3 targets[] = {{0.4f, 1.5f, 1.6f}, {-0.8f, 1.9f, 1.2f}, {1.5f, 1.2f, 0.3f}, {0.05f, 1.7f, 0.5f}, {-2.0f, 0.4f, 3.0f}};
  const glm::vec3 behind(0.3f, 1.6f, -2.0f);  // the demo's camera can be behind a walker
  double worstMiss = 0.0;
  float worstOffset = 0.0f;
  for (const Pose& pose : kPoses) {
    for (const glm::vec3& target : targets) {
      for (int rate : {30, 60, 240, 0}) {
        const auto dt = [rate](int k) {
          if (rate > 0) return 1.0f / static_cast<float>(rate);
          return (1.0f / 60.0f) * (0.5f + static_cast<float>((k * 7919) % 97) / 97.0f);  // jittered 1/120 .. 1/40 s
        };
        for (const bool fromBehind : {false, true}) {
          const Rested r = Rest(pose, target, dt, fromBehind ? &behind : nullptr, fromBehind ? 90 : 0);
          worstMiss = std::max(worstMiss, r.miss);
          worstOffset = std::max(worstOffset, r.fromOneShot);
          EXPECT_LT(r.miss, 2e-5) << "rate " << rate << " target " << target.x << " behind " << fromBehind;
          EXPECT_LT(r.fromOneShot, 2e-5f) << "rate " << rate << " target " << target.x << " behind " << fromBehind;
        }
      }
    }
  }
  std::printf("still CesiumMan look-at at rest: miss %.2e rad, offsets from the one-shot solve %.2e rad at most\n", worstMiss,
              static_cast<double>(worstOffset));
}

}  // namespace
