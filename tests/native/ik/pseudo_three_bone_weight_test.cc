// Pseudo three-bone IK: `limb.weight` moves the full-weight pose once
// (docs/ik/pseudo-three-bone.md), whether one or two two-bone passes ran.
#include <gtest/gtest.h>

#include <cmath>

#include "ikpd/ikpd.h"
#include "native/chain_test_util.h"

namespace {

using ikpd::PseudoThreeBoneJob;
using ikpd::PseudoThreeBoneResult;
using ikpd::Transform;

using chaintest::Angle;
using chaintest::Rng;

// A leg (hip, knee, ankle, toe) with forward +X and hinge +Z, bones along
// their joints' forward axes; `planar` keeps every rotation about +Z.
PseudoThreeBoneJob RandomLeg(Rng& r, bool planar) {
  const glm::vec3 f(1, 0, 0), h(0, 0, 1);
  const float a = r.Uniform(0.2f, 0.6f), b = r.Uniform(0.2f, 0.6f), c = r.Uniform(0.05f, 0.3f);
  PseudoThreeBoneJob job;
  job.frame.limb.root.position = {r.Uniform(-1, 1), r.Uniform(0, 2), r.Uniform(-1, 1)};
  job.frame.limb.root.rotation = glm::angleAxis(r.Uniform(-3.1f, 3.1f), planar ? h : r.Direction());
  job.frame.limb.mid.position = job.frame.limb.root.position + a * (job.frame.limb.root.rotation * f);
  job.frame.limb.mid.rotation = job.frame.limb.root.rotation * glm::angleAxis(r.Uniform(0.2f, 2.6f), h);
  job.frame.limb.end.position = job.frame.limb.mid.position + b * (job.frame.limb.mid.rotation * f);
  job.frame.limb.end.rotation = job.frame.limb.mid.rotation * glm::angleAxis(r.Uniform(-1.5f, 1.5f), h);
  if (!planar) job.frame.limb.end.rotation = job.frame.limb.end.rotation * glm::angleAxis(r.Uniform(-0.3f, 0.3f), f);
  job.frame.tip.position = job.frame.limb.end.position + c * (job.frame.limb.end.rotation * f);
  job.frame.tip.rotation = job.frame.limb.end.rotation;
  glm::vec3 d = r.Direction();
  if (planar) d = glm::normalize(glm::vec3(d.x, d.y, 0.0f) + glm::vec3(1e-3f, 0, 0));
  job.frame.limb.target = job.frame.limb.root.position + d * r.Uniform(0.3f, 0.95f) * (a + b + c);
  return job;
}

PseudoThreeBoneResult Solve(PseudoThreeBoneJob job, float weight, float blend) {
  job.frame.limb.weight = weight;
  job.frame.blend = blend;
  PseudoThreeBoneResult out;
  job.result = &out;
  EXPECT_TRUE(job.Run().ok());
  return out;
}

// Joint 1–3 rotations of a weighted solve lie `weight` of the way from the
// input to the full-weight ones, with and without the second pass.
TEST(PseudoThreeBoneWeight, EachJointTurnsWeightOfTheFullWeightAngle) {
  Rng r(21);
  for (int i = 0; i < 2000; ++i) {
    const PseudoThreeBoneJob job = RandomLeg(r, false);
    const float weight = r.Uniform(0.05f, 0.95f);
    const float blend = i % 3 == 0 ? 1.0f : r.Uniform(0.0f, 0.999f);
    const PseudoThreeBoneResult full = Solve(job, 1.0f, blend);
    const PseudoThreeBoneResult part = Solve(job, weight, blend);
    const glm::quat in[3] = {job.frame.limb.root.rotation, job.frame.limb.mid.rotation, job.frame.limb.end.rotation};
    const glm::quat fullR[3] = {full.root.rotation, full.mid.rotation, full.end.rotation};
    const glm::quat partR[3] = {part.root.rotation, part.mid.rotation, part.end.rotation};
    for (int j = 0; j < 3; ++j) {
      ASSERT_NEAR(Angle(in[j], partR[j]), weight * Angle(in[j], fullR[j]), 2e-4f) << "item " << i << " joint " << j;
      ASSERT_NEAR(Angle(partR[j], fullR[j]), (1.0f - weight) * Angle(in[j], fullR[j]), 2e-4f)
          << "item " << i << " joint " << j;
    }
  }
}

// A planar limb at weight 0.5 turns joint 1 by half its full-weight angle
// (the weight applies once, to the final pose, not to each pass).
TEST(PseudoThreeBoneWeight, PlanarHalfWeightTurnsHalfWay) {
  Rng r(22);
  int turning = 0;
  for (int i = 0; i < 500; ++i) {
    const PseudoThreeBoneJob job = RandomLeg(r, true);
    const float whole = Angle(job.frame.limb.root.rotation, Solve(job, 1.0f, 0.5f).root.rotation);
    const float half = Angle(job.frame.limb.root.rotation, Solve(job, 0.5f, 0.5f).root.rotation);
    ASSERT_NEAR(half, 0.5f * whole, 1e-4f) << "item " << i;
    turning += whole > 0.1f;
  }
  EXPECT_GT(turning, 250);
}

// Where the full-weight solve is continuous at blend = 1, blend 1 (one pass)
// and blend just below 1 (two passes) give nearly the same weighted pose;
// positions stay consistent with the weighted rotations.
TEST(PseudoThreeBoneWeight, ContinuousInBlendNearOne) {
  Rng r(23);
  int checked = 0;
  for (int i = 0; i < 2000; ++i) {
    const PseudoThreeBoneJob job = RandomLeg(r, i % 2 == 0);
    const float weight = i % 4 < 2 ? 0.5f : r.Uniform(0.05f, 0.95f);
    const float span = glm::distance(job.frame.limb.root.position, job.frame.limb.mid.position) +
                       glm::distance(job.frame.limb.mid.position, job.frame.limb.end.position);
    // Left out: a limb flipping its bend side between the two full solves, and
    // a joint turning by nearly a half turn (its slerp may go either way round).
    const PseudoThreeBoneResult full = Solve(job, 1.0f, 1.0f);
    if (glm::distance(full.end.position, Solve(job, 1.0f, 0.999f).end.position) > 1e-3f * span ||
        Angle(job.frame.limb.root.rotation, full.root.rotation) > 3.0f || Angle(job.frame.limb.mid.rotation, full.mid.rotation) > 3.0f ||
        Angle(job.frame.limb.end.rotation, full.end.rotation) > 3.0f) {
      continue;
    }
    ++checked;
    const PseudoThreeBoneResult one = Solve(job, weight, 1.0f);
    const PseudoThreeBoneResult near = Solve(job, weight, 0.999f);
    ASSERT_LT(glm::distance(one.mid.position, near.mid.position), 1e-2f * span) << "item " << i;
    ASSERT_LT(glm::distance(one.end.position, near.end.position), 1e-2f * span) << "item " << i;
    ASSERT_LT(glm::distance(one.tip.position, near.tip.position), 1e-2f * span) << "item " << i;
    ASSERT_LT(Angle(one.root.rotation, near.root.rotation), 1e-2f) << "item " << i;
    ASSERT_LT(Angle(one.mid.rotation, near.mid.rotation), 1e-2f) << "item " << i;
    ASSERT_LT(Angle(one.end.rotation, near.end.rotation), 1e-2f) << "item " << i;
    // Bones keep their lengths (no stretch) and the tip moves rigidly with joint 3.
    const PseudoThreeBoneResult& p = near;
    ASSERT_NEAR(glm::distance(p.mid.position, p.root.position),
                glm::distance(job.frame.limb.mid.position, job.frame.limb.root.position), 2e-5f);
    ASSERT_NEAR(glm::distance(p.end.position, p.mid.position),
                glm::distance(job.frame.limb.end.position, job.frame.limb.mid.position), 2e-5f);
    const glm::vec3 localTip = glm::conjugate(job.frame.limb.end.rotation) * (job.frame.tip.position - job.frame.limb.end.position);
    const glm::vec3 solvedTip = glm::conjugate(p.end.rotation) * (p.tip.position - p.end.position);
    ASSERT_LT(glm::distance(localTip, solvedTip), 2e-5f) << "item " << i;
    ASSERT_NEAR(p.distance, glm::distance(p.tip.position, job.frame.limb.target), 1e-5f);
  }
  EXPECT_GT(checked, 1500);
}

}  // namespace
