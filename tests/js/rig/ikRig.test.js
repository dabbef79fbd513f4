// ikpd/three IKRig: one constraint equals the single-call solver, several
// see each other's pose, axes and facing come from the rest pose on rigs
// built as exporters build them, toggles never pop, bad input is named.
import { describe, expect, it, vi } from 'vitest';
import { Object3D, Quaternion, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { IKRig } from '../../../web/three/index.js';
import { buildHumanoid, worldOf, worldRotationOf } from '../../support/three-humanoid.js';
import { randomUnit, rng } from '../../support/three-rig.js';
import { exportHumanoidGlb, loadGlb } from '../../support/gltf-round-trip.js';

const CONVENTIONS = ['identity', '+y', '-z', '-y', 'mixed', 'random'];

const angleBetween = (a, b) => a.angleTo(b);
// The largest rotation (radians) between two poses of the same bones.
function largestChange(bones, before) {
  let largest = 0;
  bones.forEach((bone, i) => { largest = Math.max(largest, bone.quaternion.angleTo(before[i])); });
  return largest;
}

describe('IKRig on humanoids as exporters build them', () => {
  for (const axes of CONVENTIONS) {
    for (const mixamoArmature of [false, true]) {
      it(`twoBone reaches random targets (${axes} bones${mixamoArmature ? ', Mixamo armature' : ''})`, () => {
        const { scene, bones } = buildHumanoid({ axes, mixamoArmature, seed: 3 });
        const rig = new IKRig(ikpd, scene);
        expect(rig.humanoid.get('leftHand')).toBe(bones.leftHand);
        const target = new Vector3();
        const arm = rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target });
        const random = rng(axes.length + (mixamoArmature ? 17 : 0));
        const shoulder = worldOf(bones.leftUpperArm);
        const reach = worldOf(bones.leftLowerArm).distanceTo(shoulder) + worldOf(bones.leftHand).distanceTo(worldOf(bones.leftLowerArm));
        for (let trial = 0; trial < 100; trial++) {
          target.copy(shoulder).addScaledVector(randomUnit(random), reach * (0.3 + 0.65 * random()));
          rig.update(1 / 60);
          expect(worldOf(bones.leftHand).distanceTo(target)).toBeLessThan(1e-4 * reach + 1e-5);
          expect(arm.reached).toBe(true);
        }
        rig.dispose();
      });
    }
    it(`lookAt with default options looks at the target (${axes} bones)`, () => {
      const { scene, bones } = buildHumanoid({ axes, seed: 5 });
      const rig = new IKRig(ikpd, scene);
      const target = new Vector3(0.4, 1.9, 2);
      const restInverse = worldRotationOf(bones.head).invert();
      rig.add('lookAt', { target, settleTime: 0.05 });
      for (let i = 0; i < 120; i++) rig.update(1 / 60);
      // The head's facing (+Z at rest in the world) now points at the target.
      const facing = new Vector3(0, 0, 1).applyQuaternion(restInverse).applyQuaternion(worldRotationOf(bones.head));
      const toTarget = target.clone().sub(worldOf(bones.head)).normalize();
      expect(angleBetween(facing, toTarget)).toBeLessThan(0.02);
      rig.dispose();
    });
  }

  it('detects the facing from the hips on a turned character', () => {
    const { scene, armature } = buildHumanoid({ axes: '+y' });
    expect(new IKRig(ikpd, scene).facing.distanceTo(new Vector3(0, 0, 1))).toBeLessThan(1e-6);
    // Mixamo's armature is turned −90° about X: the facing, found in its frame, is +Z in the world.
    // Given the skeleton, the frame is the armature's (its parent).
    const turned = buildHumanoid({ axes: '+y', mixamoArmature: true });
    const facing = new IKRig(ikpd, turned.skeleton).facing;
    expect(facing.distanceTo(new Vector3(0, 0, 1))).toBeGreaterThan(0.5);
    const world = facing.clone().applyQuaternion(turned.armature.quaternion);
    expect(world.distanceTo(new Vector3(0, 0, 1))).toBeLessThan(1e-6);
    // Given the scene, the frame is the world.
    expect(new IKRig(ikpd, turned.scene).facing.distanceTo(new Vector3(0, 0, 1))).toBeLessThan(1e-6);
    expect(armature.children.length).toBe(1);
  });
});

describe('IKRig constraints', () => {
  it('each constraint sees the pose the one before it left', () => {
    const { scene, bones } = buildHumanoid({ axes: 'mixed', seed: 9 });
    const rig = new IKRig(ikpd, scene);
    const handTarget = new Vector3(0.35, 1.3, 0.35);
    rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target: handTarget });
    // The second aims the hand at a point: it must start from the solved arm.
    const aimTarget = new Vector3(1, 2, 3);
    rig.add('aim', { bone: 'leftHand', target: aimTarget, forward: '+x' });
    rig.update(1 / 60);
    expect(worldOf(bones.leftHand).distanceTo(handTarget)).toBeLessThan(1e-4);
    const x = new Vector3(1, 0, 0).applyQuaternion(worldRotationOf(bones.leftHand));
    const to = aimTarget.clone().sub(worldOf(bones.leftHand)).normalize();
    expect(x.angleTo(to)).toBeLessThan(1e-3);
    rig.dispose();
  });

  it('a rig over an array of bones takes the bones between them and solves from the parent\'s world transform', () => {
    const { bones } = buildHumanoid({ axes: 'random', seed: 12, mixamoArmature: true });
    // upperArm → hand skips lowerArm: it is included as the bone between.
    const rig = new IKRig(ikpd, [bones.leftShoulder, bones.leftUpperArm, bones.leftHand]);
    const target = worldOf(bones.leftUpperArm).add(new Vector3(0.1, -0.3, 0.3));
    rig.add('twoBone', { bones: [bones.leftUpperArm, bones.leftLowerArm, bones.leftHand], target });
    rig.update(1 / 60);
    expect(worldOf(bones.leftHand).distanceTo(target)).toBeLessThan(1e-4);
    expect(() => new IKRig(ikpd, [bones.leftHand, bones.rightHand])).toThrow(/not a descendant/);
    rig.dispose();
  });

  it('options are properties: a change is checked, and a bad one names the option and changes nothing', () => {
    const { scene } = buildHumanoid();
    const rig = new IKRig(ikpd, scene);
    const arm = rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target: [0.3, 1.2, 0.3] });
    arm.weight = 0.5;
    expect(arm.weight).toBe(0.5);
    expect(() => { arm.weight = 2; }).toThrow(/weight/);
    expect(arm.weight).toBe(0.5);
    expect(() => arm.set({ soften: 0.1, weight: -1 })).toThrow(/weight/);
    expect(arm.soften).toBe(rig.ikpd.Rig.defaults.twoBone.soften);
    rig.dispose();
  });

  it('toggling enabled and weight never pops, at 30, 60 and 240 Hz', () => {
    for (const hz of [30, 60, 240]) {
      const { scene, bones } = buildHumanoid({ axes: '-z', seed: 2 });
      const rig = new IKRig(ikpd, scene);
      const arm = rig.add('twoBone', {
        bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target: new Vector3(-0.2, 1.6, 0.4), settleTime: 0.3,
      });
      const limb = [bones.leftUpperArm, bones.leftLowerArm, bones.leftHand];
      const dt = 1 / hz;
      let before = limb.map((b) => b.quaternion.clone());
      let largestPerSecond = 0;
      for (let frame = 0; frame < hz * 3; frame++) {
        const t = frame * dt;
        arm.enabled = !(t > 0.8 && t < 1.6);
        arm.weight = t > 2.2 ? 0.3 : 1;
        rig.update(dt);
        largestPerSecond = Math.max(largestPerSecond, largestChange(limb, before) / dt);
        before = limb.map((b) => b.quaternion.clone());
      }
      // A 0.3 s critically damped settle of a turn below π moves at most a few rad/s; a pop is a jump in one frame.
      expect(largestPerSecond).toBeLessThan(25);
      rig.dispose();
    }
  });

  it('follows its base from frame to frame: moved, turned, scaled, then still', () => {
    const { scene, bones } = buildHumanoid({ axes: 'mixed', seed: 6 });
    const rig = new IKRig(ikpd, [bones.leftShoulder, bones.leftUpperArm, bones.leftHand]);
    rig.add('twoBone', { bones: [bones.leftUpperArm, bones.leftLowerArm, bones.leftHand], target: new Vector3(), settleTime: 0 });
    const moves = [[0.1, 0, 0], [0.1, 0.2, 0], [0, 0, 0], [0, 0, 0], [-0.3, 0.5, 1.2], [0, 0, 0]];
    moves.forEach(([dx, turn, grow], frame) => {
      scene.position.x += dx;
      scene.rotation.y += turn;
      scene.scale.setScalar(1 + 0.1 * grow);
      scene.updateMatrixWorld(true);
      // A reachable point in front of the shoulder, wherever the character now stands.
      const target = worldOf(bones.leftUpperArm).add(new Vector3(0.1, -0.25, 0.25).applyQuaternion(scene.quaternion));
      rig.constraints[0].target.copy(target);
      rig.update(1 / 60);
      expect(worldOf(bones.leftHand).distanceTo(target), `frame ${frame}`).toBeLessThan(1e-4);
    });
    rig.dispose();
  });

  it('reads the animated pose each frame, not its own output', () => {
    const { scene, bones } = buildHumanoid({ axes: '+y', seed: 4 });
    const rig = new IKRig(ikpd, scene);
    const target = new Vector3(0.3, 1.25, 0.35);
    rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target, settleTime: 0 });
    rig.update(1 / 60);
    const first = [bones.leftUpperArm.quaternion.clone(), bones.leftLowerArm.quaternion.clone()];
    for (let i = 0; i < 10; i++) rig.update(1 / 60);
    expect(bones.leftUpperArm.quaternion.angleTo(first[0])).toBeLessThan(1e-6);
    expect(bones.leftLowerArm.quaternion.angleTo(first[1])).toBeLessThan(1e-6);
    rig.dispose();
  });

  it('takes a negative dt as 0 with one warning (THREE.Timer on a first frame)', () => {
    const { scene } = buildHumanoid();
    const rig = new IKRig(ikpd, scene);
    rig.add('lookAt', { target: [0, 1.7, 2] });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    rig.update(-0.05);
    rig.update(-0.01);
    expect(warn.mock.calls.filter(([m]) => /negative dt/.test(m)).length).toBeLessThanOrEqual(1);
    warn.mockRestore();
    expect(() => rig.update(NaN)).toThrow(/dt/);
    rig.dispose();
  });
});

describe('IKRig bad input', () => {
  it('names what is wrong and changes nothing', () => {
    const { scene, bones } = buildHumanoid();
    const rig = new IKRig(ikpd, scene);
    const before = bones.leftUpperArm.quaternion.clone();
    expect(() => rig.add('twobone', { bones: [] })).toThrow(/kind.*did you mean 'twoBone'/);
    expect(() => rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'nose'] })).toThrow(/bones\[2\].*nose/);
    expect(() => rig.add('twoBone', { bones: ['leftUpperArm', 'rightLowerArm', 'leftHand'] })).toThrow(/not a descendant/);
    expect(() => rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm'] })).toThrow(/bones/);
    expect(() => rig.add('aim', {})).toThrow(/bone/);
    expect(() => rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], weight: 3 })).toThrow(/weight/);
    expect(rig.constraints.length).toBe(0);
    // Mixamo's hips, spine and head are VRM's too, once its prefix is set aside; its limbs are not.
    expect(() => new IKRig(ikpd, scene, { humanoid: 'vrm' })).toThrow(/humanoid 'vrm': no bone found for the role\(s\) leftUpperArm, rightUpperArm, leftUpperLeg, rightUpperLeg/);
    expect(() => new IKRig(ikpd, {})).toThrow(/root/);
    expect(() => rig.add('twoBone', { bones: [new Object3D(), 'leftLowerArm', 'leftHand'] })).toThrow(/not a bone of this rig/);
    rig.update(1 / 60);
    expect(bones.leftUpperArm.quaternion.equals(before)).toBe(true);
    const c = rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target: [0.3, 1.2, 0.3] });
    rig.dispose();
    rig.dispose();
    expect(() => rig.update(1 / 60)).toThrow(/disposed/);
    expect(() => { c.weight = 0.5; }).toThrow(/disposed/);
    expect(() => rig.add('aim', { bone: 'head' })).toThrow(/disposed/);
  });

  it('finds the humanoid from Mixamo, VRM and VRoid names, unnamed bones by structure, or a role table', () => {
    for (const names of ['mixamo', 'vrm', 'vroid']) {
      const { scene, bones } = buildHumanoid({ names });
      const rig = new IKRig(ikpd, scene);
      expect(rig.humanoid.get('head')).toBe(bones.head);
      expect(rig.bone('rightFoot')).toBe(bones.rightFoot);
    }
    const { scene, bones } = buildHumanoid({ names: null });
    expect(new IKRig(ikpd, scene).humanoid.convention).toBe('structure');
    expect(new IKRig(ikpd, scene).bone('leftHand')).toBe(bones.leftHand);
    expect(new IKRig(ikpd, scene, { humanoid: 'none' }).humanoid.size).toBe(0);
    const table = Object.fromEntries(Object.entries(bones));
    expect(new IKRig(ikpd, scene, { humanoid: table }).bone('leftHand')).toBe(bones.leftHand);
    const vrmLike = { getRawBoneNode: (role) => bones[role] ?? null };
    expect(new IKRig(ikpd, scene, { humanoid: vrmLike }).bone('leftFoot')).toBe(bones.leftFoot);
    expect(new Quaternion()).toBeTruthy();
  });
});

describe('IKRig on a character written by GLTFExporter and loaded by GLTFLoader', () => {
  for (const axes of ['+y', 'mixed', 'random']) {
    it(`finds the humanoid, reaches and looks with default options (${axes} bones, Mixamo armature)`, async () => {
      const gltf = await loadGlb(await exportHumanoidGlb({ axes, mixamoArmature: true, seed: 21 }));
      let mesh = null;
      gltf.scene.traverse((o) => { if (o.isSkinnedMesh) mesh = o; });
      expect(mesh).not.toBeNull();
      gltf.scene.updateMatrixWorld(true);
      const rig = new IKRig(ikpd, mesh);
      expect(rig.humanoid.size).toBeGreaterThanOrEqual(20);
      const head = rig.bone('head');
      const restInverse = worldRotationOf(head).invert();
      const target = worldOf(rig.bone('leftUpperArm')).add(new Vector3(0.15, -0.35, 0.3));
      // The body first, then the hand on the pose it left (the look-at turns the chest the arm hangs from).
      const look = new Vector3(-0.3, 1.8, 2);
      rig.add('lookAt', { target: look, settleTime: 0.05 });
      rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target });
      for (let i = 0; i < 120; i++) rig.update(1 / 60);
      expect(worldOf(rig.bone('leftHand')).distanceTo(target)).toBeLessThan(1e-4);
      const facing = new Vector3(0, 0, 1).applyQuaternion(restInverse).applyQuaternion(worldRotationOf(head));
      expect(facing.angleTo(look.clone().sub(worldOf(head)).normalize())).toBeLessThan(0.02);
      rig.dispose();
    });
  }
});
