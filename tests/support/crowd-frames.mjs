// Run by tests/js/batch/crowdAlloc.test.js under the allocation probe
// (tests/support/alloc-probe.mjs): the bytes the demo's crowd (64 characters)
// allocates over 2,000 frames, or only what its frame calls in ikpd and the
// clock, at the same sizes, so the test can compare the two. Modes: 'crowd'
// (demo/lib/crowd.js) against 'calls' (its three batch calls and six
// performance.now() per frame); 'rigBatch' (demo/lib/crowdRigBatch.js)
// against 'rigBatchCalls' (one RigBatch.update, the views it reads and four
// performance.now() per frame).
import { init } from '../../web/index.js';
import { createCrowd, PER_CHARACTER } from '../../demo/lib/crowd.js';
import { createRigBatchCrowd } from '../../demo/lib/crowdRigBatch.js';
import { createCrowdRig } from '../../demo/lib/crowdRig.js';
import { measureAllocation } from './alloc-probe.mjs';

const COUNT = 64;
const ikpd = await init({ batch: true });
const mode = process.argv[2];
const matrices = Object.fromEntries(Object.entries(PER_CHARACTER).map(([kind, per]) => [kind, new Float32Array(16 * per * COUNT)]));
const target = [3, 2, 1];
let clock = 0;

function crowdFrames(create) {
  const crowd = create(ikpd, COUNT);
  return (i) => {
    target[0] = 3 * Math.cos(i * 0.01);
    crowd.step(1 / 60, target, matrices);
  };
}

function batchCalls() {
  const aim = new ikpd.AimBatch(5 * COUNT, { poleMode: 'point', forward: [0, 0, 1] });
  const pd = new ikpd.QuatPDBatch(5 * COUNT, { settleTime: 0.3 });
  const legs = new ikpd.TwoBoneBatch(4 * COUNT, { poleMode: 'point', forward: [0, -1, 0], bendAxis: [1, 0, 0] });
  const views = { pdTarget: pd.input.target, aimRotation: aim.output.rotation };
  return () => {
    for (let k = 0; k < 3; k++) clock += performance.now();
    aim.solve();
    views.pdTarget.set(views.aimRotation);
    pd.update(1 / 60);
    for (let k = 0; k < 3; k++) clock -= performance.now();
    legs.solve();
  };
}

function rigBatchCalls() {
  const rig = createCrowdRig(ikpd);
  const batch = new ikpd.RigBatch({ rig, count: COUNT });
  rig.dispose();
  const constraints = batch.constraints;
  const sink = new Float64Array(1); // stores doubles without boxing them
  return () => {
    for (let k = 0; k < 2; k++) sink[0] += performance.now();
    for (let k = 0; k < constraints.length; k++) sink[0] += constraints[k].targets.length + constraints[k].poles.length;
    sink[0] += batch.rootPositions.length + batch.rootRotations.length + batch.translations.length;
    batch.update(1 / 60); // on the rest pose: the same calls as the crowd's frame
    sink[0] += batch.output.length;
    for (let k = 0; k < 2; k++) sink[0] -= performance.now();
    clock = sink[0] === 0 ? 1 : 2;
  };
}

const frames = {
  crowd: () => crowdFrames(createCrowd),
  calls: batchCalls,
  rigBatch: () => crowdFrames(createRigBatchCrowd),
  rigBatchCalls,
};
measureAllocation(mode, frames[mode](), { frames: 2000, rounds: 3, warmup: 2000 });
console.log('clock', clock !== 0);
