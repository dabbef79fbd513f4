// PseudoThreeBoneBatchJob must give exactly the single-call PseudoThreeBoneJob
// results, item by item, and write nothing when an item is invalid.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ikpd/ikpd.h"
#include "native/limb_soa_test_util.h"

namespace {

using ikpd::PoleMode;
using ikpd::PseudoThreeBoneBatchJob;
using ikpd::PseudoThreeBoneJob;
using ikpd::PseudoThreeBoneResult;

struct Soa : batchtest::LimbSoa {
  Soa(std::size_t n, unsigned seed)
      : LimbSoa(n), tipPosition(3 * n), tipRotation(4 * n), blend(n), outTipPosition(3 * n, -7.0f),
        outTipRotation(4 * n, -7.0f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-2.0f, 2.0f), u(0.0f, 1.0f);
    for (auto* v : {&rootPosition, &rootRotation, &midPosition, &midRotation, &endPosition, &endRotation,
                    &tipPosition, &tipRotation, &target, &pole}) {
      for (float& x : *v) x = d(rng);
    }
    for (float& x : weight) x = u(rng);
    for (float& x : blend) x = u(rng);
    for (std::size_t i = 0; i < n; i += 5) blend[i] = (i % 2) ? 1.0f : 0.0f;
    for (std::size_t i = 0; i < n; i += 7) weight[i] = 1.0f;
  }
  std::vector<float> tipPosition, tipRotation, blend, outTipPosition, outTipRotation;

  PseudoThreeBoneBatchJob Job(const PseudoThreeBoneJob& options, PoleMode mode) {
    PseudoThreeBoneBatchJob job;
    job.options = options;
    job.poleMode = mode;
    Wire(job);
    job.tipPosition = tipPosition.data();
    job.tipRotation = tipRotation.data();
    job.blend = blend.data();
    job.outTipPosition = outTipPosition.data();
    job.outTipRotation = outTipRotation.data();
    return job;
  }
};

glm::vec3 V3(const std::vector<float>& f, std::size_t i) { return {f[3 * i], f[3 * i + 1], f[3 * i + 2]}; }
glm::quat Q(const std::vector<float>& f, std::size_t i) {
  return glm::quat(f[4 * i + 3], f[4 * i], f[4 * i + 1], f[4 * i + 2]);
}

TEST(BatchPseudoThreeBone, MatchesSingleCalls) {
  for (PoleMode mode : {PoleMode::kNone, PoleMode::kPoint, PoleMode::kDirection}) {
    for (auto variant : {ikpd::PseudoThreeBoneVariant::kRelative, ikpd::PseudoThreeBoneVariant::kFollowMid}) {
      PseudoThreeBoneJob options;
      options.settings.variant = variant;
      options.settings.endLimit = mode == PoleMode::kPoint ? 0.5f : ikpd::kPi;
      options.settings.limb.soften = 0.1f;
      Soa s(700, 3u + static_cast<unsigned>(mode));
      ASSERT_TRUE(s.Job(options, mode).Run().ok());
      for (std::size_t i = 0; i < s.weight.size(); ++i) {
        PseudoThreeBoneJob job = options;
        PseudoThreeBoneResult r;
        job.frame.limb.root = {V3(s.rootPosition, i), Q(s.rootRotation, i)};
        job.frame.limb.mid = {V3(s.midPosition, i), Q(s.midRotation, i)};
        job.frame.limb.end = {V3(s.endPosition, i), Q(s.endRotation, i)};
        job.frame.limb.target = V3(s.target, i);
        if (mode == PoleMode::kPoint) job.settings.limb.pole = ikpd::TwoBonePole::kPoint, job.frame.limb.pole = V3(s.pole, i);
        if (mode == PoleMode::kDirection) job.settings.limb.pole = ikpd::TwoBonePole::kDirection, job.frame.limb.pole = V3(s.pole, i);
        job.frame.limb.weight = s.weight[i];
        job.frame.tip = {V3(s.tipPosition, i), Q(s.tipRotation, i)};
        job.frame.blend = s.blend[i];
        job.result = &r;
        ASSERT_TRUE(job.Run().ok()) << "item " << i;
        EXPECT_EQ(Q(s.outRootRotation, i), r.root.rotation) << i;
        EXPECT_EQ(V3(s.outMidPosition, i), r.mid.position) << i;
        EXPECT_EQ(Q(s.outMidRotation, i), r.mid.rotation) << i;
        EXPECT_EQ(V3(s.outEndPosition, i), r.end.position) << i;
        EXPECT_EQ(Q(s.outEndRotation, i), r.end.rotation) << i;
        EXPECT_EQ(V3(s.outTipPosition, i), r.tip.position) << i;
        EXPECT_EQ(Q(s.outTipRotation, i), r.tip.rotation) << i;
        EXPECT_EQ(s.outReached[i], r.reached ? 1.0f : 0.0f) << i;
        EXPECT_EQ(s.outDistance[i], r.distance) << i;
      }
    }
  }
}

TEST(BatchPseudoThreeBone, NamesTheFirstInvalidItemAndWritesNothing) {
  Soa s(30, 9u);
  s.blend[11] = 2.0f;
  s.weight[20] = -1.0f;
  std::size_t failed = 0;
  PseudoThreeBoneBatchJob job = s.Job(PseudoThreeBoneJob{}, PoleMode::kNone);
  job.failedItem = &failed;
  const ikpd::Status status = job.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_STREQ(status.error, "blend: must be in [0, 1]");
  EXPECT_EQ(failed, 11u);
  for (float x : s.outTipPosition) EXPECT_EQ(x, -7.0f);
  PseudoThreeBoneJob bad;
  bad.settings.endLimit = 4.0f;
  EXPECT_FALSE(s.Job(bad, PoleMode::kNone).Validate().ok());
  job = s.Job(PseudoThreeBoneJob{}, PoleMode::kNone);
  job.tipRotation = nullptr;
  EXPECT_FALSE(job.Validate().ok());
  job.count = 0;
  EXPECT_TRUE(job.Run().ok());
}

}  // namespace
