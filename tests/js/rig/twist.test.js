// The twist constraint (docs/rig/twist.md) on a real character: CesiumMan's
// walk through AnimationMixer at 30, 60 and 240 Hz with the hand also twisted
// about its forearm by up to ±170°: the forearm carries the hand's twist, the
// hand keeps its world rotation and position, weight and enabled glide; and
// the core rig's settings, defaults and errors.
import { describe, expect, it } from 'vitest';
import { Quaternion, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { IKRig } from '../../../web/three/index.js';
import { CESIUM_MAN, walkingPair } from '../../support/cesiumMan.js';

const FOREARM = ['leftLowerArm', 'leftHand'];

// Largest component difference of two rotations (q and −q alike): exact where angleTo's acos is not.
function gap(a, b) {
  const s = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w < 0 ? -1 : 1;
  return Math.max(Math.abs(a.x - s * b.x), Math.abs(a.y - s * b.y), Math.abs(a.z - s * b.z), Math.abs(a.w - s * b.w));
}

async function walk(rate, { seconds = 2, script = () => {}, options = {} } = {}) {
  const pair = await walkingPair();
  const rig = new IKRig(ikpd, pair.solved.skinned, { humanoid: CESIUM_MAN });
  const twist = rig.add('twist', { bones: FOREARM, ...options });
  const [forearm, hand] = FOREARM.map((r) => pair.bone(pair.solved, r));
  const [animForearm, animHand] = FOREARM.map((r) => pair.bone(pair.animated, r));
  const extra = new Quaternion(), axis = new Vector3();
  const frames = [];
  for (let f = 1; f <= seconds * rate; f++) {
    const t = f / rate;
    script(f, rate, twist);
    pair.step(1 / rate, t, true);
    // Both hands twisted about the forearm's bone axis (the hand's local position), up to ±170°.
    const turn = (170 * Math.PI) / 180 * Math.sin(Math.PI * t);
    for (const h of [hand, animHand]) {
      axis.copy(h.position).normalize();
      h.quaternion.premultiply(extra.setFromAxisAngle(axis, turn));
      h.updateMatrixWorld(true);
    }
    rig.update(1 / rate);
    for (const b of [forearm, hand, animForearm, animHand]) b.updateWorldMatrix(true, false);
    const world = (b) => ({ p: b.getWorldPosition(new Vector3()), q: b.getWorldQuaternion(new Quaternion()) });
    frames.push({ t, turn, theta: twist.distance, solved: [forearm, hand].map(world), animated: [animForearm, animHand].map(world), forearmLocal: forearm.quaternion.clone(), animForearmLocal: animForearm.quaternion.clone() });
  }
  rig.dispose();
  return { frames, twist };
}

describe('IKRig twist on a walking CesiumMan', () => {
  for (const rate of [30, 60, 240]) {
    it(`the forearm carries the hand's twist; the hand stays where the clip puts it (${rate} Hz)`, async () => {
      const { frames } = await walk(rate);
      let handMoved = 0, handTurned = 0, shareError = 0, largestTwist = 0, jump = 0, beyond = 0;
      for (let i = 0; i < frames.length; i++) {
        const f = frames[i];
        const [, hand] = f.solved, [animForearm, animHand] = f.animated;
        handMoved = Math.max(handMoved, hand.p.distanceTo(animHand.p));
        handTurned = Math.max(handTurned, gap(hand.q, animHand.q));
        // The forearm turned by the hand's whole twist θ (constraint.distance) about the forearm → hand line:
        // its local rotation is the clip's times θ about that line in its own frame.
        const line = animHand.p.clone().sub(animForearm.p).normalize().applyQuaternion(animForearm.q.clone().invert());
        const expected = f.animForearmLocal.clone().multiply(new Quaternion().setFromAxisAngle(line, f.theta));
        shareError = Math.max(shareError, gap(f.forearmLocal, expected));
        largestTwist = Math.max(largestTwist, Math.abs(f.theta));
        beyond = Math.max(beyond, Math.abs(f.theta - f.turn)); // the clip's own twist of the hand on top of the test's
        if (i > 0) jump = Math.max(jump, Math.abs(f.theta - frames[i - 1].theta));
      }
      expect(largestTwist).toBeGreaterThan(2.5); // the test does twist the hand past 140°
      expect(handMoved).toBeLessThan(1e-5);
      expect(handTurned).toBeLessThan(2e-6);
      expect(shareError).toBeLessThan(2e-6);
      expect(beyond).toBeLessThan(0.5); // θ follows the test's twist through ±170° (unwrapped: no flip)
      expect(jump).toBeLessThan(1); // the test turns the hand up to 0.31 rad a frame at 30 Hz; a flip would be about 2π
    });
  }

  it('turning it off glides back to the clip, the same at 30, 60 and 240 Hz, and ends exactly on it', async () => {
    const script = (f, rate, twist) => {
      if (f - 1 === Math.round(0.5 * rate)) twist.enabled = false;
    };
    const paths = {};
    for (const rate of [30, 60, 240]) {
      const { frames } = await walk(rate, { seconds: 1.5, script, options: { settleTime: 0.15 } });
      // The weight in force: the forearm's turn over the hand's twist (where that is large enough to read).
      const weights = frames.map((f) => {
        const line = f.animated[1].p.clone().sub(f.animated[0].p).normalize().applyQuaternion(f.animated[0].q.clone().invert());
        const turn = f.animForearmLocal.clone().invert().multiply(f.forearmLocal);
        const angle = 2 * Math.atan2(turn.x * line.x + turn.y * line.y + turn.z * line.z, turn.w);
        return Math.abs(f.theta) > 0.5 ? Math.abs(angle / f.theta) : null;
      });
      let step = 0;
      for (let i = 1; i < weights.length; i++) if (weights[i] !== null && weights[i - 1] !== null) step = Math.max(step, Math.abs(weights[i] - weights[i - 1]) * rate);
      expect(step, `${rate} Hz`).toBeLessThan(20); // per second: the PD's glide, about 14/s at its peak for settleTime 0.15 (a pop: 1 in one frame)
      const last = frames[frames.length - 1];
      expect(gap(last.forearmLocal, last.animForearmLocal)).toBe(0);
      paths[rate] = frames.filter((f, i) => (i + 1) % (rate / 30) === 0).map((f, i) => weights[(i + 1) * (rate / 30) - 1]);
    }
    for (const rate of [60, 240]) {
      for (let i = 0; i < paths[30].length; i++) {
        if (paths[30][i] !== null && paths[rate][i] !== null) expect(Math.abs(paths[rate][i] - paths[30][i]), `${rate} Hz`).toBeLessThan(0.02);
      }
    }
  });
});

describe('the twist constraint on the core rig', () => {
  // root 0 → forearm 1 → twist bone 2 → hand 3, along +Y.
  const rest = [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0.3, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0.12, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0.12, 0, 0, 0, 0, 1, 1, 1, 1];
  const make = () => new ikpd.Rig({ parents: [-1, 0, 1, 2], rest });

  it('reads back its defaults and takes amounts or a spread', () => {
    const rig = make();
    const c = rig.add('twist', { joints: [1, 2, 3] });
    expect(c.get('spread')).toBe('even');
    expect(c.get('amounts')).toBe(null);
    expect(ikpd.Rig.defaults.twist).toMatchObject({ spread: 'even', amounts: null, weight: 1, enabled: true, settleTime: 0 });
    c.set({ spread: 'length', amounts: [0.25, 1] });
    expect(c.get('amounts')).toEqual([0.25, 1]);
    // The hand twisted 1.2 rad about +Y: the forearm takes 0.25 of it, the twist bone the rest.
    const pose = Float32Array.from(rest);
    pose.set([0, Math.sin(0.6), 0, Math.cos(0.6)], 30 + 3);
    rig.input.set(pose);
    rig.update(1 / 60);
    const out = rig.output;
    expect(2 * Math.atan2(out[14], out[16])).toBeCloseTo(0.3, 5);
    expect(2 * Math.atan2(out[24], out[26])).toBeCloseTo(0.9, 5);
    expect(2 * Math.atan2(out[34], out[36])).toBeCloseTo(0, 5);
    rig.dispose();
  });

  it('names bad settings and changes nothing', () => {
    const rig = make();
    const c = rig.add('twist', { joints: [1, 2, 3] });
    expect(() => c.set({ amounts: [0.5] })).toThrow(/amounts/);
    expect(() => c.set({ amounts: [0.5, 2] })).toThrow(/amounts: each must be in \[-1, 1\]/);
    expect(() => c.set({ spread: 'evenly' })).toThrow(/spread/);
    expect(() => c.set({ amount: [0.5, 1] })).toThrow(/amounts/); // the suggestion
    expect(() => rig.add('twist', { joints: [1] })).toThrow(/2 to 16 joints/);
    expect(c.get('amounts')).toBe(null);
    expect(c.get('spread')).toBe('even');
    rig.dispose();
  });
});
