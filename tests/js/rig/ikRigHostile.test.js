// IKRig under hostile use (docs/rig/rig.md, docs/rig/grounding.md): an axis set
// back to 'auto' reaches the core; a ground function's out-of-range heights,
// short normals and WASM memory growth; `plant` checked like an option.
import { describe, expect, it } from 'vitest';
import { Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { IKRig } from '../../../web/three/index.js';
import { buildHumanoid, worldOf } from '../../support/three-humanoid.js';

const ARM = ['rightUpperArm', 'rightLowerArm', 'rightHand'];

describe('IKRig under hostile use', () => {
  it("an axis set back to 'auto' is sent: the hand reaches as before", () => {
    const reach = (edit) => {
      const { scene, bones } = buildHumanoid({ axes: '+y' });
      const rig = new IKRig(ikpd, scene);
      const target = worldOf(bones.rightUpperArm).lerp(worldOf(bones.rightHand), 0.7).add(new Vector3(0, -0.05, 0.15));
      const arm = rig.add('twoBone', { bones: ARM, target });
      rig.update(0);
      edit(arm, rig);
      rig.update(0);
      const d = worldOf(bones.rightHand).distanceTo(target);
      rig.dispose();
      return d;
    };
    const plain = reach(() => {});
    expect(plain).toBeLessThan(1e-3);
    const back = reach((arm, rig) => { arm.forward = '-z'; rig.update(0); arm.forward = 'auto'; });
    expect(back).toBeLessThan(1e-3);
  });

  const grounded = (ground) => {
    const { scene, bones } = buildHumanoid({ axes: '+y' });
    const rig = new IKRig(ikpd, scene);
    const feet = rig.add('grounding', { ground });
    return { rig, feet, bones };
  };

  it('a ground height past the float range is no ground, not an error every update', () => {
    const { rig, bones } = grounded(() => ({ height: 1e39 }));
    const before = worldOf(bones.leftFoot);
    for (let i = 0; i < 5; i++) expect(() => rig.update(1 / 60)).not.toThrow();
    expect(worldOf(bones.leftFoot).distanceTo(before)).toBeLessThan(1e-6);
    rig.dispose();
  });

  it('a normal of two numbers is no ground (no z from an earlier call)', () => {
    let n = [0.3, 1, 0.4];
    const { rig, bones } = grounded(() => ({ height: 0.05, normal: n }));
    for (let i = 0; i < 30; i++) rig.update(1 / 60);
    n = [0, 1];
    const a = worldOf(bones.leftFoot);
    for (let i = 0; i < 120; i++) rig.update(1 / 60);
    // No ground: the feet blend back to their animated pose (the rest pose, y = 0.08 above the floor).
    expect(worldOf(bones.leftFoot).y).toBeCloseTo(0.08, 3);
    expect(a.y).toBeGreaterThan(0.1);
    rig.dispose();
  });

  it('a ground function that grows WASM memory: its hits still reach the core that frame', () => {
    let height = 0.1, batch = null;
    const { rig, feet, bones } = grounded(() => {
      if (height > 0.1 && !batch) batch = new ikpd.TwoBoneBatch(400000); // grows the heap mid-query
      return { height };
    });
    feet.settleTime = 0; // no smoothing: each frame's hits show at once
    for (let i = 0; i < 10; i++) rig.update(1 / 60);
    expect(worldOf(bones.leftFoot).y).toBeCloseTo(0.18, 4);
    height = 0.2;
    rig.update(1 / 60);
    expect(batch).not.toBe(null);
    expect(worldOf(bones.leftFoot).y).toBeCloseTo(0.28, 4);
    batch.dispose();
    rig.dispose();
  });

  it('plant is checked like an option: a wrong length or a non-number throws and changes nothing', () => {
    const { rig, feet } = grounded(null);
    expect(() => { feet.plant = [1, 1, 1]; }).toThrow(/plant: expected 2 numbers/);
    expect(() => { feet.plant = [1, 'x']; }).toThrow(/plant\[1\]/);
    expect(Array.from(feet.plant)).toEqual([-1, -1]);
    feet.plant = [1, 0];
    expect(feet.plant).toBeInstanceOf(Float32Array);
    expect(Array.from(feet.plant)).toEqual([1, 0]);
    expect(() => feet.set({ plant: [0, 0, 0], weight: 0.5 })).toThrow(/plant/);
    expect(feet.weight).toBe(1);
    feet.set({ plant: [0, 1], weight: 0.5 });
    expect(Array.from(feet.plant)).toEqual([0, 1]);
    expect(feet.weight).toBe(0.5);
    rig.dispose();
  });
});
