// BodyLookAt (web/src/rig/bodyLookAt.js) on the real solver: foot lock, head lead,
// frame-rate independence, blend-out, errors and memory.
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';
import { distance } from '../../support/ik-math.js';

const I = [0, 0, 0, 1];
const joint = (position) => ({ position, rotation: I });
// A standing humanoid (metres, facing +Z): pelvis, spine ×3, neck, head.
const SPINE = [[0, 1, 0], [0, 1.1, 0], [0, 1.22, 0], [0, 1.35, 0], [0, 1.5, 0], [0, 1.6, 0]].map(joint);
const ARMS = [[0.2, 1.42, 0], [0.45, 1.42, 0], [0.7, 1.42, 0], [-0.2, 1.42, 0], [-0.45, 1.42, 0], [-0.7, 1.42, 0]].map(joint);
const LEGS = [[0.1, 0.95, 0], [0.1, 0.52, 0.03], [0.1, 0.08, 0], [-0.1, 0.95, 0], [-0.1, 0.52, 0.03], [-0.1, 0.08, 0]].map(joint);
const POSE = { spine: SPINE, arms: ARMS, legs: LEGS };
const angleOf = (q) => 2 * Math.atan2(Math.hypot(q[0], q[1], q[2]), Math.abs(q[3]));
const copy = (out) => structuredClone({ spine: out.spine, arms: out.arms, legs: out.legs });

describe('BodyLookAt', () => {
  it('keeps the feet within 1e-4 m of the animation while the pelvis shifts', () => {
    const body = new ikpd.BodyLookAt({ weightShift: { amount: 0.1 } });
    let shift = 0;
    for (let i = 0; i < 120; i++) {
      const out = body.update(1 / 60, { ...POSE, target: [2, 2.2, 0.5] });
      shift = Math.max(shift, distance(out.spine[0].position, SPINE[0].position));
      for (const k of [2, 5]) expect(distance(out.legs[k].position, LEGS[k].position)).toBeLessThan(1e-4);
    }
    expect(shift).toBeGreaterThan(0.01);
    body.dispose();
  });

  it('the head leads: it reaches half its turn before the chest reaches half of its own', () => {
    const body = new ikpd.BodyLookAt();
    const frames = [];
    for (let i = 0; i < 300; i++) frames.push(copy(body.update(1 / 60, { ...POSE, target: [3, 1.6, 0.5] })));
    const turn = (f, k) => angleOf(f.spine[k].rotation);
    const half = (k) => frames.findIndex((f) => turn(f, k) >= turn(frames.at(-1), k) / 2);
    expect(turn(frames.at(-1), 5)).toBeGreaterThan(0.5);
    expect(half(5)).toBeLessThan(half(3));
    body.dispose();
  });

  it('gives the same pose at 0.5 s whether updated at 30 or 120 Hz', () => {
    const a = new ikpd.BodyLookAt();
    const b = new ikpd.BodyLookAt();
    const frame = { ...POSE, target: [1.5, 1.8, 1] };
    let pa, pb;
    for (let i = 0; i < 15; i++) pa = a.update(1 / 30, frame);
    for (let i = 0; i < 60; i++) pb = b.update(1 / 120, frame);
    for (const part of ['spine', 'arms', 'legs']) {
      pa[part].forEach((j, k) => {
        const q = pb[part][k].rotation;
        const d = Math.abs(j.rotation.reduce((s, c, m) => s + c * q[m], 0));
        expect(2 * Math.acos(Math.min(1, d))).toBeLessThan(2e-3);
      });
    }
    a.dispose();
    b.dispose();
  });

  it('blend-out restores the animated pose to 1e-6, and the output object is reused', () => {
    const body = new ikpd.BodyLookAt({ blendOutTime: 0.05 });
    const first = body.update(1 / 60, { ...POSE, target: [2, 2, 1] });
    for (let i = 0; i < 60; i++) expect(body.update(1 / 60, { ...POSE, target: [2, 2, 1] })).toBe(first);
    expect(body.active).toBe(true);
    let out;
    for (let i = 0; i < 600 && body.active; i++) out = body.update(1 / 60, { ...POSE, target: [2, 2, 1], enabled: false });
    expect(body.active).toBe(false);
    for (const part of ['spine', 'arms', 'legs']) {
      POSE[part].forEach((j, k) => {
        expect(distance(out[part][k].position, j.position)).toBeLessThan(1e-6);
        out[part][k].rotation.forEach((c, m) => expect(Math.abs(c - j.rotation[m])).toBeLessThan(1e-6));
      });
    }
    body.dispose();
  });

  it('arms and legs are optional; clear() zeroes every effect at once', () => {
    const body = new ikpd.BodyLookAt({ spineJoints: 3, spine: { settleTime: 0.1 } });
    const spine = SPINE.slice(3);
    const out = body.update(0.5, { spine, target: [1, 1, 1] });
    expect(out.arms).toEqual([]);
    expect(out.legs).toEqual([]);
    expect(body.active).toBe(true);
    expect(body.clear().active).toBe(false);
    body.dispose();
  });

  it('names bad input and leaves the state unchanged', () => {
    const a = new ikpd.BodyLookAt();
    const b = new ikpd.BodyLookAt();
    const frame = { ...POSE, target: [2, 2, 1] };
    a.update(0.1, frame);
    b.update(0.1, frame);
    const bad = [
      [-0.1, frame, RangeError, /^dt: must be finite and >= 0/],
      [NaN, frame, RangeError, /^dt/],
      ['0.1', frame, TypeError, /^dt: expected a number/],
      [0.1, { ...frame, target: [1, NaN, 0] }, RangeError, /^target\[1\]/],
      [0.1, { ...frame, target: undefined }, TypeError, /^target/],
      [0.1, { ...frame, spine: SPINE.slice(1) }, RangeError, /^spine: expected 6 joints/],
      [0.1, { ...frame, spine: [...SPINE.slice(0, 2), undefined, ...SPINE.slice(3)] }, TypeError, /^spine\[2\]/],
      [0.1, { ...frame, spine: undefined }, TypeError, /^spine/],
      [0.1, { ...frame, arms: ARMS.slice(1) }, RangeError, /^arms: needs 0, 3 or 6 joints/],
      [0.1, { ...frame, legs: [...LEGS.slice(0, 5), { position: [0, Infinity, 0] }] }, RangeError, /^legs\[5\]\.position/],
      [0.1, { ...frame, enabled: 1 }, TypeError, /^enabled/],
      [0.1, null, TypeError, /^frame/],
    ];
    for (const [dt, f, type, message] of bad) {
      expect(() => a.update(dt, f)).toThrow(type);
      expect(() => a.update(dt, f)).toThrow(message);
    }
    expect(copy(a.update(0.1, frame))).toEqual(copy(b.update(0.1, frame)));
    a.dispose();
    b.dispose();
  });

  it('names bad settings', () => {
    const cases = [
      [{ spineJoints: 1 }, RangeError, /^spineJoints/],
      [{ spine: { weights: [1, 1] } }, TypeError, /^spine\.weights: expected an array of 6 numbers/],
      [{ spine: { weights: [0, 0, 0, 0, 0, 2] } }, RangeError, /^spine\.weights: every weight must be in \[0, 1\]/],
      [{ spine: { settleTime: 0 } }, RangeError, /^spine\.settleTime: must be a finite number > 0$/],
      [{ spine: { settleTime: [1, 1] } }, TypeError, /^spine\.settleTime/],
      [{ spine: { damping: 'wobbly' } }, RangeError, /^spine\.damping/],
      [{ weightShift: { amount: -1 } }, RangeError, /^weightShift\.amount/],
      [{ weightShift: 3 }, TypeError, /^weightShift: expected an object/],
      [{ armReaction: { amount: 2 } }, RangeError, /^armReaction\.amount/],
      [{ armReaction: { chest: 1.5 } }, RangeError, /^armReaction\.chest/],
      [{ forward: [0, 0, 0] }, RangeError, /^forward/],
      [{ offset: [0, 'x', 0] }, RangeError, /^offset\[1\]/],
      [{ footLock: 'yes' }, TypeError, /^footLock/],
      [{ blendOutTime: -1 }, RangeError, /^blendOutTime/],
    ];
    for (const [options, type, message] of cases) {
      expect(() => new ikpd.BodyLookAt(options)).toThrow(type);
      expect(() => new ikpd.BodyLookAt(options)).toThrow(message);
    }
  });

  it('dispose frees the memory: the WASM heap stays flat over create/dispose cycles', () => {
    const cycle = (count) => {
      for (let i = 0; i < count; i++) {
        const body = new ikpd.BodyLookAt();
        body.update(1 / 60, { ...POSE, target: [1, 2, 1] });
        body.dispose();
      }
    };
    cycle(100);
    const before = ikpd.memoryStats();
    cycle(2000);
    const after = ikpd.memoryStats();
    expect(after.usedBytes).toBe(before.usedBytes);
    expect(after.heapBytes).toBe(before.heapBytes);
    const body = new ikpd.BodyLookAt();
    expect(ikpd.memoryStats().usedBytes).toBeGreaterThan(before.usedBytes);
    body.dispose();
    expect(() => body.update(0.1, { ...POSE, target: [1, 1, 1] })).toThrow(/used after dispose/);
  });
});
