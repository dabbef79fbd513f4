// Run by tests/js/core-alloc.test.js under the allocation probe
// (tests/support/alloc-probe.mjs): the bytes each per-frame call of the core
// API (no three.js) allocates over 10,000 calls after a warm-up. Names on the
// command line pick calls (default: all).
import { init } from '../../web/index.js';
import { measureAllocation } from './alloc-probe.mjs';

const ikpd = await init({ batch: true });
const joint = (x, y = 0) => ({ position: [x, y, 0], rotation: [0, 0, 0, 1] });
const sink = new Float64Array(1); // results land here: a number returned unused could be boxed
const twoBone = { root: joint(0), mid: joint(1), end: joint(2), target: [1, 1, 0] };
const aim = { position: [0, 0, 0], rotation: [0, 0, 0, 1], target: [1, 1, 1] };
const pseudo = { root: joint(0), mid: joint(1), end: joint(2), tip: joint(3), target: [1.5, 1, 0] };
const chainFrame = { joints: [joint(0), joint(1), joint(2), joint(3)], target: [1, 2, 0] };
const lookFrame = { joints: [joint(0), joint(0, 1), joint(0, 2)], target: [1, 2, 3] };
const bodyFrame = { spine: [joint(0, 1), joint(0, 1.3), joint(0, 1.6)], target: [1, 2, 3], eyes: [joint(0.03, 1.7), joint(-0.03, 1.7)] };
const q = [0, 0.3826834, 0, 0.9238795];
const v = [1, 2, 3];
const target2 = [1, 1];

const results = {
  twoBone: ikpd.solveTwoBone(twoBone),
  aim: ikpd.solveAim(aim),
  pseudo: ikpd.solvePseudoThreeBone(pseudo),
  chain: ikpd.solveChain(chainFrame),
};
const made = {
  twoBoneSolver: new ikpd.TwoBoneSolver(),
  aimSolver: new ikpd.AimSolver(),
  pseudoSolver: new ikpd.PseudoThreeBoneSolver(),
  chainSolver: new ikpd.ChainSolver(4),
  pd: new ikpd.PD({ settleTime: 0.2 }),
  anglePD: new ikpd.AnglePD({ settleTime: 0.2 }),
  vec3PD: new ikpd.Vec3PD({ settleTime: 0.2 }),
  quatPD: new ikpd.QuatPD({ settleTime: 0.2 }),
  lookAt: new ikpd.LookAt({ weights: [0.3, 0.5, 1] }),
  bodyLookAt: new ikpd.BodyLookAt({ spineJoints: 3 }),
  tentacle: new ikpd.Tentacle2D({ lengths: [1, 1, 1] }),
  twoBoneBatch: new ikpd.TwoBoneBatch(16),
  aimBatch: new ikpd.AimBatch(16),
  quatPDBatch: new ikpd.QuatPDBatch(16),
  pdBatch: new ikpd.PDBatch(16),
  rigBatch: (() => {
    const rig = new ikpd.Rig({ parents: [-1, 0, 1, 2] });
    rig.add('twoBone', { joints: [1, 2, 3], settleTime: 0.2 });
    const batch = new ikpd.RigBatch({ rig, count: 16 });
    rig.dispose();
    return batch;
  })(),
};

const CALLS = {
  solveTwoBone: () => ikpd.solveTwoBone(twoBone, results.twoBone),
  solveAim: () => ikpd.solveAim(aim, results.aim),
  solvePseudoThreeBone: () => ikpd.solvePseudoThreeBone(pseudo, results.pseudo),
  solveChain: () => ikpd.solveChain(chainFrame, results.chain),
  'TwoBoneSolver.solve': () => made.twoBoneSolver.solve(twoBone),
  'TwoBoneSolver input/run/output': () => {
    made.twoBoneSolver.input[21] = 1;
    made.twoBoneSolver.run();
    sink[0] += made.twoBoneSolver.output[0];
  },
  'AimSolver.solve': () => made.aimSolver.solve(aim),
  'PseudoThreeBoneSolver.solve': () => made.pseudoSolver.solve(pseudo),
  'ChainSolver.solve': () => made.chainSolver.solve(chainFrame),
  'PD.update': () => { sink[0] += made.pd.update(1 / 60, 1); },
  'AnglePD.update': () => { sink[0] += made.anglePD.update(1 / 60, 1); },
  'Vec3PD.update': () => made.vec3PD.update(1 / 60, v),
  'QuatPD.update': () => made.quatPD.update(1 / 60, q),
  'LookAt.update': () => made.lookAt.update(1 / 60, lookFrame),
  'BodyLookAt.update': () => made.bodyLookAt.update(1 / 60, bodyFrame),
  'Tentacle2D.update': () => made.tentacle.update(target2),
  'TwoBoneBatch views + solve': () => {
    made.twoBoneBatch.input.target[0] = 1;
    made.twoBoneBatch.solve();
    sink[0] += made.twoBoneBatch.output.distance[0];
  },
  'AimBatch solve': () => made.aimBatch.solve(),
  'QuatPDBatch views + update': () => {
    made.quatPDBatch.input.target.set(q);
    made.quatPDBatch.update(1 / 60);
  },
  'PDBatch update': () => made.pdBatch.update(1 / 60),
  'RigBatch views + update': () => {
    made.rigBatch.constraints[0].targets[0] = 1;
    made.rigBatch.update(1 / 60);
    sink[0] += made.rigBatch.output[0];
  },
};

const picked = process.argv.slice(2);
const names = picked.length > 0 ? picked : Object.keys(CALLS);
console.log(`--- calls ${names.length}`);
for (const name of names) measureAllocation(name, CALLS[name], { warmup: 20000, warmupMs: 300 });
