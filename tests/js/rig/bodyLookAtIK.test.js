// ikpd/three: BodyLookAtIK's bone mapping, validation and write-back, on the
// demo's code-built humanoid (a one-constraint IKRig, its 'bodyLookAt' constraint).
import { describe, expect, it } from 'vitest';
import { AnimationMixer, Vector3 } from 'three';
import { BodyLookAtIK, BODY_LOOK_AT_PRESETS, resolveBodyBones } from '../../../web/three/rig/bodyLookAt.js';
import { createHumanoid } from '../../../demo/lib/humanoid.js';
import { quatAngle, randomQuaternion, rng, underTurnedParent, worldPosition, worldQuaternion } from '../../support/three-rig.js';
import { ikpd } from '../../support/setup.js';

function character(names = 'mixamo') {
  return underTurnedParent(createHumanoid({ names }));
}

/**
 * Gives every bone of the humanoid a random rest frame without moving any
 * joint: world rotations become rotation·R, children are compensated by R⁻¹.
 */
function reframe(human, seed) {
  const random = rng(seed);
  for (const bone of human.skeleton.bones) {
    const r = randomQuaternion(random);
    const inverse = r.clone().invert();
    bone.quaternion.multiply(r);
    for (const child of bone.children) {
      child.position.applyQuaternion(inverse);
      child.quaternion.premultiply(inverse);
    }
  }
  human.root.updateMatrixWorld(true);
}

describe('BodyLookAtIK', () => {
  it.each(['mixamo', 'vrm'])('maps the %s preset onto the humanoid: spine, two arms from the chest, two legs from the hips', (names) => {
    const { human } = character(names);
    const found = resolveBodyBones(human.root, BODY_LOOK_AT_PRESETS[names]);
    expect(found.spine.map((b) => b.name)).toEqual(
      ['hips', 'spine', 'chest', 'upperChest', 'neck', 'head'].map((role) => human.names[role]));
    expect(found.arms.map((a) => a.map((b) => b.name))).toEqual(
      [['leftUpperArm', 'leftLowerArm', 'leftHand'], ['rightUpperArm', 'rightLowerArm', 'rightHand']].map((a) => a.map((r) => human.names[r])));
    expect(found.legs).toHaveLength(2);
    expect(found.chest).toBe(3);  // the arms hang (through the shoulder) from the upper chest
  });

  it('finds FBX-style names (mixamorig:Hips) and skips optional VRM bones', () => {
    const { human } = character('mixamo');
    human.root.traverse((o) => { o.name = o.name.replace('mixamorig', 'mixamorig:'); });
    expect(resolveBodyBones(human.root, BODY_LOOK_AT_PRESETS.mixamo).spine).toHaveLength(6);
    const vrm = character('vrm').human;
    const upperChest = vrm.bones.upperChest;
    upperChest.name = 'renamed';
    // Without upperChest, chest → neck is no longer parent → child: the chain check says so.
    expect(() => resolveBodyBones(vrm.root, BODY_LOOK_AT_PRESETS.vrm)).toThrow(RangeError);
    expect(() => resolveBodyBones(vrm.root, BODY_LOOK_AT_PRESETS.vrm)).toThrow("bones.spine: 'neck' is not a child of 'chest'");
  });

  it('names a missing bone, a broken chain and a limb that does not hang from the body', () => {
    const { human } = character();
    const table = BODY_LOOK_AT_PRESETS.mixamo;
    expect(() => resolveBodyBones(human.root, { ...table, spine: ['mixamorigHips', 'nope'] })).toThrow(TypeError);
    expect(() => resolveBodyBones(human.root, { ...table, spine: ['mixamorigHips', 'nope'] })).toThrow("bones.spine[1]: no bone named 'nope'");
    expect(() => resolveBodyBones(human.root, { ...table, spine: ['mixamorigHips', 'mixamorigSpine1'] }))
      .toThrow("bones.spine: 'mixamorigSpine1' is not a child of 'mixamorigHips'");
    expect(() => resolveBodyBones(human.root, { ...table, leftArm: ['mixamorigLeftArm', 'mixamorigLeftHand', 'mixamorigLeftForeArm'] }))
      .toThrow(RangeError);
    expect(() => resolveBodyBones(human.root, { ...table, leftLeg: table.leftArm })).toThrow("does not hang from the hips 'mixamorigHips'");
    expect(() => resolveBodyBones(human.root, { ...table, leftArm: table.leftLeg })).toThrow("bones.leftArm: 'mixamorigLeftUpLeg' does not hang from a spine bone above the hips");
    expect(() => new BodyLookAtIK({}, human.root, { bones: 'unreal' })).toThrow(RangeError);
    expect(() => new BodyLookAtIK({}, human.root)).toThrow(/^BodyLookAtIK: ikpd: expected the initialised module from await init\(\), got/);
    // createSolver is gone (the rig runs the body look-at): an unknown option with a hint, before anything else.
    expect(() => new BodyLookAtIK(ikpd, human.root, { createSolver: (s) => new ikpd.BodyLookAt(s) }))
      .toThrow(/^createSolver: unknown option of BodyLookAtIK \(removed: it runs on the rig's bodyLookAt constraint/);
    expect(() => new BodyLookAtIK({}, null)).toThrow(TypeError);
  });

  it('hands the rig constraint the settings: spine, head axis from the facing, chest index, options', () => {
    const { human } = character();
    const ik = new BodyLookAtIK(ikpd, human.root, { weightShift: { amount: 0.03 }, armReaction: { settleTime: 0.5 }, offset: [0, 0.08, 0.1] });
    const c = ik.constraint;
    expect(ik.bones.spine).toHaveLength(6);
    // The character faces +Z in its own space; the head's local look axis is that direction seen from the head.
    const headLocalZ = new Vector3(0, 0, 1).applyQuaternion(worldQuaternion(human.root))
      .applyQuaternion(worldQuaternion(human.bones.head).invert());
    expect(new Vector3(...c.forward).distanceTo(headLocalZ)).toBeLessThan(1e-6);
    expect(c.armReaction.chest).toBe(3);
    expect(c.armReaction.settleTime).toBe(0.5);
    expect(c.weightShift.amount).toBe(0.03);
    expect(c.offset).toEqual([0, 0.08, 0.1]);
    expect(c.footLock).toBe(true);
    ik.dispose();
  });

  it('solves from the animated pose every frame: the same as a character put back to it before each update', () => {
    const target = new Vector3(0.8, 1.5, 3);
    const helped = character().human, reset = character().human;
    const animated = reset.skeleton.bones.map((b) => [b.position.clone(), b.quaternion.clone()]);
    const a = new BodyLookAtIK(ikpd, helped.root, { target, weightShift: { amount: 0.1 } });
    const b = new BodyLookAtIK(ikpd, reset.root, { target, weightShift: { amount: 0.1 } });
    for (let frame = 0; frame < 20; frame++) {
      reset.skeleton.bones.forEach((bone, i) => { bone.position.copy(animated[i][0]); bone.quaternion.copy(animated[i][1]); });
      a.update(1 / 60);
      b.update(1 / 60);
    }
    let moved = 0;
    helped.skeleton.bones.forEach((bone, i) => {
      expect(worldPosition(bone).distanceTo(worldPosition(reset.skeleton.bones[i]))).toBeLessThan(1e-6);
      expect(quatAngle(worldQuaternion(bone), worldQuaternion(reset.skeleton.bones[i]))).toBeLessThan(1e-6);
      moved = Math.max(moved, quatAngle(worldQuaternion(bone), worldQuaternion(character().human.skeleton.bones[i])));
    });
    expect(moved).toBeGreaterThan(0.05);
    a.dispose();
    b.dispose();
  });

  it('weight 0 leaves the bones alone and weight 0.5 shifts the hips less than weight 1', () => {
    const shiftAt = (weight) => {
      const { human } = character();
      const hips = worldPosition(human.bones.hips);
      const ik = new BodyLookAtIK(ikpd, human.root, { target: [1.5, 1.6, 1], weight, weightShift: { amount: 0.1 } });
      const before = human.skeleton.bones.map((bone) => bone.quaternion.clone());
      for (let i = 0; i < 120; i++) ik.update(1 / 60);
      if (weight === 0) human.skeleton.bones.forEach((bone, i) => expect(quatAngle(bone.quaternion, before[i])).toBeLessThan(1e-5)); // the animated pose, through float32
      const shift = worldPosition(human.bones.hips).distanceTo(hips);
      expect(() => { ik.weight = 2; }).toThrow(RangeError);
      ik.dispose();
      return shift;
    };
    const [none, half, full] = [0, 0.5, 1].map(shiftAt);
    expect(none).toBeLessThan(1e-6);
    expect(half).toBeGreaterThan(0.1 * full);
    expect(half).toBeLessThan(0.9 * full);
  });

  it("the demo humanoid's idle clip moves the upper body and leaves the feet where they are", () => {
    const { human } = character();
    const mixer = new AnimationMixer(human.root);
    mixer.clipAction(human.idle).play();
    const foot = worldPosition(human.bones.leftFoot);
    const head = worldQuaternion(human.bones.head);
    expect(human.mesh.isSkinnedMesh).toBe(true);
    expect(human.skeleton.bones).toHaveLength(24); // with two eye bones
    mixer.update(1.3);
    human.root.updateMatrixWorld(true);
    expect(quatAngle(worldQuaternion(human.bones.head), head)).toBeGreaterThan(0.01);
    expect(worldPosition(human.bones.leftFoot).distanceTo(foot)).toBeLessThan(1e-9);
  });

  it('works with any bone axes: the head axis follows the facing', () => {
    for (const seed of [1, 2, 3]) {
      const { human } = character();
      const joints = human.skeleton.bones.map((b) => worldPosition(b));
      reframe(human, seed);
      human.skeleton.bones.forEach((b, i) => expect(worldPosition(b).distanceTo(joints[i])).toBeLessThan(1e-6));
      const ik = new BodyLookAtIK(ikpd, human.root, { target: [0, 1.5, 2], facing: '+z' });
      // +Z of the world, seen from the (randomly framed) head: the head's look axis is the character's facing.
      const facing = new Vector3(...ik.constraint.forward).applyQuaternion(worldQuaternion(human.bones.head));
      const worldFacing = new Vector3(0, 0, 1).applyQuaternion(worldQuaternion(human.root));
      expect(facing.distanceTo(worldFacing)).toBeLessThan(1e-5);
      ik.dispose();
    }
    // The written world pose whatever the axes: 'gives the same world joint positions whatever the bones' axes' below.
  });
});

describe('BodyLookAtIK on the rig', () => {
  it('turns the head to the target, shifts the hips, keeps the feet planted, and blends out to the animated pose', () => {
    const { human } = character();
    const bones = human.bones;
    const animated = human.skeleton.bones.map((b) => [worldPosition(b), worldQuaternion(b)]);
    const feet = [bones.leftFoot, bones.rightFoot].map((b) => worldPosition(b));
    const hips = worldPosition(bones.hips);
    const head = worldQuaternion(bones.head);
    const facing = new Vector3(0, 0, 1).applyQuaternion(worldQuaternion(human.root));
    const target = worldPosition(bones.head).add(new Vector3(1, 0.6, 0).applyQuaternion(worldQuaternion(human.root)).multiplyScalar(2))
      .add(facing.clone());
    const ik = new BodyLookAtIK(ikpd, human.root, { target, weightShift: { amount: 0.1 } });
    let shift = 0;
    for (let i = 0; i < 180; i++) {
      ik.update(1 / 60);
      feet.forEach((p, k) => expect(worldPosition([bones.leftFoot, bones.rightFoot][k]).distanceTo(p)).toBeLessThan(2e-4));
      shift = Math.max(shift, worldPosition(bones.hips).distanceTo(hips));
    }
    expect(shift).toBeGreaterThan(0.005);
    // The head's facing (carried by its world rotation change) points at the target.
    const turn = worldQuaternion(bones.head).multiply(head.clone().invert());
    const look = facing.clone().applyQuaternion(turn);
    expect(look.angleTo(target.clone().sub(worldPosition(bones.head)))).toBeLessThan(0.05);
    ik.target = null;
    for (let i = 0; i < 600 && ik.active; i++) ik.update(1 / 60);
    expect(ik.active).toBe(false);
    human.skeleton.bones.forEach((b, i) => {
      expect(worldPosition(b).distanceTo(animated[i][0])).toBeLessThan(1e-5);
      expect(quatAngle(worldQuaternion(b), animated[i][1])).toBeLessThan(1e-4);
    });
    ik.dispose();
    expect(() => ik.update(1 / 60)).toThrow(/used after dispose/);
  });
  it('gives the same world joint positions whatever the bones\' axes', () => {
    const plain = character().human;
    const framed = character().human;
    reframe(framed, 5);
    const target = [1.5, 2, 1];
    const [a, b] = [plain, framed].map((h) => new BodyLookAtIK(ikpd, h.root, { target, weightShift: { amount: 0.1 } }));
    for (let i = 0; i < 60; i++) {
      a.update(1 / 60);
      b.update(1 / 60);
    }
    let moved = 0;
    plain.skeleton.bones.forEach((bone, i) => {
      const p = worldPosition(bone);
      expect(p.distanceTo(worldPosition(framed.skeleton.bones[i]))).toBeLessThan(1e-4);
      moved = Math.max(moved, p.distanceTo(worldPosition(character().human.skeleton.bones[i])));
    });
    expect(moved).toBeGreaterThan(0.01);
    a.dispose();
    b.dispose();
  });
});
