// Native C++ benchmarks (Google Benchmark) of the batch jobs on the problem
// sets of bench/problems.h. `npm run bench` runs this binary with
// repetitions and reports the median ns per item next to WASM and JS.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

#include "ikpd/ikpd.h"
#include "problems.h"

namespace {

constexpr std::size_t kItems = 1024;

// Times job.Run() on all kItems items per iteration; `output` is kept alive.
template <class Job>
void TimeBatch(benchmark::State& state, const Job& job, const float* output) {
  for (auto _ : state) {
    if (!job.Run()) state.SkipWithError("batch job failed");
    benchmark::DoNotOptimize(output);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kItems));
}

// n two-bone problems (bench/problems.h) with their outputs, and the batch job over them.
struct TwoBoneBatchCase {
  explicit TwoBoneBatchCase(std::size_t n)
      : p(bench::MakeTwoBoneProblems(n)), outRoot(4 * n), outMidP(3 * n), outMidR(4 * n), outEndP(3 * n),
        outEndR(4 * n), reached(n), distance(n) {
    job.options.settings.soften = 0.05f;
    job.poleMode = ikpd::PoleMode::kPoint;
    job.count = n;
    job.rootPosition = p.rootPosition.data(), job.rootRotation = p.rootRotation.data();
    job.midPosition = p.midPosition.data(), job.midRotation = p.midRotation.data();
    job.endPosition = p.endPosition.data(), job.endRotation = p.endRotation.data();
    job.target = p.target.data(), job.pole = p.pole.data(), job.weight = p.weight.data();
    job.outRootRotation = outRoot.data(), job.outMidPosition = outMidP.data(), job.outMidRotation = outMidR.data();
    job.outEndPosition = outEndP.data(), job.outEndRotation = outEndR.data();
    job.outReached = reached.data(), job.outDistance = distance.data();
  }
  TwoBoneBatchCase(const TwoBoneBatchCase&) = delete;
  bench::TwoBoneProblems p;
  std::vector<float> outRoot, outMidP, outMidR, outEndP, outEndR, reached, distance;
  ikpd::TwoBoneBatchJob job;
};

void TwoBoneBatch(benchmark::State& state) {
  const TwoBoneBatchCase c(kItems);
  TimeBatch(state, c.job, c.distance.data());
}
BENCHMARK(TwoBoneBatch);

// A 40,000-limb two-bone batch split with batch::Slice over state.range(0)
// threads (started per run, as a job system without a pool would; wall time).
// Compare /1 and /2 in one run on an otherwise idle machine (docs/batch/batches.md).
void TwoBoneBatchThreads(benchmark::State& state) {
  constexpr std::size_t kLimbs = 40000;
  const std::size_t threads = static_cast<std::size_t>(state.range(0));
  const TwoBoneBatchCase c(kLimbs);
  const ikpd::TwoBoneBatchJob& job = c.job;
  std::vector<ikpd::TwoBoneBatchJob> parts(threads);
  const std::size_t step = (kLimbs + threads - 1) / threads;
  for (std::size_t k = 0; k < threads; ++k) {
    const std::size_t begin = std::min(kLimbs, k * step);
    if (!ikpd::batch::Slice(job, begin, std::min(step, kLimbs - begin), &parts[k])) state.SkipWithError("Slice failed");
  }
  std::vector<std::thread> pool;
  for (auto _ : state) {
    pool.clear();
    for (std::size_t k = 1; k < threads; ++k) pool.emplace_back([&parts, k] { (void)parts[k].Run(); });
    if (!parts[0].Run()) state.SkipWithError("batch job failed");
    for (std::thread& t : pool) t.join();
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kLimbs));
}
BENCHMARK(TwoBoneBatchThreads)->Arg(1)->Arg(2)->UseRealTime();

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
  TimeBatch(state, job, out.data());
}
BENCHMARK(AimBatch);

// Single-item jobs on the same problems, one Run() per item (the path of
// users who solve one limb or joint at a time; see BENCHMARKS.md).
glm::vec3 Vec3At(const std::vector<float>& f, std::size_t i) { return {f[3 * i], f[3 * i + 1], f[3 * i + 2]}; }
glm::quat QuatAt(const std::vector<float>& f, std::size_t i) {
  return glm::quat(f[4 * i + 3], f[4 * i], f[4 * i + 1], f[4 * i + 2]);
}

void TwoBoneSingle(benchmark::State& state) {
  const bench::TwoBoneProblems p = bench::MakeTwoBoneProblems(kItems);
  ikpd::TwoBoneResult result;
  ikpd::TwoBoneJob job;
  job.settings.soften = 0.05f;
  job.settings.pole = ikpd::TwoBonePole::kPoint;
  job.result = &result;
  for (auto _ : state) {
    for (std::size_t i = 0; i < kItems; ++i) {
      job.frame.root = {Vec3At(p.rootPosition, i), QuatAt(p.rootRotation, i)};
      job.frame.mid = {Vec3At(p.midPosition, i), QuatAt(p.midRotation, i)};
      job.frame.end = {Vec3At(p.endPosition, i), QuatAt(p.endRotation, i)};
      job.frame.target = Vec3At(p.target, i);
      job.frame.pole = Vec3At(p.pole, i);
      job.frame.weight = p.weight[i];
      if (!job.Run()) state.SkipWithError("TwoBoneJob failed");
      benchmark::DoNotOptimize(result);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kItems));
}
BENCHMARK(TwoBoneSingle);

void AimSingle(benchmark::State& state) {
  const bench::AimProblems p = bench::MakeAimProblems(kItems);
  glm::quat result;
  ikpd::AimJob job;
  job.result = &result;
  for (auto _ : state) {
    for (std::size_t i = 0; i < kItems; ++i) {
      job.frame.position = Vec3At(p.position, i);
      job.frame.rotation = QuatAt(p.rotation, i);
      job.frame.target = Vec3At(p.target, i);
      job.settings.pole = true, job.frame.pole = Vec3At(p.pole, i);
      job.frame.weight = p.weight[i];
      if (!job.Run()) state.SkipWithError("AimJob failed");
      benchmark::DoNotOptimize(result);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kItems));
}
BENCHMARK(AimSingle);

// The same problems through prepared settings: Prepare once, then per item
// only the frame check and the kernel (docs/ik/two-bone.md, prepared settings).
void TwoBonePrepared(benchmark::State& state) {
  const bench::TwoBoneProblems p = bench::MakeTwoBoneProblems(kItems);
  ikpd::TwoBoneResult result;
  ikpd::TwoBoneSettings settings;
  settings.soften = 0.05f;
  settings.pole = ikpd::TwoBonePole::kPoint;
  ikpd::TwoBoneSetup setup;
  if (!ikpd::Prepare(settings, &setup)) state.SkipWithError("Prepare failed");
  ikpd::TwoBoneFrame frame;
  for (auto _ : state) {
    for (std::size_t i = 0; i < kItems; ++i) {
      frame.root = {Vec3At(p.rootPosition, i), QuatAt(p.rootRotation, i)};
      frame.mid = {Vec3At(p.midPosition, i), QuatAt(p.midRotation, i)};
      frame.end = {Vec3At(p.endPosition, i), QuatAt(p.endRotation, i)};
      frame.target = Vec3At(p.target, i);
      frame.pole = Vec3At(p.pole, i);
      frame.weight = p.weight[i];
      if (!ikpd::SolveTwoBone(setup, frame, &result)) state.SkipWithError("SolveTwoBone failed");
      benchmark::DoNotOptimize(result);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kItems));
}
BENCHMARK(TwoBonePrepared);

void AimPrepared(benchmark::State& state) {
  const bench::AimProblems p = bench::MakeAimProblems(kItems);
  glm::quat result;
  ikpd::AimSettings settings;
  settings.pole = true;
  ikpd::AimSetup setup;
  if (!ikpd::Prepare(settings, &setup)) state.SkipWithError("Prepare failed");
  ikpd::AimFrame frame;
  for (auto _ : state) {
    for (std::size_t i = 0; i < kItems; ++i) {
      frame.position = Vec3At(p.position, i);
      frame.rotation = QuatAt(p.rotation, i);
      frame.target = Vec3At(p.target, i);
      frame.pole = Vec3At(p.pole, i);
      frame.weight = p.weight[i];
      if (!ikpd::SolveAim(setup, frame, &result)) state.SkipWithError("SolveAim failed");
      benchmark::DoNotOptimize(result);
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kItems));
}
BENCHMARK(AimPrepared);

// PD updates (kp 100, kd 20, 60 Hz): the states converge toward the targets
// over the iterations; the work per update does not depend on them.
template <class Job>
void TimePd(benchmark::State& state, std::vector<float> value, std::vector<float> velocity,
            const std::vector<float>& target) {
  Job job;
  job.settings.kp = 100.0;
  job.settings.kd = 20.0;
  job.dt = 1.0 / 60.0;
  job.count = kItems;
  job.value = value.data();
  job.velocity = velocity.data();
  job.target = target.data();
  TimeBatch(state, job, value.data());
}

void PdBatch(benchmark::State& state) {
  const bench::PdProblems p = bench::MakePdProblems(kItems);
  TimePd<ikpd::PdBatchJob>(state, p.value, p.velocity, p.target);
}
BENCHMARK(PdBatch);

void QuatPdBatch(benchmark::State& state) {
  const bench::PdProblems p = bench::MakePdProblems(kItems);
  TimePd<ikpd::QuatPdBatchJob>(state, p.qValue, p.qVelocity, p.qTarget);
}
BENCHMARK(QuatPdBatch);

// The look-at's six joint PDs (settleTime 0.3 s, critically damped, maxSpeed 8
// rad/s: velocity-limited exact sub-steps, two at 60 Hz) toward targets that
// move a little every frame: pd::UpdateQuatPDs (float lanes) against each
// QuatPD's own Update (double). Items: controller updates.
template <bool kLanes>
void QuatPdLimited(benchmark::State& state) {
  ikpd::pd::PdSettings s;
  if (!ikpd::pd::SettingsFromSettleTime(0.3, 1.0, &s)) std::abort();
  s.maxVelocity = 8.0;
  std::vector<ikpd::pd::QuatPD> pds(6, ikpd::pd::QuatPD(s));
  std::vector<glm::quat> targets(6);
  int frame = 0;
  for (auto _ : state) {
    const float a = 0.3f * std::sin(0.1f * static_cast<float>(frame++));
    for (std::size_t i = 0; i < targets.size(); ++i) targets[i] = glm::angleAxis(a * static_cast<float>(i + 1) / 6.0f, glm::vec3(0, 1, 0));
    if constexpr (kLanes) {
      if (!ikpd::pd::UpdateQuatPDs(1.0 / 60.0, pds, targets)) state.SkipWithError("UpdateQuatPDs failed");
    } else {
      for (std::size_t i = 0; i < pds.size(); ++i) {
        if (!pds[i].Update(1.0 / 60.0, targets[i])) state.SkipWithError("Update failed");
      }
    }
    benchmark::DoNotOptimize(pds.data());
  }
  state.SetItemsProcessed(state.iterations() * 6);
}
BENCHMARK(QuatPdLimited<true>)->Name("QuatPdLimited/lanes");
BENCHMARK(QuatPdLimited<false>)->Name("QuatPdLimited/each");

#if __has_include("ikpd/ik/chain.h")
// N-bone chain (bones of 0.1 along +Y, straight rest pose), FABRIK / CCD to
// 1e-4 of the chain length (at most 200 iterations), as in bench/run.mjs.
template <ikpd::ChainMethod kMethod>
void Chain(benchmark::State& state) {
  const int bones = static_cast<int>(state.range(0));
  std::vector<ikpd::Transform> joints(static_cast<std::size_t>(bones) + 1), out(joints.size());
  for (int j = 0; j <= bones; ++j) joints[static_cast<std::size_t>(j)].position = {0.0f, 0.1f * static_cast<float>(j), 0.0f};
  const std::vector<float> targets = bench::MakeChainTargets(256, 0.1 * bones);
  ikpd::ChainResult result;
  ikpd::ChainJob job;
  job.frame.joints = joints;
  job.output = out;
  job.result = &result;
  job.settings.method = kMethod;
  job.settings.iterations = 200;
  job.settings.tolerance = 1e-4f;
  job.settings.forward = {0.0f, 1.0f, 0.0f};
  for (auto _ : state) {
    for (std::size_t i = 0; i < 256; ++i) {
      job.frame.target = {targets[3 * i], targets[3 * i + 1], targets[3 * i + 2]};
      if (!job.Run()) state.SkipWithError("ChainJob failed");
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * 256));
}
BENCHMARK(Chain<ikpd::ChainMethod::kFabrik>)->Name("ChainFabrik")->Arg(3)->Arg(10);
BENCHMARK(Chain<ikpd::ChainMethod::kCcd>)->Name("ChainCcd")->Arg(3)->Arg(10);
#endif

// The core clock, for the two-bone kernel's FP-throughput limit in npm run
// bench (cycles = ns × GHz): a chain of dependent integer additions, one per
// cycle. Items = additions, so ns/item = ns per cycle.
void CoreClock(benchmark::State& state) {
#if defined(__x86_64__)
  constexpr std::int64_t kAdds = 1 << 22;
  for (auto _ : state) {
    std::uint64_t x = 0;
    for (std::int64_t i = 0; i < kAdds / 8; ++i) {
      asm volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                   "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
                   : "+r"(x));
    }
    benchmark::DoNotOptimize(x);
  }
  state.SetItemsProcessed(state.iterations() * kAdds);
#else
  state.SkipWithError("x86-64 only");
#endif
}
BENCHMARK(CoreClock);

}  // namespace

BENCHMARK_MAIN();
