// Run by tests/js/batch/crowdAlloc.test.js under `node --trace-gc`: the demo's
// crowd (demo/lib/crowd.js, 64 characters) stepped 50,000 times between two
// markers ('crowd'), or only what its frame calls in ikpd and the clock
// ('calls': the three batch calls and six performance.now() per frame, the
// same sizes), so the test can compare the collections V8 prints in each.
import { init } from '../../web/index.js';
import { createCrowd, PER_CHARACTER } from '../../demo/lib/crowd.js';

const COUNT = 64;
const ikpd = await init();
const crowd = createCrowd(ikpd, COUNT);
const matrices = Object.fromEntries(Object.entries(PER_CHARACTER).map(([kind, per]) => [kind, new Float32Array(16 * per * COUNT)]));
const target = [3, 2, 1];
const aim = new ikpd.AimBatch(5 * COUNT, { poleMode: 'point', forward: [0, 0, 1] });
const pd = new ikpd.QuatPDBatch(5 * COUNT, { settleTime: 0.3 });
const legs = new ikpd.TwoBoneBatch(4 * COUNT, { poleMode: 'point', forward: [0, -1, 0], bendAxis: [1, 0, 0] });
const views = { pdTarget: pd.input.target, aimRotation: aim.output.rotation };
let clock = 0;
const frames = {
  crowd: (i) => {
    target[0] = 3 * Math.cos(i * 0.01);
    crowd.step(1 / 60, target, matrices);
  },
  calls: () => {
    for (let k = 0; k < 3; k++) clock += performance.now();
    aim.solve();
    views.pdTarget.set(views.aimRotation);
    pd.update(1 / 60);
    for (let k = 0; k < 3; k++) clock -= performance.now();
    legs.solve();
  },
};
const frame = frames[process.argv[2]];
// Warm-up long enough for V8's optimizing tier (code in a lower tier boxes numbers).
const start = performance.now();
for (let i = 0; i < 20000 || performance.now() - start < 2000; i++) frame(i);
console.log('--- measure');
for (let i = 0; i < 50000; i++) frame(i);
console.log('--- done', clock > 0);
