// Prepared solvers (TwoBoneSolver, AimSolver, PseudoThreeBoneSolver) give exactly the single calls'
// results for the same inputs and options, keep their options between frames,
// reuse one result object, and leave their options unchanged on an error.
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';

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

describe('PseudoThreeBoneSolver', () => {
  it('matches solvePseudoThreeBone exactly on 3,000 random legs and options, one solver reused', () => {
    const r = rng(13);
    const solver = new ikpd.PseudoThreeBoneSolver();
    let solved = 0;
    for (let i = 0; i < 3000; i++) {
      const options = twoBoneOptions(r);
      delete options.endRotation;
      if (r() < 0.4) options.variant = r() < 0.5 ? 'relative' : 'followMid';
      if (r() < 0.3) options.endLimit = uniform(r, 0, 3);
      const frame = { root: joint(r), mid: joint(r), end: joint(r), tip: joint(r), target: vec(r) };
      if (r() < 0.5) frame.blend = r();
      // At most one bad value per case (a solver checks options before inputs).
      const bad = r();
      if (bad < 0.03) options.endLimit = 3.3;
      else if (bad < 0.06) frame.blend = 1.1;
      else if (bad < 0.08) frame.tip.position = [NaN, 0, 0];
      const expected = outcome(() => ikpd.solvePseudoThreeBone({ ...frame, ...options }));
      const cleared = { pole: null, poleDirection: null, ...ikpd.PseudoThreeBoneSolver.defaults, ...options };
      const actual = outcome(() => solver.setOptions(cleared) && solver.solve(frame));
      expect(actual).toEqual(expected);
      if (typeof expected !== 'string') solved++;
    }
    expect(solved).toBeGreaterThan(2000);
    solver.dispose();
  });

  it('keeps options between frames, reuses its result, rejects bad options naming them', () => {
    const solver = new ikpd.PseudoThreeBoneSolver({ variant: 'followMid', pole: [0, 1, 0] });
    const frame = {
      root: { position: [0, 0, 0] }, mid: { position: [1, 0, 0] }, end: { position: [2, 0, 0] },
      tip: { position: [2, -0.5, 0] }, target: [1, 1, 0],
    };
    const a = solver.solve(frame);
    const before = JSON.stringify(a);
    expect(before).toBe(JSON.stringify(ikpd.solvePseudoThreeBone({ ...frame, variant: 'followMid', pole: [0, 1, 0] })));
    expect(ikpd.PseudoThreeBoneSolver.defaults).toMatchObject({ variant: 'relative', endLimit: Math.fround(Math.PI) });
    expect(() => solver.setOptions({ endLimit: 4 })).toThrow(/^endLimit:/);
    expect(() => solver.setOptions({ variant: 'sideways' })).toThrow(RangeError);
    expect(() => solver.setOptions({ endRotation: 'relative' })).toThrow(TypeError);
    expect(() => solver.setOptions({ blend: 0.5 })).toThrow(TypeError);
    expect(() => solver.solve({ ...frame, blend: 2 })).toThrow(/^blend:/);
    expect(() => solver.solve({ ...frame, tip: undefined })).toThrow(/^tip:/);
    expect(solver.solve(frame)).toBe(a);
    expect(JSON.stringify(a)).toBe(before);
    expect(Array.from(solver.output.subarray(21, 24))).toEqual(a.tip.position);
    expect(solver.input.length).toBe(32);
    solver.dispose();
  });
});

describe('ChainSolver', () => {
  const limitOf = (r) => (r() < 0.5
    ? { type: 'cone', angle: uniform(r, 0, 2), axis: r() < 0.5 ? vec(r) : undefined }
    : { type: 'euler', min: [uniform(r, -2, 0), -1, -1], max: [uniform(r, 0, 2), 1, 1] });

  it('matches solveChain exactly on 2,000 random chains, options and limits, one solver per length', () => {
    const r = rng(17);
    const solvers = new Map();
    let solved = 0;
    for (let i = 0; i < 2000; i++) {
      const n = 2 + Math.floor(5 * r());
      if (!solvers.has(n)) solvers.set(n, new ikpd.ChainSolver(n));
      const solver = solvers.get(n);
      const options = {};
      if (r() < 0.5) options.method = r() < 0.5 ? 'ccd' : 'fabrik';
      if (r() < 0.3) options.iterations = Math.floor(uniform(r, 0, 40));
      if (r() < 0.3) options.tolerance = uniform(r, 0, 0.01);
      if (r() < 0.3) options.forward = vec(r);
      if (r() < 0.3) {
        const m = r() < 0.5 ? n : n - 1;
        options.limits = Array.from({ length: m }, () => (r() < 0.3 ? null : limitOf(r)));
      }
      const frame = { joints: Array.from({ length: n }, () => joint(r)), target: vec(r, 4) };
      if (r() < 0.4) frame.pole = vec(r);
      if (r() < 0.3) frame.parentRotation = quat(r);
      // At most one bad value per case (a solver checks options before inputs).
      const bad = r();
      if (bad < 0.02) options.tolerance = -0.001;
      else if (bad < 0.04) options.forward = [0, 0, 0];
      else if (bad < 0.06) options.limits = [{ type: 'cone', angle: -0.1 }];
      else if (bad < 0.08) frame.target = [0, Infinity, 0];
      const expected = outcome(() => ikpd.solveChain({ ...frame, ...options }));
      const cleared = { ...ikpd.ChainSolver.defaults, ...options };
      const actual = outcome(() => solver.setOptions(cleared) && solver.solve(frame));
      expect(actual).toEqual(expected);
      if (typeof expected !== 'string') solved++;
    }
    expect(solved).toBeGreaterThan(1500);
    for (const solver of solvers.values()) solver.dispose();
  });

  it('keeps options and limits between frames, reuses its result, rejects bad input naming it', () => {
    const limits = [{ type: 'cone', angle: 0.5 }, null, { type: 'euler', min: [-1, -1, -1], max: [1, 1, 1] }];
    const solver = new ikpd.ChainSolver(4, { method: 'ccd', iterations: 30, limits });
    expect(solver.jointCount).toBe(4);
    const joints = [0, 1, 2, 3].map((x) => ({ position: [x, 0, 0] }));
    const frame = { joints, target: [1.5, 1.5, 0.3] };
    const a = solver.solve(frame);
    const before = JSON.stringify(a);
    expect(before).toBe(JSON.stringify(ikpd.solveChain({ ...frame, method: 'ccd', iterations: 30, limits })));
    expect(() => solver.setOptions({ iterations: 2.5 })).toThrow(/^iterations:/);
    expect(() => solver.setOptions({ iterations: -1 })).toThrow(/^iterations/);
    expect(() => solver.setOptions({ method: 'jacobian' })).toThrow(RangeError);
    expect(() => solver.setOptions({ limits: [{ type: 'cone', angle: 9 }, null, null] })).toThrow(/^limits/);
    expect(() => solver.setOptions({ limits: [null, null, null, null, null] })).toThrow(/^limits:/);
    expect(() => solver.setOptions({ limits: [null] })).toThrow(/^limits/);
    expect(() => solver.setOptions({ joints })).toThrow(TypeError);
    expect(() => solver.solve({ ...frame, joints: joints.slice(1) })).toThrow(/^joints: expected 4/);
    expect(() => solver.solve({ ...frame, joints: [...joints.slice(1), { position: [NaN, 0, 0] }] })).toThrow(/^joints\[3\]/);
    expect(() => solver.solve({ joints })).toThrow(/^target/);
    expect(solver.solve(frame)).toBe(a);
    expect(JSON.stringify(a)).toBe(before);
    solver.setOptions({ limits: null });
    expect(JSON.stringify(solver.solve(frame))).toBe(JSON.stringify(ikpd.solveChain({ ...frame, method: 'ccd', iterations: 30 })));
    expect(Array.from(solver.output.subarray(7, 10))).toEqual(a.joints[1].position);
    expect(() => new ikpd.ChainSolver(1)).toThrow(/^jointCount/);
    expect(() => new ikpd.ChainSolver(129)).toThrow(/^jointCount/);
    expect(ikpd.ChainSolver.defaults).toMatchObject({ method: 'fabrik', iterations: 20, forward: [1, 0, 0] });
    solver.dispose();
  });
});
