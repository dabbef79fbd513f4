// PD: the stability check before a discrete step (onUnstable), the velocity
// limit inside the classic single update, the sub-step split, and the
// development warning for dt in milliseconds.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ikpd } from '../../support/setup.js';

afterEach(() => vi.restoreAllMocks());

describe('PD: dt in milliseconds', () => {
  // First in this file: the warning is shown once per process.
  it('warns once in development when dt > 1 s, and never for seconds', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const pd = new ikpd.PD();
    pd.update(1 / 60, 1);
    pd.update(1, 1);
    expect(warn).not.toHaveBeenCalled();
    pd.update(16, 1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/PD\.update\(dt = 16\): dt is in seconds/);
    pd.update(33, 1);
    new ikpd.QuatPD().dispose();
    expect(warn).toHaveBeenCalledTimes(1);
    pd.dispose();
  });
});

describe('PD: stability is checked before the step', () => {
  it("'explicit', 'stable' and 'substep' outside their region throw, state unchanged; 'clamp' converges", () => {
    const cases = [
      [{ kp: 1e4, kd: 200, integrator: 'explicit' }, /^dt: outside the 'explicit' integrator's stability region/],
      [{ kp: 1e4, kd: (1.01 * 1e4) / 30, integrator: 'stable' }, /^dt: outside the 'stable' integrator's stability region/],
      [{ kp: 1e4, kd: 200, integrator: 'substep', dtMax: 1 / 60 }, /^dt: the 'substep' sub-step/],
    ];
    for (const [options, message] of cases) {
      const pd = new ikpd.PD({ ...options, value: 1, velocity: 0.5 });
      expect(() => pd.update(1 / 30, 0)).toThrow(message);
      expect([pd.value, pd.velocity]).toEqual([1, 0.5]);
      const clamped = new ikpd.PD({ ...options, value: 1, onUnstable: 'clamp' });
      for (let i = 0; i < 300; i++) clamped.update(1 / 30, 0);
      expect(Math.abs(clamped.value)).toBeLessThan(1e-9);
      pd.dispose();
      clamped.dispose();
    }
  });

  it('steps just inside maxStableDt run, just outside throw', () => {
    for (const integrator of ['explicit', 'stable']) {
      const { maxStableDt } = ikpd.checkStability({ kp: 900, kd: 20, dt: 0.01, integrator });
      const pd = new ikpd.PD({ kp: 900, kd: 20, integrator, value: 1 });
      pd.update(maxStableDt * 0.999, 0);
      expect(() => pd.update(maxStableDt * 1.001, 0)).toThrow(/^dt: outside/);
      pd.dispose();
    }
  });
});

describe('PD: velocity limit and sub-step split', () => {
  const classic = (stable, kp, kd, dt, g, vMax, s) => {
    const f = stable ? (kp * (g - s.x - dt * s.v) - kd * s.v) / (1 + dt * kd) : kp * (g - s.x) - kd * s.v;
    s.v = Math.min(vMax, Math.max(-vMax, s.v + dt * f));
    s.x += dt * s.v;
  };

  it("'explicit' and 'stable' with maxVelocity equal the classic single update with a clamp", () => {
    for (const integrator of ['explicit', 'stable']) {
      const pd = new ikpd.PD({ kp: 60, kd: 4, integrator, maxVelocity: 2 });
      const s = { x: 0, v: 0 };
      for (let i = 0; i < 200; i++) {
        const dt = [1 / 30, 1 / 20, 1 / 60][i % 3];
        const g = i % 60 < 30 ? 5 : -3;
        pd.update(dt, g);
        classic(integrator === 'stable', 60, 4, dt, g, 2, s);
        expect(pd.value).toBeCloseTo(s.x, 12);
        expect(pd.velocity).toBeCloseTo(s.v, 12);
      }
      pd.dispose();
    }
  });

  it("substepSplit 'classic' takes dtMax steps then the remainder; 'equal' splits dt equally", () => {
    const dtMax = 1 / 60;
    const dt = 0.045;
    const run = (substepSplit) => {
      const pd = new ikpd.PD({ kp: 400, kd: 30, integrator: 'substep', dtMax, substepSplit });
      const value = pd.update(dt, 1);
      pd.dispose();
      return value;
    };
    const equal = { x: 0, v: 0 };
    for (let k = 0; k < 3; k++) classic(false, 400, 30, dt / 3, 1, Infinity, equal);
    const split = { x: 0, v: 0 };
    classic(false, 400, 30, dtMax, 1, Infinity, split);
    classic(false, 400, 30, dtMax, 1, Infinity, split);
    classic(false, 400, 30, dt - 2 * dtMax, 1, Infinity, split);
    expect(run(undefined)).toBeCloseTo(equal.x, 13);
    expect(run('equal')).toBeCloseTo(equal.x, 13);
    expect(run('classic')).toBeCloseTo(split.x, 13);
    expect(split.x).not.toBeCloseTo(equal.x, 6);
    expect(() => new ikpd.PD({ substepSplit: 'half' })).toThrow(/^substepSplit: expected one of 'equal', 'classic'/);
  });
});
