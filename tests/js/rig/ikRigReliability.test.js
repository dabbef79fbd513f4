// IKRig reliability on characters no AnimationMixer rewrites: rebuilding the
// rig (add, a failed add, LookAtIK.clear) keeps the animated pose, the rig
// follows reparenting, a mirrored character is refused rather than missed,
// get() gives every option of a kind, and helpers sharing bones compose (docs/rig/rig.md).
import { describe, expect, it } from 'vitest';
import { Group, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { AimIK, IKRig, LookAtIK } from '../../../web/three/index.js';
import { buildHumanoid, worldOf } from '../../support/three-humanoid.js';
import { quatAngle } from '../../support/three-rig.js';

const restOf = (bones) => new Map(Object.values(bones).map((b) => [b, b.quaternion.clone()]));
// Largest angle any bone is off its rest rotation.
const maxOff = (rest) => Math.max(...[...rest].map(([b, q]) => quatAngle(b.quaternion, q)));

function run(target, frames, dt = 1 / 60) {
  for (let i = 0; i < frames; i++) target.update(dt);
}

describe('rebuilding a rig keeps the animated pose', () => {
  it('add() after some frames: disabling the look-at brings the head back', () => {
    const { scene, bones } = buildHumanoid();
    const rest = restOf(bones);
    const rig = new IKRig(ikpd, scene);
    const look = rig.add('lookAt', { target: new Vector3(3, 1.6, 0.5) });
    run(rig, 60);
    expect(maxOff(rest)).toBeGreaterThan(0.2);
    rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target: null });
    look.enabled = false;
    run(rig, 120);
    expect(maxOff(rest)).toBeLessThan(1e-4);
  });

  it('a failed add() changes nothing: the smoothing goes on where it was', () => {
    const make = () => {
      const h = buildHumanoid();
      const rig = new IKRig(ikpd, h.scene);
      rig.add('lookAt', { target: new Vector3(3, 1.6, 0.5), settleTime: 0.4 });
      return { ...h, rig };
    };
    const a = make(), b = make();
    const rest = restOf(a.bones);
    run(a.rig, 10); run(b.rig, 10);
    expect(() => a.rig.add('aim', { bone: 'head', target: [0, 0, 1], weight: 2 })).toThrow(RangeError);
    expect(a.rig.constraints.length).toBe(1);
    run(a.rig, 10); run(b.rig, 10);
    for (const role of Object.keys(a.bones)) expect(quatAngle(a.bones[role].quaternion, b.bones[role].quaternion)).toBeLessThan(1e-6);
    a.rig.constraints[0].enabled = false;
    run(a.rig, 120);
    expect(maxOff(rest)).toBeLessThan(1e-4);
  });

  it('LookAtIK.clear() zeroes the offsets: the head is back at once and stays back when disabled', () => {
    const { bones } = buildHumanoid();
    const chain = [bones.spine, bones.chest, bones.neck, bones.head];
    const rest = restOf(bones);
    const look = new LookAtIK(ikpd, chain, { target: new Vector3(3, 1.6, 0.5) });
    run(look, 60);
    expect(maxOff(rest)).toBeGreaterThan(0.3);
    look.clear();
    look.enabled = false;
    run(look, 120);
    expect(maxOff(rest)).toBeLessThan(1e-4);
  });
});

describe('the rig root', () => {
  it('follows reparenting: attach() to a moved vehicle, the hand still reaches', () => {
    const { scene, bones, skeleton } = buildHumanoid();
    const world = new Group();
    world.add(scene);
    const vehicle = new Group();
    vehicle.position.set(2, 0.5, -1);
    vehicle.quaternion.setFromAxisAngle(new Vector3(0, 1, 0), 0.8);
    world.add(vehicle);
    world.updateMatrixWorld(true);
    const rig = new IKRig(ikpd, skeleton); // as for a SkinnedMesh: the hips are the topmost joint
    const target = new Vector3(0.35, 1.1, 0.35);
    const arm = rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target });
    run(rig, 2);
    expect(worldOf(bones.leftHand).distanceTo(target)).toBeLessThan(1e-3);
    vehicle.attach(bones.hips);
    const goal = worldOf(bones.leftUpperArm).add(new Vector3(0.2, -0.25, 0.2));
    arm.target = goal;
    run(rig, 2);
    expect(worldOf(bones.leftHand).distanceTo(goal)).toBeLessThan(1e-3);
    expect(arm.reached).toBe(true);
  });

  it('a mirrored character (a negative scale) is refused with a RangeError naming it, never a wrong reached', () => {
    const { scene } = buildHumanoid();
    scene.name = 'hero';
    scene.scale.x = -1;
    scene.updateMatrixWorld(true);
    const rig = new IKRig(ikpd, scene);
    expect(() => rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target: [0.3, 1.1, 0.3] })).toThrow(/'hero' mirrors/);
    expect(rig.constraints.length).toBe(0);
    // Mirrored after the constraint was added: update() refuses.
    scene.scale.x = 1;
    const arm = rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target: [0.3, 1.1, 0.3] });
    rig.update(1 / 60);
    scene.scale.x = -1;
    expect(() => rig.update(1 / 60)).toThrow(RangeError);
    expect(arm.reached).toBe(true); // the last good frame's
    scene.scale.x = 1;
    expect(() => rig.update(1 / 60)).not.toThrow();
  });
});

describe('constraint.get', () => {
  it("reads every option of the kind, given at add() or not", () => {
    const { scene } = buildHumanoid();
    const rig = new IKRig(ikpd, scene);
    rig.add('lookAt', { target: [0, 1.6, 2] });
    rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target: [0.3, 1.1, 0.3] });
    const core = rig._core;
    for (let i = 0; i < 2; i++) {
      const c = core.constraints?.[i] ?? rig.constraints[i]._core;
      for (const name of ikpd.Rig.options[c.kind]) {
        expect(() => c.get(name), `${c.kind}.${name}`).not.toThrow();
      }
    }
    const twoBone = rig.constraints[1]._core;
    expect(twoBone.get('forward')).toBe(null);
    expect(() => twoBone.get('fowrard')).toThrow(/forward/);
  });
});

describe('helpers sharing bones', () => {
  it('LookAtIK (spine → head) and AimIK (head) on a static character settle, and go back when disabled', () => {
    const { bones } = buildHumanoid();
    const rest = restOf(bones);
    const target = new Vector3(2, 1.8, 1);
    const look = new LookAtIK(ikpd, [bones.spine, bones.chest, bones.neck, bones.head], { target });
    const aim = new AimIK(ikpd, bones.head, { target: new Vector3(-1, 1.6, 2), forward: '+z' });
    const frame = () => { look.update(1 / 60); aim.update(1 / 60); };
    for (let i = 0; i < 300; i++) frame();
    const before = restOf(bones);
    for (let i = 0; i < 100; i++) frame();
    expect(maxOff(before)).toBeLessThan(1e-3);
    look.enabled = false;
    aim.enabled = false;
    for (let i = 0; i < 200; i++) frame();
    expect(maxOff(rest)).toBeLessThan(1e-4);
  });

  it('a second rig over the same skeleton builds on the first one\'s output where it only reads (layered rigs)', () => {
    const { scene, bones } = buildHumanoid();
    const look = new IKRig(ikpd, scene);
    look.add('lookAt', { target: new Vector3(2, 1.8, 1) });
    const hands = new IKRig(ikpd, scene);
    const target = worldOf(bones.leftUpperArm).add(new Vector3(0.1, -0.25, 0.2));
    const arm = hands.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target });
    for (let i = 0; i < 120; i++) { look.update(1 / 60); hands.update(1 / 60); }
    expect(arm.reached).toBe(true);
    expect(worldOf(bones.leftHand).distanceTo(target)).toBeLessThan(1e-3);
  });
});
