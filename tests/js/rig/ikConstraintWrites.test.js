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
});
