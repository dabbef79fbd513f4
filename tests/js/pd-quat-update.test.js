// QuatPD.update's and Vec3PD.update's lean path (its own WASM buffer, one reused return array)
// gives the controller's exact state: the returned array is `value`, the step
// matches the closed-form segment (stateAt) for every dt and gain change, and
// WASM memory growth does not break it.
import { describe, expect, it } from 'vitest';
import { ikpd } from './setup.js';
import { rng } from './three-rig.js';

const unit = (r) => {
  const q = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1, 2 * r() - 1 + 1.5];
  const l = Math.hypot(...q);
  return q.map((c) => c / l);
};
// Same rotation up to sign.
const sameRotation = (a, b, eps) => {
  const d = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  expect(1 - d).toBeLessThan(eps);
};

describe('QuatPD.update', () => {
  it('returns its own reused array holding `value`, and steps like the exact segment for changing dt and gains', () => {
    const r = rng(5);
    const pd = new ikpd.QuatPD({ settleTime: 0.4, value: unit(r) });
    const first = pd.update(1 / 60, unit(r));
    for (let i = 0; i < 2000; i++) {
      if (i % 97 === 0) pd.configure({ settleTime: 0.1 + r(), damping: 0.5 + r() });
      const dt = r() < 0.5 ? 1 / 60 : r() / 20; // steady and changing steps
      const target = unit(r);
      pd.update(0, target); // hold the new target: stateAt(dt) is then the exact next state
      const expected = pd.stateAt(dt).value;
      const q = pd.update(dt, target);
      expect(q).toBe(first);
      expect(q).toEqual(pd.value);
      sameRotation(q, expected, 1e-12);
    }
    pd.dispose();
  });

  it('keeps working after WASM memory grows, and leaves the state unchanged on an error', () => {
    const pd = new ikpd.QuatPD({ settleTime: 0.3 });
    pd.update(1 / 60, [0, 0.3, 0, 1]);
    const big = new ikpd.AimBatch(1 << 20); // grows WASM memory: older views are detached
    const q = pd.update(1 / 60, [0, 0.3, 0, 1]);
    expect(q).toEqual(pd.value);
    expect(q[1]).toBeGreaterThan(0);
    big.dispose();
    const before = [...pd.value];
    expect(() => pd.update(1 / 60, [0, 0, 0, 0])).toThrow(/^target: /);
    expect(() => pd.update(NaN, [0, 0, 0, 1])).toThrow(/^dt: /);
    expect(() => pd.update(1 / 60, [0, 0, 0, 1], [0, NaN, 0])).toThrow(/^targetVelocity/);
    expect(pd.value).toEqual(before);
    const v = pd.update(1 / 60, [0, 0, 0, 1], [0, 1, 0]);
    expect(v).toEqual(pd.value);
    pd.dispose();
  });
});

// Vec3PD.update takes the same lean path (its own buffer, one reused array).
describe('Vec3PD.update', () => {
  const direction = (r) => {
    const v = [2 * r() - 1, 2 * r() - 1, 2 * r() - 1 + 1.5];
    const l = Math.hypot(...v);
    return v.map((c) => c / l);
  };

  it('returns its own reused array holding `value`, and steps like the exact segment', () => {
    const r = rng(7);
    const pd = new ikpd.Vec3PD({ settleTime: 0.4, value: direction(r) });
    const first = pd.update(1 / 60, direction(r));
    for (let i = 0; i < 2000; i++) {
      if (i % 97 === 0) pd.configure({ settleTime: 0.1 + r(), damping: 0.5 + r() });
      const dt = r() < 0.5 ? 1 / 60 : r() / 20;
      const target = direction(r);
      pd.update(0, target);
      const expected = pd.stateAt(dt).value;
      const v = pd.update(dt, target);
      expect(v).toBe(first);
      expect(v).toEqual(pd.value);
      for (let k = 0; k < 3; k++) expect(Math.abs(v[k] - expected[k])).toBeLessThan(1e-12);
    }
    pd.dispose();
  });

  it('keeps working after WASM memory grows, and leaves the state unchanged on an error', () => {
    const pd = new ikpd.Vec3PD({ settleTime: 0.3 });
    pd.update(1 / 60, [0, 1, 0]);
    const big = new ikpd.AimBatch(1 << 20);
    const v = pd.update(1 / 60, [0, 1, 0]);
    expect(v).toEqual(pd.value);
    expect(v[1]).toBeGreaterThan(0);
    big.dispose();
    const before = [...pd.value];
    expect(() => pd.update(1 / 60, [0, 0, 0])).toThrow(new RangeError('target: must not be zero'));
    expect(() => pd.update(1 / 60, [0, 1])).toThrow(/^target: /);
    expect(() => pd.update(1 / 60, [0, 1, 0], [0, NaN, 0])).toThrow(/^targetVelocity/);
    expect(pd.value).toEqual(before);
    expect(pd.update(1 / 60, [0, 1, 0], [1, 0, 0])).toEqual(pd.value);
    pd.dispose();
  });
});
