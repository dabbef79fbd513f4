// ikpd/three: BodyLookAtIK's bone mapping, validation and write-back, on the
// demo's code-built humanoid, against a stand-in solver (any object with the
// BodyLookAt solver interface: update(dt, input) → output, active, clear, dispose)
// and on the real solver, ikpd.BodyLookAt (the default).
import { describe, expect, it } from 'vitest';
import { AnimationMixer, Group, Quaternion, Vector3 } from 'three';
import { BodyLookAtIK, BODY_LOOK_AT_PRESETS, resolveBodyBones } from '../../../web/three/rig/bodyLookAt.js';
import { createHumanoid } from '../../../demo/lib/humanoid.js';
import { quatAngle, randomQuaternion, rng, underTurnedParent, worldPosition, worldQuaternion } from '../../support/three-rig.js';
import { ikpd } from '../../support/setup.js';

const TURN = new Quaternion().setFromAxisAngle(new Vector3(0, 1, 0), 0.5);
const SHIFT = [0.05, 0, -0.02];

/** A stand-in solver: shifts the spine by SHIFT and turns the head by TURN (world). */
function standIn(log) {
  return (settings) => ({
    settings,
    active: true,
    cleared: 0,
    update(dt, input) {
      log.push({ dt, input: structuredClone(input) });
      const spine = input.spine.map((j) => ({ position: j.position.map((v, k) => v + SHIFT[k]), rotation: [...j.rotation] }));
      const head = spine[spine.length - 1];
      head.rotation = TURN.clone().multiply(new Quaternion().fromArray(head.rotation)).toArray();
      return { spine, arms: input.arms, legs: input.legs };
    },
    clear() { this.cleared++; },
    dispose() {},
  });
}

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
    expect(() => new BodyLookAtIK({}, human.root)).toThrow('ikpd.BodyLookAt: not in this build of ikpd; pass createSolver');
    expect(() => new BodyLookAtIK({}, null)).toThrow(TypeError);
  });

  it('hands the solver the settings: joint count, head axis from the facing, chest index, options', () => {
    const { human } = character();
    const log = [];
    const ik = new BodyLookAtIK({}, human.root, {
      createSolver: standIn(log), weightShift: { amount: 0.03 }, armReaction: { settleTime: 0.5 }, offset: [0, 0.08, 0.1],
    });
    const s = ik.solver.settings;
    expect(s.spineJoints).toBe(6);
    // The character faces +Z in its own space; the head's local look axis is that direction seen from the head.
    const headLocalZ = new Vector3(0, 0, 1).applyQuaternion(worldQuaternion(human.root))
      .applyQuaternion(worldQuaternion(human.bones.head).invert());
    expect(new Vector3(...s.forward).distanceTo(headLocalZ)).toBeLessThan(1e-6);
    expect(s.armReaction).toEqual({ chest: 3, settleTime: 0.5 });
    expect(s.weightShift).toEqual({ amount: 0.03 });
    expect(s.offset).toEqual([0, 0.08, 0.1]);
    expect(s.footLock).toBe(true);
  });

  it('writes the solved world pose back (hips moved, head turned) and solves from the animated pose every frame', () => {
    const { human } = character();
    const log = [];
    const target = new Vector3(0, 1.5, 3);
    const ik = new BodyLookAtIK({}, human.root, { createSolver: standIn(log), target });
    const bones = human.bones;
    const hipsBefore = worldPosition(bones.hips);
    const headBefore = worldQuaternion(bones.head);
    const footBefore = worldQuaternion(bones.leftFoot);
    const handBefore = worldQuaternion(bones.rightHand);
    for (let frame = 0; frame < 3; frame++) {
      ik.update(1 / 60);
      expect(worldPosition(bones.hips).sub(hipsBefore).distanceTo(new Vector3(...SHIFT))).toBeLessThan(1e-6);
      expect(quatAngle(worldQuaternion(bones.head), TURN.clone().multiply(headBefore))).toBeLessThan(1e-5);
      expect(quatAngle(worldQuaternion(bones.leftFoot), footBefore)).toBeLessThan(1e-5);
      expect(quatAngle(worldQuaternion(bones.rightHand), handBefore)).toBeLessThan(1e-5);
    }
    // Every frame the solver saw the animated pose, not its own output.
    expect(log[2].input).toEqual(log[0].input);
    expect(log[0].input.spine).toHaveLength(6);
    expect(log[0].input.arms).toHaveLength(6);
    expect(log[0].input.legs).toHaveLength(6);
    expect(log[0].input.target).toEqual([0, 1.5, 3]);
    expect(log[0].input.enabled).toBe(true);
    ik.target = null;  // no target: the solver is told to blend out
    ik.update(1 / 60);
    expect(log[3].input.enabled).toBe(false);
  });

  it('weight 0 leaves the bones alone and weight 0.5 moves the hips half-way', () => {
    const { human } = character();
    const ik = new BodyLookAtIK({}, human.root, { createSolver: standIn([]), target: [0, 1, 2], weight: 0 });
    const hips = worldPosition(human.bones.hips);
    ik.update(0.1);
    expect(worldPosition(human.bones.hips).distanceTo(hips)).toBe(0);
    ik.weight = 0.5;
    ik.update(0.1);
    expect(worldPosition(human.bones.hips).sub(hips).distanceTo(new Vector3(...SHIFT).multiplyScalar(0.5))).toBeLessThan(1e-6);
    ik.weight = 2;
    expect(() => ik.update(0.1)).toThrow(RangeError);
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

  it('works with any bone axes: the head axis follows the facing, the written world pose is the solved one', () => {
    for (const seed of [1, 2, 3]) {
      const { human } = character();
      const joints = human.skeleton.bones.map((b) => worldPosition(b));
      reframe(human, seed);
      human.skeleton.bones.forEach((b, i) => expect(worldPosition(b).distanceTo(joints[i])).toBeLessThan(1e-6));
      const ik = new BodyLookAtIK({}, human.root, { createSolver: standIn([]), target: [0, 1.5, 2], facing: '+z' });
      // +Z of the world, seen from the (randomly framed) head: the head's look axis is the character's facing.
      const facing = new Vector3(...ik.solver.settings.forward).applyQuaternion(worldQuaternion(human.bones.head));
      const worldFacing = new Vector3(0, 0, 1).applyQuaternion(worldQuaternion(human.root));
      expect(facing.distanceTo(worldFacing)).toBeLessThan(1e-5);
      const head = worldQuaternion(human.bones.head);
      const hips = worldPosition(human.bones.hips);
      const hand = worldPosition(human.bones.leftHand);
      ik.update(1 / 30).update(1 / 30);
      expect(quatAngle(worldQuaternion(human.bones.head), TURN.clone().multiply(head))).toBeLessThan(1e-5);
      expect(worldPosition(human.bones.hips).sub(hips).distanceTo(new Vector3(...SHIFT))).toBeLessThan(1e-6);
      expect(worldPosition(human.bones.leftHand).sub(hand).distanceTo(new Vector3(...SHIFT))).toBeLessThan(1e-5);
    }
  });
});

describe('BodyLookAtIK on the real solver (ikpd.BodyLookAt)', () => {
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
