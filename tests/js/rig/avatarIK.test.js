// AvatarIK (docs/rig/avatar.md, "three.js: AvatarIK") on CesiumMan playing its
// clip through AnimationMixer at 30, 60 and 240 Hz, with scripted head and
// hand targets near the animated bones: they are reached, weight 0 gives the
// animated pose exactly, a hand target taken away and given back blends
// without a pop; the humanoid by names (Mixamo, VRoid), a three-vrm
// VRMHumanoid and a role table; errors named.
import { describe, expect, it } from 'vitest';
import { Object3D, Quaternion, Vector3 } from 'three';
import { VRMHumanoid } from '@pixiv/three-vrm';
import { ikpd } from '../../support/setup.js';
import { AvatarIK, IKRig } from '../../../web/three/index.js';
import { avatarSession, worldOf } from '../../support/cesiumMan.js';
import { buildHumanoid } from '../../support/three-humanoid.js';

const TARGETS = ['head', 'leftHand', 'rightHand'];
// Each target's offset from its animated bone (scaled by a slow wave) and turn about up.
const OFFSETS = { head: [0, -0.04, 0.04], leftHand: [0.05, 0.12, 0.1], rightHand: [-0.05, 0.1, 0.12] };
const _p = new Vector3(), _q = new Quaternion(), _turn = new Quaternion(), _up = new Vector3(0, 1, 0);

/** The targets scripted near the animated bones: each offset scaled by a slow wave, turned about up. */
function place(targets, bone, t) {
  for (const role of TARGETS) {
    const target = targets[role];
    bone('animated', role).getWorldPosition(target.position).add(_p.fromArray(OFFSETS[role]).multiplyScalar(0.2 * Math.sin(2 * t) + 1));
    bone('animated', role).getWorldQuaternion(target.quaternion).premultiply(_turn.setFromAxisAngle(_up, 0.3 * Math.sin(t)));
    target.updateMatrixWorld(true);
  }
}
const session = (options = {}) => avatarSession(ikpd, AvatarIK, { roles: TARGETS, place, options });

describe('AvatarIK on CesiumMan through AnimationMixer', () => {
  for (const rate of [30, 60, 240]) {
    it(`the head and hands reach their targets (${rate} Hz)`, async () => {
      // The clip walks in place: its feet (steps: false), so the pelvis can follow the head's bob.
      const { avatar, targets, bone, step } = await session({ steps: false });
      let miss = 0, turnMiss = 0, moved = 0;
      for (let f = 1; f <= 2 * rate; f++) {
        step(rate, f);
        if (f < rate) continue; // the weights' blend-in
        for (const role of TARGETS) {
          const p = worldOf(bone('solved', role));
          miss = Math.max(miss, p.distanceTo(targets[role].position));
          turnMiss = Math.max(turnMiss, bone('solved', role).getWorldQuaternion(_q).angleTo(targets[role].quaternion));
          moved = Math.max(moved, p.distanceTo(worldOf(bone('animated', role))));
        }
      }
      expect(avatar.humanoid.convention).toBe('table');
      expect(avatar.active).toBe(true);
      expect(moved).toBeGreaterThan(0.05); // the targets do move the body
      expect(miss).toBeLessThan(1e-3);
      expect(turnMiss).toBeLessThan(0.002); // radians (0.1°), float32 through three.js
      avatar.dispose();
    });

    it(`weight 0 gives the animated pose exactly, a target's weight 0 blends its part out (${rate} Hz)`, async () => {
      const pose = (who) => who.skinned.skeleton.bones.flatMap((b) => [...b.position.toArray(), ...b.quaternion.toArray()]);
      // Built with weight 0: the animated pose, bit for bit, from the first frame.
      const still = await session({ weight: 0 });
      for (let f = 1; f <= rate / 2; f++) {
        still.step(rate, f);
        expect(pose(still.pair.solved)).toEqual(pose(still.pair.animated));
      }
      expect(still.avatar.active).toBe(false);
      still.avatar.dispose();
      const { pair, avatar, targets, bone, step } = await session({ settleTime: 0.1 });
      let f = 1;
      for (; f <= rate; f++) step(rate, f);
      // A hand's weight 0: that hand goes back to the animation; the others stay on their targets.
      avatar.leftHandWeight = 0;
      for (const end = f + rate; f < end; f++) step(rate, f);
      expect(worldOf(bone('solved', 'rightHand')).distanceTo(targets.rightHand.position)).toBeLessThan(1e-3);
      expect(worldOf(bone('solved', 'head')).distanceTo(targets.head.position)).toBeLessThan(1e-3);
      expect(worldOf(bone('solved', 'leftHand')).distanceTo(targets.leftHand.position)).toBeGreaterThan(0.05);
      // Turned off: blended out to the animated pose exactly.
      avatar.enabled = false;
      for (const end = f + rate; f < end; f++) step(rate, f);
      expect(avatar.active).toBe(false);
      expect(pose(pair.solved)).toEqual(pose(pair.animated));
      avatar.dispose();
    });

    it(`a hand target taken away and given back blends without a pop (${rate} Hz)`, async () => {
      const { avatar, targets, bone, step } = await session();
      const offset = () => worldOf(bone('solved', 'leftHand')).sub(worldOf(bone('animated', 'leftHand')));
      let last = null, jump = 0, largest = 0;
      for (let f = 1; f <= 4 * rate; f++) {
        if (f === 2 * rate) avatar.leftHand = null;
        if (f === 3 * rate) avatar.leftHand = targets.leftHand;
        step(rate, f);
        const now = offset();
        largest = Math.max(largest, now.length());
        // What the solve adds to the clip's own motion changes by at most what the PD moves in one frame.
        if (last !== null && f > rate) jump = Math.max(jump, now.distanceTo(last));
        last = now;
        if (f === 3 * rate - 1) {
          // Blended out: the arm follows the clip again (its joints' own rotations), carried by the body.
          for (const role of ['leftUpperArm', 'leftLowerArm', 'leftHand']) {
            const a = bone('solved', role).quaternion, b = bone('animated', role).quaternion, sign = a.dot(b) < 0 ? -1 : 1;
            // Components, not angleTo: its acos turns float32 rounding (1e-7) into 5e-4 rad.
            const most = Math.max(...['x', 'y', 'z', 'w'].map((k) => Math.abs(a[k] - sign * b[k])));
            expect(most, role).toBeLessThan(1e-5);
          }
        }
      }
      expect(largest).toBeGreaterThan(0.1);
      // A pop would move the hand by the whole offset in one frame; the PD spreads it over many
      // (settleTime 0.2 s: at most about a third of it per 30 Hz frame, the body turning back too).
      expect(jump).toBeLessThan(largest * Math.min(0.4, 12 / rate));
      expect(worldOf(bone('solved', 'leftHand')).distanceTo(targets.leftHand.position)).toBeLessThan(1e-3);
      avatar.dispose();
    });
  }
});

describe('AvatarIK with planted feet (default options) on the walk clip', () => {
  // The clip walks in place; the feet stay planted and step. Where the head
  // misses its target, the target is out of reach: a leg stands straight to
  // its planted foot (docs/rig/avatar.md, "Steps"), so the pelvis can rise no further.
  for (const rate of [30, 60, 90, 240]) {
    it(`the head is on its target or a leg is straight (${rate} Hz)`, async () => {
      const { avatar, targets, bone, step } = await session();
      let miss = 0, straightMisses = 0;
      const leg = (side) => ['UpperLeg', 'LowerLeg', 'Foot'].map((part) => worldOf(bone('solved', side + part)));
      for (let f = 1; f <= 2 * rate; f++) {
        step(rate, f);
        if (f < rate) continue;
        const headMiss = worldOf(bone('solved', 'head')).distanceTo(targets.head.position);
        const straight = ['left', 'right'].some((side) => {
          const [hip, knee, foot] = leg(side);
          return hip.distanceTo(foot) > hip.distanceTo(knee) + knee.distanceTo(foot) - 1e-3;
        });
        if (headMiss > 1e-3 && straight) straightMisses++;
        else miss = Math.max(miss, headMiss);
      }
      expect(miss).toBeLessThan(1e-3);
      expect(straightMisses).toBeGreaterThan(0); // the clip does take the head out of reach
      avatar.dispose();
    });
  }
});

describe('AvatarIK finds the humanoid', () => {
  const reach = (avatar, bones, world) => {
    const targets = { head: new Object3D(), leftHand: new Object3D(), rightHand: new Object3D() };
    for (const [role, offset] of Object.entries(OFFSETS)) {
      targets[role].position.copy(world[role]).add(_p.fromArray(offset));
      bones[role].getWorldQuaternion(targets[role].quaternion);
      avatar[role] = targets[role];
    }
    for (let f = 0; f < 60; f++) avatar.update(1 / 60);
    return Math.max(...TARGETS.map((role) => worldOf(bones[role]).distanceTo(targets[role].position)));
  };

  it.each([
    ['Mixamo', 'mixamo', (n) => n, 'mixamo'],
    ['Mixamo without its prefix', 'mixamo', (n) => n.replace('mixamorig', ''), null],
    ['Mixamo with an FBX prefix', 'mixamo', (n) => n.replace('mixamorig', 'mixamorig:'), 'mixamo'],
    ['VRoid', 'vroid', (n) => n, 'vroid'],
    ['VRM roles', 'vrm', (n) => n, 'vrm'],
  ])('by bone names: %s', (_, names, rename, convention) => {
    const h = buildHumanoid({ names, rename, axes: 'mixed', seed: 3 });
    const avatar = new AvatarIK(ikpd, h.scene);
    if (convention) expect(avatar.humanoid.convention).toBe(convention);
    expect(avatar.bones.spine[0]).toBe(h.bones.hips);
    expect(avatar.bones.arms[0].at(-1)).toBe(h.bones.leftHand);
    expect(reach(avatar, h.bones, h.world)).toBeLessThan(1e-3);
    avatar.dispose();
  });

  it("by a three-vrm VRMHumanoid (its raw bones) and by a role table", () => {
    const h = buildHumanoid({ names: 'vroid', axes: '+y' });
    const vrm = new VRMHumanoid(Object.fromEntries(Object.entries(h.bones).map(([role, node]) => [role, { node }])));
    const avatar = new AvatarIK(ikpd, h.scene, { humanoid: vrm });
    expect(avatar.humanoid.convention).toBe('VRMHumanoid');
    expect(avatar.humanoid.get('leftHand')).toBe(h.bones.leftHand);
    expect(reach(avatar, h.bones, h.world)).toBeLessThan(1e-3);
    avatar.dispose();
    const plain = buildHumanoid({ names: null });
    const table = new AvatarIK(ikpd, plain.scene, { humanoid: plain.bones });
    expect(table.humanoid.convention).toBe('table');
    expect(reach(table, plain.bones, plain.world)).toBeLessThan(1e-3);
    table.dispose();
  });
});

describe('AvatarIK errors', () => {
  const h = buildHumanoid();
  it('names the parameter and leaves the helper as it was', () => {
    expect(() => new AvatarIK(ikpd, h.scene, { hed: new Object3D() })).toThrow(/^hed: unknown option of AvatarIK \(did you mean 'head'\?\)/);
    expect(() => new AvatarIK(ikpd, h.scene, { headWieght: 1 })).toThrow(/^headWieght: unknown option of AvatarIK \(did you mean 'headWeight'\?\)/);
    expect(() => new AvatarIK(ikpd, null)).toThrow(TypeError);
    expect(() => new AvatarIK(ikpd, null)).toThrow(/^root: expected the character/);
    expect(() => new AvatarIK(ikpd, h.scene, { head: [0, 1, 0] })).toThrow(/^head: expected an Object3D or null, got /);
    expect(() => new AvatarIK(ikpd, h.scene, { rightHandWeight: 1.5 })).toThrow(RangeError);
    expect(() => new AvatarIK(ikpd, h.scene, { pelvisFollow: 2 })).toThrow(/pelvisFollow: must be in \[0, 1\]/);
    expect(() => new AvatarIK(Promise.resolve(ikpd), h.scene)).toThrow(/^AvatarIK: ikpd: got a Promise/);
    const none = new Object3D();
    none.add(new Object3D());
    expect(() => new AvatarIK(ikpd, none)).toThrow(RangeError);
    expect(() => new AvatarIK(ikpd, none)).toThrow(/^humanoid: no humanoid.*pass humanoid: a role table/);

    const avatar = new AvatarIK(ikpd, h.scene, { leftHandWeight: 0.5 });
    expect(avatar.headWeight).toBe(1);
    expect(() => { avatar.leftHandWeight = -0.1; }).toThrow(/^leftHandWeight: must be a number in \[0, 1\], got -0.1$/);
    expect(() => { avatar.head = 'head'; }).toThrow(/^head: expected an Object3D or null, got /);
    expect(() => { avatar.shoulderWeight = 3; }).toThrow(/shoulderWeight: must be in \[0, 1\]/);
    expect(() => { avatar.leftHnad = null; }).toThrow(/^leftHnad: unknown option of AvatarIK \(did you mean 'leftHand'\?\)/);
    expect(() => avatar.update(NaN)).toThrow(/^dt: must be finite/);
    expect(() => { avatar.target = new Object3D(); }).toThrow(/^target: AvatarIK has no single target; set head, leftHand, rightHand/);
    expect(avatar.leftHandWeight).toBe(0.5);
    expect(avatar.constraint.leftHandWeight).toBe(0.5);
    expect(avatar.shoulderWeight).toBe(undefined); // the default in force
    expect(avatar.constraint.shoulderWeight).toBe(0.5);
    avatar.dispose();
    expect(() => avatar.update(1 / 60)).toThrow(/^AvatarIK: used after dispose\(\)/);
  });
});

describe("IKRig's avatar constraint takes the same target weights", () => {
  it('reads them back, checks them in set() and changes nothing on an error', () => {
    const h = buildHumanoid();
    const rig = new IKRig(ikpd, h.scene);
    const c = rig.add('avatar', { leftHand: new Object3D(), leftHandWeight: 0.25 });
    expect([c.headWeight, c.leftHandWeight, c.rightHandWeight]).toEqual([1, 0.25, 1]);
    expect(() => c.set({ headWeight: 0.5, rightHandWeight: 2 })).toThrow(/^rightHandWeight: must be a number in \[0, 1\], got 2$/);
    expect([c.headWeight, c.rightHandWeight]).toEqual([1, 1]);
    c.set({ headWeight: 0.5 });
    expect(c.headWeight).toBe(0.5);
    expect(() => rig.add('avatar', { leftHandWieght: 1 })).toThrow(/^leftHandWieght: unknown option of IKRig\.avatar \(did you mean 'leftHandWeight'\?\)/);
    rig.dispose();
  });
});
