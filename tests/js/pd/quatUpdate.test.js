// QuatPD.update's and Vec3PD.update's lean path (the controller's own WASM
// buffer, one reused return array) gives the controller's exact state: the
// returned array is `value`, the step matches the closed-form segment
// (stateAt) for every dt and gain change, and WASM memory growth does not
// break it.
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';
import { rng } from '../../support/three-rig.js';

// A random unit vector of `n` components, away from the degenerate side.
const unit = (r, n) => {
  const v = Array.from({ length: n }, (_, i) => 2 * r() - 1 + (i === n - 1 ? 1.5 : 0));
  const l = Math.hypot(...v);
  return v.map((c) => c / l);
};

const CONTROLLERS = [
  {
    name: 'QuatPD', n: 4, seed: 5, hold: [0, 0.3, 0, 1], zero: [0, 0, 0, 0], short: [0, 0, 1],
    // Same rotation up to sign.
    close: (a, b) => expect(1 - Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3])).toBeLessThan(1e-12),
  },
  {
    name: 'Vec3PD', n: 3, seed: 7, hold: [0, 1, 0.3], zero: [0, 0, 0], short: [0, 1],
    close: (a, b) => a.forEach((c, k) => expect(Math.abs(c - b[k])).toBeLessThan(1e-12)),
  },
];

for (const { name, n, seed, hold, zero, short, close } of CONTROLLERS) {
  describe(`${name}.update`, () => {
    it('returns its own reused array holding `value`, and steps like the exact segment for changing dt and gains', () => {
      const r = rng(seed);
      const pd = new ikpd[name]({ settleTime: 0.4, value: unit(r, n) });
      const first = pd.update(1 / 60, unit(r, n));
      for (let i = 0; i < 2000; i++) {
        if (i % 97 === 0) pd.configure({ settleTime: 0.1 + r(), damping: 0.5 + r() });
        const dt = r() < 0.5 ? 1 / 60 : r() / 20; // steady and changing steps
        const target = unit(r, n);
        pd.update(0, target); // hold the new target: stateAt(dt) is then the exact next state
        const expected = pd.stateAt(dt).value;
        const v = pd.update(dt, target);
        expect(v).toBe(first);
        expect(v).toEqual(pd.value);
        close(v, expected);
      }
      pd.dispose();
    });

    it('keeps working after WASM memory grows, and leaves the state unchanged on an error', () => {
      const pd = new ikpd[name]({ settleTime: 0.3 });
      pd.update(1 / 60, hold);
      const big = new ikpd.AimBatch(1 << 20); // grows WASM memory: older views are detached
      const v = pd.update(1 / 60, hold);
      expect(v).toEqual(pd.value);
      expect(v[1]).toBeGreaterThan(0);
      big.dispose();
      const before = [...pd.value];
      expect(() => pd.update(1 / 60, zero)).toThrow(/^target: /);
      expect(() => pd.update(1 / 60, short)).toThrow(/^target: /);
      expect(() => pd.update(NaN, hold)).toThrow(/^dt: /);
      expect(() => pd.update(1 / 60, hold, [0, NaN, 0])).toThrow(/^targetVelocity/);
      expect(pd.value).toEqual(before);
      expect(pd.update(1 / 60, hold, [0, 1, 0])).toEqual(pd.value);
      pd.dispose();
    });
  });
}
