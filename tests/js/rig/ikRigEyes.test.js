// ikpd/three look-at eyes (docs/rig/look-at.md, "Eyes"): IKRig's lookAt and
// bodyLookAt turn a humanoid's eye bones by default, on rigs whose eye bones
// have the axes exporters give them; LookAtIK and BodyLookAtIK take `eyes`;
// bad eyes are named errors that change nothing.
import { describe, expect, it } from 'vitest';
import { Object3D, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { BodyLookAtIK, IKRig, LookAtIK } from '../../../web/three/index.js';
import { buildHumanoid, worldOf, worldRotationOf } from '../../support/three-humanoid.js';
import { exportHumanoidGlb, loadGlb } from '../../support/gltf-round-trip.js';

const CONVENTIONS = ['identity', '+y', '-z', '-y', 'mixed', 'random'];

// Where a bone that faced +Z (world) at rest looks now.
function lookOf(bone, restInverse) {
  return new Vector3(0, 0, 1).applyQuaternion(restInverse).applyQuaternion(worldRotationOf(bone));
}
function eyeErrors(eyes, rests, target) {
  const mid = worldOf(eyes[0]).add(worldOf(eyes[1])).multiplyScalar(0.5);
  const to = target.clone().sub(mid).normalize();
  return eyes.map((eye, k) => lookOf(eye, rests[k]).angleTo(to));
}
const restInverses = (bones) => bones.map((b) => worldRotationOf(b).invert());

describe('IKRig look-at eyes on humanoids as exporters build them', () => {
  for (const axes of CONVENTIONS) {
    for (const kind of ['lookAt', 'bodyLookAt']) {
      it(`${kind} turns the humanoid's eye bones by default; they lead the head and look at the target (${axes} bones)`, () => {
        const { scene, bones } = buildHumanoid({ axes, seed: 7 });
        const rig = new IKRig(ikpd, scene);
        const eyes = [bones.leftEye, bones.rightEye];
        const rests = restInverses(eyes), headRest = worldRotationOf(bones.head).invert();
        // 0.3 rad to the side of straight ahead: within the eyes' 0.6 rad yaw.
        const target = new Vector3(Math.sin(0.3) * 3, 1.66, Math.cos(0.3) * 3);
        const c = rig.add(kind, { target });
        expect(c.eyes).toEqual(eyes);
        for (let i = 0; i < 6; i++) rig.update(1 / 60);
        const head = lookOf(bones.head, headRest).angleTo(target.clone().sub(worldOf(bones.head)).normalize());
        for (const e of eyeErrors(eyes, rests, target)) expect(e).toBeLessThan(0.5 * head);
        for (let i = 0; i < 240; i++) rig.update(1 / 60);
        for (const e of eyeErrors(eyes, rests, target)) expect(e).toBeLessThan(0.01);
        rig.dispose();
      });
    }
  }

  it('eyes: [] leaves the eye bones to the animation; names, roles and bones select them', () => {
    const { scene, bones } = buildHumanoid({ axes: 'mixed', seed: 2 });
    const rig = new IKRig(ikpd, scene);
    const left = bones.leftEye.quaternion.clone(), right = bones.rightEye.quaternion.clone();
    const c = rig.add('lookAt', { target: [1, 1.7, 2], eyes: [] });
    expect(c.eyes).toEqual([]);
    for (let i = 0; i < 30; i++) rig.update(1 / 60);
    expect(bones.leftEye.quaternion.equals(left)).toBe(true);
    expect(bones.rightEye.quaternion.equals(right)).toBe(true);
    rig.dispose();
    const named = new IKRig(ikpd, scene);
    expect(named.add('lookAt', { target: [1, 1.7, 2], eyes: ['rightEye', bones.leftEye.name] }).eyes).toEqual([bones.rightEye, bones.leftEye]);
    expect(named.add('bodyLookAt', { target: [1, 1.7, 2], eyes: [bones.leftEye] }).eyes).toEqual([bones.leftEye]);
    named.dispose();
  });

  it('a VRM-style rig (VRM role names, identity rest rotations, a VRMHumanoid-like table) turns its eyes', () => {
    const { scene, bones } = buildHumanoid({ axes: 'identity', names: 'vrm', seed: 4 });
    const vrmHumanoid = { getRawBoneNode: (role) => bones[role] ?? null };
    const rig = new IKRig(ikpd, scene, { humanoid: vrmHumanoid });
    const eyes = [bones.leftEye, bones.rightEye];
    const rests = restInverses(eyes);
    const target = new Vector3(-0.6, 2.1, 2.5);
    expect(rig.add('lookAt', { target }).eyes).toEqual(eyes);
    for (let i = 0; i < 240; i++) rig.update(1 / 60);
    for (const e of eyeErrors(eyes, rests, target)) expect(e).toBeLessThan(0.01);
    rig.dispose();
  });

  it('on a character written by GLTFExporter and loaded by GLTFLoader (random bone axes, Mixamo armature)', async () => {
    const gltf = await loadGlb(await exportHumanoidGlb({ axes: 'random', mixamoArmature: true, seed: 23 }));
    let mesh = null;
    gltf.scene.traverse((o) => { if (o.isSkinnedMesh) mesh = o; });
    gltf.scene.updateMatrixWorld(true);
    const rig = new IKRig(ikpd, mesh);
    const eyes = [rig.bone('leftEye'), rig.bone('rightEye')];
    expect(eyes.every(Boolean)).toBe(true);
    const rests = restInverses(eyes);
    const target = new Vector3(0.5, 1.4, 2.5);
    rig.add('lookAt', { target });
    for (let i = 0; i < 240; i++) rig.update(1 / 60);
    for (const e of eyeErrors(eyes, rests, target)) expect(e).toBeLessThan(0.01);
    rig.dispose();
  });

  it('bad eyes name the option and change nothing', () => {
    const { scene, bones } = buildHumanoid();
    const rig = new IKRig(ikpd, scene);
    const before = bones.leftEye.quaternion.clone();
    expect(() => rig.add('lookAt', { target: [0, 2, 2], eyes: ['leftHand'] })).toThrow(new RangeError(`eyes[0]: '${bones.leftHand.name}' does not hang below the head '${bones.head.name}'`));
    expect(() => rig.add('lookAt', { target: [0, 2, 2], eyes: ['leftEye', 'rightEye', 'leftEye'] })).toThrow(new RangeError('eyes: expected 0, 1 or 2 eye bones (left, right), got 3'));
    expect(() => rig.add('lookAt', { target: [0, 2, 2], eyes: ['leftEye', 'leftEye'] })).toThrow(new RangeError('eyes[1]: the same bone as eyes[0]'));
    expect(() => rig.add('lookAt', { target: [0, 2, 2], eyes: 'both' })).toThrow(/^eyes: expected \[leftEye, rightEye\]/);
    expect(() => rig.add('lookAt', { target: [0, 2, 2], eyes: ['leftEyeball'] })).toThrow(/^eyes\[0\]: no bone or humanoid role named 'leftEyeball'/);
    expect(() => rig.add('lookAt', { target: [0, 2, 2], eyes: [new Object3D()] })).toThrow(/^eyes\[0\]: .*not a bone of this rig/);
    expect(() => rig.add('lookAt', { target: [0, 2, 2], eyeYaw: 3 })).toThrow(/^constraints\[0\]\.eyeYaw:/);
    expect(() => rig.add('lookAt', { target: [0, 2, 2], eyeSetleTime: 0.1 })).toThrow(/eyeSettleTime/);
    expect(() => rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], eyes: ['leftEye'] })).toThrow(/^eyes: unknown option/);
    expect(rig.constraints.length).toBe(0);
    rig.update(1 / 60);
    expect(bones.leftEye.quaternion.equals(before)).toBe(true);
    const c = rig.add('lookAt', { target: [0, 2, 2] });
    expect(() => { c.eyeYaw = -1; }).toThrow(/^constraints\[0\]\.eyeYaw:/);
    c.eyeYaw = 0.2;
    expect(c.eyeYaw).toBe(0.2);
    rig.dispose();
  });
});

describe('LookAtIK and BodyLookAtIK eyes', () => {
  for (const axes of ['+y', 'random']) {
    it(`LookAtIK turns the eyes given (${axes} bones)`, () => {
      const { bones } = buildHumanoid({ axes, seed: 9 });
      const eyes = [bones.leftEye, bones.rightEye];
      const rests = restInverses(eyes);
      const target = new Vector3(0.8, 1.9, 2.5);
      const ik = new LookAtIK(ikpd, [bones.spine, bones.chest, bones.upperChest, bones.neck, bones.head], { target, eyes, eyeYaw: 0.5 });
      expect(ik.eyes).toEqual(eyes);
      expect(ik.eyeYaw).toBe(0.5);
      for (let i = 0; i < 240; i++) ik.update(1 / 60);
      for (const e of eyeErrors(eyes, rests, target)) expect(e).toBeLessThan(0.01);
      ik.dispose();
    });
  }

  it('LookAtIK: no eyes by default; bad eyes are named', () => {
    const { bones } = buildHumanoid({ axes: 'mixed', seed: 9 });
    const chain = [bones.neck, bones.head];
    const before = bones.leftEye.quaternion.clone();
    const ik = new LookAtIK(ikpd, chain, { target: [1, 2, 2] });
    for (let i = 0; i < 20; i++) ik.update(1 / 60);
    expect(bones.leftEye.quaternion.equals(before)).toBe(true);
    ik.dispose();
    expect(() => new LookAtIK(ikpd, chain, { eyes: bones.leftEye })).toThrow(/^eyes: expected \[leftEye, rightEye\]/);
    expect(() => new LookAtIK(ikpd, chain, { eyes: [bones.leftHand] })).toThrow(/^eyes\[0\]: .*does not hang below the head/);
    // One settleTime per bone goes through the rig with the eyes (it refused them on the LookAt solver): a wrong count is named.
    expect(() => new LookAtIK(ikpd, chain, { eyes: [bones.leftEye], settleTime: [0.3, 0.2, 0.1] })).toThrow(/^constraints\[0\]\.settleTime: expected an array of 2 numbers/);
  });

  it('LookAtIK turns the eyes with one settleTime per bone; the head settles as fast as its own', () => {
    const { bones } = buildHumanoid({ axes: 'random', seed: 9 });
    const eyes = [bones.leftEye, bones.rightEye];
    const rests = restInverses(eyes);
    const chain = [bones.spine, bones.chest, bones.upperChest, bones.neck, bones.head];
    const target = new Vector3(0.8, 1.9, 2.5);
    const fast = new LookAtIK(ikpd, chain, { target, eyes, settleTime: [0.6, 0.5, 0.4, 0.3, 0.05] });
    const headRest = worldRotationOf(bones.head).invert();
    const headError = () => lookOf(bones.head, headRest).angleTo(target.clone().sub(worldOf(bones.head)).normalize());
    const start = headError();
    for (let i = 0; i < 6; i++) fast.update(1 / 60);
    const fastHead = headError();
    for (let i = 6; i < 240; i++) fast.update(1 / 60);
    for (const e of eyeErrors(eyes, rests, target)) expect(e).toBeLessThan(0.01);
    fast.dispose();
    const { bones: same } = buildHumanoid({ axes: 'random', seed: 9 });
    const slow = new LookAtIK(ikpd, [same.spine, same.chest, same.upperChest, same.neck, same.head], { target, eyes: [same.leftEye, same.rightEye], settleTime: 0.6 });
    const slowRest = worldRotationOf(same.head).invert();
    for (let i = 0; i < 6; i++) slow.update(1 / 60);
    const slowHead = lookOf(same.head, slowRest).angleTo(target.clone().sub(worldOf(same.head)).normalize());
    slow.dispose();
    // After 0.1 s the fast head (0.05 s) has turned further than with 0.6 s everywhere.
    expect(fastHead).toBeLessThan(start);
    expect(fastHead).toBeLessThan(0.8 * slowHead);
  });

  it('BodyLookAtIK: eyes "auto" finds the preset\'s eye bones; they look at the target', () => {
    const { scene, bones } = buildHumanoid({ axes: 'random', names: 'mixamo', seed: 11 });
    const eyes = [bones.leftEye, bones.rightEye];
    const rests = restInverses(eyes);
    const target = new Vector3(-0.5, 1.5, 2.5);
    const ik = new BodyLookAtIK(ikpd, scene, { target, eyes: 'auto', eyeSettleTime: 0.08 });
    expect(ik.constraint.eyes).toEqual(eyes);
    for (let i = 0; i < 300; i++) ik.update(1 / 60);
    for (const e of eyeErrors(eyes, rests, target)) expect(e).toBeLessThan(0.01);
    ik.dispose();
    const none = new BodyLookAtIK(ikpd, scene, { target });
    expect(none.constraint.eyes).toEqual([]);
    none.dispose();
    expect(() => new BodyLookAtIK(ikpd, scene, { eyes: ['mixamorigLeftHand'] })).toThrow(/^eyes\[0\]: .*does not hang below the head/);
    // createSolver (which turned no eyes) is gone: an unknown option, named before the eyes.
    expect(() => new BodyLookAtIK(ikpd, scene, { eyes: [bones.leftEye], createSolver: (s) => new ikpd.BodyLookAt(s) })).toThrow(/^createSolver: unknown option of BodyLookAtIK/);
  });
});
