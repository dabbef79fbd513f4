// The threaded WASM module (docs/batch/batches.md, "Threads"): a 40,000-limb
// two-bone batch timed (wall time: threads share the work, CPU time would
// add it up) on one threaded module at 1 and at 2 threads, the same run, and
// the scaling model's terms: per-limb cost c (1 thread) and synchronization
// cost s (2 threads on a small batch: T2 − T1 / 2), with its prediction
// T2 = c · n / 2 + s for the 40,000 limbs. Plus init({ threads: 2 }) in a
// fresh Node process; and the crowd frame of 10,000 characters, as one
// RigBatch and as three batches (bench/js/crowd.js), at 1 and 2 threads; and
// the springs crowd (bench/js/springs_crowd.js: 1,000 avatars × 40 spring
// joints, inputs written every frame) as one RigBatch at 1 and 2 threads.
// Not shipped; bench/run.mjs only.
import { execFileSync } from 'node:child_process';
import { createModule } from '../../web/src/module.js';
import { createApi } from '../../web/src/api.js';
import { makeTwoBoneProblems } from '../problems.js';
import { createCrowdRig } from '../../demo/lib/crowdRig.js';
import { fillCrowdFrame } from './rig_batch.js';
import { makeComposedCrowd } from './crowd.js';
import { AVATARS, createSpringsCrowdRig, fillSpringsCrowdFrame } from './springs_crowd.js';
import { median } from './measure.js';

const LIMBS = 40_000;
const SMALL = 4_096;
const CROWD = 10_000; // RigBatch characters (demo/lib/crowdRig.js)

// Median wall ms per call of fn over `reps` samples of at least `minMs` each.
function wallMs(fn, reps, minMs) {
  for (const t0 = performance.now(); performance.now() - t0 < 300;) fn();
  let iterations = 1;
  for (;;) {
    const t0 = performance.now();
    for (let k = 0; k < iterations; k++) fn();
    if (performance.now() - t0 >= minMs) break;
    iterations *= 2;
  }
  const samples = [];
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    for (let k = 0; k < iterations; k++) fn();
    samples.push((performance.now() - t0) / iterations);
  }
  return median(samples);
}

/** { one, two } ms per 40,000-limb solve, their ratio, the model's terms and init ms with 2 threads. */
export async function benchWasmThreads({ reps = 15, minMs = 40 } = {}) {
  const wasm = await createModule({ threads: 2 });
  const api = createApi(wasm);
  const batchOf = (count) => {
    const batch = new api.TwoBoneBatch(count, { poleMode: 'point', soften: 0.05 });
    const p = makeTwoBoneProblems(count);
    for (const k of Object.keys(p)) batch.input[k].set(p[k]);
    return batch;
  };
  const big = batchOf(LIMBS);
  const small = batchOf(SMALL);
  const rig = createCrowdRig(api);
  const crowd = new api.RigBatch({ rig, count: CROWD });
  rig.dispose();
  fillCrowdFrame(crowd);
  const composed = makeComposedCrowd(api, CROWD);
  const springsRig = createSpringsCrowdRig(api);
  const springs = new api.RigBatch({ rig: springsRig, count: AVATARS });
  springsRig.dispose();
  let springsFrame = 0;
  const springsAt = (threads) => () => {
    wasm.useThreads(threads);
    return wallMs(() => { fillSpringsCrowdFrame(springs, springsFrame++); springs.update(1 / 60); }, 1, minMs);
  };
  // Alternate 1 and 2 threads, sample by sample, so that load from elsewhere hits both alike.
  const at = (threads, batch) => () => { wasm.useThreads(threads); return wallMs(() => batch.solve(), 1, minMs); };
  const crowdAt = (threads) => () => { wasm.useThreads(threads); return wallMs(() => crowd.update(1 / 60), 1, minMs); };
  const composedAt = (threads) => () => { wasm.useThreads(threads); return wallMs(() => composed.frame(), 1, minMs); };
  const runs = { one: [], two: [], smallOne: [], smallTwo: [], crowdOne: [], crowdTwo: [], composedOne: [], composedTwo: [], springsOne: [], springsTwo: [] };
  for (let r = 0; r < reps; r++) {
    runs.one.push(at(1, big)());
    runs.two.push(at(2, big)());
    runs.smallOne.push(at(1, small)());
    runs.smallTwo.push(at(2, small)());
    runs.crowdOne.push(crowdAt(1)());
    runs.crowdTwo.push(crowdAt(2)());
    runs.composedOne.push(composedAt(1)());
    runs.composedTwo.push(composedAt(2)());
    runs.springsOne.push(springsAt(1)());
    runs.springsTwo.push(springsAt(2)());
  }
  wasm.useThreads(2);
  big.dispose();
  small.dispose();
  crowd.dispose();
  composed.dispose();
  springs.dispose();
  const [crowdOne, crowdTwo, composedOne, composedTwo] = ['crowdOne', 'crowdTwo', 'composedOne', 'composedTwo'].map((k) => median(runs[k]));
  const [one, two, smallOne, smallTwo] = ['one', 'two', 'smallOne', 'smallTwo'].map((k) => median(runs[k]));
  const perLimbNs = (smallOne / SMALL) * 1e6;
  const syncMs = smallTwo - smallOne / 2;
  const initMs = median(Array.from({ length: 5 }, () => Number(execFileSync(process.execPath, ['--input-type=module', '-e', `
    const t0 = performance.now();
    const { init } = await import(${JSON.stringify(new URL('../../web/index.js', import.meta.url).href)});
    await init({ threads: 2 });
    console.log(performance.now() - t0);`], { encoding: 'utf8' }))));
  return {
    limbs: LIMBS, one, two, ratio: one / two, perLimbNs, syncMs, predictedTwo: (perLimbNs * LIMBS) / 2e6 + syncMs, initMs,
    crowd: { characters: CROWD, one: crowdOne, two: crowdTwo, ratio: crowdOne / crowdTwo },
    composed: { characters: CROWD, one: composedOne, two: composedTwo, ratio: composedOne / composedTwo },
    springs: { avatars: AVATARS, one: median(runs.springsOne), two: median(runs.springsTwo), ratio: median(runs.springsOne) / median(runs.springsTwo) },
  };
}
