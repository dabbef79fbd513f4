// PD controllers tracking through the JS API (docs/pd/pd.md): moving targets
// (linear-in-step motion, feed-forward, the integral term), angles across ±π,
// quaternion hemispheres, opposite vectors, angle and velocity limits,
// blend-out to exactly zero and animation offsets.
import { describe, expect, it } from 'vitest';
import { axisAngle } from '../../support/ik-math.js';
import { ikpd } from '../../support/setup.js';

function quatAngle(a, b) {
  const d = Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]);
  return 2 * Math.acos(Math.min(1, d));
}

describe('PD: moving targets', () => {
  it('linear-in-step target motion beats the held target on a sine at 30/60/120 Hz', () => {
    const target = (t) => Math.sin(3 * t) + 0.5 * Math.sin(7 * t);
    const run = (hz, targetMotion) => {
      const pd = new ikpd.PD({ settleTime: 0.4, damping: 0.8, targetMotion, value: target(0) });
      pd.update(0, target(0));
      for (let k = 1; k <= 2 * hz; k++) pd.update(1 / hz, target(k / hz));
      const v = pd.value;
      pd.dispose();
      return v;
    };
    const reference = run(4800, 'linear');
    for (const hz of [30, 60, 120]) {
      const held = Math.abs(run(hz, 'hold') - reference);
      const linear = Math.abs(run(hz, 'linear') - reference);
      expect(linear).toBeLessThan(0.2 * held);
    }
  });

  it('feed-forward removes the steady lag kd/kp·speed on a ramp', () => {
    for (const feedForward of [0, 1]) {
      const pd = new ikpd.PD({ settleTime: 0.5, feedForward });
      let t = 0;
      for (let i = 0; i < 300; i++) {
        t += 1 / 60;
        pd.update(1 / 60, 2 * t, 2);
      }
      const lag = pd.value - 2 * t;
      expect(lag).toBeCloseTo(feedForward ? 0 : (-pd.kd * 2) / pd.kp, 6);
      pd.dispose();
    }
  });

  it('the integral term (PID) removes the lag too, limited by maxIntegral', () => {
    const pid = new ikpd.PD({ settleTime: 0.5, ki: 150 });
    const limited = new ikpd.PD({ settleTime: 0.5, ki: 150, maxIntegral: 0.05 });
    let t = 0;
    for (let i = 0; i < 1800; i++) {
      t += 1 / 60;
      pid.update(1 / 60, 2 * t, 2);
      limited.update(1 / 60, 2 * t, 2);
    }
    expect(pid.value - 2 * t).toBeCloseTo(0, 3);
    expect(limited.value - 2 * t).toBeCloseTo((-limited.kd * 2) / limited.kp + 0.05, 4);
    pid.dispose();
    limited.dispose();
  });
});

describe('PD: angles, vectors, quaternions, limits, blend-out', () => {
  it('AnglePD turns the short way across ±π', () => {
    const pd = new ikpd.AnglePD({ settleTime: 0.5, value: 3 });
    let crossed = false;
    for (let i = 0; i < 120; i++) {
      const v = pd.update(1 / 60, -3);
      expect(Math.abs(v)).toBeGreaterThan(2.9);
      expect(v).toBeLessThanOrEqual(Math.PI);
      expect(v).toBeGreaterThan(-Math.PI);
      if (v < 0) crossed = true;
    }
    expect(crossed).toBe(true);
    expect(pd.value).toBeCloseTo(-3, 3);
    pd.dispose();
  });

  it('QuatPD follows a target given in either hemisphere identically', () => {
    for (const method of ['log', 'componentwise']) {
      const a = new ikpd.QuatPD({ method, value: axisAngle([1, 0, 0], 0.2) });
      const b = new ikpd.QuatPD({ method, value: axisAngle([1, 0, 0], 0.2).map((x) => -x) });
      const g = axisAngle([0, 0, 1], 1);
      for (let i = 0; i < 90; i++) {
        a.update(1 / 60, g);
        b.update(1 / 60, g.map((x) => -x));
        expect(quatAngle(a.value, b.value)).toBeLessThan(1e-6);
      }
      expect(quatAngle(a.value, g)).toBeLessThan(1e-3);
      a.dispose();
      b.dispose();
    }
  });

  it('Vec3PD handles exactly opposite start and target without NaN', () => {
    for (const method of ['log', 'componentwise']) {
      const pd = new ikpd.Vec3PD({ method, settleTime: 0.5, value: [1, 0, 0] });
      for (let i = 0; i < 120; i++) {
        const v = pd.update(1 / 60, [-2, 0, 0]);
        expect(v.every(Number.isFinite)).toBe(true);
        expect(Math.hypot(...v)).toBeCloseTo(1, 12);
      }
      expect(pd.value[0]).toBeLessThan(-0.999);
      pd.dispose();
    }
  });

  it('QuatPD clamps the rotation angle: w >= cos(maxAngle/2)', () => {
    for (const method of ['log', 'componentwise']) {
      const pd = new ikpd.QuatPD({ method, settleTime: 0.3, maxAngle: 0.5 });
      for (let i = 0; i < 120; i++) {
        const q = pd.update(1 / 60, axisAngle([0, 1, 1], 1.2));
        expect(Math.abs(q[3])).toBeGreaterThanOrEqual(Math.cos(0.25) - 1e-12);
      }
      expect(quatAngle(pd.value, [0, 0, 0, 1])).toBeCloseTo(0.5, 9);
      pd.dispose();
    }
  });

  it('maxVelocity limits speed and per-frame motion', () => {
    for (const integrator of ['exact', 'stable', 'explicit', 'substep']) {
      const pd = new ikpd.PD({ settleTime: 0.5, integrator, maxVelocity: 2 });
      let prev = 0;
      for (let i = 0; i < 200; i++) {
        const v = pd.update(1 / 60, 3);
        expect(Math.abs(pd.velocity)).toBeLessThanOrEqual(2 + 1e-12);
        expect(Math.abs(v - prev)).toBeLessThanOrEqual(2 / 60 + 1e-12);
        prev = v;
      }
      expect(pd.value).toBeCloseTo(3, 3);
      pd.dispose();
      const q = new ikpd.QuatPD({ integrator, maxVelocity: 2 });
      for (let i = 0; i < 30; i++) {
        q.update(1 / 30, axisAngle([0, 0, 1], 3));
        expect(Math.hypot(...q.velocity)).toBeLessThanOrEqual(2 + 1e-9);
      }
      q.dispose();
    }
  });

  it('blend-out reaches exactly 0 (and exactly identity), continuously', () => {
    const pd = new ikpd.PD({ settleTime: 0.5, blendOutEnergy: 1e-3, blendOutTime: 0.2, value: (25 * Math.PI) / 180 });
    let prev = pd.value;
    let frames = 0;
    const phases = new Set();
    while (pd.blendPhase !== 'done' && frames < 1000) {
      const v = pd.blendOut(1 / 60);
      expect(Math.abs(v - prev)).toBeLessThan(0.05);
      prev = v;
      phases.add(pd.blendPhase);
      frames++;
    }
    expect([...phases]).toEqual(['spring', 'linear', 'done']);
    expect(pd.value).toBe(0);
    expect(pd.velocity).toBe(0);
    pd.update(1 / 60, 1); // update cancels the blend-out
    expect(pd.blendPhase).toBe('none');
    pd.dispose();

    const q = new ikpd.QuatPD({ blendOutEnergy: 1e-3 });
    const anim = axisAngle([0, 1, 0], 0.7);
    for (let i = 0; i < 60; i++) q.trackOffset(1 / 60, anim, [0.2, 0.3, 0.1, 0.9]);
    let out;
    for (let i = 0; i < 1000 && q.blendPhase !== 'done'; i++) out = q.trackOffset(1 / 60, anim, null);
    expect(q.value).toEqual([0, 0, 0, 1]);
    expect(quatAngle(out, anim)).toBeLessThan(1e-6);
    q.dispose();
  });

  it('trackOffset returns animation + smoothed offset; atRest uses thresholds in value units', () => {
    const pd = new ikpd.PD({ settleTime: 0.5, restTolerance: 1e-3, restVelocity: 1e-3 });
    let out = 0;
    for (let i = 0; i < 240; i++) out = pd.trackOffset(1 / 60, Math.sin(i / 60), Math.sin(i / 60) + 0.3);
    expect(out).toBeCloseTo(Math.sin(239 / 60) + 0.3, 4);
    expect(pd.atRest).toBe(true);
    pd.update(0, 1);
    expect(pd.atRest).toBe(false);
    pd.dispose();
  });
});
