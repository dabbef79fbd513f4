import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';

const spine = () => [1, 1.2, 1.4, 1.6, 1.75].map((y) => ({ position: [0, y, 0], rotation: [0, 0, 0, 1] }));
const rotate = (q, v) => {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]), ty = 2 * (z * v[0] - x * v[2]), tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + y * tz - z * ty, v[1] + w * ty + z * tx - x * tz, v[2] + w * tz + x * ty - y * tx];
};
const angleOf = (q) => 2 * Math.atan2(Math.hypot(q[0], q[1], q[2]), Math.abs(q[3]));
const angleBetween = (a, b) => {
  const c = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
  return Math.atan2(Math.hypot(...c), a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
};

describe('LookAt', () => {
  it('turns the head toward the target, sharing the turn by weight', () => {
    const look = new ikpd.LookAt({ weights: [1 / 5, 1 / 4, 1 / 3, 1 / 2, 1], settleTime: 0.3 });
    const joints = spine();
    const target = [3 * Math.sin(1), 1.75, 3 * Math.cos(1)];
    let out;
    for (let i = 0; i < 240; i++) out = look.update(1 / 60, { joints, target });
    const head = out.at(-1);
    const toTarget = target.map((c, k) => c - head.position[k]);
    expect(angleBetween(rotate(head.rotation, [0, 0, 1]), toTarget)).toBeLessThan(2e-3);
    for (const q of look.offsets) expect(angleOf(q)).toBeCloseTo(0.2, 3);
    expect(look.active).toBe(true);
    look.dispose();
  });

  it('is frame-rate independent (exact integrator) and blends out to exactly zero', () => {
    const options = { weights: [0.2, 0.3, 0.5, 1, 1], settleTime: [0.5, 0.4, 0.3, 0.25, 0.2], damping: 'responsive' };
    const a = new ikpd.LookAt(options);
    const b = new ikpd.LookAt(options);
    const joints = spine();
    const target = [1, 2.5, 1];
    for (let i = 0; i < 6; i++) a.update(1 / 30, { joints, target });
    for (let i = 0; i < 24; i++) b.update(1 / 120, { joints, target });
    a.offsets.forEach((q, i) => q.forEach((c, k) => expect(c).toBeCloseTo(b.offsets[i][k], 5)));
    let out;
    for (let i = 0; i < 600; i++) out = a.update(1 / 60, { joints, target, enabled: false });
    expect(a.active).toBe(false);
    for (const q of a.offsets) expect(q).toEqual([0, 0, 0, 1]);
    out.forEach((j, i) => j.position.forEach((c, k) => expect(c).toBeCloseTo(joints[i].position[k], 5)));
    a.dispose();
    b.dispose();
  });

  it('respects limits and validates its input', () => {
    const look = new ikpd.LookAt({ weights: [0.5, 1], limits: [0.1, 0.3], forward: [0, 0, 1] });
    const joints = spine().slice(3);
    for (let i = 0; i < 300; i++) look.update(1 / 60, { joints, target: [0, 1.7, -5] });
    look.offsets.forEach((q, i) => expect(angleOf(q)).toBeLessThanOrEqual([0.1, 0.3][i] + 1e-4));
    expect(() => look.update(-1, { joints, target: [0, 0, 1] })).toThrow(/^dt: must be finite and >= 0/);
    expect(() => look.update(0.1, { joints: joints.slice(1), target: [0, 0, 1] })).toThrow(/^joints: expected 2 joints/);
    expect(() => look.update(0.1, { joints, target: [0, 0, NaN] })).toThrow(/^target\[2\]/);
    expect(() => look.update(0.1, { joints, target: [0, 0, 1], enabled: 1 })).toThrow(/^enabled: expected a boolean/);
    expect(look.clear().offsets).toEqual([[0, 0, 0, 1], [0, 0, 0, 1]]);
    look.dispose();
    expect(() => look.offsets).toThrow(/used after dispose/);
    expect(() => new ikpd.LookAt({ weights: [] })).toThrow(/^weights: needs one weight per joint/);
    expect(() => new ikpd.LookAt({ weights: [2] })).toThrow(/^weights: every weight must be in \[0, 1\]/);
    expect(() => new ikpd.LookAt({ weights: [1], limits: [1, 2] })).toThrow(/^limits: expected an array of 1 numbers/);
    expect(() => new ikpd.LookAt({ weights: [1], settleTime: 0 })).toThrow(/^settleTime: must be a finite number > 0$/);
    expect(() => new ikpd.LookAt({ weights: [1], damping: 'wobbly' })).toThrow(/^damping: expected one of/);
  });
});

describe('LookAt offset', () => {
  it('puts the eyes (head-local offset) on the line to the target once settled', () => {
    const offset = [0, 0.08, 0.1];
    const look = new ikpd.LookAt({ weights: [0.2, 0.25, 1 / 3, 0.5, 1], offset });
    const plain = new ikpd.LookAt({ weights: [0.2, 0.25, 1 / 3, 0.5, 1] });
    const joints = spine();
    const target = [1.5, 1.2, 2];
    let out, base;
    for (let i = 0; i < 300; i++) {
      out = look.update(1 / 60, { joints, target });
      base = plain.update(1 / 60, { joints, target });
    }
    const head = out.at(-1);
    const eye = rotate(head.rotation, offset).map((v, k) => v + head.position[k]);
    const toTarget = target.map((c, k) => c - eye[k]);
    expect(angleBetween(rotate(head.rotation, [0, 0, 1]), toTarget)).toBeLessThan(2e-3);
    // Without the offset the head joint, not the eyes, looks at the target: a different pose.
    expect(Math.abs(head.rotation[0] - base.at(-1).rotation[0]) + Math.abs(head.rotation[1] - base.at(-1).rotation[1])).toBeGreaterThan(1e-3);
    expect(() => new ikpd.LookAt({ weights: [1], offset: [0, Infinity, 0] })).toThrow(/^offset/);
    look.dispose();
    plain.dispose();
  });
});
