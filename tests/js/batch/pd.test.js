// PD batches follow the single controllers (ikpd.PD / AnglePD / QuatPD)
// item by item, frame after frame, to 1e-6 (relative to the size of the
// velocity update for the quaternion batch's float lanes): every frame each controller
// starts from the batch's float32 state (the controllers keep double state,
// so without that, float rounding would be amplified over the frames).
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';
import { rng } from '../../../bench/problems.js';

function within(actual, expected, tolerance, what) {
  if (!(Math.abs(actual - expected) <= tolerance)) throw new Error(`${what}: batch ${actual} vs controller ${expected}`);
}

describe('PDBatch', () => {
  const cases = [
    [{ settleTime: 0.5 }, false],
    [{ settleTime: 0.3, damping: 'responsive', integrator: 'stable' }, false],
    [{ kp: 80, kd: 4, integrator: 'substep', dtMax: 1 / 240 }, false],
    [{ settleTime: 0.4, maxVelocity: 3 }, false],
    [{ settleTime: 0.4 }, true],
  ];
  it.each(cases.map(([o, angle]) => [JSON.stringify(o), angle, o]))('%s (angle %s) matches PD objects for 40 frames', (_, angle, options) => {
    const n = 64;
    const r = rng(42);
    const batch = new ikpd.PDBatch(n, { ...options, angle });
    const Controller = angle ? ikpd.AnglePD : ikpd.PD;
    const singles = Array.from({ length: n }, () => new Controller(options));
    try {
      for (let i = 0; i < n; i++) {
        singles[i].reset(r.uniform(-3, 3), r.uniform(-2, 2));
        batch.state.value[i] = singles[i].value;
        batch.state.velocity[i] = singles[i].velocity;
        singles[i].reset(batch.state.value[i], batch.state.velocity[i]); // same float32 start
      }
      for (let frame = 0; frame < 40; frame++) {
        const dt = frame === 5 ? 0 : r.uniform(0.001, 0.05);
        for (let i = 0; i < n; i++) batch.input.target[i] = r.uniform(-3, 3);
        for (let i = 0; i < n; i++) singles[i].reset(batch.state.value[i], batch.state.velocity[i]);
        batch.update(dt);
        for (let i = 0; i < n; i++) {
          singles[i].update(dt, batch.input.target[i]);
          let d = Math.abs(batch.state.value[i] - singles[i].value);
          if (angle) d = Math.min(d, Math.abs(d - 2 * Math.PI));
          within(d, 0, 1e-6, `frame ${frame} item ${i} value`);
          within(batch.state.velocity[i], singles[i].velocity, 1e-6 * Math.max(1, Math.abs(singles[i].velocity)), `frame ${frame} item ${i} velocity`);
        }
      }
    } finally {
      batch.dispose();
      singles.forEach((s) => s.dispose());
    }
  });

  it('validates options, dt and items', () => {
    expect(() => new ikpd.PDBatch(2, { ki: 1 })).toThrow(TypeError); // not a batch option
    expect(() => new ikpd.PDBatch(2, { settleTime: -1 })).toThrow(/^settleTime: /);
    expect(() => new ikpd.PDBatch(2, { angle: 1 })).toThrow(/^angle: /);
    const batch = new ikpd.PDBatch(3, { settleTime: 0.5 });
    expect(() => batch.update(-1)).toThrow(/^dt: /);
    expect(() => batch.update(NaN)).toThrow(/^dt: /);
    batch.input.target[1] = NaN;
    batch.state.value.set([5, 5, 5]);
    expect(() => batch.update(0.1)).toThrow(new RangeError('items[1].target: must be a finite number'));
    expect(Array.from(batch.state.value)).toEqual([5, 5, 5]); // nothing written
    batch.update(0.1, 1); // only item 0
    expect(batch.state.value[0]).not.toBe(5);
    expect(batch.state.value[2]).toBe(5);
    batch.dispose();
  });

  it('update(0) wraps angles as AnglePD.reset does', () => {
    const batch = new ikpd.PDBatch(2, { angle: true });
    batch.state.value.set([4, 100]);
    batch.update(0);
    for (const [i, v] of [4, 100].entries()) {
      const controller = new ikpd.AnglePD();
      controller.reset(v);
      expect(batch.state.value[i]).toBe(Math.fround(controller.value));
      controller.dispose();
    }
    expect(batch.state.value[0]).toBeCloseTo(-2.283, 3);
    batch.dispose();
  });
});

describe('QuatPDBatch', () => {
  it.each([[{ settleTime: 0.4 }], [{ settleTime: 0.3, damping: 0.5, maxAngle: 1 }], [{ kp: 50, kd: 2, integrator: 'explicit' }]])(
    '%j matches QuatPD objects for 30 frames',
    (options) => {
      const n = 48;
      const r = rng(7);
      const batch = new ikpd.QuatPDBatch(n, options);
      const singles = Array.from({ length: n }, () => new ikpd.QuatPD(options));
      const unit = () => {
        const q = [r.uniform(-1, 1), r.uniform(-1, 1), r.uniform(-1, 1), r.uniform(-1, 1) + 1.2];
        const l = Math.hypot(...q);
        return q.map((c) => c / l);
      };
      try {
        for (let i = 0; i < n; i++) {
          singles[i].reset(unit(), [r.uniform(-1, 1), r.uniform(-1, 1), r.uniform(-1, 1)]);
          batch.state.value.set(singles[i].value, 4 * i);
          batch.state.velocity.set(singles[i].velocity, 3 * i);
          singles[i].reset(Array.from(batch.state.value.subarray(4 * i, 4 * i + 4)), Array.from(batch.state.velocity.subarray(3 * i, 3 * i + 3)));
        }
        for (let frame = 0; frame < 30; frame++) {
          for (let i = 0; i < n; i++) {
            const g = unit();
            if (frame % 4 === 1) for (let k = 0; k < 4; k++) g[k] = -g[k]; // other hemisphere
            batch.input.target.set(g, 4 * i);
          }
          // The batch computes in float: its new velocity rounds at the scale of
          // the spring's pull over the step, about kp·dt·(angle to the target).
          const pull = [];
          for (let i = 0; i < n; i++) {
            const q = Array.from(batch.state.value.subarray(4 * i, 4 * i + 4));
            const g = Array.from(batch.input.target.subarray(4 * i, 4 * i + 4));
            const cos = Math.abs(q.reduce((a, c, k) => a + c * g[k], 0)) / (Math.hypot(...q) * Math.hypot(...g));
            pull.push((singles[i].kp / 60) * 2 * Math.acos(Math.min(1, cos)));
            singles[i].reset(q, Array.from(batch.state.velocity.subarray(3 * i, 3 * i + 3)));
          }
          batch.update(1 / 60);
          for (let i = 0; i < n; i++) {
            singles[i].update(1 / 60, Array.from(batch.input.target.subarray(4 * i, 4 * i + 4)));
            const q = singles[i].value;
            const w = singles[i].velocity;
            const scale = Math.max(1, Math.hypot(...w), pull[i]);
            for (let k = 0; k < 4; k++) within(batch.state.value[4 * i + k], q[k], 1e-6, `frame ${frame} item ${i} value[${k}]`);
            for (let k = 0; k < 3; k++) within(batch.state.velocity[3 * i + k], w[k], 1e-6 * scale, `frame ${frame} item ${i} velocity[${k}]`);
          }
        }
      } finally {
        batch.dispose();
        singles.forEach((s) => s.dispose());
      }
    },
  );

  it('rejects what a batch cannot keep and bad items', () => {
    expect(() => new ikpd.QuatPDBatch(2, { method: 'componentwise' })).toThrow(/^method: /);
    const batch = new ikpd.QuatPDBatch(2);
    expect(Array.from(batch.state.value)).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
    batch.input.target.fill(0, 4, 8);
    expect(() => batch.update(0.1)).toThrow(/^items\[1\]\.target: /);
    batch.dispose();
  });
});
