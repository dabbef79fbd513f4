// PD: the velocity limit inside the classic single update, and the sub-step split.
import { describe, expect, it } from 'vitest';
import { ikpd } from './setup.js';

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
