// IKRig constraints refuse writes of properties they do not have (a misspelt
// name, a setting the kind lacks) with a TypeError naming it, like unknown
// options at add() (docs/rig/rig.md).
import { describe, expect, it } from 'vitest';
import { Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { IKRig } from '../../../web/three/index.js';
import { buildHumanoid } from '../../support/three-humanoid.js';

function run(target, frames, dt = 1 / 60) {
  for (let i = 0; i < frames; i++) target.update(dt);
}

describe('unknown property writes', () => {
  it('throw a TypeError naming the property, with a suggestion', () => {
    const { scene } = buildHumanoid();
    const rig = new IKRig(ikpd, scene);
    const arm = rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target: [0.3, 1.1, 0.3] });
    const body = rig.add('bodyLookAt', { target: [0, 1.6, 2] });
    expect(() => { arm.wieght = 0; }).toThrow(TypeError);
    expect(() => { arm.wieght = 0; }).toThrow(/wieght.*weight/);
    expect(() => { body.settleTime = 0.5; }).toThrow(/settleTime/);
    expect(() => { body.damping = 2; }).toThrow(/damping/);
    expect(arm.wieght).toBe(undefined);
    expect(Object.hasOwn(body, 'settleTime')).toBe(false);
    // Known ones still work, and the rig hands out the same object each time.
    arm.weight = 0.5;
    expect(arm.weight).toBe(0.5);
    expect(rig.constraints[0]).toBe(arm);
    arm.target = [0.2, 1.0, 0.3];
    body.enabled = false;
    run(rig, 3);
  });
});


describe('unknown property writes on the helpers', () => {
  it('throw a TypeError naming the property, with a suggestion; known ones and update() work as before', async () => {
    const { AimIK, BodyLookAtIK, ChainIK, LookAtIK, PseudoThreeBoneIK, TwoBoneIK } = await import('../../../web/three/index.js');
    const { bones } = buildHumanoid();
    const arm = [bones.leftUpperArm, bones.leftLowerArm, bones.leftHand];
    const spine = [bones.spine, bones.chest, bones.neck, bones.head];
    const helpers = [
      new TwoBoneIK(ikpd, arm, { target: [0.3, 1.1, 0.3] }),
      new PseudoThreeBoneIK(ikpd, [bones.leftUpperLeg, bones.leftLowerLeg, bones.leftFoot, bones.leftToes], { target: [0.1, 0.1, 0.1] }),
      new ChainIK(ikpd, arm, { target: [0.3, 1.1, 0.3] }),
      new AimIK(ikpd, bones.head, { target: [0, 1.6, 2] }),
      new LookAtIK(ikpd, spine, { target: [0, 1.6, 2] }),
      new LookAtIK(ikpd, spine, { target: [0, 1.6, 2], settleTime: [0.3, 0.3, 0.2, 0.1] }),
      new BodyLookAtIK(ikpd, buildHumanoid().scene, { target: [0, 1.6, 2] }),
    ];
    for (const helper of helpers) {
      expect(() => { helper.wieght = 0.5; }, helper.constructor.name).toThrow(TypeError);
      expect(() => { helper.wieght = 0.5; }).toThrow(/wieght.*weight/);
      expect(helper.wieght).toBe(undefined);
      helper.weight = 0.5;
      expect(helper.weight).toBe(0.5);
      const same = helper.update(1 / 60);
      expect(() => { same.wieght = 0.5; }).toThrow(TypeError);
      helper.dispose();
    }
  });
});

void Vector3;

// Settings are own accessors made once per name and shared: constraints of a kind (and helpers
// of a class) then share one hidden class, so a frame's loops over several of them stay fast.
describe('setting properties shared by name', () => {
  it('constraints: one getter and setter per name across constraints and rigs, each reading its own value', () => {
    const rigs = [0, 1].map(() => new IKRig(ikpd, buildHumanoid().scene));
    const arms = rigs.map((rig) => rig.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target: [0.3, 1.1, 0.3] }));
    const leg = rigs[0].add('twoBone', { bones: ['leftUpperLeg', 'leftLowerLeg', 'leftFoot'], target: [0.1, 0.1, 0.1] });
    const aim = rigs[0].add('aim', { bone: 'head', target: [0, 1.6, 2] });
    const [a, b] = [arms[0], leg].map((c) => Object.getOwnPropertyDescriptor(c, 'weight'));
    expect(a.get).toBe(b.get);
    expect(a.set).toBe(b.set);
    expect(Object.getOwnPropertyDescriptor(arms[1], 'settleTime').get).toBe(Object.getOwnPropertyDescriptor(aim, 'settleTime').get);
    expect(a.enumerable).toBe(true);
    expect(Object.keys(arms[0])).toEqual(Object.keys(leg));
    arms[0].weight = 0.25;
    leg.settleTime = 0.1;
    expect([arms[0].weight, arms[1].weight, leg.weight]).toEqual([0.25, 1, 1]);
    expect([arms[0].settleTime, leg.settleTime]).toEqual([0, 0.1]);
    run(rigs[0], 2);
    for (const rig of rigs) rig.dispose();
  });

  it('helpers: one getter and setter per name across helpers, each reading its own value', async () => {
    const { TwoBoneIK } = await import('../../../web/three/index.js');
    const { bones } = buildHumanoid();
    const limb = (roles) => new TwoBoneIK(ikpd, roles.map((r) => bones[r]), { target: new Vector3(0.2, 1, 0.2) });
    const arm = limb(['leftUpperArm', 'leftLowerArm', 'leftHand']), leg = limb(['leftUpperLeg', 'leftLowerLeg', 'leftFoot']);
    const [a, b] = [arm, leg].map((h) => Object.getOwnPropertyDescriptor(h, 'weight'));
    expect(a.get).toBe(b.get);
    expect(a.set).toBe(b.set);
    expect([a.enumerable, a.configurable]).toEqual([true, true]);
    arm.weight = 0.5;
    expect([arm.weight, leg.weight]).toEqual([0.5, 1]);
    arm.update(1 / 60);
    leg.update(1 / 60);
    arm.dispose();
    leg.dispose();
  });

  // Every own accessor (and method) of `a` is the very descriptor `b` has, and the keys are in the same order.
  const expectSharedAccessors = (a, b) => {
    expect(Reflect.ownKeys(a).filter((k) => !String(k).startsWith('_'))).toEqual(Reflect.ownKeys(b).filter((k) => !String(k).startsWith('_')));
    let accessors = 0;
    for (const key of Reflect.ownKeys(a)) {
      const da = Object.getOwnPropertyDescriptor(a, key), db = Object.getOwnPropertyDescriptor(b, key);
      if (da.get !== undefined || da.set !== undefined) {
        accessors++;
        expect(da.get, String(key)).toBe(db.get);
        expect(da.set, String(key)).toBe(db.set);
        expect([da.enumerable, da.configurable]).toEqual([db.enumerable, db.configurable]);
      } else if (typeof da.value === 'function' && !String(key).startsWith('_')) {
        expect(da.value, String(key)).toBe(db.value);
      }
    }
    return accessors;
  };

  it("the avatar's and grounding's own properties (targets, weights, ground, plant, calibrate) and AvatarIK's", async () => {
    const { AvatarIK } = await import('../../../web/three/index.js');
    const { Object3D, Plane } = await import('three');
    const rigs = [0, 1].map(() => new IKRig(ikpd, buildHumanoid().scene));
    const avatars = rigs.map((rig) => rig.add('avatar', { head: new Object3D(), leftHand: null }));
    const groundings = rigs.map((rig) => rig.add('grounding', {}));
    expect(expectSharedAccessors(avatars[0], avatars[1])).toBeGreaterThan(12 + 1);
    expect(expectSharedAccessors(groundings[0], groundings[1])).toBeGreaterThan(2);
    expect(Object.getOwnPropertyDescriptor(avatars[0], 'ground').get).toBe(Object.getOwnPropertyDescriptor(groundings[0], 'ground').get);
    // Each reads its own values, and a bad value changes nothing.
    const hand = new Object3D();
    avatars[0].leftHand = hand;
    avatars[1].headWeight = 0.25;
    expect([avatars[0].leftHand, avatars[1].leftHand, avatars[0].headWeight, avatars[1].headWeight]).toEqual([hand, null, 1, 0.25]);
    expect(() => { avatars[0].headWeight = 2; }).toThrow(/headWeight/);
    expect(() => { avatars[0].rightHand = [0, 1, 0]; }).toThrow(/rightHand: expected an Object3D/);
    expect([avatars[0].headWeight, avatars[0].rightHand]).toEqual([1, null]);
    const plane = new Plane(new Vector3(0, 1, 0), 0);
    groundings[1].ground = plane;
    groundings[0].plant = [1, 0];
    expect([groundings[0].ground, groundings[1].ground]).toEqual([null, plane]);
    expect(() => { groundings[1].plant = [1]; }).toThrow(/plant: expected 2 numbers/);
    expect(() => groundings[1].set({ plant: [0, 0], ground: 3 })).toThrow(/ground: expected an Object3D/);
    expect([...groundings[0].plant, ...groundings[1].plant]).toEqual([1, 0, -1, -1]);
    expect(groundings[1].ground).toBe(plane);
    run(rigs[0], 2);
    for (const rig of rigs) rig.dispose();
    const helpers = [0, 1].map(() => new AvatarIK(ikpd, buildHumanoid().scene, { head: new Object3D() }));
    expect(expectSharedAccessors(helpers[0], helpers[1])).toBeGreaterThan(6);
    helpers[1].leftHand = hand;
    expect([helpers[0].leftHand, helpers[1].leftHand]).toEqual([null, hand]);
    expect(helpers[0].update(1 / 60).update).toBe(helpers[0].update);
    for (const helper of helpers) helper.dispose();
  });

  it("batches: the field groups' views, one accessor per field across batches", () => {
    const batches = [3, 5].map((n) => new ikpd.TwoBoneBatch(n));
    for (const [group, field] of [['input', 'target'], ['output', 'reached']]) {
      expect(expectSharedAccessors(batches[0][group], batches[1][group])).toBeGreaterThan(6);
      expect(Object.keys(batches[0][group])).toContain(field);
    }
    expect([batches[0].input.target.length, batches[1].input.target.length]).toEqual([9, 15]);
    batches[0].dispose();
    expect(() => batches[0].input.target).toThrow(/disposed|after dispose/);
    batches[1].dispose();
  });
});
