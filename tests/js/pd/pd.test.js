// PD controllers through the JS API (docs/pd/pd.md): exact integrator against the
// analytic solution, frame-rate independence, stability regions, the reference
// numbers, errors (moving targets, rotations, limits and blend-out: tracking.test.js).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { axisAngle } from '../../support/ik-math.js';
import { ikpd } from '../../support/setup.js';

const TAU = 2 * Math.PI;

/** Textbook closed form (WEB-NOTES), fixed target g. */
function analytic(kp, kd, g, x0, v0, t, critical = false) {
  const a = kd / 2;
  const e0 = x0 - g;
  const disc = critical ? 0 : a * a - kp;
  if (disc < 0) {
    const wd = Math.sqrt(-disc);
    const B = (v0 + a * e0) / wd;
    const E = Math.exp(-a * t);
    return {
      x: g + E * (e0 * Math.cos(wd * t) + B * Math.sin(wd * t)),
      v: E * (v0 * Math.cos(wd * t) - ((kp * e0 + a * v0) / wd) * Math.sin(wd * t)),
    };
  }
  if (disc === 0) {
    const c = v0 + a * e0;
    const E = Math.exp(-a * t);
    return { x: g + (e0 + c * t) * E, v: (v0 - a * c * t) * E };
  }
  const r = Math.sqrt(disc);
  const s2 = -a - r;
  const s1 = kp / s2;
  const c2 = (v0 - s1 * e0) / (s2 - s1);
  const c1 = e0 - c2;
  return {
    x: g + c1 * Math.exp(s1 * t) + c2 * Math.exp(s2 * t),
    v: c1 * s1 * Math.exp(s1 * t) + c2 * s2 * Math.exp(s2 * t),
  };
}

const close = (got, ref, scale) => Math.abs(got - ref) <= 1e-6 * Math.abs(ref) + 1e-9 * scale + 1e-300;

describe('PD: exact integrator', () => {
  it('matches the analytic x(t), v(t) in all three regimes to 1e-6 relative', () => {
    const counts = { under: 0, critical: 0, over: 0 };
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 4000 }).map((i) => i / 1000),
        fc.integer({ min: -1500, max: 1500 }).map((i) => i / 1000),
        fc.double({ min: -10, max: 10, noNaN: true }),
        fc.double({ min: -10, max: 10, noNaN: true }),
        fc.double({ min: -10, max: 10, noNaN: true }),
        fc.integer({ min: 0, max: 4000 }).map((i) => i / 1000),
        fc.integer({ min: 0, max: 4 }).map((i) => i === 0),
        (logKp, logZeta, x0r, v0s, gr, tScale, critical) => {
          const clean = (x) => (Math.abs(x) < 1e-12 ? 0 : x); // relative checks of denormals mean nothing
          const x0 = clean(x0r);
          const g = clean(gr);
          const kp = 10 ** logKp;
          let zeta = critical ? 1 : 10 ** logZeta;
          if (!critical && Math.abs(zeta - 1) < 0.02) zeta = 1.2; // the double reference cancels near ζ = 1
          const kd = 2 * zeta * Math.sqrt(kp);
          const v0 = clean(v0s) * Math.sqrt(kp);
          const t = clean(tScale) / Math.sqrt(kp);
          const pd = new ikpd.PD({ kp, kd, value: x0, velocity: v0 });
          pd.update(t, g);
          const ref = analytic(pd.kp, critical ? 2 * Math.sqrt(pd.kp) : pd.kd, g, x0, v0, t, critical);
          const scale = Math.abs(x0 - g) + Math.abs(v0) / Math.sqrt(kp);
          expect(close(pd.value, ref.x, scale), `x ${pd.value} vs ${ref.x}`).toBe(true);
          expect(close(pd.velocity, ref.v, scale * Math.sqrt(kp)), `v ${pd.velocity} vs ${ref.v}`).toBe(true);
          counts[zeta < 1 ? 'under' : zeta === 1 ? 'critical' : 'over']++;
          pd.dispose();
        },
      ),
      { numRuns: 3000 },
    );
    expect(counts.under).toBeGreaterThan(200);
    expect(counts.critical).toBeGreaterThan(200);
    expect(counts.over).toBeGreaterThan(200);
  });

  it('is continuous across ζ = 1 ± 1e-9, and finite for very stiff or very damped gains', () => {
    for (const kp of [0.5, 40, 1e4]) {
      const results = [1 - 1e-9, 1, 1 + 1e-9].map((zeta) => {
        const pd = new ikpd.PD({ kp, damping: zeta, value: 1, velocity: -3 });
        pd.update(2 / Math.sqrt(kp), 0);
        const r = [pd.value, pd.velocity];
        pd.dispose();
        return r;
      });
      const critical = analytic(kp, 2 * Math.sqrt(kp), 0, 1, -3, 2 / Math.sqrt(kp));
      for (const [x, v] of results) {
        expect(x).toBeCloseTo(critical.x, 8);
        expect(v).toBeCloseTo(critical.v, 7);
      }
    }
    for (const [kp, kd] of [[1e8, 1], [1e8, 2e4], [1, 1e6], [1e-3, 1e5]]) {
      for (const dt of [1e-6, 1 / 240, 1 / 30, 1, 1e3, 1e12]) {
        const pd = new ikpd.PD({ kp, kd, value: 1, velocity: -0.5 });
        pd.update(dt, 0);
        expect(Number.isFinite(pd.value) && Number.isFinite(pd.velocity)).toBe(true);
        expect(Math.abs(pd.value)).toBeLessThanOrEqual(1 + 0.5 / Math.sqrt(kp) + 1e-9);
        pd.dispose();
      }
    }
  });

  it('gives the same result in 1, 10, 30, 60, 144 or 240 steps (every controller)', () => {
    const run = (n) => {
      const opts = { settleTime: 0.8, damping: 0.6 };
      const pd = new ikpd.PD({ ...opts, value: 0.2, velocity: 3 });
      const angle = new ikpd.AnglePD({ ...opts, value: 3, velocity: -1 });
      const vec = new ikpd.Vec3PD({ ...opts, value: [1, 0.2, 0], velocity: [0, 0, 2] });
      const quat = new ikpd.QuatPD({ ...opts, value: axisAngle([0, 1, 0], 0.3), velocity: [1, 0, -2] });
      for (let k = 0; k < n; k++) {
        pd.update(1 / n, -1);
        angle.update(1 / n, -3);
        vec.update(1 / n, [0, 1, 1]);
        quat.update(1 / n, axisAngle([1, 1, 0], 2.5));
      }
      const out = [pd.value, pd.velocity, angle.value, angle.velocity, ...vec.value, ...vec.velocity, ...quat.value, ...quat.velocity];
      for (const c of [pd, angle, vec, quat]) c.dispose();
      return out;
    };
    const one = run(1);
    for (const n of [10, 30, 60, 144, 240]) {
      const many = run(n);
      many.forEach((x, i) => expect(Math.abs(x - one[i])).toBeLessThan(1e-6));
    }
  });

  it('steps backwards with stateAt and predicts forwards exactly', () => {
    const pd = new ikpd.PD({ settleTime: 1, damping: 0.5, value: 0, velocity: 1 });
    pd.update(0.1, 2, 0.5);
    const ahead = pd.stateAt(0.25);
    const back = pd.stateAt(-0.1);
    expect(back.value).toBeCloseTo(0, 12);
    expect(back.velocity).toBeCloseTo(1, 12);
    pd.update(0.25, 2 + 0.5 * 0.25, 0.5);
    expect(pd.value).toBeCloseTo(ahead.value, 12);
    expect(pd.velocity).toBeCloseTo(ahead.velocity, 12);
    expect(() => pd.stateAt(-1e6)).toThrow(/^t: /);
    pd.dispose();
  });

  it('timeToSettle is when the error stays within the tolerance', () => {
    for (const damping of [0.3, 'critical', 'over']) {
      const pd = new ikpd.PD({ settleTime: 1, damping, value: 1 });
      pd.update(0, 0);
      const T = pd.timeToSettle(0.01);
      pd.update(T, 0);
      expect(Math.abs(pd.value)).toBeCloseTo(0.01, 8);
      for (let i = 0; i < 300; i++) {
        pd.update(0.01, 0);
        expect(Math.abs(pd.value)).toBeLessThanOrEqual(0.01 + 1e-9);
      }
      pd.dispose();
    }
    const undamped = new ikpd.PD({ kp: 40, kd: 0, value: 1 });
    undamped.update(0, 0);
    expect(undamped.timeToSettle(0.1)).toBe(Infinity);
    undamped.dispose();
  });
});

describe('PD: integrators and stability', () => {
  it('explicit outside its region throws before stepping (or clamps) while exact converges', () => {
    const opts = { kp: 1e4, damping: 'critical', value: 1 };
    const explicit = new ikpd.PD({ ...opts, integrator: 'explicit' });
    const clamped = new ikpd.PD({ ...opts, integrator: 'explicit', onUnstable: 'clamp' });
    const exact = new ikpd.PD(opts);
    expect(explicit.checkStability(1 / 30).stable).toBe(false);
    expect(exact.checkStability(1 / 30)).toMatchObject({ stable: true, maxStableDt: Infinity });
    // A RangeError naming dt at the first update, the state untouched.
    expect(() => explicit.update(1 / 30, 0)).toThrow(/^dt: outside the 'explicit' integrator's stability region/);
    expect(explicit.value).toBe(1);
    expect(explicit.velocity).toBe(0);
    for (let i = 0; i < 200; i++) {
      exact.update(1 / 30, 0);
      clamped.update(1 / 30, 0);
    }
    expect(Math.abs(exact.value)).toBeLessThan(1e-10);
    expect(Math.abs(clamped.value)).toBeLessThan(1e-9);
    expect(() => new ikpd.PD({ onUnstable: 'ignore' })).toThrow(/^onUnstable: expected one of 'throw', 'clamp'/);
    explicit.dispose();
    clamped.dispose();
    exact.dispose();
  });

  it("stable PD: kd/kp > dt is not enough; the documented region 3·kp·dt² < 4 + 2·kd·dt holds on both sides", () => {
    const kp = 1e4;
    const dt = 1 / 30;
    const kd = 1.01 * kp * dt;
    const report = ikpd.checkStability({ kp, kd, dt, integrator: 'stable' });
    expect(report.stable).toBe(false);
    expect(report.spectralRadius).toBeGreaterThan(1);
    // Caught at the first update (it used to run on until the state overflowed).
    const pd = new ikpd.PD({ kp, kd, integrator: 'stable', value: 1 });
    expect(() => pd.update(dt, 0)).toThrow(/^dt: outside the 'stable' integrator's stability region/);
    expect(pd.value).toBe(1);
    pd.dispose();

    fc.assert(
      fc.property(fc.double({ min: 1, max: 5, noNaN: true }), fc.double({ min: -1, max: 3, noNaN: true }), (lkp, lkd) => {
        const k = 10 ** lkp;
        const d = 10 ** lkd;
        const { maxStableDt: h } = ikpd.checkStability({ kp: k, kd: d, dt: 0.01, integrator: 'stable' });
        expect(3 * k * h * h).toBeCloseTo(4 + 2 * d * h, 6);
        for (const [factor, stable] of [[0.97, true], [1.03, false]]) {
          const r = ikpd.checkStability({ kp: k, kd: d, dt: h * factor, integrator: 'stable' });
          expect(r.stable).toBe(stable);
          const c = new ikpd.PD({ kp: k, kd: d, integrator: 'stable', value: 1 });
          let grown = false;
          try {
            for (let i = 0; i < 3000; i++) c.update(h * factor, 0);
            grown = Math.abs(c.value) + Math.abs(c.velocity) / Math.sqrt(k) > 1;
          } catch {
            grown = true;
          }
          expect(grown).toBe(!stable);
          c.dispose();
        }
      }),
      { numRuns: 100 },
    );
  });

  it('explicit region kp·dt² + 2·kd·dt < 4, and substep keeps a stiff spring stable', () => {
    const { maxStableDt } = ikpd.checkStability({ kp: 400, kd: 40, dt: 0.01, integrator: 'explicit' });
    expect(400 * maxStableDt ** 2 + 2 * 40 * maxStableDt).toBeCloseTo(4, 9);
    expect(ikpd.checkStability({ kp: 1e4, kd: 200, dt: 1 / 30, integrator: 'substep', dtMax: 1 / 240 }).stable).toBe(true);
    const pd = new ikpd.PD({ kp: 1e4, damping: 'critical', integrator: 'substep', dtMax: 1 / 240, value: 1 });
    for (let i = 0; i < 60; i++) pd.update(1 / 30, 0);
    expect(Math.abs(pd.value)).toBeLessThan(1e-3);
    pd.dispose();
  });
});

describe('PD: checkStability input', () => {
  it('gives a finite spectral radius and a non-NaN maxStableDt, or an error naming the parameter', () => {
    const num = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, 1e-300, 1e300, 1));
    fc.assert(
      fc.property(num, num, num, num, fc.constantFrom('exact', 'stable', 'explicit', 'substep'), (kp, kd, dt, dtMax, integrator) => {
        let r;
        try {
          r = ikpd.checkStability({ kp, kd, dt, dtMax, integrator });
        } catch (error) {
          expect(error).toBeInstanceOf(RangeError);
          expect(error.message).toMatch(/^(kp|kd|dt|dtMax): /);
          return;
        }
        expect(Number.isFinite(r.spectralRadius)).toBe(true);
        expect(r.maxStableDt >= 0).toBe(true); // never NaN; +Infinity when no step is too large
      }),
      { numRuns: 2000 },
    );
  });
});

describe('PD: parameters', () => {
  it("reproduces the reference numbers", () => {
    // kp = 40 critical: ≈ 1.4 % of the error left at T = 2π/√kp ≈ 0.99 s.
    const T = TAU / Math.sqrt(40);
    expect(T).toBeCloseTo(0.9935, 4);
    const crit = new ikpd.PD({ settleTime: T, value: 1 });
    expect(crit.kp).toBeCloseTo(40, 9);
    expect(crit.kd).toBeCloseTo(2 * Math.sqrt(40), 9);
    crit.update(T, 0);
    expect(crit.value).toBeCloseTo(0.0136, 3);
    crit.dispose();
    // Responsive: kd = √(2kp), overshoot ≈ 4.3 %.
    const resp = new ikpd.PD({ settleTime: 1, damping: 'responsive', value: 1 });
    expect(resp.kd).toBeCloseTo(Math.sqrt(2 * resp.kp), 9);
    let min = 1;
    for (let i = 0; i < 2000; i++) min = Math.min(min, resp.update(0.001, 0));
    expect(-min).toBeCloseTo(Math.exp(-Math.PI), 3);
    expect(-min).toBeCloseTo(0.043, 3);
    resp.dispose();
    // Over-damped is slower than critical.
    const a = new ikpd.PD({ settleTime: 1, value: 1 });
    const b = new ikpd.PD({ settleTime: 1, damping: 'over', value: 1 });
    for (let i = 0; i < 60; i++) {
      a.update(1 / 60, 0);
      b.update(1 / 60, 0);
      expect(b.value).toBeGreaterThan(a.value);
    }
    expect(b.timeToSettle(0.01)).toBeGreaterThan(a.timeToSettle(0.01));
    a.dispose();
    b.dispose();
  });

  it('converts SmoothDamp, half-life and react-spring/motion parameters', () => {
    expect(ikpd.gainsFromSmoothTime(0.5)).toEqual({ kp: 16, kd: 8 });
    const h = ikpd.gainsFromHalfLife(0.3);
    const pd = new ikpd.PD({ ...h, value: 1 });
    pd.update(0.3, 0);
    expect(pd.value).toBeCloseTo(0.5, 12);
    pd.dispose();
    expect(ikpd.gainsFromSpring({ stiffness: 170, damping: 26 })).toEqual({ kp: 170, kd: 26 });
    expect(ikpd.gainsFromSpring({ stiffness: 100, damping: 10, mass: 2 })).toEqual({ kp: 50, kd: 5 });
    const g = ikpd.gainsFromSettleTime(1, 'responsive');
    expect(g.kp).toBeCloseTo(TAU * TAU, 12);
    expect(g.kd).toBeCloseTo(Math.sqrt(2 * g.kp), 12);
    expect(() => ikpd.gainsFromHalfLife(0)).toThrow(/^halfLife: /);
    expect(() => ikpd.gainsFromSpring({ stiffness: 1, damping: 1, mass: 0 })).toThrow(/^mass: /);
  });

  it('names the parameter in every error; dt = 0 is a no-op', () => {
    const pd = new ikpd.PD();
    expect(() => pd.update(-0.1, 1)).toThrow(new RangeError('dt: must be a finite number >= 0'));
    expect(() => pd.update(NaN, 1)).toThrow(/^dt: /);
    expect(() => pd.update(0.1, 'x')).toThrow(TypeError);
    expect(() => new ikpd.PD({ kp: -1 })).toThrow(new RangeError('kp: must be a finite number > 0'));
    expect(() => new ikpd.PD({ kp: 10, kd: -1 })).toThrow(new RangeError('kd: must be a finite number >= 0'));
    expect(() => new ikpd.PD({ settleTime: 0 })).toThrow(new RangeError('settleTime: must be a finite number > 0'));
    expect(() => new ikpd.PD({ damping: 'soft' })).toThrow(/^damping: /);
    expect(() => new ikpd.PD({ integrator: 'rk4' })).toThrow(/^integrator: /);
    expect(() => new ikpd.PD({ settleTime: 1, kp: 3 })).toThrow(/^settleTime: /);
    expect(() => new ikpd.PD({ maxVelocity: 0 })).toThrow(/^maxVelocity: /);
    expect(() => new ikpd.PD({ feedForward: 2 })).toThrow(/^feedForward: /);
    expect(() => new ikpd.QuatPD({ maxAngle: 0 })).toThrow(/^maxAngle: /);
    const vec = new ikpd.Vec3PD();
    expect(() => vec.update(0.1, [0, 0, 0])).toThrow(new RangeError('target: must not be zero'));
    const quat = new ikpd.QuatPD();
    expect(() => quat.update(0.1, [0, 0, 0, 0])).toThrow(/^target: /);
    for (const [c, target] of [[pd, 5], [vec, [0, 1, 0]], [quat, [0, 1, 0, 0]]]) {
      c.reset(c.value, c.velocity);
      const before = [c.value, c.velocity];
      for (const options of [{}, { integrator: 'explicit' }, { integrator: 'substep', maxVelocity: 2, ki: 1 }]) {
        c.configure(options);
        c.update(0, target);
        expect([c.value, c.velocity]).toEqual(before);
      }
      c.dispose();
    }
  });

  it('dispose() frees, is idempotent, and works with Symbol.dispose', () => {
    const pd = new ikpd.QuatPD();
    pd.dispose();
    pd.dispose();
    expect(pd.disposed).toBe(true);
    expect(() => pd.value).toThrow('QuatPD: used after dispose()');
    if (typeof Symbol.dispose === 'symbol') {
      const other = new ikpd.PD();
      other[Symbol.dispose]();
      expect(other.disposed).toBe(true);
    }
  });
});
