// ikpd/three: LookAtIK (spine → neck → head with PD smoothing) on real three.js Bones.
import { describe, expect, it, vi } from 'vitest';
import { Bone, Group, Object3D, Quaternion, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { IKRig, LookAtIK } from '../../../web/three/index.js';
import { buildHumanoid, worldOf, worldRotationOf } from '../../support/three-humanoid.js';
import { quatAngle, randomQuaternion, rng, worldPosition, worldQuaternion } from '../../support/three-rig.js';

/** spine → chest → neck → head, +Y bones, facing +Z, under a rotated, scaled parent. */
function character(parentRotation = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 0.6)) {
  const scene = new Group();
  const parent = new Group();
  parent.position.set(1, 0.5, -2);
  parent.quaternion.copy(parentRotation);
  parent.scale.setScalar(1.8);
  scene.add(parent);
  const bones = [];
  let previous = parent;
  for (const [name, y] of [['spine', 1], ['chest', 0.3], ['neck', 0.3], ['head', 0.15]]) {
    const bone = new Bone();
    bone.name = name;
    bone.position.y = y;
    previous.add(bone);
    bones.push(bone);
    previous = bone;
  }
  scene.updateMatrixWorld(true);
  return { scene, parent, bones };
}

const facing = (head) => new Vector3(0, 0, 1).applyQuaternion(worldQuaternion(head));
const toward = (head, target) => target.clone().sub(worldPosition(head)).normalize();

function run(ik, seconds, rate) {
  const steps = Math.round(seconds * rate);
  for (let i = 0; i < steps; i++) ik.update(1 / rate);
}

describe('LookAtIK', () => {
  it('turns the head toward the target, the body following, and settles there', () => {
    const { scene, bones } = character();
    const target = new Object3D();
    scene.add(target);
    target.position.copy(worldPosition(bones[3])).add(new Vector3(-3, 1, 0.5));
    const rest = bones.map((b) => b.quaternion.clone());
    // 115° from the character's facing: past the default maxYaw (2 rad), so lift the limit.
    const ik = new LookAtIK(ikpd, bones, { target, settleTime: 0.3, maxYaw: Math.PI });
    run(ik, 2, 60);
    expect(facing(bones[3]).dot(toward(bones[3], worldPosition(target)))).toBeGreaterThan(1 - 1e-4);
    // Every joint took part of the turn.
    bones.forEach((b, i) => expect(quatAngle(b.quaternion, rest[i])).toBeGreaterThan(0.05));
    // Static rig: more frames do not compound the offsets.
    const settled = bones.map((b) => b.quaternion.clone());
    run(ik, 0.5, 60);
    bones.forEach((b, i) => expect(quatAngle(b.quaternion, settled[i])).toBeLessThan(1e-4));
    ik.dispose();
  });

  it('is frame-rate independent (exact PD): 30, 60 and 240 Hz give the same pose', () => {
    const poses = [30, 60, 240].map((rate) => {
      const { bones } = character();
      const target = worldPosition(bones[3]).add(new Vector3(2, -1, 1));
      const ik = new LookAtIK(ikpd, bones, { target, settleTime: 0.5 });
      run(ik, 0.2, rate); // mid-motion, far from settled
      ik.dispose();
      return bones.map((b) => b.quaternion.clone());
    });
    const rest = character().bones.map((b) => b.quaternion);
    poses[0].forEach((q, i) => expect(quatAngle(q, rest[i])).toBeGreaterThan(0.05)); // mid-motion
    for (const pose of poses.slice(1)) pose.forEach((q, i) => expect(quatAngle(q, poses[0][i])).toBeLessThan(1e-6));
  });

  it('blends out to exactly the animated pose when disabled', () => {
    const { bones } = character();
    const rest = bones.map((b) => b.quaternion.clone());
    const ik = new LookAtIK(ikpd, bones, { target: worldPosition(bones[3]).add(new Vector3(0, 0, -3)), blendOutTime: 0.1 });
    run(ik, 1, 60);
    expect(ik.active).toBe(true);
    ik.enabled = false;
    run(ik, 4, 60);
    expect(ik.active).toBe(false);
    bones.forEach((b, i) => expect(quatAngle(b.quaternion, rest[i])).toBeLessThan(1e-5));
    ik.dispose();
  });

  it('respects per-joint limits and weights', () => {
    const random = rng(3);
    const { bones } = character(randomQuaternion(random));
    const rest = bones.map((b) => b.quaternion.clone());
    const limits = [0.1, 0.2, 0.3, 0.5];
    const ik = new LookAtIK(ikpd, bones, { target: worldPosition(bones[3]).add(new Vector3(0, 0, -5)), limits, weights: [0.25, 0.33, 0.5, 1] });
    run(ik, 3, 60);
    bones.forEach((b, i) => expect(quatAngle(b.quaternion, rest[i])).toBeLessThanOrEqual(limits[i] + 1e-4));
    ik.dispose();
    expect(() => ik.update(1 / 60)).toThrow(/dispose/);
  });

  it('uses the given look axis and reports bad options', () => {
    const { bones } = character();
    const target = worldPosition(bones[3]).add(new Vector3(4, 0, 0));
    // The target is straight behind the look axis: no yaw limit.
    const ik = new LookAtIK(ikpd, bones.slice(2), { target, forward: '-x', settleTime: 0.1, maxYaw: Math.PI });
    run(ik, 2, 60);
    const look = new Vector3(-1, 0, 0).applyQuaternion(worldQuaternion(bones[3]));
    expect(look.dot(toward(bones[3], target))).toBeGreaterThan(1 - 1e-4);
    ik.dispose();
    expect(() => new LookAtIK(ikpd, [])).toThrow(/bones/);
    // A look-at turns 2 to 64 bones: one is refused by the helper, naming its bones (the core named constraints[0].joints).
    expect(() => new LookAtIK(ikpd, bones.slice(3, 4), { target })).toThrow(new RangeError('bones: expected [root, ..., head], 2 to 64 bones, got 1'));
    expect(() => new LookAtIK(ikpd, bones.slice(3, 4), { target, settleTime: [0.1] })).toThrow(/^bones: expected \[root, \.\.\., head\], 2 to 64 bones/);
    const three = new IKRig(ikpd, bones[0]);
    expect(() => three.add('lookAt', { bones: [bones[3]], target })).toThrow(new RangeError('bones: expected [spine, ..., neck, head], got 1 bone(s)'));
    expect(three.constraints.length).toBe(0);
    three.dispose();
    // 'auto' (the default since LookAtIK is an IKRig lookAt): the character's facing, not an error.
    expect(() => new LookAtIK(ikpd, bones, { forward: 'auto' }).dispose()).not.toThrow();
    expect(() => new LookAtIK(ikpd, bones, { forward: '+w' })).toThrow(/forward/);
    expect(() => new LookAtIK(ikpd, bones, { weights: [1, 1] })).toThrow(/weights|joints/);
    expect(() => new LookAtIK(ikpd, bones, { settleTime: 0 })).toThrow(/settleTime/);
    // A negative dt counts as 0 (one development warning), as IKRig.update does.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const ok = new LookAtIK(ikpd, bones, { target });
    const before = bones.map((b) => b.quaternion.clone());
    ok.update(-1);
    bones.forEach((b, i) => expect(b.quaternion.equals(before[i])).toBe(true));
    expect(warn.mock.calls.some(([m]) => /LookAtIK\.update\(dt = -1\)/.test(m))).toBe(true);
    warn.mockRestore();
    ok.dispose();
  });

  // The old default, '+z' in the head's own frame, looked 158–174° away on real
  // rigs (bones with rest rotations); the default is now the character's facing.
  for (const axes of ['+y', '-z', 'random']) {
    for (const mixamoArmature of [false, true]) {
      it(`looks with the character's facing by default (${axes} bones${mixamoArmature ? ', Mixamo armature' : ''}), as an IKRig lookAt does`, () => {
        const roles = ['spine', 'chest', 'upperChest', 'neck', 'head'];
        const { bones } = buildHumanoid({ axes, mixamoArmature, seed: 5 });
        const chain = roles.map((r) => bones[r]);
        const restInverse = worldRotationOf(bones.head).invert();
        const target = new Vector3(0.4, 1.9, 2); // the humanoid faces +Z in the world
        const ik = new LookAtIK(ikpd, chain, { target, settleTime: 0.05 });
        run(ik, 2, 60);
        const facing = new Vector3(0, 0, 1).applyQuaternion(restInverse).applyQuaternion(worldRotationOf(bones.head));
        expect(facing.angleTo(target.clone().sub(worldOf(bones.head)))).toBeLessThan(0.02);
        // The same pose as an IKRig lookAt over the whole character.
        const other = buildHumanoid({ axes, mixamoArmature, seed: 5 });
        const rig = new IKRig(ikpd, other.scene);
        rig.add('lookAt', { bones: roles, target, settleTime: 0.05 });
        for (let i = 0; i < 120; i++) rig.update(1 / 60);
        roles.forEach((r) => expect(bones[r].quaternion.angleTo(other.bones[r].quaternion)).toBeLessThan(2e-3)); // float32 in another model space
        ik.dispose();
        rig.dispose();
      });
    }
  }
});

describe('LookAtIK with one settleTime per bone (the rig\'s lookAt with per-joint settle times)', () => {
  it('gives the LookAt solver\'s result with the same settle times, frame by frame', () => {
    const { scene, bones } = character();
    const target = new Object3D();
    scene.add(target);
    target.position.copy(worldPosition(bones[3])).add(new Vector3(-3, 1, 0.5));
    const settleTime = [0.6, 0.5, 0.3, 0.1];
    const animated = bones.map((b) => b.quaternion.clone());
    const joints = bones.map((b) => ({ position: worldPosition(b).toArray(), rotation: worldQuaternion(b).toArray() }));
    const reference = new ikpd.LookAt({ weights: [1 / 4, 1 / 3, 1 / 2, 1], settleTime, forward: [0, 0, 1], maxYaw: Math.PI });
    const ik = new LookAtIK(ikpd, bones, { target, settleTime, forward: '+z', maxYaw: Math.PI });
    const frame = { joints, target: worldPosition(target).toArray(), enabled: true };
    for (let i = 0; i < 30; i++) {
      bones.forEach((b, k) => b.quaternion.copy(animated[k])); // the same animated pose each frame
      ik.update(1 / 60);
      const result = reference.update(1 / 60, frame);
      bones.forEach((b, k) => expect(quatAngle(worldQuaternion(b), new Quaternion().fromArray(result[k].rotation)), `frame ${i} bone ${k}`).toBeLessThan(1e-3));
    }
    // Not the one-settle-time solve: the head (0.1 s) leads the 0.3 s default.
    const single = new LookAtIK(ikpd, character().bones, { target: worldPosition(target), forward: '+z', maxYaw: Math.PI });
    single.update(1 / 60);
    expect(quatAngle(worldQuaternion(single.bones[3]), worldQuaternion(bones[3]))).toBeGreaterThan(1e-3);
    // Set later, as one number or one per bone; a wrong count or a settle time of 0 is named and changes nothing.
    ik.settleTime = 0.2;
    ik.settleTime = [0.4, 0.3, 0.2, 0.1];
    expect(() => { ik.settleTime = [0.4, 0.3]; }).toThrow(/settleTime: expected an array of 4 numbers/);
    expect(() => { ik.settleTime = [0.4, 0.3, 0, 0.1]; }).toThrow(/settleTime/);
    expect(ik.settleTime).toEqual([0.4, 0.3, 0.2, 0.1]);
    ik.update(1 / 60);
    reference.dispose();
    single.dispose();
    ik.dispose();
  });


  it('the head leads when its settle time is shorter, and it settles on the target', () => {
    const { scene, bones } = character();
    const target = new Object3D();
    scene.add(target);
    target.position.copy(worldPosition(bones[3])).add(new Vector3(-3, 1, 0.5));
    // 115° from the character's facing: past the default maxYaw (2 rad), so lift the limit.
    const ik = new LookAtIK(ikpd, bones, { target, settleTime: [0.6, 0.5, 0.3, 0.1], forward: '+z', maxYaw: Math.PI });
    run(ik, 3, 60);
    expect(ik.active).toBe(true);
    expect(facing(bones[3]).dot(toward(bones[3], worldPosition(target)))).toBeGreaterThan(1 - 1e-4);
    ik.enabled = false;
    run(ik, 4, 60);
    expect(ik.active).toBe(false);
    ik.clear().dispose();
    expect(() => ik.update(1 / 60)).toThrow(/dispose/);
  });
});
