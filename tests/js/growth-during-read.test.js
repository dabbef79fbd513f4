// WASM memory growth while a wrapper reads the caller's inputs (a getter or
// Proxy that creates an ikpd object) detaches every view over the memory, and
// writes through the old view vanish: solveTwoBone solved the previous target,
// TwoBoneSolver returned undefined coordinates, QuatPD rejected a valid
// target. Every wrapper must give the same result as without the growth.
import { describe, expect, it } from 'vitest';
import { ikpd } from '../support/setup.js';

// Forces WASM memory to grow (by about a fifth): 4 MiB pixel buffers until
// the heap is larger, held until release() frees them after the call under test.
const held = [];
function grow() {
  const before = ikpd.memoryStats().heapBytes;
  while (ikpd.memoryStats().heapBytes === before) held.push(ikpd.hdr.createBuffer(1 << 20, 1));
}
// Overwrites the scratch and PD buffers with other data, so a lost write
// cannot pass by leaving the previous (identical) call's inputs in place.
function scribble() {
  ikpd.toLocalRotations(Array.from({ length: 500 }, (_, i) => ({ rotation: [Math.sin(i), Math.cos(i), 0.3, 1] })));
  new ikpd.PD({ settleTime: 5, damping: 0.3, maxVelocity: 3, integrator: 'stable' }).dispose();
}

function release() {
  while (held.length) held.pop().dispose();
}

// `value` behind a getter that calls `onRead` the first time it is read.
function getter(object, key, value, onRead) {
  let first = true;
  Object.defineProperty(object, key, {
    enumerable: true,
    get() {
      if (first) {
        first = false;
        onRead();
      }
      return value;
    },
  });
  return object;
}
// An array Proxy over `values` that calls `onRead` when element 0 is first read.
function proxyArray(values, onRead) {
  let first = true;
  return new Proxy(values, {
    get(target, key, receiver) {
      if (key === '0' && first) {
        first = false;
        onRead();
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

const joint = (x, y, z, rotation = [0, 0, 0, 1]) => ({ position: [x, y, z], rotation });
const plain = (value) => JSON.parse(JSON.stringify(value));

// [name, run(onRead)]: makes its call with `onRead` inside an input's read and returns plain data.
const CASES = [
  ['solveTwoBone', (on) => ikpd.solveTwoBone(getter({ mid: joint(1, 0, 0), end: joint(2, 0, 0), target: [0.5, 1.2, 0.3], pole: [0, 0, 1] }, 'root', joint(0, 0, 0), on))],
  ['solveAim', (on) => ikpd.solveAim({ position: proxyArray([0, 0, 0], on), target: [1, 2, 3], up: [0, 0, 1] })],
  ['solvePseudoThreeBone', (on) => ikpd.solvePseudoThreeBone(getter(
    { mid: joint(1, -0.2, 0), end: joint(2, 0, 0), tip: joint(2.3, -0.1, 0), target: [1.5, 0.8, 0.2], blend: 0.5 }, 'root', joint(0, 0, 0), on))],
  ['solveChain', (on) => ikpd.solveChain({ joints: [joint(0, 0, 0), getter({}, 'position', [0, 1, 0], on), joint(0, 2, 0)], target: [1, 1, 0.5], method: 'ccd' })],
  ['toLocalRotations', (on) => ikpd.toLocalRotations([{ rotation: proxyArray([0, 0, 0.38, 0.92], on) }, { rotation: [0, 0.2, 0, 1] }])],
  ['hdr.gammaEncode', (on) => ikpd.hdr.gammaEncode(proxyArray([0.2, 0.5, 0.9], on))],
  ['TwoBoneSolver', (on) => {
    const solver = new ikpd.TwoBoneSolver({ pole: [0, 0, 1] });
    try {
      return plain(solver.solve(getter({ mid: joint(1, 0, 0), end: joint(2, 0, 0), target: [0.5, 1.2, 0.3] }, 'root', joint(0, 0, 0), on)));
    } finally { solver.dispose(); }
  }],
  ['TwoBoneSolver.setOptions', (on) => {
    const solver = new ikpd.TwoBoneSolver();
    try {
      solver.setOptions(getter({ soften: 0.2 }, 'pole', [0, 0, 1], on));
      return plain(solver.solve({ root: joint(0, 0, 0), mid: joint(1, 0, 0), end: joint(2, 0, 0), target: [0.5, 1.2, 0.3] }));
    } finally { solver.dispose(); }
  }],
  ['ChainSolver', (on) => {
    const solver = new ikpd.ChainSolver(3, { method: 'ccd' });
    try {
      return plain(solver.solve({ joints: [joint(0, 0, 0), getter({}, 'position', [0, 1, 0], on), joint(0, 2, 0)], target: [1, 1, 0.5] }));
    } finally { solver.dispose(); }
  }],
  ['QuatPD.update', (on) => {
    const pd = new ikpd.QuatPD({ settleTime: 0.3 });
    try {
      return [...pd.update(1 / 30, proxyArray([0, 0.3, 0, 0.95], on))];
    } finally { pd.dispose(); }
  }],
  ['Vec3PD.reset and update', (on) => {
    const pd = new ikpd.Vec3PD({ settleTime: 0.3 });
    try {
      pd.reset(proxyArray([0, 1, 0], on), [0.1, 0, 0]);
      return [...pd.update(1 / 30, [1, 0, 0])];
    } finally { pd.dispose(); }
  }],
  ['PD options', (on) => {
    const pd = new ikpd.PD(getter({ damping: 'responsive' }, 'settleTime', 0.4, on));
    try {
      return [pd.kp, pd.kd, pd.update(1 / 30, 1)];
    } finally { pd.dispose(); }
  }],
  ['QuatPD.trackOffset', (on) => {
    const pd = new ikpd.QuatPD({ settleTime: 0.3 });
    try {
      return pd.trackOffset(1 / 30, proxyArray([0, 0, 0.2, 0.98], on), [0.3, 0, 0, 0.95]);
    } finally { pd.dispose(); }
  }],
  ['TwoBoneBatch.setOptions', (on) => {
    const batch = new ikpd.TwoBoneBatch(1);
    try {
      batch.setOptions(getter({ soften: 0.1 }, 'poleMode', 'point', on));
      batch.input.midPosition.set([1, 0, 0]);
      batch.input.endPosition.set([2, 0, 0]);
      batch.input.target.set([0.5, 1.2, 0.3]);
      batch.input.pole.set([0, 0, 1]);
      return Array.from(batch.solve().output.midRotation);
    } finally { batch.dispose(); }
  }],
  ['PDBatch.setOptions', (on) => {
    const batch = new ikpd.PDBatch(1);
    try {
      batch.setOptions(getter({}, 'settleTime', 0.2, on));
      batch.input.target[0] = 1;
      return Array.from(batch.update(1 / 30).state.value);
    } finally { batch.dispose(); }
  }],
  ['LookAt', (on) => {
    const look = new ikpd.LookAt({ weights: proxyArray([0.5, 1], on), settleTime: 0.2 });
    try {
      const frame = { joints: [joint(0, 0, 0), getter({ rotation: [0, 0, 0, 1] }, 'position', [0, 1, 0], () => {})], target: [1, 2, 1] };
      return plain(look.update(1 / 30, frame));
    } finally { look.dispose(); }
  }],
  ['LookAt.update', (on) => {
    const look = new ikpd.LookAt({ weights: [0.5, 1], settleTime: 0.2 });
    try {
      return plain(look.update(1 / 30, { joints: [joint(0, 0, 0), getter({ rotation: [0, 0, 0, 1] }, 'position', [0, 1, 0], on)], target: [1, 2, 1] }));
    } finally { look.dispose(); }
  }],
  ['BodyLookAt', (on) => {
    const rig = new ikpd.BodyLookAt(getter({ spineJoints: 3 }, 'spine', { weights: [0.3, 0.5, 1] }, on));
    try {
      return plain(rig.update(1 / 30, { spine: [joint(0, 1, 0), joint(0, 1.3, 0), joint(0, 1.6, 0)], target: [1, 2, 1] }));
    } finally { rig.dispose(); }
  }],
  ['BodyLookAt.update', (on) => {
    const rig = new ikpd.BodyLookAt({ spineJoints: 3 });
    try {
      return plain(rig.update(1 / 30, { spine: [getter({}, 'position', [0, 1, 0], on), joint(0, 1.3, 0), joint(0, 1.6, 0)], target: [1, 2, 1] }));
    } finally { rig.dispose(); }
  }],
  ['Tentacle2D', (on) => {
    const tentacle = new ikpd.Tentacle2D({ lengths: proxyArray([1, 0.8, 0.6], on), step: 0.2 });
    try {
      tentacle.setAngles([0.1, 0.2, 0.3]);
      tentacle.update([1, 1.5]);
      return tentacle.positions;
    } finally { tentacle.dispose(); }
  }],
  ['Tentacle2D.setAngles', (on) => {
    const tentacle = new ikpd.Tentacle2D({ lengths: [1, 0.8, 0.6] });
    try {
      tentacle.setAngles(proxyArray([0.1, 0.2, 0.3], on));
      return tentacle.positions;
    } finally { tentacle.dispose(); }
  }],
];

describe('WASM memory growth while inputs are read loses nothing', () => {
  it.each(CASES)('%s', (_, run) => {
    const expected = plain(run(() => {}));
    let grew = false;
    scribble();
    try {
      const actual = plain(run(() => {
        grow();
        grew = true;
      }));
      expect(grew).toBe(true);
      expect(actual).toEqual(expected);
    } finally {
      release();
    }
  });
});
