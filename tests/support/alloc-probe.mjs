// The child's side of the allocation tests (tests/support/alloc-run.js): counts
// the bytes a per-frame function allocates on V8's young generation. Run under
// ALLOC_PROBE_FLAGS: `--expose-gc` and a young generation of 64 MiB, so no
// collection comes during a measure (`--trace-gc` shows one if it does, which
// voids the figure). After a warm-up long enough for V8's optimizing tier (code
// in a lower tier boxes numbers), a full collection, then `frames` calls: the
// young generation's growth over them, less what reading it costs, is every
// byte they allocated there (objects, boxed numbers, closures, arrays), exact to
// the byte, so five thousand frames show one object per frame as tens of
// kilobytes.
import v8 from 'node:v8';

export const ALLOC_PROBE_FLAGS = ['--expose-gc', '--trace-gc', '--min-semi-space-size=64', '--max-semi-space-size=64'];

const NEW_SPACE = v8.getHeapSpaceStatistics().findIndex((space) => space.space_name === 'new_space');
const youngUsed = () => v8.getHeapSpaceStatistics()[NEW_SPACE].space_used_size;

/**
 * After the warm-up, `rounds` measures of `frames` calls each: each starts after
 * a full collection and prints "--- measure <name>" and
 * "--- done <name> <bytes> <frames>". The runner takes the least of them: an
 * allocation in every frame (or every few hundred) shows in each round, while
 * V8 re-optimizing code after a deoptimization (its lower tier boxes numbers)
 * shows in one.
 */
export function measureAllocation(name, frame, { frames = 5000, rounds = 4, warmup = 5000, warmupMs = 2000 } = {}) {
  // One loop for the warm-up and the measures, called in runs: the measures run
  // the code the warm-up optimized (a second loop would start in a lower tier).
  const run = (from, count) => { for (let i = from; i < from + count; i++) frame(i); };
  const start = performance.now();
  let i = 0;
  for (; i < warmup || performance.now() - start < warmupMs; i += 500) run(i, 500);
  for (let round = 0; round < rounds; round++, i += frames) {
    globalThis.gc();
    let base = youngUsed();
    const reading = youngUsed() - base; // what one reading allocates (its result objects)
    console.log(`--- measure ${name}`);
    base = youngUsed();
    run(i, frames);
    const bytes = youngUsed() - base - reading;
    console.log(`--- done ${name} ${bytes} ${frames}`);
  }
}
