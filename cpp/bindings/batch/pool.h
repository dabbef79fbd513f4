// The threaded module's worker pool (docs/batch/batches.md, "Threads"): a
// fixed set of threads, started once per module, that share each batch's
// solve()/update() with the calling thread. Only in the -pthread build
// (ikpd_wasm_threads); the default module has no pool and runs every batch
// on the calling thread.
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>

#include "ikpd/batch/slice.h"
#include "../../src/simd/lane_types.h"

namespace ikpd::bindings::pool {

// Most threads one module runs (the caller + 15 workers); init({ threads })
// takes 1 .. kMaxThreads (web/src/module.js).
inline constexpr unsigned kMaxThreads = 16;
// Batches below this many items run on the calling thread: for them waking
// the workers costs more than it saves (docs/batch/batches.md, the model).
inline constexpr std::size_t kMinParallelItems = 2048;

// Starts threads − 1 workers (once; later calls keep the first pool).
// Returns the number of threads solves use (1 without -pthread).
unsigned Start(unsigned threads);
// Threads each solve uses: what Start() made, or 1.
unsigned Threads();
// Has solves use `n` of the started threads (clamped to [1, started]; for
// benchmarks: one module timed at 1 and at n threads). Returns Threads().
unsigned Use(unsigned n);

// Runs part(k) for k in [0, parts) — k = 0 on the caller, the others on the
// workers — and returns when every part has returned. parts <= Threads().
void Run(unsigned parts, void (*part)(void* context, unsigned k), void* context);

// Items [0, count) of a batch job run as Threads() contiguous parts of whole
// SIMD groups (simd::kWide items; batch::Slice), each part writing exactly
// its own items' floats.
// Fewer than kMinParallelItems items, or one thread: job.Run() on the caller.
// Errors: the first failing part's Status, *failedItem the failing item's
// index in the whole batch (the other parts still ran).
template <class Job>
Status RunSplit(const Job& job, std::size_t* failedItem);

// ------------------------------------------------------------ implementation
inline constexpr std::size_t kLane = simd::kWide;  // items per SIMD group (8: two f32x4 registers)

template <class Job>
struct SplitRun {
  const Job* job;
  std::size_t step;  // items per part, whole lanes
  std::size_t failed[kMaxThreads];
  Status status[kMaxThreads];
};

template <class Job>
void RunPart(void* context, unsigned k) {
  auto& run = *static_cast<SplitRun<Job>*>(context);
  const std::size_t begin = std::min(run.job->count, k * run.step);
  Job part;
  run.status[k] = batch::Slice(*run.job, begin, std::min(run.step, run.job->count - begin), &part);
  if (!run.status[k]) return;
  part.failedItem = &run.failed[k];
  run.status[k] = part.Run();
}

template <class Job>
Status RunSplit(const Job& job, std::size_t* failedItem) {
  const unsigned threads = Threads();
  if (threads < 2 || job.count < kMinParallelItems) return job.Run();
  SplitRun<Job> run{&job, 0, {}, {}};
  const std::size_t lanes = (job.count + kLane - 1) / kLane;
  run.step = (lanes + threads - 1) / threads * kLane;
  Run(threads, &RunPart<Job>, &run);
  for (unsigned k = 0; k < threads; ++k) {
    if (run.status[k]) continue;
    if (failedItem != nullptr) *failedItem = k * run.step + run.failed[k];
    return run.status[k];
  }
  return Ok();
}

}  // namespace ikpd::bindings::pool
