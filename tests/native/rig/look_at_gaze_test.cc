// LookAt::SetGazeWithoutEyes (docs/rig/look-at.md, "Eyes"): the rig's look-at
// reports no gaze, so without eye joints it does not step one.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "ikpd/ikpd.h"
#include "native/look_at_test_util.h"

namespace {

using ikpd::Transform;

using lookattest::Chain;  // the LookAt test chain
using lookattest::kWeights;

// Turned off: without eye joints the gaze is not stepped and stays 0,
// everything else bit for bit the default's, and active() no longer waits for
// a gaze to blend out. Turning it off zeroes a gaze once, a later call keeps
// it; with eyes the gaze is stepped as before. At 30, 60 and 240 Hz, enabled
// then disabled.
TEST(LookAtGaze, NotSteppedWithoutEyesWhenTurnedOff) {
  for (float rate : {30.0f, 60.0f, 240.0f}) {
    ikpd::LookAtSettings s;
    s.weights = kWeights;
    ikpd::LookAt gazing, plain;
    ASSERT_TRUE(gazing.Reset(s).ok());
    ASSERT_TRUE(plain.Reset(s).ok());
    plain.SetGazeWithoutEyes(false);
    const std::vector<Transform> pose = Chain();
    std::vector<Transform> a(pose.size()), b(pose.size());
    const glm::vec3 target(1.5f, 2.2f, 2.0f);
    const float dt = 1.0f / rate;
    for (int i = 0; i < static_cast<int>(3.0f * rate); ++i) {
      const bool enabled = i < static_cast<int>(1.5f * rate);
      ASSERT_TRUE(gazing.Update(dt, pose, target, enabled, a).ok());
      ASSERT_TRUE(plain.Update(dt, pose, target, enabled, b).ok());
      EXPECT_EQ(plain.gazeYaw(), 0.0f);
      EXPECT_EQ(plain.gazePitch(), 0.0f);
      for (std::size_t k = 0; k < pose.size(); ++k) {
        ASSERT_EQ(std::memcmp(&a[k], &b[k], sizeof(Transform)), 0) << rate << " frame " << i << " joint " << k;
        ASSERT_EQ(gazing.offsets()[k], plain.offsets()[k]);
      }
      if (i == 1) {
        ASSERT_NE(gazing.gazeYaw(), 0.0f) << rate;  // the default steps it
      }
      bool offsets = false;
      for (const glm::quat& q : plain.offsets()) offsets = offsets || q != glm::quat(1, 0, 0, 0);
      EXPECT_EQ(plain.active(), offsets);
    }
    // Turned off after a gaze: zeroed once; with eyes the gaze moves again and a
    // later call leaves it (the rig calls it on every Configure).
    ASSERT_TRUE(gazing.Update(dt, pose, target, true, a).ok());
    ASSERT_NE(gazing.gazeYaw(), 0.0f);
    gazing.SetGazeWithoutEyes(false);
    EXPECT_EQ(gazing.gazeYaw(), 0.0f);
    EXPECT_EQ(gazing.gazePitch(), 0.0f);
    const Transform eyes[2] = {{glm::vec3(0.03f, 1.82f, 0.08f), glm::quat(1, 0, 0, 0)},
                               {glm::vec3(-0.03f, 1.82f, 0.08f), glm::quat(1, 0, 0, 0)}};
    Transform eyesOut[2];
    ASSERT_TRUE(gazing.Update(dt, pose, glm::vec3(-1.5f, 2.2f, 2.0f), true, a, eyes, eyesOut).ok());
    const float gaze = gazing.gazeYaw();
    EXPECT_NE(gaze, 0.0f) << rate;
    gazing.SetGazeWithoutEyes(false);
    EXPECT_EQ(gazing.gazeYaw(), gaze);
  }
}

}  // namespace
