// TwoBoneResult::reached / distance (and PseudoThreeBoneResult's) describe the
// contact point as it lands in the returned, weighted pose (docs/ik/two-bone.md).
#include <gtest/gtest.h>

#include "native/ik_test_util.h"

using ikpd::EndRotation;
using ikpd::TwoBoneJob;
using ikpd::TwoBoneResult;

namespace {

const glm::vec3 kX(1, 0, 0), kZ(0, 0, 1);

// Where the contact point lands: end + offset, turned with the end's rotation change.
glm::dvec3 Contact(const TwoBoneJob& job, const TwoBoneResult& r) {
  const glm::dquat turn = glm::dquat(r.end.rotation) * glm::conjugate(glm::normalize(glm::dquat(job.frame.end.rotation)));
  return glm::dvec3(r.end.position) + turn * glm::dvec3(job.frame.effectorOffset);
}

}  // namespace

// The fingertip case: under kRelative the hand turns with the forearm, so an
// effector offset solved unturned lands short; "reached, distance 0" was claimed.
TEST(TwoBoneReach, RelativeEndRotationReportsWhereTheOffsetLands) {
  const iktest::Limb l = iktest::MakeLimb(glm::vec3(0), glm::quat(1, 0, 0, 0), 1.0f, 1.0f, 1.2f, kX, kZ,
                                          glm::quat(1, 0, 0, 0));
  TwoBoneResult out;
  TwoBoneJob job;
  job.frame.root = l.root;
  job.frame.mid = l.mid;
  job.frame.end = l.end;
  job.frame.end.rotation = l.mid.rotation;
  job.frame.target = {1.2f, 0.9f, 0.3f};
  job.frame.effectorOffset = {0.3f, 0.0f, 0.0f};
  job.settings.endRotation = EndRotation::kRelative;
  job.result = &out;
  ASSERT_TRUE(job.Run().ok());
  const double miss = glm::length(Contact(job, out) - glm::dvec3(job.frame.target));
  EXPECT_GT(miss, 0.05);  // the offset turned with the end
  EXPECT_NEAR(out.distance, miss, 1e-6);
  EXPECT_FALSE(out.reached);
  job.settings.endRotation = EndRotation::kWorld;  // the offset keeps its world direction: reached exactly
  ASSERT_TRUE(job.Run().ok());
  EXPECT_LT(out.distance, 1e-6f);
  EXPECT_TRUE(out.reached);
}

// Random limbs, both rotation modes, weights 0 … 1: distance is the contact
// point's distance in the returned pose, and reached agrees with it.
TEST(TwoBoneReach, DistanceAndReachedDescribeTheWeightedOutput) {
  iktest::Rng rng(20);
  int reachedBelowOne = 0, notReachedBelowOne = 0;
  for (int i = 0; i < 20000; ++i) {
    const float a = rng.Uniform(0.3f, 2.0f), b = rng.Uniform(0.3f, 2.0f);
    const iktest::Limb l = iktest::MakeLimb(rng.Vec(-3, 3), rng.Rotation(), a, b, rng.Uniform(0.2f, 2.5f), kX, kZ,
                                            rng.Rotation() * rng.Uniform(0.5f, 2.0f));
    TwoBoneResult out;
    TwoBoneJob job;
    job.frame.root = l.root;
    job.frame.mid = l.mid;
    job.frame.end = l.end;
    job.frame.effectorOffset = i % 3 == 0 ? glm::vec3(0.0f) : rng.Direction() * rng.Uniform(0.0f, 0.5f);
    job.frame.target = l.root.position + rng.Direction() * rng.Uniform(0.0f, 1.2f) * (a + b);
    job.settings.endRotation = i % 2 == 0 ? EndRotation::kWorld : EndRotation::kRelative;
    const float weights[] = {0.0f, 0.2f, 0.4f, 0.7f, 1.0f};
    job.frame.weight = weights[i % 5];
    job.result = &out;
    ASSERT_TRUE(job.Run().ok()) << i;
    const double miss = glm::length(Contact(job, out) - glm::dvec3(job.frame.target));
    ASSERT_NEAR(out.distance, miss, 2e-6 * (a + b + 1.0)) << i;
    const double tolerance = 1e-4 * (a + b);
    if (std::abs(miss - tolerance) > 1e-6 * (a + b)) {
      ASSERT_EQ(out.reached, miss <= tolerance) << i;
    }
    if (job.frame.weight < 1.0f) (out.reached ? reachedBelowOne : notReachedBelowOne)++;
  }
  EXPECT_GT(notReachedBelowOne, 1000);
}

// Pseudo three-bone: the tip is the contact point; distance and reached
// describe the returned tip for every weight, blend and variant.
TEST(TwoBoneReach, PseudoThreeBoneDescribesTheReturnedTip) {
  iktest::Rng rng(21);
  for (int i = 0; i < 5000; ++i) {
    const float a = rng.Uniform(0.3f, 2.0f), b = rng.Uniform(0.3f, 2.0f);
    const iktest::Limb l = iktest::MakeLimb(rng.Vec(-3, 3), rng.Rotation(), a, b, rng.Uniform(0.2f, 2.5f), kX, kZ,
                                            rng.Rotation());
    ikpd::PseudoThreeBoneResult out;
    ikpd::PseudoThreeBoneJob job;
    job.frame.limb.root = l.root;
    job.frame.limb.mid = l.mid;
    job.frame.limb.end = l.end;
    job.frame.tip = {l.end.position + l.end.rotation * glm::vec3(rng.Uniform(0.1f, 0.5f), 0.0f, 0.0f), l.end.rotation};
    job.frame.limb.target = l.root.position + rng.Direction() * rng.Uniform(0.0f, 1.3f) * (a + b);
    job.frame.limb.weight = rng.Uniform(0.0f, 1.0f);
    job.frame.blend = i % 3 == 0 ? 1.0f : rng.Uniform(0.0f, 1.0f);
    job.settings.variant = i % 2 == 0 ? ikpd::PseudoThreeBoneVariant::kRelative : ikpd::PseudoThreeBoneVariant::kFollowMid;
    job.result = &out;
    ASSERT_TRUE(job.Run().ok()) << i;
    const double miss = glm::length(glm::dvec3(out.tip.position) - glm::dvec3(job.frame.limb.target));
    ASSERT_NEAR(out.distance, miss, 2e-6 * (a + b + 1.0)) << i;
    const double tolerance = 1e-4 * (a + b);
    if (std::abs(miss - tolerance) > 1e-6 * (a + b)) {
      ASSERT_EQ(out.reached, miss <= tolerance) << i;
    }
  }
}
