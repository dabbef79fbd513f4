import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ikpd } from '../../support/setup.js';

// Quaternion helpers, [x, y, z, w].
const qmul = (a, b) => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];
const conj = (q) => [-q[0], -q[1], -q[2], q[3]];
const axisAngle = (axis, angle) => [axis[0] * Math.sin(angle / 2), axis[1] * Math.sin(angle / 2), axis[2] * Math.sin(angle / 2), Math.cos(angle / 2)];
const rotate = (q, v) => qmul(qmul(q, [v[0], v[1], v[2], 0]), conj(q)).slice(0, 3);
const add = (a, b, k = 1) => [a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2]];
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const angleBetween = (a, b) => {
  const d = qmul(conj(a), b);
  return 2 * Math.atan2(Math.hypot(d[0], d[1], d[2]), Math.abs(d[3]));
};

// A quadruped leg in the XY plane (forward +X, hinge +Z): hip, knee, ankle, toe.
const leg = fc.record({
  a: fc.double({ min: 0.2, max: 0.6, noNaN: true }),
  b: fc.double({ min: 0.2, max: 0.6, noNaN: true }),
  c: fc.double({ min: 0.05, max: 0.3, noNaN: true }),
  hip: fc.double({ min: -3, max: 3, noNaN: true }),
  knee: fc.double({ min: 0.2, max: 2.6, noNaN: true }),
  ankle: fc.double({ min: -1.5, max: 1.5, noNaN: true }),
}).map(({ a, b, c, hip, knee, ankle }) => {
  const z = [0, 0, 1];
  const r1 = axisAngle(z, hip);
  const r2 = qmul(r1, axisAngle(z, knee));
  const r3 = qmul(r2, axisAngle(z, ankle));
  const root = { position: [0, 1, 0], rotation: r1 };
  const mid = { position: add(root.position, rotate(r1, [1, 0, 0]), a), rotation: r2 };
  const end = { position: add(mid.position, rotate(r2, [1, 0, 0]), b), rotation: r3 };
  const tip = { position: add(end.position, rotate(r3, [1, 0, 0]), c), rotation: r3 };
  return { a, b, c, root, mid, end, tip };
});

describe('solvePseudoThreeBone', () => {
  it('blend 1: the effector keeps its world rotation and the tip reaches reachable targets', () => {
    fc.assert(
      fc.property(leg, fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }), fc.double({ min: 0.05, max: 0.95, noNaN: true }), (l, dir, f) => {
        const offset = [l.tip.position[0] - l.end.position[0], l.tip.position[1] - l.end.position[1], 0];
        const lo = Math.abs(l.a - l.b);
        const reach = lo + f * (l.a + l.b - lo);
        const target = add(add(l.root.position, offset), [Math.cos(dir), Math.sin(dir), 0], reach);
        const r = ikpd.solvePseudoThreeBone({ root: l.root, mid: l.mid, end: l.end, tip: l.tip, target, blend: 1 });
        expect(angleBetween(r.end.rotation, l.end.rotation)).toBeLessThan(1e-3);
        expect(r.reached).toBe(true);
        expect(dist(r.tip.position, target)).toBeLessThanOrEqual(1e-4 * (l.a + l.b) + 1e-6);
      }),
      { numRuns: 500 },
    );
  });

  it('blend 0 rebuilds the effector from joint 2; intermediate blends land between; followMid copies joint 2', () => {
    fc.assert(
      fc.property(leg, fc.double({ min: 0, max: 1, noNaN: true }), (l, blend) => {
        const target = [l.tip.position[0] - 0.1, l.tip.position[1] + 0.15, 0];
        const opts = { root: l.root, mid: l.mid, end: l.end, tip: l.tip, target };
        const first = ikpd.solveTwoBone({ ...opts, tip: undefined, effectorOffset: [l.tip.position[0] - l.end.position[0], l.tip.position[1] - l.end.position[1], 0] });
        const rebuilt = qmul(first.mid.rotation, qmul(conj(l.mid.rotation), l.end.rotation));
        const total = angleBetween(rebuilt, l.end.rotation);
        const r = ikpd.solvePseudoThreeBone({ ...opts, blend });
        expect(angleBetween(r.end.rotation, rebuilt)).toBeCloseTo(blend * total, 2);
        expect(angleBetween(r.end.rotation, l.end.rotation)).toBeCloseTo((1 - blend) * total, 2);
        const follow = ikpd.solvePseudoThreeBone({ ...opts, variant: 'followMid' });
        expect(angleBetween(follow.end.rotation, first.mid.rotation)).toBeLessThan(2e-3);
        // The tip stays rigid with the end joint, lengths are kept.
        expect(dist(r.tip.position, r.end.position)).toBeCloseTo(l.c, 4);
        expect(dist(r.mid.position, r.root.position)).toBeCloseTo(l.a, 4);
        expect(dist(r.end.position, r.mid.position)).toBeCloseTo(l.b, 4);
      }),
      { numRuns: 300 },
    );
  });

  it('endLimit keeps the effector near its input rotation relative to joint 2', () => {
    fc.assert(
      fc.property(leg, (l) => {
        const target = [l.root.position[0] + 0.3, l.root.position[1] - 0.3, 0];
        const opts = { root: l.root, mid: l.mid, end: l.end, tip: l.tip, target, blend: 1, endLimit: 0.25 };
        const r = ikpd.solvePseudoThreeBone(opts);
        const first = ikpd.solveTwoBone({ ...opts, blend: undefined, endLimit: undefined, tip: undefined, effectorOffset: add(l.tip.position, l.end.position, -1) });
        const reference = qmul(first.mid.rotation, qmul(conj(l.mid.rotation), l.end.rotation));
        expect(angleBetween(r.end.rotation, reference)).toBeLessThanOrEqual(0.25 + 2e-3);
      }),
      { numRuns: 200 },
    );
  });

  it('returns the documented shape and validates its own options', () => {
    const z = [0, 0, 0, 1];
    const opts = {
      root: { position: [0, 0, 0], rotation: z }, mid: { position: [1, 0, 0], rotation: z },
      end: { position: [2, 0, 0], rotation: z }, tip: { position: [2.2, 0, 0] }, target: [1.5, 1, 0],
    };
    const r = ikpd.solvePseudoThreeBone(opts);
    expect(Object.keys(r).sort()).toEqual(['distance', 'end', 'mid', 'reached', 'root', 'tip']);
    expect(r.reached).toBe(true);
    expect(() => ikpd.solvePseudoThreeBone({ ...opts, blend: 2 })).toThrow(/^blend: must be in \[0, 1\]/);
    expect(() => ikpd.solvePseudoThreeBone({ ...opts, variant: 'mirror' })).toThrow(/^variant: expected one of 'relative', 'followMid'/);
    expect(() => ikpd.solvePseudoThreeBone({ ...opts, endLimit: 4 })).toThrow(/^endLimit: must be in \[0, pi\]/);
    expect(() => ikpd.solvePseudoThreeBone({ ...opts, tip: undefined })).toThrow(/^tip: expected \{position, rotation\}/);
    expect(() => ikpd.solvePseudoThreeBone({ ...opts, effectorOffset: [0, 0, 0] })).toThrow(/^effectorOffset: not an option/);
    expect(() => ikpd.solvePseudoThreeBone({ ...opts, weight: -1 })).toThrow(/^weight:/);
  });
});
