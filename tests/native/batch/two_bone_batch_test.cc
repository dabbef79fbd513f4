// TwoBoneBatchJob must give exactly the single-call TwoBoneJob results, item
// by item, and report the first invalid item without writing any output.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

#include "ikpd/ikpd.h"
#include "native/limb_soa_test_util.h"

namespace {

using ikpd::PoleMode;
using ikpd::TwoBoneBatchJob;
using ikpd::TwoBoneJob;
using ikpd::TwoBoneResult;

struct Soa : batchtest::LimbSoa {
  explicit Soa(std::size_t n) : LimbSoa(n), effectorOffset(3 * n) {}
  std::vector<float> effectorOffset;

  TwoBoneBatchJob Job(const TwoBoneJob& options, PoleMode mode) {
    TwoBoneBatchJob job;
    job.options = options;
    job.poleMode = mode;
    Wire(job);
    job.effectorOffset = effectorOffset.data();
    return job;
  }
};

void Fill(std::mt19937& rng, std::vector<float>& v, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  for (float& x : v) x = d(rng);
}

// Random limbs: arbitrary positions and (non-unit) rotations, targets near and
// far, a few degenerate items (target at the root, zero weight, coincident joints).
Soa RandomProblems(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  Soa s(n);
  Fill(rng, s.rootPosition, -1.0f, 1.0f);
  Fill(rng, s.midPosition, -2.0f, 2.0f);
  Fill(rng, s.endPosition, -3.0f, 3.0f);
  Fill(rng, s.target, -4.0f, 4.0f);
  Fill(rng, s.pole, -3.0f, 3.0f);
  Fill(rng, s.effectorOffset, -0.2f, 0.2f);
  Fill(rng, s.weight, 0.0f, 1.0f);
  for (auto* q : {&s.rootRotation, &s.midRotation, &s.endRotation}) Fill(rng, *q, -2.0f, 2.0f);
  for (std::size_t i = 0; i < n; i += 7) {
    for (int k = 0; k < 3; ++k) s.target[3 * i + k] = s.rootPosition[3 * i + k] + s.effectorOffset[3 * i + k];
  }
  for (std::size_t i = 3; i < n; i += 11) s.weight[i] = (i % 2) ? 0.0f : 1.0f;
  for (std::size_t i = 5; i < n; i += 13) {
    for (int k = 0; k < 3; ++k) s.midPosition[3 * i + k] = s.rootPosition[3 * i + k];
  }
  return s;
}


glm::vec3 V3(const std::vector<float>& f, std::size_t i) { return {f[3 * i], f[3 * i + 1], f[3 * i + 2]}; }
glm::quat Q(const std::vector<float>& f, std::size_t i) {
  return glm::quat(f[4 * i + 3], f[4 * i], f[4 * i + 1], f[4 * i + 2]);
}

void ExpectSameAsSingleCalls(Soa& s, const TwoBoneJob& options, PoleMode mode) {
  TwoBoneBatchJob batch = s.Job(options, mode);
  ASSERT_TRUE(batch.Run().ok());
  for (std::size_t i = 0; i < s.weight.size(); ++i) {
    TwoBoneJob job = options;
    TwoBoneResult r;
    job.frame.root = {V3(s.rootPosition, i), Q(s.rootRotation, i)};
    job.frame.mid = {V3(s.midPosition, i), Q(s.midRotation, i)};
    job.frame.end = {V3(s.endPosition, i), Q(s.endRotation, i)};
    job.frame.target = V3(s.target, i);
    if (mode == PoleMode::kPoint) job.settings.pole = ikpd::TwoBonePole::kPoint, job.frame.pole = V3(s.pole, i);
    if (mode == PoleMode::kDirection) job.settings.pole = ikpd::TwoBonePole::kDirection, job.frame.pole = V3(s.pole, i);
    job.frame.effectorOffset = V3(s.effectorOffset, i);
    job.frame.weight = s.weight[i];
    job.result = &r;
    ASSERT_TRUE(job.Run().ok()) << "item " << i;
    // Same code, same inputs: identical floats.
    EXPECT_EQ(Q(s.outRootRotation, i), r.root.rotation) << "item " << i;
    EXPECT_EQ(V3(s.outMidPosition, i), r.mid.position) << "item " << i;
    EXPECT_EQ(Q(s.outMidRotation, i), r.mid.rotation) << "item " << i;
    EXPECT_EQ(V3(s.outEndPosition, i), r.end.position) << "item " << i;
    EXPECT_EQ(Q(s.outEndRotation, i), r.end.rotation) << "item " << i;
    EXPECT_EQ(s.outReached[i], r.reached ? 1.0f : 0.0f) << "item " << i;
    EXPECT_EQ(s.outDistance[i], r.distance) << "item " << i;
  }
}

TEST(BatchTwoBone, MatchesSingleCallsForEveryPoleMode) {
  TwoBoneJob options;
  for (PoleMode mode : {PoleMode::kNone, PoleMode::kPoint, PoleMode::kDirection}) {
    Soa s = RandomProblems(2000, 1234u + static_cast<unsigned>(mode));
    ExpectSameAsSingleCalls(s, options, mode);
  }
}

TEST(BatchTwoBone, MatchesSingleCallsWithSharedOptions) {
  TwoBoneJob options;
  options.settings.forward = {0.0f, 1.0f, 0.0f};
  options.settings.bendAxis = {1.0f, 0.0f, 0.0f};
  options.settings.bendDirection = ikpd::BendDirection::kNegative;
  options.settings.minAngle = 0.3f;
  options.settings.maxAngle = 2.9f;
  options.settings.soften = 0.1f;
  options.settings.maxStretch = 1.2f;
  options.settings.twist = 0.4f;
  options.settings.endRotation = ikpd::EndRotation::kRelative;
  options.settings.tolerance = 1e-3f;
  Soa s = RandomProblems(2000, 99u);
  ExpectSameAsSingleCalls(s, options, PoleMode::kPoint);
}

TEST(BatchTwoBone, NamesTheFirstInvalidItemAndWritesNothing) {
  Soa s = RandomProblems(50, 7u);
  s.weight[20] = 1.5f;
  s.rootRotation[4 * 30 + 0] = std::numeric_limits<float>::quiet_NaN();
  std::size_t failed = 0;
  TwoBoneBatchJob job = s.Job(TwoBoneJob{}, PoleMode::kNone);
  job.failedItem = &failed;
  const ikpd::Status status = job.Run();
  ASSERT_FALSE(status.ok());
  EXPECT_STREQ(status.error, "weight: must be in [0, 1]");
  EXPECT_EQ(failed, 20u);
  for (std::size_t i = 0; i < 50; ++i) {
    EXPECT_EQ(s.outDistance[i], -7.0f);
    EXPECT_EQ(s.outMidPosition[3 * i], -7.0f);
  }
}

TEST(BatchTwoBone, ValidatesPointersAndSharedOptions) {
  Soa s = RandomProblems(4, 1u);
  TwoBoneBatchJob job = s.Job(TwoBoneJob{}, PoleMode::kPoint);
  job.pole = nullptr;
  EXPECT_FALSE(job.Validate().ok());
  job = s.Job(TwoBoneJob{}, PoleMode::kNone);
  job.pole = nullptr;  // not read without a pole mode
  EXPECT_TRUE(job.Run().ok());
  job.outDistance = nullptr;
  EXPECT_FALSE(job.Validate().ok());
  TwoBoneJob bad;
  bad.settings.soften = 2.0f;
  EXPECT_STREQ(s.Job(bad, PoleMode::kNone).Validate().error, "soften: must be in [0, 1]");
  job = s.Job(TwoBoneJob{}, static_cast<PoleMode>(7));
  EXPECT_FALSE(job.Validate().ok());
}

TEST(BatchTwoBone, OptionalWeightAndOffsetArraysFallBackToOptions) {
  Soa s = RandomProblems(100, 5u);
  TwoBoneJob options;
  options.frame.weight = 0.5f;
  options.frame.effectorOffset = {0.1f, 0.0f, 0.0f};
  std::fill(s.weight.begin(), s.weight.end(), 0.5f);
  for (std::size_t i = 0; i < 100; ++i) {
    s.effectorOffset[3 * i] = 0.1f;
    s.effectorOffset[3 * i + 1] = s.effectorOffset[3 * i + 2] = 0.0f;
  }
  ExpectSameAsSingleCalls(s, options, PoleMode::kNone);
  const std::vector<float> expected = s.outMidPosition;
  TwoBoneBatchJob job = s.Job(options, PoleMode::kNone);
  job.weight = nullptr;
  job.effectorOffset = nullptr;
  std::fill(s.outMidPosition.begin(), s.outMidPosition.end(), 0.0f);
  ASSERT_TRUE(job.Run().ok());
  EXPECT_EQ(s.outMidPosition, expected);
}

TEST(BatchTwoBone, EmptyBatchIsFine) {
  Soa s(0);
  EXPECT_TRUE(s.Job(TwoBoneJob{}, PoleMode::kNone).Run().ok());
}

}  // namespace
