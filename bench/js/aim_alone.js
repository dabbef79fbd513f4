// AimSolver.solve(frame) and the pure-JS aim port in a process that runs
// nothing else, so the library's input readers see one input style (arrays)
// only. bench/run.mjs starts it and prints its figures beside its own row,
// which it times after the other single-call rows (arrays and three.js
// objects through the same readers). Prints { aimSolver, aimJs } in ns.
// Not shipped.
import { init } from '../../web/index.js';
import { makeAimProblems } from '../problems.js';
import { solveAimJS } from './ik.js';
import { measure } from './measure.js';

const N = 1024;
const ikpd = await init();
const ap = makeAimProblems(N);
const frames = Array.from({ length: N }, (_, i) => ({
  position: Array.from(ap.position.subarray(3 * i, 3 * i + 3)),
  rotation: Array.from(ap.rotation.subarray(4 * i, 4 * i + 4)),
  target: Array.from(ap.target.subarray(3 * i, 3 * i + 3)),
}));
const solver = new ikpd.AimSolver({ pole: [0, 1, 0] });
const out = { rotation: new Float32Array(4 * N) };
const aimSolver = measure(() => { for (let i = 0; i < N; i++) solver.solve(frames[i]); }, N);
const aimJs = measure(() => { for (let i = 0; i < N; i++) solveAimJS(ap, out, i); }, N);
solver.dispose();
console.log(JSON.stringify({ aimSolver, aimJs }));
