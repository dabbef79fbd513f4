// batch::Slice: a batch split into parts that run on threads writes exactly
// what one Run() writes (docs/batch/batches.md, threads).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "ikpd/ikpd.h"

namespace {

using ikpd::batch::Slice;

// Random floats for the inputs (rotations need not be unit), outputs set to −7.
struct Arrays {
  std::vector<std::vector<float>> in, out;
  Arrays(std::size_t n, std::initializer_list<int> inSizes, std::initializer_list<int> outSizes, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-1.5f, 1.5f);
    for (int c : inSizes) {
      in.emplace_back(n * c);
      for (float& x : in.back()) x = d(rng);
    }
    for (int c : outSizes) out.emplace_back(n * c, -7.0f);
  }
};

// Runs `job` whole, then again in `parts` slices on threads over fresh outputs, and compares bit for bit.
template <class Job>
void ExpectSlicesMatch(Job job, std::vector<std::vector<float>>& outputs, std::size_t parts,
                       void (*point)(Job&, std::vector<std::vector<float>>&)) {
  point(job, outputs);
  ASSERT_TRUE(job.Run().ok());
  const std::vector<std::vector<float>> whole = outputs;
  for (auto& o : outputs) std::fill(o.begin(), o.end(), -7.0f);
  point(job, outputs);
  std::vector<std::thread> threads;
  std::vector<int> ok(parts, 0);
  const std::size_t step = job.count / parts + 1;  // uneven parts, boundaries off the 8-lane groups
  for (std::size_t k = 0; k < parts; ++k) {
    const std::size_t begin = std::min(job.count, k * step), count = std::min(step, job.count - begin);
    Job part;
    ASSERT_TRUE(Slice(job, begin, count, &part).ok());
    threads.emplace_back([part, &ok, k] { ok[k] = part.Run().ok() ? 1 : 0; });
  }
  for (std::thread& t : threads) t.join();
  for (int k : ok) EXPECT_EQ(k, 1);
  for (std::size_t f = 0; f < outputs.size(); ++f) {
    ASSERT_EQ(outputs[f].size(), whole[f].size());
    EXPECT_EQ(std::memcmp(outputs[f].data(), whole[f].data(), whole[f].size() * sizeof(float)), 0) << "output " << f;
  }
}

TEST(BatchSlice, TwoBoneOnThreadsEqualsOneRun) {
  const std::size_t n = 40001;
  Arrays a(n, {3, 4, 3, 4, 3, 4, 3, 3}, {4, 3, 4, 3, 4, 1, 1}, 11u);
  for (float& w : a.in[7]) w = 0.5f + 0.25f * std::abs(w);  // weights in [0.5, 0.875]
  ikpd::TwoBoneBatchJob job;
  job.count = n;
  job.poleMode = ikpd::PoleMode::kPoint;
  job.options.settings.soften = 0.05f;
  job.rootPosition = a.in[0].data(), job.rootRotation = a.in[1].data(), job.midPosition = a.in[2].data();
  job.midRotation = a.in[3].data(), job.endPosition = a.in[4].data(), job.endRotation = a.in[5].data();
  job.target = a.in[6].data(), job.pole = a.in[2].data(), job.weight = a.in[7].data();
  for (std::size_t parts : {2u, 3u, 7u}) {
    ExpectSlicesMatch<ikpd::TwoBoneBatchJob>(job, a.out, parts, [](ikpd::TwoBoneBatchJob& j, std::vector<std::vector<float>>& o) {
      j.outRootRotation = o[0].data(), j.outMidPosition = o[1].data(), j.outMidRotation = o[2].data();
      j.outEndPosition = o[3].data(), j.outEndRotation = o[4].data(), j.outReached = o[5].data(), j.outDistance = o[6].data();
    });
  }
}

TEST(BatchSlice, AimAndPdOnThreadsEqualOneRun) {
  const std::size_t n = 10007;
  Arrays aim(n, {3, 4, 3, 3}, {4}, 12u);
  ikpd::AimBatchJob a;
  a.count = n;
  a.poleMode = ikpd::PoleMode::kPoint;
  a.position = aim.in[0].data(), a.rotation = aim.in[1].data(), a.target = aim.in[2].data(), a.pole = aim.in[3].data();
  ExpectSlicesMatch<ikpd::AimBatchJob>(a, aim.out, 2, [](ikpd::AimBatchJob& j, std::vector<std::vector<float>>& o) {
    j.outRotation = o[0].data();
  });

  // PD state is in/out: the whole run and the parts start from the same state.
  Arrays pd(n, {4}, {4, 3}, 13u);
  const std::vector<float> value0 = pd.in[0];
  ikpd::QuatPdBatchJob q;
  q.count = n;
  q.dt = 1.0f / 60.0f;
  q.target = pd.in[0].data();
  ExpectSlicesMatch<ikpd::QuatPdBatchJob>(q, pd.out, 2, [](ikpd::QuatPdBatchJob& j, std::vector<std::vector<float>>& o) {
    // Start state: unit-ish quaternions and zero velocity, written before each run.
    for (std::size_t i = 0; i < o[0].size(); i += 4) o[0][i + 3] = 1.0f, o[0][i] = o[0][i + 1] = o[0][i + 2] = 0.0f;
    std::fill(o[1].begin(), o[1].end(), 0.0f);
    j.value = o[0].data(), j.velocity = o[1].data();
  });
  EXPECT_EQ(pd.in[0], value0);
}

TEST(BatchSlice, NamesABadRangeAndWritesNothing) {
  ikpd::AimBatchJob job;
  job.count = 10;
  ikpd::AimBatchJob out;
  out.count = 99;
  EXPECT_STREQ(Slice(job, 11, 0, &out).error, "begin: past the batch's count");
  EXPECT_STREQ(Slice(job, 4, 7, &out).error, "count: begin + count is past the batch's count");
  EXPECT_STREQ(Slice(job, 0, 1, static_cast<ikpd::AimBatchJob*>(nullptr)).error, "out: must not be null");
  EXPECT_EQ(out.count, 99u);
  ASSERT_TRUE(Slice(job, 10, 0, &out).ok());  // an empty tail is a valid part
  EXPECT_EQ(out.count, 0u);
}

TEST(BatchSlice, AFailedItemIsRelativeToThePart) {
  const std::size_t n = 32;
  Arrays a(n, {3, 4, 3}, {4}, 14u);
  a.in[2][3 * 20 + 1] = std::numeric_limits<float>::quiet_NaN();  // item 20's target
  ikpd::AimBatchJob job;
  job.count = n;
  job.position = a.in[0].data(), job.rotation = a.in[1].data(), job.target = a.in[2].data(), job.outRotation = a.out[0].data();
  std::size_t failed = 0;
  job.failedItem = &failed;
  ikpd::AimBatchJob part;
  ASSERT_TRUE(Slice(job, 16, 16, &part).ok());
  EXPECT_FALSE(part.Run().ok());
  EXPECT_EQ(failed, 4u);
  for (std::size_t i = 4 * 16; i < 4 * n; ++i) EXPECT_EQ(a.out[0][i], -7.0f);
}

}  // namespace
