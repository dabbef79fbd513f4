// The threaded module's worker pool (pool.h). Compiled to nothing in the
// default, single-threaded module.
#ifdef __EMSCRIPTEN_PTHREADS__
#include "pool.h"

#include <emscripten/bind.h>
#include <emscripten/threading.h>

#include <atomic>
#include <thread>

namespace ikpd::bindings::pool {
namespace {

// One solve's work, published by Run() before it bumps `generation`.
struct Shared {
  std::atomic<std::uint32_t> generation{0};  // futex word the workers sleep on
  std::atomic<std::uint32_t> pending{0};     // workers still in this generation; futex word of the caller
  void (*part)(void*, unsigned) = nullptr;
  void* context = nullptr;
  unsigned parts = 0;
};

Shared shared;
unsigned started = 1;  // the caller + the workers
unsigned threads = 1;  // those solves use (Use)

// Spins this many rounds before sleeping on the futex: frames come every few
// ms, so a worker that just finished sleeps, while a join of parts of equal
// size mostly ends within the spin.
constexpr int kSpins = 4000;

// Waits until `word` differs from `value`: spins, then sleeps on the futex
// (emscripten_futex_wait busy-waits on a browser's main thread, where
// Atomics.wait is not allowed).
void WaitWhile(std::atomic<std::uint32_t>& word, std::uint32_t value) {
  for (int i = 0; i < kSpins; ++i) {
    if (word.load(std::memory_order_acquire) != value) return;
  }
  while (word.load(std::memory_order_acquire) == value) {
    emscripten_futex_wait(&word, value, 1000.0);
  }
}

void Worker(unsigned k) {
  std::uint32_t seen = 0;
  for (;;) {
    WaitWhile(shared.generation, seen);
    seen = shared.generation.load(std::memory_order_acquire);
    if (k < shared.parts) shared.part(shared.context, k);
    if (shared.pending.fetch_sub(1, std::memory_order_acq_rel) == 1) emscripten_futex_wake(&shared.pending, 1);
  }
}

}  // namespace

unsigned Start(unsigned n) {
  if (started > 1 || n < 2) return threads;
  n = std::min(n, kMaxThreads);
  for (unsigned k = 1; k < n; ++k) std::thread(Worker, k).detach();
  started = threads = n;
  return threads;
}

unsigned Threads() { return threads; }

unsigned Use(unsigned n) {
  threads = std::clamp(n, 1u, started);
  return threads;
}

void Run(unsigned parts, void (*part)(void*, unsigned), void* context) {
  shared.part = part;
  shared.context = context;
  shared.parts = parts;
  shared.pending.store(started - 1, std::memory_order_relaxed);
  shared.generation.fetch_add(1, std::memory_order_acq_rel);
  emscripten_futex_wake(&shared.generation, static_cast<int>(started));
  part(context, 0);
  for (std::uint32_t left; (left = shared.pending.load(std::memory_order_acquire)) != 0;) WaitWhile(shared.pending, left);
}

}  // namespace ikpd::bindings::pool

// startThreads(n) → the threads solves use (web/src/threads.js, once per
// module); useThreads(n) → the same, for benchmarks (bench/js/threads.js).
EMSCRIPTEN_BINDINGS(ikpd_pool) {
  emscripten::function("startThreads", +[](unsigned n) { return ikpd::bindings::pool::Start(n); });
  emscripten::function("useThreads", +[](unsigned n) { return ikpd::bindings::pool::Use(n); });
}
#endif
