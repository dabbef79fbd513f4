// What the core rig reads each frame (web/three/rig/rigPose.js readLocals): every
// joint's animated locals, also for a bone still showing the last write, whose
// rotation the core's input keeps from the read before (only its translation
// and scale are read again), while the animation moves, turns and scales the bones.
import { describe, expect, it } from 'vitest';
import { Quaternion, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { TwoBoneIK } from '../../../web/three/index.js';
import { internalOf } from '../../../web/three/rig/internal.js';
import { buildHumanoid } from '../../support/three-humanoid.js';

const ARM = ['leftUpperArm', 'leftLowerArm', 'leftHand'];

describe('IKRig input', () => {
  it("holds each bone's animated locals, the rig's own writes put back, every frame", () => {
    const { bones } = buildHumanoid();
    const arm = new TwoBoneIK(ikpd, ARM.map((r) => bones[r]), { target: new Vector3(0.3, 1.2, 0.3) });
    const rig = internalOf(arm.rig);
    const joints = rig.pose.joints;
    // The animation's own copy of the locals it set (the rig's writes never enter it).
    const animated = joints.map((o) => ({ p: o.position.clone(), q: o.quaternion.clone(), s: o.scale.clone() }));
    const turn = new Quaternion();
    let checked = 0;
    for (let f = 0; f < 48; f++) {
      const j = f % joints.length, o = joints[j], a = animated[j];
      switch (f % 4) {
        case 1: // translation only: the rotation still shows the rig's write
          a.p.x += 0.01; o.position.copy(a.p);
          break;
        case 2: // a new animated rotation
          a.q.multiply(turn.setFromAxisAngle(new Vector3(1, 0.5, 0).normalize(), 0.05)); o.quaternion.copy(a.q);
          break;
        case 3: // scale only
          a.s.setScalar(1 + 0.01 * (f % 3)); o.scale.copy(a.s);
          break;
        default: // nothing animated: every bone shows the last write
      }
      arm.target.x = 0.3 + 0.05 * Math.sin(f);
      arm.update(1 / 60);
      const input = rig.views().input;
      joints.forEach((bone, i) => {
        const b = animated[i], k = 10 * i;
        const want = [b.p.x, b.p.y, b.p.z, b.q.x, b.q.y, b.q.z, b.q.w, b.s.x, b.s.y, b.s.z].map(Math.fround);
        expect(Array.from(input.subarray(k, k + 10)), `frame ${f}, joint ${i}`).toEqual(want);
        checked++;
      });
      // The solve turned the limb (its bones show the write the next frame reads back).
      expect(rig.pose.showsWrite(1)).toBe(true);
    }
    expect(checked).toBe(48 * joints.length);
    arm.dispose();
  });
});
