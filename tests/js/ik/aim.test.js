import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';
import { angleBetween, axisAngle, cross, dot, length, normalize, rotate, sameRotation, scale, sub } from '../../support/ik-math.js';

const X = [1, 0, 0], Y = [0, 1, 0], Z = [0, 0, 1];
const METHODS = ['yawPitch', 'crossProduct', 'shortestArc'];
const near = (a, b, tol = 1e-6) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

const coord = (r) => fc.double({ min: -r, max: r, noNaN: true });
const vec = (r) => fc.tuple(coord(r), coord(r), coord(r));
const quat = fc.tuple(coord(1), coord(1), coord(1), coord(1)).filter((q) => Math.hypot(...q) > 0.1);

describe('solveAim', () => {
  it('matches the reference yaw/pitch formulas (docs/ik/aim.md) (forward X, yaw Z, pitch Y)', () => {
    const [x, y, z] = [2, 3, -1.5];
    const { rotation } = ikpd.solveAim({ position: [0, 0, 0], target: [x, y, z] });
    const rxy = Math.hypot(x, y), r = Math.hypot(x, y, z);
    const [cz, sz, cy, sy] = [x / rxy, y / rxy, rxy / r, z / r];
    expect(near(rotate(rotation, X), [cz * cy, sz * cy, sy])).toBe(true);
    expect(near(rotate(rotation, Y), [-sz, cz, 0])).toBe(true);
    expect(near(rotate(rotation, Z), [-cz * sy, -sz * sy, cy])).toBe(true);
  });

  it('points forward at the target for 10,000 random poses; yawPitch and crossProduct agree fully', () => {
    fc.assert(fc.property(vec(10), quat, vec(10), fc.constantFrom(X, Y, [0, 0, -1], normalize([1, 2, 3])), (position, rotation, offset, forward) => {
      fc.pre(length(offset) > 1e-3);
      const target = offset.map((v, i) => v + position[i]);
      const results = METHODS.map((method) => ikpd.solveAim({ position, rotation, target, forward, method }).rotation);
      for (const q of results) {
        expect(q.every(Number.isFinite)).toBe(true);
        expect(angleBetween(rotate(q, forward), offset)).toBeLessThan(1e-4);
      }
      expect(sameRotation(results[0], results[1])).toBeGreaterThan(1 - 1e-5);
    }), { numRuns: 10_000, seed: 42 });
  });

  it('shortestArc keeps no roll, yawPitch differs in Y/Z (docs/ik/aim.md)', () => {
    const target = [1, 1, 1];
    const sa = ikpd.solveAim({ position: [0, 0, 0], target, method: 'shortestArc' }).rotation;
    const axis = cross(X, normalize(target));
    expect(sameRotation(sa, axisAngle(axis, Math.acos(1 / Math.sqrt(3))))).toBeCloseTo(1, 6);
    const yp = ikpd.solveAim({ position: [0, 0, 0], target }).rotation;
    expect(near(rotate(sa, X), rotate(yp, X))).toBe(true);
    expect(near(rotate(sa, Y), rotate(yp, Y), 1e-3)).toBe(false);
  });

  it('turns 180° about the yaw axis for a target exactly behind (all methods)', () => {
    for (const method of METHODS) {
      const { rotation } = ikpd.solveAim({ position: [1, 1, 1], target: [-2, 1, 1], method });
      expect(rotation.every(Number.isFinite)).toBe(true);
      expect(sameRotation(rotation, axisAngle(Z, Math.PI))).toBeCloseTo(1, 6);
    }
  });

  it('leaves the rotation unchanged for a target at the joint', () => {
    for (const method of METHODS) {
      const { rotation } = ikpd.solveAim({ position: [1, 2, 3], rotation: [0, 0.6, 0, 0.8], target: [1, 2, 3], method });
      expect(sameRotation(rotation, [0, 0.6, 0, 0.8])).toBeCloseTo(1, 6);
    }
  });

  it('rolls the up axis toward the pole by the reference formulas (±Y, ±Z)', () => {
    // pole in joint space (y, z) = (0.6, 0.8)
    const cases = [[Y, 0.6, 0.8], [Z, 0.8, -0.6], [[0, -1, 0], -0.6, -0.8], [[0, 0, -1], -0.8, 0.6]];
    for (const [up, cosX, sinX] of cases) {
      const { rotation } = ikpd.solveAim({ position: [0, 0, 0], target: [3, 0, 0], up, pole: [5, 0.6, 0.8] });
      expect(sameRotation(rotation, axisAngle(X, Math.atan2(sinX, cosX)))).toBeCloseTo(1, 6);
      expect(near(rotate(rotation, up), [0, 0.6, 0.8], 1e-6)).toBe(true);
    }
    // pole on the forward axis: no roll
    const { rotation } = ikpd.solveAim({ position: [0, 0, 0], target: [3, 0, 0], pole: [9, 0, 0] });
    expect(sameRotation(rotation, [0, 0, 0, 1])).toBeCloseTo(1, 6);
  });

  it('after aiming, the up axis points toward the pole (three.js axes)', () => {
    fc.assert(fc.property(vec(5), quat, vec(5), vec(5), (position, rotation, offset, poleOffset) => {
      fc.pre(length(offset) > 1e-2 && length(cross(normalize(offset), poleOffset)) > 1e-2);
      const target = offset.map((v, i) => v + position[i]);
      const pole = poleOffset.map((v, i) => v + position[i]);
      const q = ikpd.solveAim({ position, rotation, target, forward: Y, up: Z, pole }).rotation;
      const fw = rotate(q, Y);
      const perp = sub(poleOffset, scale(fw, dot(poleOffset, fw)));
      expect(angleBetween(fw, offset)).toBeLessThan(1e-4);
      expect(angleBetween(rotate(q, Z), perp)).toBeLessThan(1e-3);
    }), { numRuns: 1000, seed: 7 });
  });

  it('hingeAxis restricts the rotation to one axis (2D)', () => {
    const { rotation } = ikpd.solveAim({ position: [0, 0, 0], target: [1, 1, 5], hingeAxis: Z });
    expect(sameRotation(rotation, axisAngle(Z, Math.PI / 4))).toBeCloseTo(1, 6);
    const onAxis = ikpd.solveAim({ position: [0, 0, 0], target: [0, 0, 5], hingeAxis: Z }).rotation;
    expect(sameRotation(onAxis, [0, 0, 0, 1])).toBeCloseTo(1, 6);
  });

  it('weight slerps from the input rotation', () => {
    const half = ikpd.solveAim({ position: [0, 0, 0], target: [0, 1, 0], weight: 0.5 }).rotation;
    expect(sameRotation(half, axisAngle(Z, Math.PI / 4))).toBeCloseTo(1, 6);
    const none = ikpd.solveAim({ position: [0, 0, 0], target: [0, 1, 0], weight: 0 }).rotation;
    expect(sameRotation(none, [0, 0, 0, 1])).toBeCloseTo(1, 6);
  });

  it('rejects invalid input with errors naming the parameter', () => {
    const ok = { position: [0, 0, 0], target: [1, 2, 3] };
    const cases = [
      [{ position: [0, 0] }, TypeError, /^position:/],
      [{ target: [0, NaN, 0] }, RangeError, /^target\[1\]:/],
      [{ rotation: [0, 0, 0, 0] }, RangeError, /^rotation:/],
      [{ forward: [0, 0, 0] }, RangeError, /^forward:/],
      [{ method: 'euler' }, RangeError, /^method:/],
      [{ weight: 2 }, RangeError, /^weight:/],
      [{ pole: [0, 1, 0], up: [1, 0, 0] }, RangeError, /^up:/],
      [{ pole: [0, 1, 0], hingeAxis: [0, 0, 1] }, RangeError, /^pole:/],
      [{ hingeAxis: [3, 0, 0] }, RangeError, /^hingeAxis:/],
    ];
    for (const [patch, type, message] of cases) {
      expect(() => ikpd.solveAim({ ...ok, ...patch })).toThrow(type);
      expect(() => ikpd.solveAim({ ...ok, ...patch })).toThrow(message);
    }
  });
});

describe('solveAim offset', () => {
  it('the offset point\'s forward ray passes through the target for 5,000 random poses', () => {
    fc.assert(fc.property(vec(5), quat, vec(0.5), vec(10), fc.constantFrom(X, Z, normalize([1, 2, 3])), fc.constantFrom(...METHODS),
      (position, rotation, offset, toTarget, forward, method) => {
        fc.pre(length(toTarget) > 4 * length(offset) + 0.1);
        const target = toTarget.map((v, i) => v + position[i]);
        const q = ikpd.solveAim({ position, rotation, target, forward, method, offset }).rotation;
        const eye = rotate(q, offset).map((v, i) => v + position[i]);
        const ray = rotate(q, forward);
        const toEye = sub(target, eye);
        // Target on the ray, ahead of the eye.
        expect(length(cross(ray, toEye)) / length(toEye)).toBeLessThan(1e-4);
        expect(dot(ray, toEye)).toBeGreaterThan(0);
      }), { numRuns: 5_000, seed: 7 });
  });

  it('offset [0, 0, 0] is the default, and a non-finite offset is named', () => {
    const options = { position: [1, 2, 3], target: [4, -1, 2], forward: Z };
    expect(ikpd.solveAim({ ...options, offset: [0, 0, 0] }).rotation).toEqual(ikpd.solveAim(options).rotation);
    expect(() => ikpd.solveAim({ ...options, offset: [0, NaN, 0] })).toThrow(/^offset/);
  });

  it('AimBatch honours the shared offset option', () => {
    const batch = new ikpd.AimBatch(1, { forward: Z, offset: [0, 0.1, 0.05] });
    batch.input.position.set([0, 1, 0]);
    batch.input.target.set([2, 0.5, 3]);
    batch.solve();
    const single = ikpd.solveAim({ position: [0, 1, 0], target: [2, 0.5, 3], forward: Z, offset: [0, 0.1, 0.05] }).rotation;
    expect(sameRotation(Array.from(batch.output.rotation), single)).toBeGreaterThan(1 - 1e-6);
    batch.dispose();
  });
});
