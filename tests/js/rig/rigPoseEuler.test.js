// The rig's rotation writes (web/three/rig/rigPose.js setRotation): a bone's
// quaternion and its Euler angles (`rotation`) exactly as three.js's
// `quaternion.set` leaves them, bit for bit, computed without three.js's 4×4
// matrix; three.js's own callback only, order 'XYZ' only; any other callback
// or order goes through `quaternion.set` (docs/performance.md, "three.js path").
import { describe, expect, it } from 'vitest';
import { Bone, Euler, Mesh, Object3D, Quaternion, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { IKRig } from '../../../web/three/index.js';
import { isEulerSync, setRotation } from '../../../web/three/rig/rigPose.js';
import { buildHumanoid } from '../../support/three-humanoid.js';
import { rng } from '../../support/three-rig.js';

const fields = (o) => [o.quaternion._x, o.quaternion._y, o.quaternion._z, o.quaternion._w, o.rotation._x, o.rotation._y, o.rotation._z, o.rotation._order];

// Object.is on every field: -0 and NaN as three.js leaves them.
function expectSameBits(a, b, what) {
  const fa = fields(a), fb = fields(b);
  for (let i = 0; i < fa.length; i++) if (!Object.is(fa[i], fb[i])) expect([what, i, fa[i]]).toEqual([what, i, fb[i]]);
}

describe('setRotation', () => {
  it("gives three.js's quaternion and Euler angles bit for bit over random, near-gimbal and degenerate quaternions", () => {
    const random = rng(43);
    const viaThree = new Bone(), viaRig = new Bone();
    const q = new Quaternion();
    const cases = [[0, 0, 0, 1], [-0, -0, -0, 1], [0, 0, 0, -1], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0],
      [0, Math.SQRT1_2, 0, Math.SQRT1_2], [0, -Math.SQRT1_2, 0, Math.SQRT1_2], [0.5, 0.5, 0.5, 0.5], [0.5, -0.5, 0.5, 0.5],
      [0, 0, 0, 0], [2, 0, 0, 0], [NaN, 0, 0, 1], [1e-30, -1e-30, 0, 1]];
    for (let i = 0; i < 20000; i++) {
      q.set(2 * random() - 1, 2 * random() - 1, 2 * random() - 1, 2 * random() - 1).normalize();
      cases.push(q.toArray());
      // Within 1e-4 rad of y = ±90° (the gimbal branch, |m13| >= 0.9999999, and around it).
      const near = new Euler(2 * Math.PI * random(), (random() < 0.5 ? -1 : 1) * (Math.PI / 2 - 1e-4 * random() ** 3), 2 * Math.PI * random());
      cases.push(q.setFromEuler(near).toArray());
      // Unnormalized, as the rig writes some rotations (float rounding off unit length).
      cases.push(q.toArray().map((c) => Math.fround(c * (1 + 1e-7 * (random() - 0.5)))));
    }
    for (const [x, y, z, w] of cases) {
      viaThree.quaternion.set(x, y, z, w);
      setRotation(viaRig, x, y, z, w);
      expectSameBits(viaRig, viaThree, [x, y, z, w]);
    }
  });

  it("knows three.js's own callback (as written and minified) from any other", () => {
    for (const o of [new Bone(), new Object3D(), new Mesh()]) expect(isEulerSync(o.quaternion._onChangeCallback)).toBe(true);
    // A bundler's minified form of the same callback.
    expect(isEulerSync(new Function('return function e(){t.setFromQuaternion(n,void 0,!1)}')())).toBe(true);
    const bone = new Bone();
    const own = bone.quaternion._onChangeCallback;
    const wrapped = () => { own(); };
    expect(isEulerSync(wrapped)).toBe(false);
    expect(isEulerSync(function sync() { bone.rotation.setFromQuaternion(bone.quaternion, 'YXZ', false); })).toBe(false);
    expect(isEulerSync(function sync() { bone.rotation.setFromQuaternion(bone.quaternion, undefined, false); bone.userData.moved = true; })).toBe(false);
    expect(isEulerSync(undefined)).toBe(false);
  });
});

describe('IKRig writes', () => {
  const LIMBS = [['leftUpperArm', 'leftLowerArm', 'leftHand'], ['rightUpperArm', 'rightLowerArm', 'rightHand'], ['leftUpperLeg', 'leftLowerLeg', 'leftFoot']];

  it("leave every bone's rotation what three.js's callback gives, other Euler orders and other callbacks included", () => {
    const { scene, bones } = buildHumanoid();
    const reference = buildHumanoid().bones;
    // One arm in another Euler order, one leg's bone with a callback of its own (kept and called).
    bones.rightLowerArm.rotation.order = 'YXZ';
    let calls = 0;
    const own = bones.leftLowerLeg.quaternion._onChangeCallback;
    bones.leftLowerLeg.quaternion._onChange(() => { own(); calls++; });
    const rig = new IKRig(ikpd, scene);
    const targets = [new Vector3(0.3, 1.2, 0.3), new Vector3(-0.3, 1.2, 0.3), new Vector3(0.1, 0.12, 0.1)];
    LIMBS.forEach((limb, i) => rig.add('twoBone', { bones: limb, target: targets[i] }));
    rig.add('lookAt', { bones: ['spine', 'chest', 'neck', 'head'], target: [0.5, 1.7, 2] });
    for (let f = 0; f < 30; f++) {
      targets[0].x = 0.3 + 0.05 * Math.sin(f);
      bones.leftUpperArm.quaternion.copy(reference.leftUpperArm.quaternion); // animated: the rig reads it anew
      rig.update(1 / 60);
      for (const [role, bone] of Object.entries(bones)) {
        const probe = new Bone();
        probe.rotation.order = bone.rotation.order;
        probe.quaternion.copy(bone.quaternion); // three.js's own path: set, then its callback
        expectSameBits(bone, probe, role);
      }
    }
    expect(calls).toBeGreaterThan(0); // the leg's own callback ran when the rig wrote it
    expect(bones.rightLowerArm.rotation.order).toBe('YXZ');
    rig.dispose();
  });
});
