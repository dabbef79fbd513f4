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

