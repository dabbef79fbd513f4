import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ikpd } from '../../support/setup.js';

describe('Tentacle2D', () => {
  it('reproduces the hand-worked seed case (3 joints, 90° step)', () => {
    const t = new ikpd.Tentacle2D({ lengths: [1, 1, 1], step: Math.PI / 2 });
    try {
      expect(t.bones).toBe(3);
      t.update([0, 3]);
      expect(t.angles.map((a) => a / (Math.PI / 2))).toEqual([0, 1, 1].map((v) => expect.closeTo(v, 6)));
      t.update([0, 3]);
      const expected = [[0, 0], [1, 0], [1, 1], [1, 2]];
      t.positions.forEach((p, i) => {
        expect(p[0]).toBeCloseTo(expected[i][0], 5);
        expect(p[1]).toBeCloseTo(expected[i][1], 5);
      });
      expect(t.tip[0]).toBeCloseTo(1, 5);
      expect(t.tip[1]).toBeCloseTo(2, 5);
    } finally {
      t.dispose();
    }
  });

  it('never exceeds its limits and keeps bone lengths', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.1, max: 2, noNaN: true }), { minLength: 1, maxLength: 8 }),
        fc.double({ min: 0.01, max: 0.5, noNaN: true }),
        fc.double({ min: 0.05, max: 2, noNaN: true }),
        fc.array(fc.tuple(fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: -10, max: 10, noNaN: true })), { minLength: 1, maxLength: 40 }),
        (lengths, step, limit, targets) => {
          const t = new ikpd.Tentacle2D({ lengths, step, limit, root: [1, 2], baseAngle: 0.5 });
          try {
            for (const target of targets) {
              t.update(target);
              const angles = t.angles;
              const limitF32 = Math.fround(limit);
              for (const a of angles) expect(Math.abs(a)).toBeLessThanOrEqual(limitF32);
              const p = t.positions;
              expect(p[0]).toEqual([1, 2]);
              for (let i = 0; i < lengths.length; i++) {
                expect(Math.hypot(p[i + 1][0] - p[i][0], p[i + 1][1] - p[i][1])).toBeCloseTo(lengths[i], 4);
              }
            }
          } finally {
            t.dispose();
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('creeps toward a reachable fixed target', () => {
    const t = new ikpd.Tentacle2D({ lengths: [1, 0.8, 0.6, 0.4], step: 0.01, limit: [3, 3, 3, 3] });
    for (let i = 0; i < 1000; i++) t.update([0.5, 2]);
    expect(Math.hypot(t.tip[0] - 0.5, t.tip[1] - 2)).toBeLessThan(0.01);
    expect(t.limits).toEqual([3, 3, 3, 3]);
    expect(t.lengths.map((l) => Math.fround(l))).toEqual([1, 0.8, 0.6, 0.4].map(Math.fround));
    t.dispose();
  });

  it('setAngles poses the tentacle', () => {
    const t = new ikpd.Tentacle2D({ lengths: [1, 1], limit: 1 });
    t.setAngles([0.5, -0.5]);
    expect(t.positions[2][0]).toBeCloseTo(Math.cos(0.5) + 1, 5);
    expect(t.positions[2][1]).toBeCloseTo(Math.sin(0.5), 5);
    expect(() => t.setAngles([0, 2])).toThrow(/^angles: every angle must be within its joint's limit/);
    t.dispose();
  });

  it('validates options and is disposable', () => {
    expect(() => new ikpd.Tentacle2D({ lengths: [] })).toThrow(/^lengths: must have at least one bone/);
    expect(() => new ikpd.Tentacle2D({ lengths: [1, -1] })).toThrow(/^lengths: every length must be finite and >= 0/);
    expect(() => new ikpd.Tentacle2D({ lengths: [1], step: 4 })).toThrow(/^step: must be in \[0, pi\]/);
    expect(() => new ikpd.Tentacle2D({ lengths: [1], limit: -1 })).toThrow(/^limit: must be >= 0/);
    expect(() => new ikpd.Tentacle2D({ lengths: [1, 1], limit: [1] })).toThrow(/^limit: expected an array of 2 numbers/);
    expect(() => new ikpd.Tentacle2D({ lengths: 'abc' })).toThrow(TypeError);
    const t = new ikpd.Tentacle2D({ lengths: [1] });
    expect(() => t.update([NaN, 0])).toThrow(/^target\[0\]/);
    t.dispose();
    t.dispose();
    expect(t.disposed).toBe(true);
    expect(() => t.update([0, 0])).toThrow(/used after dispose/);
    expect(() => t.positions).toThrow(/used after dispose/);
  });
});

describe('Tentacle2D escapeAfter', () => {
  const demo = (escapeAfter) => new ikpd.Tentacle2D({
    lengths: new Array(14).fill(0.2), step: (3 * Math.PI) / 180, limit: (40 * Math.PI) / 180, root: [0, 0.2], baseAngle: Math.PI / 2, escapeAfter,
  });
  const knotThenReach = (t) => {
    for (let i = 0; i < 120; i++) t.update([1.4, 2.6]);
    for (let i = 0; i < 300; i++) t.update([0, 0.3]);
    let unwound = false;
    for (let i = 0; i < 1000; i++) unwound = t.update([1.4, 2.6]).unwinding || unwound;
    return { gap: Math.hypot(t.tip[0] - 1.4, t.tip[1] - 2.6), unwound };
  };

  it('is off by default: the knot stays', () => {
    const t = demo(undefined);
    try {
      const { gap, unwound } = knotThenReach(t);
      expect(gap).toBeGreaterThan(1.5);
      expect(unwound).toBe(false);
    } finally {
      t.dispose();
    }
  });

  it('unwinds out of the knot and reaches when on', () => {
    const t = demo(30);
    try {
      const { gap, unwound } = knotThenReach(t);
      expect(unwound).toBe(true);
      expect(gap).toBeLessThan(0.2);
    } finally {
      t.dispose();
    }
  });

  it('rejects a bad escapeAfter by name', () => {
    for (const bad of [-1, 1.5, 2 ** 32, Number.NaN]) expect(() => demo(bad)).toThrow(RangeError);
    expect(() => demo('3')).toThrow(/escapeAfter/);
  });
});
