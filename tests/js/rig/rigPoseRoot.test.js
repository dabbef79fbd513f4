// The rig's root (the skeleton's parent's world transform, web/three/rig/rigPose.js
// readRoot): composed from the ancestors' locals where that equals three.js's
// matrices, else read from the matrices. Both paths solve the same pose, and
// what the local composition cannot express (a pivot, a matrix the user
// manages) still reaches the target.
import { describe, expect, it } from 'vitest';
import { Group, Quaternion, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { TwoBoneIK } from '../../../web/three/index.js';
import { buildHumanoid } from '../../support/three-humanoid.js';
import { worldPosition } from '../../support/three-rig.js';

const ARM = ['leftUpperArm', 'leftLowerArm', 'leftHand'];

// A humanoid under two rotated, translated, scaled parents; `tweak(outer, inner)` changes them.
function character(tweak = () => {}) {
  const { scene, bones } = buildHumanoid();
  const outer = new Group(), inner = new Group();
  outer.position.set(0.4, -0.2, 1.3);
  outer.quaternion.setFromAxisAngle(new Vector3(1, 2, 0.5).normalize(), 0.7);
  outer.scale.setScalar(1.5);
  inner.position.set(-0.3, 0.1, 0.2);
  inner.quaternion.setFromAxisAngle(new Vector3(0, 1, 0), -1.1);
  // A uniform scale read back from a matrix: equal to the last bits only.
  inner.scale.set(0.8, 0.8 * (1 + 2 ** -52), 0.8);
  outer.add(inner);
  inner.add(scene);
  tweak(outer, inner);
  outer.updateMatrixWorld(true);
  const arm = new TwoBoneIK(ikpd, ARM.map((r) => bones[r]), { target: new Vector3() });
  return { outer, inner, bones, arm };
}

// Targets in reach of the left hand, moving every frame; the solved locals of each frame.
function solve({ outer, bones, arm }, frames = 12, each = () => {}) {
  const shoulder = worldPosition(bones.leftUpperArm);
  const out = [];
  for (let f = 0; f < frames; f++) {
    each(f, outer);
    arm.target.copy(shoulder).add(new Vector3(0.3 + 0.05 * Math.sin(f), -0.4, 0.35 + 0.05 * Math.cos(f)).multiplyScalar(0.7));
    arm.update(1 / 60);
    out.push(ARM.map((r) => bones[r].quaternion.clone()));
  }
  return out;
}

// The largest difference of two runs' quaternions, component by component (either sign).
const maxDiff = (a, b) => Math.max(...a.flatMap((qs, f) => qs.map((q, k) => {
  const r = b[f][k], s = q.dot(r) < 0 ? -1 : 1;
  return Math.max(Math.abs(q.x - s * r.x), Math.abs(q.y - s * r.y), Math.abs(q.z - s * r.z), Math.abs(q.w - s * r.w));
})));

describe('IKRig root from the ancestors\' locals', () => {
  it('solves the same pose as the root read from three.js\'s matrices', () => {
    const moving = (f, outer) => {
      outer.position.x = 0.4 + 0.1 * f;
      outer.quaternion.multiply(new Quaternion().setFromAxisAngle(new Vector3(0, 0, 1), 0.05));
    };
    const fast = solve(character(), 12, moving);
    // The same parents, the outer one's matrix managed by hand: three.js's matrices throughout.
    const matrices = character((outer) => { outer.matrixAutoUpdate = false; outer.updateMatrix(); });
    const managed = (f, outer) => { moving(f, outer); outer.updateMatrix(); };
    const slow = solve(matrices, 12, managed);
    expect(maxDiff(fast, slow)).toBeLessThan(1e-6);
    // And the pose differs from one solved without the parents' turn (the root is read at all).
    const unturned = solve(character((outer) => outer.quaternion.identity()), 12, (f, outer) => { outer.position.x = 0.4 + 0.1 * f; });
    expect(maxDiff(fast, unturned)).toBeGreaterThan(0.05);
  });

  const CASES = {
    'a pivot': (outer) => { outer.pivot = new Vector3(0.2, 0.5, -0.1); },
    // Kept from before its locals moved: three.js renders (and the rig reads) the matrix.
    'a world matrix managed by hand': (outer, inner) => {
      outer.updateMatrixWorld(true);
      inner.matrixWorldAutoUpdate = false;
      inner.position.x += 0.3;
    },
  };
  for (const [name, tweak] of Object.entries(CASES)) {
    it(`reaches its target under ${name} (three.js's matrices)`, () => {
      const c = character(tweak);
      solve(c, 3);
      const hand = worldPosition(c.bones.leftHand);
      expect(hand.distanceTo(c.arm.target)).toBeLessThan(1e-4);
      expect(c.arm.reached).toBe(true);
    });
  }
});
