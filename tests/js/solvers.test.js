// Prepared solvers (TwoBoneSolver, AimSolver) give exactly the single calls'
// results for the same inputs and options, keep their options between frames,
// reuse one result object, and leave their options unchanged on an error.
import { describe, expect, it } from 'vitest';
import { ikpd } from './setup.js';

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const uniform = (r, lo, hi) => lo + (hi - lo) * r();
const vec = (r, s = 2) => [uniform(r, -s, s), uniform(r, -s, s), uniform(r, -s, s)];
const quat = (r) => [uniform(r, -1, 1), uniform(r, -1, 1), uniform(r, -1, 1), uniform(r, -1, 1)];
const joint = (r) => ({ position: vec(r), rotation: quat(r) });

function twoBoneOptions(r) {
  const o = {};
  if (r() < 0.5) o.pole = vec(r);
  else if (r() < 0.5) o.poleDirection = vec(r);
  if (r() < 0.3) o.soften = uniform(r, 0, 0.5);
  if (r() < 0.3) o.bendDirection = ['auto', 'positive', 'negative'][Math.floor(3 * r())];
  if (r() < 0.3) o.maxStretch = uniform(r, 1, 1.5);
  if (r() < 0.3) o.twist = uniform(r, -1, 1);
  if (r() < 0.3) o.weight = r();
  if (r() < 0.3) o.endRotation = 'relative';
  if (r() < 0.3) o.minAngle = uniform(r, 0, 0.5);
  return o;
}

// Either both throw the same message or both give the same result.
function outcome(f) {
  try {
    return JSON.parse(JSON.stringify(f()));
  } catch (error) {
    return `${error.constructor.name}: ${error.message}`;
  }
}

describe('TwoBoneSolver', () => {
  it('matches solveTwoBone exactly on 3,000 random limbs and options, one solver reused', () => {
    const r = rng(7);
    const solver = new ikpd.TwoBoneSolver();
    for (let i = 0; i < 3000; i++) {
      const options = twoBoneOptions(r);
      const frame = { root: joint(r), mid: joint(r), end: joint(r), target: vec(r) };
      const expected = outcome(() => ikpd.solveTwoBone({ ...frame, ...options }));
      // Reset every option, then set this case's.
      const cleared = { pole: null, poleDirection: null, ...ikpd.TwoBoneSolver.defaults, ...options };
      const actual = outcome(() => solver.setOptions(cleared) && solver.solve(frame));
      expect(actual).toEqual(expected);
    }
    solver.dispose();
  });

  it('returns one reused result object and keeps options between frames', () => {
    const solver = new ikpd.TwoBoneSolver({ pole: [0, -1, 0], soften: 0.1 });
    const frame = { root: { position: [0, 0, 0] }, mid: { position: [1, 0, 0] }, end: { position: [2, 0, 0] }, target: [1, 1, 0] };
    const a = solver.solve(frame);
    const mid = a.mid.position;
    const b = solver.solve({ ...frame, target: [1.2, 0.9, 0] });
    expect(b).toBe(a);
    expect(b.mid.position).toBe(mid);
    expect(b).toEqual(JSON.parse(JSON.stringify(ikpd.solveTwoBone({ ...frame, target: [1.2, 0.9, 0], pole: [0, -1, 0], soften: 0.1 }))));
    expect(Array.from(solver.output.subarray(7, 10))).toEqual(b.mid.position);
    solver.dispose();
  });

  it('rejects bad options naming them, and keeps the previous options', () => {
    const solver = new ikpd.TwoBoneSolver({ soften: 0.2 });
    const frame = { root: { position: [0, 0, 0] }, mid: { position: [1, 0, 0] }, end: { position: [2, 0, 0] }, target: [1.5, 0.5, 0] };
    const before = JSON.stringify(solver.solve(frame));
    expect(() => solver.setOptions({ soften: 0.1, maxAngle: -1 })).toThrow(/^maxAngle:/);
    expect(() => solver.setOptions({ bendDirection: 'up' })).toThrow(RangeError);
    expect(() => solver.setOptions({ pole: [0, NaN, 0] })).toThrow(/^pole\[1\]/);
    expect(() => solver.setOptions({ root: { position: [0, 0, 0] } })).toThrow(TypeError);
    expect(() => new ikpd.TwoBoneSolver({ tolerance: -1 })).toThrow(/^tolerance:/);
    expect(JSON.stringify(solver.solve(frame))).toBe(before);
    expect(() => solver.solve({ ...frame, target: [Infinity, 0, 0] })).toThrow(/^target/);
    expect(() => solver.solve({ ...frame, root: undefined })).toThrow(/^root:/);
    solver.dispose();
    expect(() => solver.solve(frame)).toThrow(/used after dispose/);
  });

  it('solves raw floats written to `input` with run()', () => {
    const solver = new ikpd.TwoBoneSolver();
    const frame = { root: { position: [0, 0, 0], rotation: [0, 0, 0, 1] }, mid: { position: [1, 0, 0], rotation: [0, 0, 0, 1] }, end: { position: [2, 0, 0], rotation: [0, 0, 0, 1] }, target: [1, 1, 0] };
    const expected = Array.from(new Float32Array(solver.solve(frame).root.rotation));
    solver.input.set([0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 1, 1, 1, 0]);
    solver.run();
    expect(Array.from(solver.output.subarray(3, 7))).toEqual(expected);
    solver.dispose();
  });
});

describe('AimSolver', () => {
  it('matches solveAim exactly on 3,000 random joints and options', () => {
    const r = rng(11);
    const solver = new ikpd.AimSolver();
    for (let i = 0; i < 3000; i++) {
      const options = {};
      if (r() < 0.5) options.pole = vec(r);
      if (r() < 0.3) options.method = ['yawPitch', 'crossProduct', 'shortestArc'][Math.floor(3 * r())];
      if (r() < 0.3) options.forward = vec(r);
      if (r() < 0.2) options.hingeAxis = vec(r);
      if (r() < 0.3) options.weight = r();
      const frame = { position: vec(r), target: vec(r) };
      if (r() < 0.7) frame.rotation = quat(r);
      const expected = outcome(() => ikpd.solveAim({ ...frame, ...options }));
      const cleared = { pole: null, hingeAxis: null, ...ikpd.AimSolver.defaults, ...options };
      const actual = outcome(() => solver.setOptions(cleared) && solver.solve(frame));
      expect(actual).toEqual(expected);
    }
    solver.dispose();
  });
});
