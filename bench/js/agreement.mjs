// Checks that the pure-JS benchmark solvers (bench/js/ik.js) compute what the
// WASM batches compute on the benchmark's own problem sets, so the JS column
// of `npm run bench` times the same algorithm. Used by
// tests/js/bench-js.test.js; `node bench/js/agreement.mjs` prints the largest
// differences (rotations compared up to sign).
//
// The JS solvers work in doubles, the WASM kernels in float32, so on an
// ill-conditioned item float rounding alone moves the WASM result by more than
// 1e-5: a nearly folded limb (target within 1 % of the limb length of the
// closest reachable distance |a − b|, where sin B ~ √(c − |a − b|)) or an aim pole
// within 1 % (sin) of the target direction (the roll angle comes from the
// pole's tiny component off the forward axis). Those items are reported apart.
import { makeAimProblems, makeTwoBoneProblems } from '../problems.js';
import { solveAimJS, solveTwoBoneJS } from './ik.js';

const QUATERNIONS = new Set(['rootRotation', 'midRotation', 'endRotation', 'rotation']);
const ILL_CONDITIONED = 0.01;

/**
 * Largest |js − wasm| per output field (quaternions up to sign), over the
 * well-conditioned items (`max`) and the ill-conditioned ones (`illMax`).
 */
function maxDifferences(js, wasm, n, illConditioned) {
  const out = { max: {}, illMax: {}, illItems: [] };
  for (let i = 0; i < n; i++) if (illConditioned(i)) out.illItems.push(i);
  for (const name of Object.keys(wasm)) {
    const a = js[name], b = wasm[name];
    const size = b.length / n;
    let max = 0, illMax = 0;
    for (let i = 0; i < n; i++) {
      let same = 0, flipped = 0;
      for (let k = 0; k < size; k++) {
        same = Math.max(same, Math.abs(a[size * i + k] - b[size * i + k]));
        flipped = Math.max(flipped, Math.abs(a[size * i + k] + b[size * i + k]));
      }
      const d = QUATERNIONS.has(name) ? Math.min(same, flipped) : same;
      if (illConditioned(i)) illMax = Math.max(illMax, d);
      else max = Math.max(max, d);
    }
    out.max[name] = max;
    out.illMax[name] = illMax;
  }
  return out;
}

const zerosLike = (fields) => Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, new Float32Array(v.length)]));
const distance = (u, v, i) => Math.hypot(u[3 * i] - v[3 * i], u[3 * i + 1] - v[3 * i + 1], u[3 * i + 2] - v[3 * i + 2]);

/** solveTwoBoneJS vs TwoBoneBatch on the benchmark's n problems (pole point, soften 0.05). */
export function twoBoneDifferences(ikpd, n = 1024) {
  const p = makeTwoBoneProblems(n);
  const batch = new ikpd.TwoBoneBatch(n, { poleMode: 'point', soften: 0.05 });
  try {
    for (const k of Object.keys(p)) batch.input[k].set(p[k]);
    batch.solve();
    const js = zerosLike(batch.output);
    for (let i = 0; i < n; i++) solveTwoBoneJS(p, js, i, 0.05);
    const folded = (i) => {
      const a = distance(p.midPosition, p.rootPosition, i), b = distance(p.endPosition, p.midPosition, i);
      return Math.abs(distance(p.target, p.rootPosition, i) - Math.abs(a - b)) < ILL_CONDITIONED * (a + b);
    };
    return maxDifferences(js, batch.output, n, folded);
  } finally {
    batch.dispose();
  }
}

/** solveAimJS vs AimBatch on the benchmark's n problems (yawPitch, pole point). */
export function aimDifferences(ikpd, n = 1024) {
  const p = makeAimProblems(n);
  const batch = new ikpd.AimBatch(n, { poleMode: 'point' });
  try {
    for (const k of Object.keys(p)) batch.input[k].set(p[k]);
    batch.solve();
    const js = zerosLike(batch.output);
    for (let i = 0; i < n; i++) solveAimJS(p, js, i);
    const poleAlongTarget = (i) => {
      const t = [0, 1, 2].map((k) => p.target[3 * i + k] - p.position[3 * i + k]);
      const q = [0, 1, 2].map((k) => p.pole[3 * i + k] - p.position[3 * i + k]);
      const cross = Math.hypot(t[1] * q[2] - t[2] * q[1], t[2] * q[0] - t[0] * q[2], t[0] * q[1] - t[1] * q[0]);
      return cross < ILL_CONDITIONED * Math.hypot(...t) * Math.hypot(...q);
    };
    return maxDifferences(js, batch.output, n, poleAlongTarget);
  } finally {
    batch.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { init } = await import('../../web/index.js');
  const ikpd = await init({ batch: true });
  console.log('two-bone', twoBoneDifferences(ikpd));
  console.log('aim', aimDifferences(ikpd));
}
