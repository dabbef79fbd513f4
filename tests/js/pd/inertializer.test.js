// ikpd.Inertializer through the JS API (docs/pd/inertializer.md): the switch instant
// equals the old pose, the first derivative is continuous, the offset follows the
// closed-form spring at any frame rate, chained switches never jump, half-life 0 is a
// cut, no NaN, and errors name the parameter and change nothing.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';

const LAMBDA_HALF_LIFE = 1.6783469900166610; // λ·halfLife (docs/pd/inertializer.md, "The decay")

const made = [];
afterEach(() => { while (made.length) made.pop().dispose(); });
const inertializer = (n, options) => { const x = new ikpd.Inertializer(n, options); made.push(x); return x; };

// Quaternion helpers ([x, y, z, w]).
const axisAngle = (axis, angle) => {
  const l = Math.hypot(...axis);
  const s = Math.sin(angle / 2) / l;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
};
const mul = (a, b) => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];
const angleBetween = (a, b) => {
  const d = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / Math.hypot(...a) / Math.hypot(...b);
  return 2 * Math.acos(Math.min(1, d));
};
// The rotation from a to b as a scaled angle-axis vector (b·a⁻¹, the short way).
const logDelta = (a, b) => {
  let q = mul(b, [-a[0], -a[1], -a[2], a[3]]);
  if (q[3] < 0) q = q.map((v) => -v);
  const s = Math.hypot(q[0], q[1], q[2]);
  const k = s > 0 ? (2 * Math.atan2(s, q[3])) / s : 2;
  return [q[0] * k, q[1] * k, q[2] * k];
};
const quatAt = (f, j) => [f[7 * j + 3], f[7 * j + 4], f[7 * j + 5], f[7 * j + 6]];
const posAt = (f, j) => [f[7 * j], f[7 * j + 1], f[7 * j + 2]];
const put = (f, j, position, rotation) => { f.set(position, 7 * j); f.set(rotation, 7 * j + 3); };

// A moving pose stream: joint j turns about `axis` at `speed` rad/s from `start`, and slides.
const stream = (axis, speed, start, velocity) => (t) => ({
  rotation: mul(axisAngle(axis, speed * t), start),
  position: velocity.map((v, i) => v * t + i),
});
const fill = (f, s, t) => put(f, 0, s(t).position, s(t).rotation);

describe('ikpd.Inertializer', () => {
  it('at the switch the output equals the old pose (float rounding), then plays the new pose with the offset', () => {
    const x = inertializer(1, { halfLife: 0.2 });
    put(x.input, 0, [1, 2, 3], axisAngle([1, 2, 0], 2.5));
    x.update(1 / 60);
    const before = { p: posAt(x.output, 0), q: quatAt(x.output, 0) };
    put(x.input, 0, [-4, 0.5, 7], axisAngle([0, 1, 1], -1.9));
    x.transition();
    x.update(0);
    expect(angleBetween(quatAt(x.output, 0), before.q)).toBeLessThan(1e-6);
    posAt(x.output, 0).forEach((v, i) => expect(v).toBeCloseTo(before.p[i], 5));
    expect(x.elapsed).toBe(0);
  });

  it('the first derivative is continuous at the switch (rotation and translation); without velocity it is not', () => {
    const dt = 1e-3;
    const old = stream([0, 1, 0], 3, axisAngle([1, 0, 0], 0.4), [1, 0, -2]);
    const next = stream([1, 0, 1], -2.5, axisAngle([0, 0, 1], 1.2), [-3, 1, 0]);
    for (const velocity of [true, false]) {
      const x = inertializer(1, { halfLife: 0.3 });
      const shown = [];
      let t = 0;
      for (let i = 0; i < 3; i++, t += dt) { fill(x.input, old, t); x.update(i === 0 ? 0 : dt); shown.push({ q: quatAt(x.output, 0), p: posAt(x.output, 0) }); }
      t -= dt;
      fill(x.input, next, t);
      fill(x.previous, next, t - dt);
      x.transition({ velocity });
      for (let i = 0; i < 2; i++) { t += dt; fill(x.input, next, t); x.update(dt); shown.push({ q: quatAt(x.output, 0), p: posAt(x.output, 0) }); }
      // Angular velocity before the switch (frames 1 → 2) and after it (2 → 3).
      const wBefore = logDelta(shown[1].q, shown[2].q).map((v) => v / dt);
      const wAfter = logDelta(shown[2].q, shown[3].q).map((v) => v / dt);
      const vBefore = shown[2].p.map((v, i) => (v - shown[1].p[i]) / dt);
      const vAfter = shown[3].p.map((v, i) => (v - shown[2].p[i]) / dt);
      const jumpW = Math.hypot(...wAfter.map((v, i) => v - wBefore[i]));
      const jumpV = Math.hypot(...vAfter.map((v, i) => v - vBefore[i]));
      if (velocity) {
        expect(jumpW).toBeLessThan(0.1); // the streams' angular velocities differ by 4.3 rad/s
        expect(jumpV).toBeLessThan(0.1); // their velocities by 5 units/s
      } else {
        expect(jumpW).toBeGreaterThan(1); // what a rotation offset turns the new rate by, minus the old
        expect(jumpV).toBeGreaterThan(4);
      }
    }
  });

  for (const rate of [30, 60, 240]) {
    it(`the offset decays as the closed-form spring at ${rate} Hz (<= 1e-6 rad)`, () => {
      const halfLife = 0.15;
      const lambda = LAMBDA_HALF_LIFE / halfLife;
      const x = inertializer(2, { halfLife });
      put(x.output, 0, [0, 0, 0], axisAngle([1, -2, 0.5], 2.2));
      put(x.output, 1, [5, -1, 2], axisAngle([0, 0, 1], -0.7));
      put(x.input, 0, [0, 0, 0], [0, 0, 0, 1]);
      put(x.input, 1, [0, 0, 0], axisAngle([0, 1, 0], 0.3));
      const r0 = [logDelta([0, 0, 0, 1], axisAngle([1, -2, 0.5], 2.2)), logDelta(axisAngle([0, 1, 0], 0.3), axisAngle([0, 0, 1], -0.7))];
      x.transition(); // no update yet: at rest
      let worst = 0;
      for (let i = 1; i <= rate; i++) {
        x.update(1 / rate);
        const t = i / rate;
        const decay = (1 + lambda * t) * Math.exp(-lambda * t);
        for (let j = 0; j < 2; j++) {
          const { rotation } = x.offsetAt(j);
          worst = Math.max(worst, Math.hypot(...rotation.map((v, k) => v - r0[j][k] * decay)));
        }
        // The output of joint 0 (input identity) turns by exactly the offset.
        worst = Math.max(worst, Math.abs(angleBetween(quatAt(x.output, 0), [0, 0, 0, 1]) - 2.2 * decay));
        expect(x.offsetAt(1).translation[0]).toBeCloseTo(5 * decay, 5);
      }
      expect(worst).toBeLessThanOrEqual(1e-6);
      expect(x.elapsed).toBeCloseTo(1, 9);
    });
  }

  it('chained switches every 50 ms never jump (a cut does)', () => {
    const streams = [
      stream([0, 1, 0], 2, [0, 0, 0, 1], [1, 0, 0]),
      stream([1, 0, 0], -3, axisAngle([0, 0, 1], 1.5), [0, 0, 2]),
      stream([0, 1, 1], 1, axisAngle([1, 1, 0], -2), [-1, 0, 0]),
    ];
    const dt = 1 / 60;
    const steps = (halfLife) => {
      const x = inertializer(1, { halfLife });
      let current = 0;
      let last = null;
      let lastStep = 0;
      let worst = 0;
      for (let i = 0, t = 0; i < 120; i++, t += dt) {
        if (i > 0 && i % 3 === 0) { // every 50 ms
          current = (current + 1) % streams.length;
          fill(x.input, streams[current], t - dt);
          fill(x.previous, streams[current], t - 2 * dt);
          x.transition();
        }
        fill(x.input, streams[current], t);
        x.update(i === 0 ? 0 : dt);
        const q = quatAt(x.output, 0);
        expect(q.every(Number.isFinite)).toBe(true);
        if (last !== null) {
          const step = angleBetween(last, q);
          if (i > 1) worst = Math.max(worst, Math.abs(step - lastStep));
          lastStep = step;
        }
        last = q;
      }
      return worst;
    };
    // The change of the per-frame turn (rad): the streams turn 1-3 rad/s, 0.017-0.05 rad a frame.
    // A spring changes it by its acceleration over a frame, λ²·offset·dt² ≈ 70·2/3600 ≈ 0.04
    // here; at a switch the old spring's (the shown pose's exact velocity) and the new one's add.
    expect(steps(0.2)).toBeLessThan(0.08);
    expect(steps(0)).toBeGreaterThan(0.5);
  });

  it('half-life 0 is a cut: the output is the new pose', () => {
    const x = inertializer(1);
    put(x.input, 0, [1, 1, 1], axisAngle([1, 0, 0], 1));
    x.update(0.1);
    put(x.input, 0, [-2, 3, 0], axisAngle([0, 1, 0], -2));
    x.transition({ halfLife: 0 });
    x.update(0);
    expect(angleBetween(quatAt(x.output, 0), axisAngle([0, 1, 0], -2))).toBeLessThan(1e-6);
    expect(posAt(x.output, 0)).toEqual([-2, 3, 0]);
    expect(x.offsetAt(0)).toEqual({ rotation: [0, 0, 0], translation: [0, 0, 0] });
  });

  it('no NaN for any poses, rates and half-lives', () => {
    const quat = fc.tuple(fc.float({ min: -1, max: 1, noNaN: true }), fc.float({ min: -1, max: 1, noNaN: true }),
      fc.float({ min: -1, max: 1, noNaN: true }), fc.float({ min: -1, max: 1, noNaN: true }))
      .filter((q) => Math.hypot(...q) > 1e-3);
    const pos = fc.tuple(fc.float({ min: -1e6, max: 1e6, noNaN: true }), fc.float({ min: -1e6, max: 1e6, noNaN: true }), fc.float({ min: -1e6, max: 1e6, noNaN: true }));
    const x = inertializer(1);
    fc.assert(fc.property(quat, quat, quat, pos, pos, fc.double({ min: 0, max: 1e3, noNaN: true }),
      fc.double({ min: 1e-6, max: 1, noNaN: true }), (a, b, c, p, q, halfLife, dt) => {
        put(x.input, 0, p, a);
        x.update(dt);
        put(x.input, 0, q, b);
        put(x.previous, 0, p, c);
        x.transition({ halfLife });
        for (let i = 0; i < 3; i++) x.update(dt);
        return [...x.output].every(Number.isFinite);
      }), { numRuns: 300 });
  });

  it('errors name the parameter and change nothing', () => {
    expect(() => new ikpd.Inertializer(0)).toThrow(RangeError);
    expect(() => new ikpd.Inertializer(0)).toThrow(/^jointCount:/);
    expect(() => new ikpd.Inertializer(1.5)).toThrow(/^jointCount:/);
    expect(() => new ikpd.Inertializer(1, { halfLive: 0.1 })).toThrow(/halfLive: unknown option.*did you mean 'halfLife'/);
    expect(() => new ikpd.Inertializer(1, { halfLife: -1 })).toThrow(/^halfLife:/);
    const x = inertializer(2, { halfLife: 0.2 });
    put(x.input, 0, [1, 0, 0], axisAngle([1, 0, 0], 1));
    put(x.input, 1, [0, 0, 0], [0, 0, 0, 1]);
    x.update(0.1);
    put(x.input, 0, [0, 0, 0], [0, 0, 0, 1]);
    x.transition();
    x.update(0.05);
    const output = [...x.output];
    const offset = x.offsetAt(0);
    const elapsed = x.elapsed;
    expect(() => x.transition({ halfLife: NaN })).toThrow(/^halfLife:/);
    expect(() => x.transition({ halflife: 1 })).toThrow(TypeError);
    expect(() => x.transition({ velocity: 1 })).toThrow(/^velocity:/);
    expect(() => x.update(-1)).toThrow(/^dt:/);
    expect(() => x.offsetAt(2)).toThrow(/^joint:/);
    x.input[4] = NaN;
    expect(() => x.update(0.1)).toThrow(/^input:/);
    expect(() => x.transition()).toThrow(/^input:/);
    x.input.fill(0, 3, 7);
    expect(() => x.transition()).toThrow(/^input:/); // a zero rotation
    expect([...x.output]).toEqual(output);
    expect(x.offsetAt(0)).toEqual(offset);
    expect(x.elapsed).toBe(elapsed);
    expect(() => { x.halfLife = -0.1; }).toThrow(/^halfLife:/);
    expect(x.halfLife).toBe(0.2);
    x.dispose();
    expect(() => x.update(0.1)).toThrow(/used after dispose/);
  });
});
