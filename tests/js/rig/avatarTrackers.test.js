// The avatar's full-body trackers (docs/rig/avatar.md, "Full-body trackers")
// through AvatarIK on CesiumMan playing its walk (in place) at 30, 60, 90 and
// 240 Hz: six targets on the animated bones, the hips and head lowered
// together by a slow wave (the knees bend), are reached within 1 mm; a foot
// tracker set to null blends that foot down to a plant and back without a
// jump (no frame moves it more than the tracker or the steps do); the
// core rig's six targets per avatar; errors named, unknown options suggested.
import { describe, expect, it } from 'vitest';
import { Object3D } from 'three';
import { ikpd } from '../../support/setup.js';
import { AvatarIK, IKRig } from '../../../web/three/index.js';
import { avatarSession, worldOf } from '../../support/cesiumMan.js';
import { buildHumanoid } from '../../support/three-humanoid.js';

const TARGETS = ['head', 'leftHand', 'rightHand', 'pelvis', 'leftFoot', 'rightFoot'];
const BONES = { head: 'head', leftHand: 'leftHand', rightHand: 'rightHand', pelvis: 'hips', leftFoot: 'leftFoot', rightFoot: 'rightFoot' };

function place(targets, bone, t) {
  const down = 0.05 * (1 - Math.cos(1.5 * t)); // the hips and head lowered together
  for (const role of TARGETS) {
    const target = targets[role];
    bone('animated', role).getWorldPosition(target.position);
    if (role === 'head' || role === 'pelvis' || role.endsWith('Hand')) target.position.y -= down;
    bone('animated', role).getWorldQuaternion(target.quaternion);
    target.updateMatrixWorld(true);
  }
}
const session = (options = {}) => avatarSession(ikpd, AvatarIK, { roles: TARGETS, place, boneOf: (role) => BONES[role], options });

describe('AvatarIK full-body trackers on CesiumMan', () => {
  for (const rate of [30, 60, 90, 240]) {
    it(`pelvis, feet, head and hands reach their targets (${rate} Hz)`, async () => {
      const { avatar, targets, bone, step } = await session();
      const worst = Object.fromEntries(TARGETS.map((role) => [role, 0]));
      let lowered = 0;
      for (let f = 1; f <= 3 * rate; f++) {
        step(rate, f);
        if (f < rate / 2) continue; // the weights' blend-in
        for (const role of TARGETS) worst[role] = Math.max(worst[role], worldOf(bone('solved', role)).distanceTo(targets[role].position));
        lowered = Math.max(lowered, worldOf(bone('animated', 'pelvis')).y - worldOf(bone('solved', 'pelvis')).y);
      }
      expect(lowered).toBeGreaterThan(0.08);
      for (const role of TARGETS) expect(worst[role], role).toBeLessThan(1e-3);
      avatar.dispose();
    });
  }

  it('a foot tracker set to null blends the foot down to a plant, no jump; back, it is on its target', async () => {
    const rate = 60;
    const { avatar, targets, bone, step } = await session();
    let own = 0, jump = 0;
    let last = null, lastTarget = null;
    for (let f = 1; f <= 4 * rate; f++) {
      if (f === 2 * rate) avatar.leftFoot = null;
      if (f === 3 * rate) avatar.leftFoot = targets.leftFoot;
      step(rate, f);
      const foot = worldOf(bone('solved', 'leftFoot'));
      if (last && f > rate / 2) jump = Math.max(jump, foot.distanceTo(last));
      if (lastTarget && f < 2 * rate) own = Math.max(own, targets.leftFoot.position.distanceTo(lastTarget));
      last = foot;
      lastTarget = targets.leftFoot.position.clone();
      if (f === 3 * rate - 1) expect(avatar.leftFoot).toBe(null);
    }
    // The motion's own: the tracker's, or the steps' of the same foot never tracked (the clip's feet move its places).
    const untracked = await session({ leftFoot: null });
    let steps = 0;
    last = null;
    for (let f = 1; f <= 4 * rate; f++) {
      untracked.step(rate, f);
      const foot = worldOf(untracked.bone('solved', 'leftFoot'));
      if (last && f > rate / 2) steps = Math.max(steps, foot.distanceTo(last));
      last = foot;
    }
    untracked.avatar.dispose();
    expect(jump).toBeLessThan(Math.max(own, steps) + 1e-3);
    expect(worldOf(bone('solved', 'leftFoot')).distanceTo(targets.leftFoot.position)).toBeLessThan(1e-3);
    avatar.dispose();
  });

  it('the new targets as options and properties; errors named; unknown options suggested', () => {
    const h = buildHumanoid({ names: 'mixamo' });
    const rig = new IKRig(ikpd, h.scene);
    const c = rig.add('avatar', { pelvis: new Object3D(), leftFootWeight: 0.5 });
    expect(c.pelvisWeight).toBe(1);
    expect(c.leftFootWeight).toBe(0.5);
    expect(c.rightFoot).toBe(null);
    expect(() => { c.leftFoot = [0, 1, 0]; }).toThrow(/^leftFoot: expected an Object3D or null, got /);
    expect(() => { c.pelvisWeight = 2; }).toThrow(RangeError);
    expect(() => { c.pelvisWeight = 2; }).toThrow(/^pelvisWeight: /);
    rig.dispose();
    expect(() => new AvatarIK(ikpd, h.scene, { pelvsi: new Object3D() })).toThrow(/^pelvsi: unknown option of AvatarIK \(did you mean 'pelvis'\?\)/);
    expect(() => new AvatarIK(ikpd, h.scene, { rightFootWieght: 1 })).toThrow(/^rightFootWieght: unknown option of AvatarIK \(did you mean 'rightFootWeight'\?\)/);
    expect(() => new AvatarIK(ikpd, h.scene, { leftFoot: 3 })).toThrow(/^leftFoot: expected an Object3D or null, got /);
    expect(() => new AvatarIK(ikpd, h.scene, { pelvisWeight: -1 })).toThrow(RangeError);
  });
});
