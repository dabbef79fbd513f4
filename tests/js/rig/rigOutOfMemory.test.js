// The rig area with WASM memory full (docs/rig/rig.md, "Out of memory"): every
// call that allocates throws a RangeError naming the call and changes nothing
// (it aborted the module: `RuntimeError: Aborted()`), and the rigs work once
// memory is freed. Vitest runs this file in its own module instance, so
// filling its memory touches no other test.
import { describe, expect, it } from 'vitest';
import { Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { biped } from '../../support/biped.js';
import { IKRig } from '../../../web/three/index.js';
import { buildHumanoid } from '../../support/three-humanoid.js';

// Pixel buffers of halving sizes until not even one pixel fits.
function fillMemory() {
  const held = [];
  for (let pixels = 1 << 26; pixels >= 1; pixels = Math.floor(pixels / 2)) {
    for (;;) {
      try {
        held.push(ikpd.hdr.createBuffer(pixels, 1));
      } catch {
        break;
      }
    }
  }
  return held;
}

const outOf = (call) => new RegExp(`^${call.replace('.', '\\.')}: out of WASM memory`);

function expectRangeError(fn, call) {
  let thrown = null;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(RangeError);
  expect(thrown.message).toMatch(outOf(call));
}

describe('the rig area with WASM memory full', () => {
  it('Rig, rig.add (grounding, chain), RigBatch and IKRig.add throw RangeErrors naming the call; nothing changes', () => {
    const { parents, rest, legs } = biped();
    const rig = new ikpd.Rig({ parents, rest });
    rig.add('twoBone', { joints: legs[0].slice(0, 3) });
    const { scene } = buildHumanoid({ axes: 'identity', seed: 3 });
    const three = new IKRig(ikpd, scene);
    const target = new Vector3(0.3, 1.2, 0.3);
    three.add('twoBone', { bones: ['leftUpperArm', 'leftLowerArm', 'leftHand'], target });
    three.update(1 / 60);

    const held = fillMemory();
    expectRangeError(() => new ikpd.Rig({ parents, rest }), 'parents');
    expectRangeError(() => rig.add('grounding', { pelvis: 1, legs }), 'add');
    expectRangeError(() => rig.add('chain', { joints: [0, 1, 2] }), 'add');
    expect(rig.constraints.length).toBe(1);
    expectRangeError(() => new ikpd.RigBatch({ rig, count: 4 }), 'count');
    expectRangeError(() => three.add('twoBone', { bones: ['rightUpperArm', 'rightLowerArm', 'rightHand'], target }), 'IKRig.add');
    expect(three.constraints.length).toBe(1);
    // Frames allocate nothing: they still run.
    rig.update(1 / 60);
    three.update(1 / 60);

    for (const buffer of held) buffer.dispose();
    const grounding = rig.add('grounding', { pelvis: 1, legs });
    expect(grounding.index).toBe(1);
    rig.add('chain', { joints: [0, 1, 2] });
    rig.probe();
    rig.update(1 / 60);
    expect(rig.results.length).toBe(12);
    new ikpd.Rig({ parents, rest }).dispose();
    const small = new ikpd.Rig({ parents, rest });
    small.add('twoBone', { joints: legs[1].slice(0, 3) });
    new ikpd.RigBatch({ rig: small, count: 4 }).dispose();
    three.add('twoBone', { bones: ['rightUpperArm', 'rightLowerArm', 'rightHand'], target });
    three.update(1 / 60);
    expect(three.constraints.length).toBe(2);
    small.dispose();
    three.dispose();
    rig.dispose();
  });
});
