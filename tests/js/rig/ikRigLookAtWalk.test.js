// Look-at limits on a walking CesiumMan (docs/rig/look-at.md, "Yaw and pitch
// limits"): the clip through AnimationMixer at 30, 60 and 240 Hz, the scene
// moving forward at walking speed, a target orbiting the head and rising to
// 80° elevation. After smoothing, with the clip's own head motion underneath,
// the head's look direction never leaves maxYaw / maxPitchUp / maxPitchDown of
// its character frame (world up and the animated head's look axis made
// horizontal), and it turns (relative to the animated head) at most maxSpeed.
import { describe, expect, it } from 'vitest';
import { Quaternion, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { IKRig } from '../../../web/three/index.js';
import { CESIUM_MAN, walkingPair } from '../../support/cesiumMan.js';

const LIMITS = { maxYaw: 1.0, maxPitchUp: 0.5, maxPitchDown: 0.4, maxSpeed: 8 };
const UP = new Vector3(0, 1, 0);

/** Yaw and pitch of direction d in the frame of the look axis `look` made horizontal. */
function yawPitch(look, d) {
  const facing = look.clone().addScaledVector(UP, -look.dot(UP)).normalize();
  const left = new Vector3().crossVectors(UP, facing);
  const x = d.dot(facing), y = d.dot(left);
  return { yaw: Math.atan2(y, x), pitch: Math.atan2(d.dot(UP), Math.hypot(x, y)) };
}

async function look(rate) {
  const pair = await walkingPair();
  const head = pair.bone(pair.solved, 'head'), animatedHead = pair.bone(pair.animated, 'head');
  // The head's look axis, head-local: the character's facing (+Z, the walk) in its rest frame.
  const axis = new Vector3(0, 0, 1).applyQuaternion(head.getWorldQuaternion(new Quaternion()).invert());
  const rig = new IKRig(ikpd, pair.solved.skinned, { humanoid: CESIUM_MAN });
  const target = new Vector3();
  rig.add('lookAt', { bones: ['spine', 'chest', 'neck', 'head'], target, forward: axis.toArray(), eyes: [], ...LIMITS });
  const dt = 1 / rate, q = new Quaternion(), a = new Quaternion();
  const stats = { yaw: 0, up: 0, down: 0, turn: 0, lowest: 0 };
  let previous = null;
  for (let f = 1; f <= 8 * rate; f++) {
    const t = f * dt;
    pair.step(dt, t, true);
    // Orbiting the animated head once every 3 s, 1.5 m away, rising from 0 to 80° over 8 s.
    const azimuth = (2 * Math.PI * t) / 3, elevation = ((80 * Math.PI) / 180) * (t / 8);
    animatedHead.getWorldPosition(target).add(new Vector3(
      1.5 * Math.cos(elevation) * Math.sin(azimuth), 1.5 * Math.sin(elevation), 1.5 * Math.cos(elevation) * Math.cos(azimuth)));
    rig.update(dt);
    head.getWorldQuaternion(q);
    animatedHead.getWorldQuaternion(a);
    const seen = yawPitch(axis.clone().applyQuaternion(a), axis.clone().applyQuaternion(q));
    stats.yaw = Math.max(stats.yaw, Math.abs(seen.yaw) - LIMITS.maxYaw);
    stats.up = Math.max(stats.up, seen.pitch - LIMITS.maxPitchUp);
    stats.down = Math.max(stats.down, -seen.pitch - LIMITS.maxPitchDown);
    stats.lowest = Math.min(stats.lowest, seen.pitch);
    // The turn relative to the animated head: its look axis in the animated head's frame.
    const relative = axis.clone().applyQuaternion(q).applyQuaternion(a.clone().invert());
    if (previous) stats.turn = Math.max(stats.turn, relative.angleTo(previous) * rate);
    previous = relative;
  }
  rig.dispose?.();
  return stats;
}

describe('IKRig lookAt limits on a walking CesiumMan', () => {
  for (const rate of [30, 60, 240]) {
    it(`never exceeds maxYaw, maxPitchUp or maxPitchDown, and turns at most maxSpeed (${rate} Hz)`, async () => {
      const s = await look(rate);
      const slack = 1e-3; // radians: float rounding of the clamp
      expect(s.yaw).toBeLessThan(slack);
      expect(s.up).toBeLessThan(slack);
      expect(s.down).toBeLessThan(slack);
      expect(s.up).toBeGreaterThan(-0.05); // the target does pull the head up to the limit
      expect(s.turn).toBeLessThan(LIMITS.maxSpeed * 1.01);
    });
  }
});
