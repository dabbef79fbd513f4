// The avatar constraint (docs/rig/avatar.md) on a real character: CesiumMan's
// clip through AnimationMixer, IKRig.add('avatar') with its head and hand
// targets as Object3Ds near the animated bones: the hands reach them, the
// head too but for the height the planted feet hold the pelvis down while
// the clip's hips bob (docs/rig/avatar.md, "Stages"), the feet stay planted
// (the clip walks in place); and the core rig's defaults, targets and errors.
import { describe, expect, it } from 'vitest';
import { Object3D, Quaternion, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { IKRig } from '../../../web/three/index.js';
import { CESIUM_MAN, walkingPair } from '../../support/cesiumMan.js';

const ROLES = ['head', 'leftHand', 'rightHand', 'leftFoot', 'rightFoot'];

describe('IKRig avatar on CesiumMan', () => {
  for (const rate of [30, 60, 90, 240]) {
    it(`head and hands reach their targets, the feet stay planted (${rate} Hz)`, async () => {
      const pair = await walkingPair();
      const rig = new IKRig(ikpd, pair.solved.skinned, { humanoid: CESIUM_MAN });
      const targets = { head: new Object3D(), leftHand: new Object3D(), rightHand: new Object3D() };
      const avatar = rig.add('avatar', targets);
      const solved = Object.fromEntries(ROLES.map((r) => [r, pair.bone(pair.solved, r)]));
      const animated = Object.fromEntries(ROLES.map((r) => [r, pair.bone(pair.animated, r)]));
      const p = new Vector3(), q = new Quaternion(), turn = new Quaternion();
      let miss = 0, turnMiss = 0, slide = 0, moved = 0;
      const plants = {}; // each foot's position when it last stopped moving
      const last = {};
      for (let f = 1; f <= 2 * rate; f++) {
        const t = f / rate;
        pair.step(1 / rate, t, false);
        // Targets near the animated bones: the head a little lower, forward and turned, the hands raised and forward.
        for (const [role, offset] of [['head', [0, -0.04, 0.04]], ['leftHand', [0.05, 0.12, 0.1]], ['rightHand', [-0.05, 0.1, 0.12]]]) {
          const target = targets[role];
          animated[role].getWorldPosition(p).add(new Vector3(...offset).multiplyScalar(0.2 * Math.sin(2 * t) + 1));
          animated[role].getWorldQuaternion(q).premultiply(turn.setFromAxisAngle(new Vector3(0, 1, 0), 0.3 * Math.sin(t)));
          target.position.copy(p);
          target.quaternion.copy(q);
          target.updateMatrixWorld(true);
        }
        rig.update(1 / rate);
        if (t < 1) continue; // the weight's blend-in
        for (const role of ['head', 'leftHand', 'rightHand']) {
          solved[role].updateWorldMatrix(true, false);
          solved[role].getWorldPosition(p);
          if (role === 'head') p.y = targets[role].position.y; // the head: along the ground only
          miss = Math.max(miss, p.distanceTo(targets[role].position));
          solved[role].getWorldPosition(p);
          turnMiss = Math.max(turnMiss, solved[role].getWorldQuaternion(q).angleTo(targets[role].quaternion));
          moved = Math.max(moved, p.distanceTo(animated[role].getWorldPosition(new Vector3())));
        }
        for (const role of ['leftFoot', 'rightFoot']) {
          solved[role].updateWorldMatrix(true, false);
          solved[role].getWorldPosition(p);
          if (last[role] !== undefined && p.distanceTo(last[role]) >= 5e-4) plants[role] = undefined; // stepping
          else plants[role] ??= p.clone();
          if (plants[role] !== undefined) slide = Math.max(slide, p.distanceTo(plants[role]));
          last[role] = p.clone();
        }
      }
      expect(avatar.kind).toBe('avatar');
      expect(moved).toBeGreaterThan(0.05); // the targets do move the body
      expect(miss).toBeLessThan(1e-3);
      expect(turnMiss).toBeLessThan(0.002); // radians (0.1°), float32 through three.js
      expect(slide).toBeLessThan(1e-3);
      rig.dispose();
    });
  }

  it('calibrate() sets scale and armScale from a sample, read back as the numbers in force', async () => {
    const pair = await walkingPair();
    const rig = new IKRig(ikpd, pair.solved.skinned, { humanoid: CESIUM_MAN });
    const targets = { head: new Object3D(), leftHand: new Object3D(), rightHand: new Object3D() };
    const avatar = rig.add('avatar', targets);
    const root = new Vector3();
    avatar.bones.spine[0].parent.getWorldPosition(root); // the rig's root: the hips' parent
    const pose = (height, span) => {
      targets.head.position.set(root.x, root.y + height, root.z);
      targets.leftHand.position.set(root.x + span / 2, root.y + 0.8 * height, root.z);
      targets.rightHand.position.set(root.x - span / 2, root.y + 0.8 * height, root.z);
      for (const o of Object.values(targets)) o.updateMatrixWorld(true);
    };
    pose(1.5, 1.4);
    const first = avatar.calibrate();
    expect(avatar.scale).toBe(first.scale);
    expect(avatar.armScale).toBe(first.armScale);
    pose(1.8, 1.75);
    const second = avatar.calibrate();
    expect(second.scale / first.scale).toBeCloseTo(1.5 / 1.8, 5);
    expect(second.armScale / first.armScale).toBeCloseTo(1.4 / 1.75, 5);
    expect(avatar.scale).toBe(second.scale);
    // Points work too; a bad sample is named and changes nothing.
    const third = avatar.calibrate({ head: [root.x, root.y + 1.5, root.z], leftHand: targets.leftHand, rightHand: targets.rightHand.position });
    expect(third.scale).toBeCloseTo(first.scale, 5);
    expect(() => avatar.calibrate({ head: targets.head, leftHand: null, rightHand: targets.rightHand })).toThrow(/^leftHand: expected an Object3D or a point/);
    expect(() => avatar.calibrate({ head: [root.x, root.y - 1, root.z], leftHand: targets.leftHand, rightHand: targets.rightHand })).toThrow(/^head: must be above the root$/);
    expect(avatar.scale).toBe(third.scale);
    rig.dispose();
  });
});

describe('Rig avatar', () => {
  const parents = [-1, 0, 1, 2, 3, 2, 5, 6, 2, 8, 9, 0, 11, 12, 0, 14, 15];
  const at = (x, y, z) => [x, y, z, 0, 0, 0, 1, 1, 1, 1];
  const rest = new Float32Array([
    at(0, 0.95, 0), at(0, 0.15, 0), at(0, 0.25, 0), at(0, 0.12, 0), at(0, 0.1, 0),
    at(0.15, 0.15, 0), at(0.26, 0, 0), at(0.24, 0, 0), at(-0.15, 0.15, 0), at(-0.26, 0, 0), at(-0.24, 0, 0),
    at(0.08, -0.06, 0), at(0, -0.41, 0.015), at(0, -0.4, -0.01), at(-0.08, -0.06, 0), at(0, -0.41, 0.015), at(0, -0.4, -0.01),
  ].flat());
  const options = { joints: [0, 1, 2, 3, 4], arms: [5, 6, 7, 8, 9, 10], legs: [11, 12, 13, 14, 15, 16], settleTime: 0 };

  it('has described defaults, six targets per avatar (head, hands, pelvis, feet), and names its errors', () => {
    expect(ikpd.Rig.defaults.avatar).toMatchObject({ neck: true, pelvisFollow: 0.5, pelvisTurn: 0.5, crouchBack: Math.fround(0.4), settleTime: 0.2, arms: [], legs: [] });
    const rig = new ikpd.Rig({ parents, rest });
    const c = rig.add('avatar', options);
    expect(rig.targets.length).toBe(48);
    expect(c.targetOffset).toBe(0);
    rig.input.set(rest);
    rig.root.set(at(0, 0, 0));
    // Weight 0 everywhere: the animated pose exactly.
    rig.update(1 / 60);
    expect(Array.from(rig.output)).toEqual(Array.from(rig.input));
    // The left hand raised 10 cm and forward: reached.
    const t = rig.targets;
    t.set([0.55, 1.45, 0.1, 0, 0, 0, 1, 1], 8);
    t.set([0, 0, 0, 0, 0, 0, 1, 0], 0);
    t.set([0, 0, 0, 0, 0, 0, 1, 0], 16);
    rig.update(1 / 60);
    expect(rig.results[0]).toBe(1);
    expect(rig.results[1]).toBeLessThan(1e-4);
    t[8 + 7] = 2;
    expect(() => rig.update(1 / 60)).toThrow(/^targets\[1\]\.weight: must be in \[0, 1\]$/);
    expect(() => rig.add('avatar', { ...options, pelvisFollow: 2 })).toThrow(/pelvisFollow: must be in \[0, 1\]/);
    expect(() => rig.add('avatar', { ...options, arms: [5, 6, 7, 8, 9] })).toThrow(/arms: needs 0, 6 or 8 joints/);
    expect(rig.constraints.length).toBe(1);
    rig.dispose();
  });

  it('calibrateAvatar: the scales from a T-pose sample, nothing set; errors named', () => {
    expect(ikpd.Rig.defaults.avatar).toMatchObject({ chestTurn: 0.5, chestTurnLimit: 0.5, maxRootAngle: Math.fround(0.8), scale: 1, armScale: 1 });
    const rig = new ikpd.Rig({ parents, rest });
    const two = rig.add('twoBone', { joints: [5, 6, 7] });
    const c = rig.add('avatar', options);
    rig.root.set(at(0, 0, 0));
    // The rest head at 1.57, the arms' span 0.3 + 2 × 0.5 = 1.3: a user 1.25× both.
    const sample = { head: [0, 1.57 * 1.25, 0], leftHand: [0.8125, 1.5, 0], rightHand: { x: -0.8125, y: 1.5, z: 0 } };
    const scales = rig.calibrateAvatar(1, sample);
    expect(scales.scale).toBeCloseTo(0.8, 5);
    expect(scales.armScale).toBeCloseTo(0.8, 5);
    expect(c.get('scale')).toBe(1);
    c.set(scales);
    expect(c.get('scale')).toBe(scales.scale);
    expect(() => rig.calibrateAvatar(0, sample)).toThrow(/^index: must name an avatar constraint$/);
    expect(() => rig.calibrateAvatar(2, sample)).toThrow(RangeError);
    expect(() => rig.calibrateAvatar(1, { ...sample, head: [0, -1, 0] })).toThrow(/^head: must be above the root$/);
    expect(() => rig.calibrateAvatar(1, { ...sample, leftHand: sample.rightHand })).toThrow(/^leftHand: must be apart from rightHand/);
    expect(() => rig.calibrateAvatar(1, { ...sample, head: undefined })).toThrow(/^head: /);
    expect(() => rig.calibrateAvatar(1, { ...sample, hips: [0, 1, 0] })).toThrow(TypeError);
    expect(() => rig.add('avatar', { ...options, scale: 0 })).toThrow(/scale: must be in \(0, 10\]/);
    expect(c.get('scale')).toBe(scales.scale);
    expect(two.kind).toBe('twoBone');
    rig.dispose();
  });
});
