// The kernel's canonical axes (forward +X, hinge +Z: the defaults and the rig's
// frames) take their own rotations (cpp/src/ik/two_bone_axes.h): the floats of
// the general axes' path (docs/performance.md, "Two-bone and aim").
#include <gtest/gtest.h>

#include "native/ik_test_util.h"

namespace {

bool SameFloats(const ikpd::Transform& a, const ikpd::Transform& b) {
  return a.position == b.position && a.rotation.x == b.rotation.x && a.rotation.y == b.rotation.y &&
         a.rotation.z == b.rotation.z && a.rotation.w == b.rotation.w;
}

}  // namespace

// A hinge tilted by 1e-30 takes the general path with the same floats (its
// tilt is far below rounding against the poses' components): every result
// equal, for every option the axes meet (weights below 1, relative ends,
// poles, limits, soften, twist) and the prepared call alike.
TEST(TwoBone, CanonicalAxesGiveTheGeneralPathsFloats) {
  iktest::Rng rng(4321);
  int solved = 0;
  for (int i = 0; i < 20000; ++i) {
    const float a = rng.Uniform(0.2f, 2.0f), b = rng.Uniform(0.2f, 2.0f);
    const iktest::Limb l = iktest::MakeLimb(rng.Vec(-2, 2), rng.Rotation(), a, b, rng.Uniform(-3.0f, 3.0f), {1, 0, 0},
                                            {0, 0, 1}, rng.Rotation());
    ikpd::TwoBoneResult canonical, general;
    ikpd::TwoBoneJob job = iktest::TwoBoneJobFor(l, &canonical);
    job.frame.target = l.root.position + rng.Uniform(0.0f, 1.2f) * (a + b) * rng.Direction();
    job.frame.weight = i % 3 == 0 ? rng.Uniform(0.0f, 1.0f) : 1.0f;
    job.settings.endRotation = i % 2 == 0 ? ikpd::EndRotation::kRelative : ikpd::EndRotation::kWorld;
    job.settings.pole = static_cast<ikpd::TwoBonePole>(i % 3);
    job.frame.pole = job.settings.pole == ikpd::TwoBonePole::kPoint ? l.root.position + rng.Vec(-3, 3) : rng.Direction();
    job.settings.bendDirection = static_cast<ikpd::BendDirection>(i % 5 % 3);
    if (i % 7 == 0) job.settings.minAngle = 0.3f, job.settings.maxAngle = 2.8f;
    if (i % 4 == 1) job.settings.soften = 0.2f;
    if (i % 6 == 1) job.settings.twist = rng.Uniform(-1.0f, 1.0f);
    ASSERT_TRUE(job.Run().ok()) << i;
    ikpd::TwoBoneJob tilted = job;
    tilted.settings.bendAxis = {0.0f, 1e-30f, 1.0f};
    tilted.result = &general;
    ASSERT_TRUE(tilted.Run().ok()) << i;
    ikpd::TwoBoneSetup setup;
    ikpd::TwoBoneResult prepared;
    ASSERT_TRUE(ikpd::Prepare(job.settings, &setup).ok());
    ASSERT_TRUE(ikpd::SolveTwoBone(setup, job.frame, &prepared).ok());
    for (const ikpd::TwoBoneResult* r : {&canonical, &prepared}) {
      ASSERT_TRUE(SameFloats(r->root, general.root) && SameFloats(r->mid, general.mid) &&
                  SameFloats(r->end, general.end) && r->distance == general.distance && r->reached == general.reached)
          << i;
    }
    ++solved;
  }
  EXPECT_EQ(solved, 20000);
}
