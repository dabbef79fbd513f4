// Batch APIs: same results as the single calls (≤ 1e-6), views that survive
// WASM memory growth, errors that name the item or the option.
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';
import { makeAimProblems, makeTwoBoneProblems } from '../../../bench/problems.js';


const vec3 = (f, i) => [f[3 * i], f[3 * i + 1], f[3 * i + 2]];
const quat = (f, i) => [f[4 * i], f[4 * i + 1], f[4 * i + 2], f[4 * i + 3]];

function expectClose(actual, expected, what) {
  expect(actual.length, what).toBe(expected.length);
  for (let k = 0; k < actual.length; k++) {
    if (Math.abs(actual[k] - expected[k]) > 1e-6) {
      throw new Error(`${what}[${k}]: batch ${actual[k]} vs single ${expected[k]}`);
    }
  }
}

function fillTwoBone(batch, p) {
  for (const name of Object.keys(p)) batch.input[name].set(p[name]);
}

function singleTwoBone(p, i, options) {
  const joint = (name) => ({ position: vec3(p[`${name}Position`], i), rotation: quat(p[`${name}Rotation`], i) });
  const { poleMode = 'none', ...shared } = options;
  const call = { ...shared, root: joint('root'), mid: joint('mid'), end: joint('end'), target: vec3(p.target, i), weight: p.weight[i] };
  if (p.effectorOffset) call.effectorOffset = vec3(p.effectorOffset, i);
  if (poleMode === 'point') call.pole = vec3(p.pole, i);
  if (poleMode === 'direction') call.poleDirection = vec3(p.pole, i);
  return ikpd.solveTwoBone(call);
}

function expectTwoBoneMatches(batch, p, options) {
  const out = batch.output;
  for (let i = 0; i < batch.count; i++) {
    const r = singleTwoBone(p, i, options);
    expectClose(quat(out.rootRotation, i), r.root.rotation, `item ${i} root.rotation`);
    expectClose(vec3(out.midPosition, i), r.mid.position, `item ${i} mid.position`);
    expectClose(quat(out.midRotation, i), r.mid.rotation, `item ${i} mid.rotation`);
    expectClose(vec3(out.endPosition, i), r.end.position, `item ${i} end.position`);
    expectClose(quat(out.endRotation, i), r.end.rotation, `item ${i} end.rotation`);
    expect(out.reached[i], `item ${i} reached`).toBe(r.reached ? 1 : 0);
    expectClose([out.distance[i]], [r.distance], `item ${i} distance`);
  }
}

describe('TwoBoneBatch', () => {
  const cases = [
    {},
    { poleMode: 'point', soften: 0.05 },
    { poleMode: 'direction', forward: [0, 1, 0], bendAxis: [1, 0, 0], bendDirection: 'negative', minAngle: 0.2, maxAngle: 3, maxStretch: 1.3, twist: 0.5, endRotation: 'relative', tolerance: 1e-3 },
  ];
  it.each(cases.map((c) => [JSON.stringify(c), c]))('matches solveTwoBone item by item with %s', (_, options) => {
    const p = makeTwoBoneProblems(600, 11);
    // Non-unit rotations, offsets and a few degenerate items.
    p.effectorOffset = new Float32Array(3 * 600).map((_, k) => ((k * 37) % 11) / 50 - 0.1);
    for (let k = 0; k < 4 * 600; k += 4) p.midRotation[k + 3] *= 3;
    for (let i = 0; i < 600; i += 17) for (let k = 0; k < 3; k++) p.target[3 * i + k] = p.rootPosition[3 * i + k] + p.effectorOffset[3 * i + k];
    for (let i = 5; i < 600; i += 23) p.weight[i] = 0;
    const batch = new ikpd.TwoBoneBatch(600, options);
    try {
      fillTwoBone(batch, p);
      batch.solve();
      expectTwoBoneMatches(batch, p, options);
    } finally {
      batch.dispose();
    }
  });

  it('keeps filled inputs and gives the same results after WASM memory grows between fill and solve', () => {
    const p = makeTwoBoneProblems(300, 5);
    const options = { poleMode: 'point', soften: 0.1 };
    const batch = new ikpd.TwoBoneBatch(300, options);
    fillTwoBone(batch, p);
    const heldView = batch.input.target;
    const bufferBefore = heldView.buffer;
    // Allocate more than the whole current heap: memory must grow.
    const big = new ikpd.AimBatch(Math.ceil(bufferBefore.byteLength / (18 * 4)) + 1024);
    try {
      expect(ikpd.TwoBoneBatch).toBeDefined();
      expect(batch.input.target.buffer).not.toBe(bufferBefore); // re-derived over the new memory
      expect(heldView.byteLength).toBe(0); // the old view is detached, as documented
      expect(Array.from(batch.input.target)).toEqual(Array.from(p.target));
      batch.solve();
      expectTwoBoneMatches(batch, p, options);
      // And growth between solve and reading outputs.
      const distances = Array.from(batch.output.distance);
      const bigger = new ikpd.AimBatch(Math.ceil(batch.output.distance.buffer.byteLength / (18 * 4)) + 1024);
      expect(Array.from(batch.output.distance)).toEqual(distances);
      bigger.dispose();
    } finally {
      big.dispose();
      batch.dispose();
    }
  });

  it('starts with identity rotations and weight 1, and solves a prefix with solve(n)', () => {
    const batch = new ikpd.TwoBoneBatch(3);
    expect(Array.from(batch.input.rootRotation)).toEqual([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(Array.from(batch.input.weight)).toEqual([1, 1, 1]);
    batch.input.midPosition.set([1, 0, 0, 1, 0, 0, 1, 0, 0]);
    batch.input.endPosition.set([2, 0, 0, 2, 0, 0, 2, 0, 0]);
    batch.input.target.set([0, 2, 0, 0, 2, 0, 0, 2, 0]);
    batch.output.distance.fill(-1);
    expect(batch.solve(2)).toBe(batch);
    expect(batch.output.distance[0]).toBeCloseTo(0, 5);
    expect(batch.output.reached[1]).toBe(1);
    expect(batch.output.distance[2]).toBe(-1); // not solved
    batch.solve(0);
    batch.dispose();
  });

  it('names the first invalid item and writes no output', () => {
    const batch = new ikpd.TwoBoneBatch(10);
    try {
      batch.input.midPosition.fill(1);
      batch.input.endPosition.fill(2);
      batch.input.weight[4] = 2;
      batch.input.rootRotation.fill(0, 4 * 6, 4 * 7);
      batch.output.distance.fill(-1);
      expect(() => batch.solve()).toThrow(new RangeError('items[4].weight: must be in [0, 1]'));
      expect(Array.from(batch.output.distance)).toEqual(new Array(10).fill(-1));
      batch.input.weight[4] = 1;
      expect(() => batch.solve()).toThrow(/^items\[6\]\.root\.rotation/);
      batch.input.target[3 * 8] = NaN;
      expect(() => batch.solve(6)).not.toThrow();
    } finally {
      batch.dispose();
    }
  });

  it('validates count and options', () => {
    for (const bad of [0, -1, 1.5, 2 ** 24 + 1, NaN]) expect(() => new ikpd.TwoBoneBatch(bad)).toThrow(RangeError);
    expect(() => new ikpd.TwoBoneBatch('4')).toThrow(TypeError);
    expect(() => new ikpd.TwoBoneBatch(4, { soften: 2 })).toThrow(/^soften: /);
    expect(() => new ikpd.TwoBoneBatch(4, { poleMode: 'pole' })).toThrow(/^poleMode: expected one of/);
    expect(() => new ikpd.TwoBoneBatch(4, { forward: [0, 0, 0] })).toThrow(/^forward: /);
    expect(() => new ikpd.TwoBoneBatch(4, { bendAxis: [1, 0] })).toThrow(TypeError);
    expect(() => new ikpd.TwoBoneBatch(4, null)).toThrow(TypeError);
    const batch = new ikpd.TwoBoneBatch(4, { soften: 0.5 });
    expect(() => batch.setOptions({ maxStretch: 0.5 })).toThrow(/^maxStretch: /);
    expect(() => batch.solve(5)).toThrow(RangeError);
    expect(() => batch.solve(1.5)).toThrow(RangeError);
    batch.dispose();
  });

  it('throws after dispose()', () => {
    const batch = new ikpd.TwoBoneBatch(2);
    batch.dispose();
    batch.dispose();
    expect(batch.disposed).toBe(true);
    expect(() => batch.solve()).toThrow(/used after dispose/);
    expect(() => batch.input.target).toThrow(/used after dispose/);
  });
});

describe('AimBatch', () => {
  const cases = [{}, { poleMode: 'point', method: 'crossProduct' }, { method: 'shortestArc', forward: [0, 1, 0] }, { hingeAxis: [0, 0, 1] }];
  it.each(cases.map((c) => [JSON.stringify(c), c]))('matches solveAim item by item with %s', (_, options) => {
    const n = 800;
    const p = makeAimProblems(n, 3);
    for (let i = 0; i < n; i += 13) for (let k = 0; k < 3; k++) p.target[3 * i + k] = p.position[3 * i + k];
    for (let i = 0; i < n; i++) p.weight[i] = (i % 5) / 4;
    const batch = new ikpd.AimBatch(n, options);
    try {
      for (const name of Object.keys(p)) batch.input[name].set(p[name]);
      batch.solve();
      const { poleMode, ...shared } = options;
      for (let i = 0; i < n; i++) {
        const call = { ...shared, position: vec3(p.position, i), rotation: quat(p.rotation, i), target: vec3(p.target, i), weight: p.weight[i] };
        if (poleMode === 'point') call.pole = vec3(p.pole, i);
        expectClose(quat(batch.output.rotation, i), ikpd.solveAim(call).rotation, `item ${i} rotation`);
      }
    } finally {
      batch.dispose();
    }
  });

  it('validates options and names the failing item', () => {
    expect(() => new ikpd.AimBatch(2, { poleMode: 'direction' })).toThrow(/^poleMode: /);
    expect(() => new ikpd.AimBatch(2, { method: 'euler' })).toThrow(/^method: /);
    const batch = new ikpd.AimBatch(3);
    batch.input.rotation.fill(0, 4, 8);
    expect(() => batch.solve()).toThrow(/^items\[1\]\.rotation: /);
    batch.dispose();
  });
});
