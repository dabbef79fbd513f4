// Native C++ benchmarks (Google Benchmark) of the batch jobs on the problem
// sets of bench/problems.h. `npm run bench` runs this binary with
// repetitions and reports the median ns per item next to WASM and JS.
#include <benchmark/benchmark.h>

#include <vector>

#include "ikpd/ikpd.h"
#include "problems.h"

namespace {

constexpr std::size_t kItems = 1024;

void TwoBoneBatch(benchmark::State& state) {
  bench::TwoBoneProblems p = bench::MakeTwoBoneProblems(kItems);
  std::vector<float> outRoot(4 * kItems), outMidP(3 * kItems), outMidR(4 * kItems), outEndP(3 * kItems),
      outEndR(4 * kItems), reached(kItems), distance(kItems);
  ikpd::TwoBoneBatchJob job;
  job.options.soften = 0.05f;
  job.poleMode = ikpd::PoleMode::kPoint;
  job.count = kItems;
  job.rootPosition = p.rootPosition.data();
  job.rootRotation = p.rootRotation.data();
  job.midPosition = p.midPosition.data();
  job.midRotation = p.midRotation.data();
  job.endPosition = p.endPosition.data();
  job.endRotation = p.endRotation.data();
  job.target = p.target.data();
  job.pole = p.pole.data();
  job.weight = p.weight.data();
  job.outRootRotation = outRoot.data();
  job.outMidPosition = outMidP.data();
  job.outMidRotation = outMidR.data();
  job.outEndPosition = outEndP.data();
  job.outEndRotation = outEndR.data();
  job.outReached = reached.data();
  job.outDistance = distance.data();
  for (auto _ : state) {
    if (!job.Run()) state.SkipWithError("TwoBoneBatchJob failed");
    benchmark::DoNotOptimize(distance.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kItems));
}
BENCHMARK(TwoBoneBatch);

void AimBatch(benchmark::State& state) {
  bench::AimProblems p = bench::MakeAimProblems(kItems);
  std::vector<float> out(4 * kItems);
  ikpd::AimBatchJob job;
  job.poleMode = ikpd::PoleMode::kPoint;
  job.count = kItems;
  job.position = p.position.data();
  job.rotation = p.rotation.data();
  job.target = p.target.data();
  job.pole = p.pole.data();
  job.weight = p.weight.data();
  job.outRotation = out.data();
  for (auto _ : state) {
    if (!job.Run()) state.SkipWithError("AimBatchJob failed");
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kItems));
}
BENCHMARK(AimBatch);

}  // namespace

BENCHMARK_MAIN();
