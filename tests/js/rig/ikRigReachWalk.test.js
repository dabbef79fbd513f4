// A hand on a fixed cup while CesiumMan walks (docs/rig/rig.md, "Weight,
// enabled and smoothing"): IKRig's two-bone with settleTime 0.2 as README's
// example, the clip through AnimationMixer at 30, 60 and 240 Hz. Smoothing
// blends weight, enable and target jumps; a steady cup is held exactly while
// the body moves under it, and toggling `enabled` glides.
import { describe, expect, it } from 'vitest';
import { Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { IKRig } from '../../../web/three/index.js';
import { CESIUM_MAN, walkingPair } from '../../support/cesiumMan.js';

const ARM = ['rightUpperArm', 'rightLowerArm', 'rightHand'];
const SETTLE = 0.2;

async function reach(rate, { cup, walking, seconds, script = () => {} }) {
  const pair = await walkingPair();
  const rig = new IKRig(ikpd, pair.solved.skinned, { humanoid: CESIUM_MAN });
  const hand = rig.add('twoBone', { bones: ARM, target: cup, settleTime: SETTLE });
  const solvedHand = pair.bone(pair.solved, 'rightHand'), animatedHand = pair.bone(pair.animated, 'rightHand');
  const frames = [];
  const dt = 1 / rate;
  for (let f = 1; f <= seconds * rate; f++) {
    const t = f * dt;
    script(f, rate, hand);
    pair.step(dt, t, walking);
    rig.update(dt);
    frames.push({
      t,
      reached: hand.reached,
      hand: solvedHand.getWorldPosition(new Vector3()),
      animated: animatedHand.getWorldPosition(new Vector3()),
    });
  }
  rig.dispose?.();
  return frames;
}

/** The right arm's length at rest: upper arm plus forearm (m). */
async function armLength() {
  const { solved, bone } = await walkingPair();
  const [upper, lower, hand] = ARM.map((role) => bone(solved, role).getWorldPosition(new Vector3()));
  return upper.distanceTo(lower) + lower.distanceTo(hand);
}

describe('IKRig twoBone on a walking CesiumMan', () => {
  for (const rate of [30, 60, 240]) {
    it(`holds a fixed cup within 0.1 mm in place and walking past it (${rate} Hz)`, async () => {
      // In place: the clip bobs and turns the torso and swings the arm under the cup.
      const still = new Vector3(-0.2, 0.85, 0.25);
      let worst = 0, lag = 0;
      for (const f of await reach(rate, { cup: still, walking: false, seconds: 2.5 })) {
        if (f.t < 0.6) continue; // the blend-in (0.2 s settle time)
        expect(f.reached).toBe(true);
        worst = Math.max(worst, f.hand.distanceTo(still));
        lag = Math.max(lag, f.animated.distanceTo(still));
      }
      expect(lag).toBeGreaterThan(0.02); // the animation does move the hand's chain under the cup
      expect(worst).toBeLessThan(1e-4);
      // Walking (0.95 m/s) past a cup ahead: held exactly while in reach.
      const ahead = new Vector3(-0.2, 0.85, 0.75);
      let held = 0;
      worst = 0;
      for (const f of await reach(rate, { cup: ahead, walking: true, seconds: 1.2 })) {
        if (f.t < 0.6 || !f.reached) continue;
        held++;
        worst = Math.max(worst, f.hand.distanceTo(ahead));
      }
      expect(held).toBeGreaterThan(0.3 * rate);
      expect(worst).toBeLessThan(1e-4);
    });
  }

  it('toggling enabled glides at the PD speed, the same at 30, 60 and 240 Hz', async () => {
    const cup = new Vector3(-0.2, 0.85, 0.25);
    const arm = await armLength();
    // Frame f advances the clip over ((f − 1)/rate, f/rate]: a change before it applies from (f − 1)/rate.
    const script = (f, rate, hand) => {
      if (f - 1 === rate) hand.enabled = false; // from 1 s
      if (f - 1 === Math.round(1.6 * rate)) hand.enabled = true; // from 1.6 s
    };
    const runs = {};
    for (const rate of [30, 60, 240]) {
      const frames = await reach(rate, { cup, walking: false, seconds: 2.5, script });
      let offsetSpeed = 0, largest = 0, animatedSpeed = 0;
      for (let i = 1; i < frames.length; i++) {
        const a = frames[i], b = frames[i - 1];
        const change = a.hand.clone().sub(a.animated).sub(b.hand.clone().sub(b.animated)).length();
        offsetSpeed = Math.max(offsetSpeed, change * rate);
        animatedSpeed = Math.max(animatedSpeed, a.animated.distanceTo(b.animated) * rate);
        largest = Math.max(largest, a.hand.distanceTo(a.animated));
      }
      // Enabled again and settled: on the cup.
      for (const f of frames) if (f.t > 2.2) expect(f.hand.distanceTo(cup)).toBeLessThan(1e-4);
      // The weight's PD (critical, ω = 2π/settleTime) moves at most ω/e per second. Each of the
      // arm's joints turns by at most π over the whole blend, so the hand's offset from the
      // animation moves at most ω/e · π · (arm length) per second, plus the animation's own hand
      // speed while the hand is held. A pop would move the whole offset (0.49 m) in one frame:
      // 118 m/s at 240 Hz.
      const peak = (2 * Math.PI) / SETTLE / Math.E;
      expect(offsetSpeed).toBeLessThan(peak * Math.PI * arm + animatedSpeed);
      expect(largest).toBeGreaterThan(0.3);
      runs[rate] = { offsetSpeed, hand: frames.filter((f, i) => ((i + 1) * 30) % rate === 0).map((f) => f.hand) };
    }
    // No pop: a pop's speed grows with the rate; the PD's converges (30 Hz samples its peak coarsely).
    expect(runs[240].offsetSpeed).toBeLessThan(1.1 * runs[60].offsetSpeed);
    expect(runs[240].offsetSpeed).toBeLessThan(1.5 * runs[30].offsetSpeed);
    // Frame-rate independent: the same hand at common times (the clip sampled at the same times).
    for (const rate of [60, 240]) {
      runs[30].hand.forEach((h, i) => expect(h.distanceTo(runs[rate].hand[i])).toBeLessThan(1e-3));
    }
  });
});
