// How bench/run.mjs (and the scripts it starts) time JS and WASM: CPU time,
// a warm-up, then the median of REPS samples; and how they read a Google
// Benchmark executable's medians. `--quick` on the command line takes fewer
// and shorter samples. Not shipped.
import { execFileSync } from 'node:child_process';

export const quick = process.argv.includes('--quick');
export const REPS = quick ? 5 : 15;
export const MIN_MS = quick ? 10 : 40;
// Warm-up before timing: V8 first runs WebAssembly (and JS) in its baseline
// tier and swaps in optimized code when a background compile finishes, which
// for the large batch kernels takes a few hundred ms on this 2-core machine.
const WARM_MS = quick ? 100 : 400;

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
};

// CPU time of this process in ms (user + system). Timings use CPU time, like
// Google Benchmark's rates, so a shared, loaded machine distorts them less.
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Median ns (CPU time) per item of `fn`, which processes `items` items per call. */
export function measure(fn, items) {
  for (const t0 = cpuMs(); cpuMs() - t0 < WARM_MS;) fn();
  let iterations = 1;
  for (;;) {
    const t0 = cpuMs();
    for (let k = 0; k < iterations; k++) fn();
    if (cpuMs() - t0 >= MIN_MS) break;
    iterations *= 2;
  }
  const samples = [];
  for (let r = 0; r < REPS; r++) {
    const t0 = cpuMs();
    for (let k = 0; k < iterations; k++) fn();
    samples.push(((cpuMs() - t0) * 1e6) / (iterations * items));
  }
  return median(samples);
}

/**
 * Median ns per item of each benchmark of the Google Benchmark executable
 * `exe` (CPU time; items as each benchmark counts them), optionally
 * filtered: `{ results: { name: ns }, context }`.
 */
export function nativeMedians(exe, { filter = null, reps = REPS, minMs = MIN_MS } = {}) {
  const json = JSON.parse(execFileSync(exe, [
    '--benchmark_format=json', `--benchmark_repetitions=${reps}`, '--benchmark_report_aggregates_only=true',
    `--benchmark_min_time=${minMs / 1000}`, ...(filter ? [`--benchmark_filter=${filter}`] : []),
  ], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 }));
  const results = {};
  for (const b of json.benchmarks) {
    if (b.aggregate_name === 'median' && b.items_per_second) results[b.run_name] = 1e9 / b.items_per_second;
  }
  return { results, context: json.context };
}
