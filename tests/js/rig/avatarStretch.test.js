// The avatar's arm stretch (docs/rig/avatar.md, "Arm stretch") through AvatarIK
// on CesiumMan playing its clip (AnimationMixer), at 30, 60, 90 and 240 Hz: a
// left hand target 1.5 arm lengths out is reached at full stretch (the arm on
// the line to it, `armStretch` times its length, the bones' positions scaled),
// one within the limit is reached; off, the forearm and hand keep the clip's
// positions bit for bit; turning it on and off blends with no frame jump, the
// same path at every rate; bad values and misspelt names are errors.
import { describe, expect, it } from 'vitest';
import { Object3D, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { AvatarIK } from '../../../web/three/index.js';
import { avatarSession, worldOf } from '../../support/cesiumMan.js';
import { buildHumanoid } from '../../support/three-humanoid.js';

const TARGETS = ['head', 'leftHand', 'rightHand'];
const OUT = new Vector3(0.5, 0.2, 0.8).normalize(); // out to the left, forward, a little up (CesiumMan faces +Z)

/** The head and right hand on their animated bones; the left hand `ratio` arm lengths from the animated upper arm along OUT. */
const placing = (ratio) => (targets, bone, t) => {
  for (const role of ['head', 'rightHand']) {
    bone('animated', role).getWorldPosition(targets[role].position);
    bone('animated', role).getWorldQuaternion(targets[role].quaternion);
  }
  const r = typeof ratio === 'function' ? ratio(t) : ratio;
  const upper = worldOf(bone('animated', 'leftUpperArm'));
  targets.leftHand.position.copy(upper).addScaledVector(OUT, r * armLength(bone, 'animated'));
  bone('animated', 'leftHand').getWorldQuaternion(targets.leftHand.quaternion);
  for (const role of TARGETS) targets[role].updateMatrixWorld(true);
};

/** The left arm's length: upper arm to forearm plus forearm to hand (world). */
function armLength(bone, who) {
  const [a, b, c] = ['leftUpperArm', 'leftLowerArm', 'leftHand'].map((role) => worldOf(bone(who, role)));
  return a.distanceTo(b) + b.distanceTo(c);
}

const session = (ratio, options) => avatarSession(ikpd, AvatarIK, { roles: TARGETS, place: placing(ratio), options: { steps: false, ...options } });

describe('AvatarIK arm stretch on CesiumMan', () => {
  for (const rate of [30, 60, 90, 240]) {
    it(`reaches a far hand target at full stretch, a nearer one exactly (${rate} Hz)`, async () => {
      // The target 1.15 arm lengths out for 1.5 s, then 1.5 (after the weights' blend-in, 1 s).
      const { avatar, targets, bone, step } = await session((t) => (t < 1.5 ? 1.15 : 1.5), { armStretch: 1.3, armSoften: 0 });
      let within = 0, fullMiss = 0, lineMiss = 0;
      for (let f = 1; f <= 2.5 * rate; f++) {
        step(rate, f);
        const upper = worldOf(bone('solved', 'leftUpperArm')), hand = worldOf(bone('solved', 'leftHand'));
        const length = armLength(bone, 'animated');
        if (f >= rate && f < 1.5 * rate) within = Math.max(within, hand.distanceTo(targets.leftHand.position));
        if (f >= 2 * rate) {
          fullMiss = Math.max(fullMiss, Math.abs(hand.distanceTo(upper) - 1.3 * length));
          const line = targets.leftHand.position.clone().sub(upper).normalize();
          const off = hand.clone().sub(upper);
          lineMiss = Math.max(lineMiss, off.sub(line.multiplyScalar(off.dot(line))).length());
          // The forearm's and hand's positions are the clip's scaled along the bone.
          for (const role of ['leftLowerArm', 'leftHand']) {
            const solved = bone('solved', role).position, animated = bone('animated', role).position;
            expect(solved.length() / animated.length()).toBeCloseTo(1.3, 4);
            expect(solved.clone().normalize().dot(animated.clone().normalize())).toBeCloseTo(1, 5);
          }
        }
      }
      expect(within).toBeLessThan(1e-3);
      expect(fullMiss).toBeLessThan(1e-3);
      expect(lineMiss).toBeLessThan(1e-3);
      avatar.dispose();
    });
  }

  it('off (the default) keeps the clip\'s forearm and hand positions bit for bit, the arm straight toward the target', async () => {
    const { avatar, targets, bone, step } = await session(1.5);
    for (let f = 1; f <= 60; f++) {
      step(60, f);
      for (const role of ['leftLowerArm', 'leftHand']) {
        expect(bone('solved', role).position.toArray()).toEqual(bone('animated', role).position.toArray());
      }
    }
    const upper = worldOf(bone('solved', 'leftUpperArm')), hand = worldOf(bone('solved', 'leftHand'));
    expect(Math.abs(hand.distanceTo(upper) - armLength(bone, 'animated'))).toBeLessThan(1e-3);
    expect(hand.distanceTo(targets.leftHand.position)).toBeGreaterThan(0.1);
    avatar.dispose();
  });

  // On at 0.5 s, off at 1.5 s (from the frame after: each rate's blend starts then): the hand moves no more in a frame than the blend's pace (a jump
  // would be 0.3 arm lengths in one frame), the same path at every rate within 1 mm, and after
  // the blend the clip's positions bit for bit again.
  it('turning it on and off blends with no frame jump, the same at 30, 60, 90 and 240 Hz', async () => {
    const paths = {};
    for (const rate of [30, 60, 90, 240]) {
      const { avatar, bone, step } = await session(1.5);
      const path = [];
      let fastest = 0, last = null;
      for (let f = 1; f <= 3 * rate; f++) {
        if (f - 1 === rate / 2) avatar.armStretch = 1.3;
        if (f - 1 === 1.5 * rate) avatar.armStretch = 1;
        step(rate, f);
        const hand = worldOf(bone('solved', 'leftHand'));
        if (f > 0.4 * rate) fastest = Math.max(fastest, hand.distanceTo(last) * rate); // after the weights' blend-in
        last = hand;
        if ((f * 30) % rate === 0) path.push(hand);
      }
      paths[rate] = path;
      console.log(`arm stretch toggled at ${rate} Hz: the hand at most ${fastest.toFixed(2)} m/s`);
      expect(fastest).toBeLessThan(2); // m/s, 1.51 at most (a jump: 0.15 m in a frame, 36 m/s at 240 Hz)
      for (const role of ['leftLowerArm', 'leftHand']) {
        expect(bone('solved', role).position.toArray()).toEqual(bone('animated', role).position.toArray());
      }
      avatar.dispose();
    }
    for (const rate of [60, 90, 240]) {
      const apart = Math.max(...paths[rate].map((p, k) => p.distanceTo(paths[30][k])));
      expect(apart).toBeLessThan(1e-3);
    }
  });

  // The clip sets the bones' rotations only (as a clip with no position tracks does): the stretched
  // positions are put back to the animated ones before each read (they do not build up frame on
  // frame), and off they are the animated ones exactly.
  it('a clip of rotations only: the stretch does not build up, and off the positions are the animated ones', () => {
    const h = buildHumanoid();
    // Positions as a clip or a glTF holds them (float32), which the rig's reads keep exactly.
    for (const bone of Object.values(h.bones)) bone.position.fromArray(bone.position.toArray().map(Math.fround));
    const rotations = Object.entries(h.bones).map(([role, bone]) => [bone, bone.quaternion.clone()]);
    const animated = ['leftLowerArm', 'leftHand'].map((role) => h.bones[role].position.toArray());
    const targets = { head: new Object3D(), leftHand: new Object3D(), rightHand: new Object3D() };
    for (const role of Object.keys(targets)) {
      h.bones[role].getWorldPosition(targets[role].position);
      h.bones[role].getWorldQuaternion(targets[role].quaternion);
    }
    const [a, b, c] = ['leftUpperArm', 'leftLowerArm', 'leftHand'].map((role) => worldOf(h.bones[role]));
    targets.leftHand.position.copy(a).add(new Vector3(0.6, 0.1, 0.8).normalize().multiplyScalar(1.5 * (a.distanceTo(b) + b.distanceTo(c))));
    const avatar = new AvatarIK(ikpd, h.scene, { ...targets, armStretch: 1.3, armSoften: 0, steps: false });
    const play = (frames) => {
      for (let f = 0; f < frames; f++) {
        for (const [bone, q] of rotations) bone.quaternion.copy(q);
        avatar.update(1 / 60);
      }
    };
    play(60);
    const ratios = ['leftLowerArm', 'leftHand'].map((role, k) => h.bones[role].position.length() / new Vector3(...animated[k]).length());
    expect(ratios[0]).toBeCloseTo(1.3, 4);
    expect(ratios[1]).toBeCloseTo(1.3, 4);
    avatar.armStretch = 1;
    play(60);
    expect(['leftLowerArm', 'leftHand'].map((role) => h.bones[role].position.toArray())).toEqual(animated);
    avatar.dispose();
  });

  it('names bad values and misspelt names, changing nothing', () => {
    const h = buildHumanoid();
    expect(() => new AvatarIK(ikpd, h.scene, { armStrech: 1.2 })).toThrow(/^armStrech: unknown option of AvatarIK \(did you mean 'armStretch'\?\)/);
    expect(() => new AvatarIK(ikpd, h.scene, { armStretch: 0.5 })).toThrow(RangeError);
    expect(() => new AvatarIK(ikpd, h.scene, { armStretch: 0.5 })).toThrow(/armStretch: must be in \[1, 3\]/);
    const avatar = new AvatarIK(ikpd, h.scene, { armStretch: 1.2 });
    expect(avatar.armStretch).toBe(1.2);
    avatar.armSoften = 0.3;
    expect(avatar.armSoften).toBe(0.3);
    expect(() => { avatar.armSoften = 2; }).toThrow(/armSoften: must be in \[0, 1\]/);
    expect(() => { avatar.armStretch = Number.NaN; }).toThrow(RangeError);
    expect(avatar.armStretch).toBe(1.2);
    expect(avatar.armSoften).toBe(0.3);
    expect(ikpd.Rig.defaults.avatar).toMatchObject({ armStretch: 1, armSoften: Math.fround(0.1) });
    avatar.dispose();
  });
});
