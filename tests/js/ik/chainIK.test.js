// ikpd/three: ChainIK (CCD / FABRIK) on real three.js Bone hierarchies.
import { describe, expect, it } from 'vitest';
import { Bone, Euler, Group, Quaternion, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { ChainIK } from '../../../web/three/index.js';
import { buildChain, quatAngle, randomQuaternion, randomUnit, rng, segmentLengths, worldPosition, worldQuaternion } from '../../support/three-rig.js';

const AXES = {
  '+X': new Vector3(1, 0, 0),
  '+Y': new Vector3(0, 1, 0),
  oblique: new Vector3(1, 2, -0.5).normalize(),
};

/** A chain whose bones each point along a different local axis (mixed conventions). */
function mixedChain(random) {
  const parent = new Group();
  parent.quaternion.copy(randomQuaternion(random));
  parent.scale.setScalar(1.7);
  const bones = [];
  let previous = parent;
  for (let i = 0; i < 5; i++) {
    const bone = new Bone();
    if (i > 0) bone.position.copy(randomUnit(random)).multiplyScalar(0.5 + random());
    bone.quaternion.copy(randomQuaternion(random));
    previous.add(bone);
    bones.push(bone);
    previous = bone;
  }
  parent.updateMatrixWorld(true);
  return bones;
}

const total = (lengths) => lengths.reduce((a, b) => a + b, 0);

describe('ChainIK', () => {
  for (const method of ['ccd', 'fabrik']) {
    for (const [name, axis] of Object.entries(AXES)) {
      it(`${method}: the written bones reproduce the solve with ${name} bones under a rotated, scaled parent`, () => {
        const random = rng(name.length * 17 + method.length);
        for (let trial = 0; trial < 60; trial++) {
          const { bones, tip } = buildChain({
            axis, lengths: [0.6, 0.5, 0.4, 0.3], bend: 0.3, parentRotation: randomQuaternion(random), parentScale: 0.5 + 2 * random(),
          });
          const objects = [...bones, tip];
          const lengths = segmentLengths(objects);
          const length = total(lengths);
          const target = worldPosition(bones[0]).addScaledVector(randomUnit(random), length * (0.2 + 0.6 * random()));
          const ik = new ChainIK(ikpd, objects, { target, method, iterations: 100 });
          ik.update();
          // The tip is where the solver says it is, and bones keep their lengths.
          expect(Math.abs(worldPosition(tip).distanceTo(target) - ik.distance) / length).toBeLessThan(1e-4);
          segmentLengths(objects).forEach((l, i) => expect(Math.abs(l - lengths[i]) / length).toBeLessThan(1e-5));
          if (method === 'fabrik') expect(ik.reached).toBe(true);
          if (ik.reached) expect(worldPosition(tip).distanceTo(target) / length).toBeLessThan(2e-4);
        }
      });
    }
  }

  it('solves chains whose bones point along different local axes', () => {
    const random = rng(5);
    for (let trial = 0; trial < 40; trial++) {
      const bones = mixedChain(random);
      const lengths = segmentLengths(bones);
      const length = total(lengths);
      const target = worldPosition(bones[0]).addScaledVector(randomUnit(random), length * (0.2 + 0.5 * random()));
      const ik = new ChainIK(ikpd, bones, { target, method: 'fabrik', iterations: 100 });
      ik.update();
      expect(ik.reached).toBe(true);
      expect(worldPosition(bones[4]).distanceTo(target) / length).toBeLessThan(2e-4);
      segmentLengths(bones).forEach((l, i) => expect(Math.abs(l - lengths[i]) / length).toBeLessThan(1e-5));
    }
    // 'euler' limits on local rotations need one shared bone axis: a named error (cones are fine).
    const bones = mixedChain(random);
    const euler = { type: 'euler', min: [0, 0, 0], max: [0, 0, 0] };
    expect(() => new ChainIK(ikpd, bones, { target: [0, 0, 0], limits: [euler, null, null, null, null] }).update())
      .toThrow(/limits: 'euler' limits on local rotations need joints that share one bone axis/);
    new ChainIK(ikpd, bones, { target: [0, 0, 0], limits: bones.map(() => ({ type: 'cone', angle: 0.5 })) }).update().dispose();
  });

  it("applies 'euler' limits to bone.rotation like CCDIKSolver", () => {
    const random = rng(8);
    const min = [-0.01, -0.01, -0.9], max = [0.01, 0.01, 0.9];
    for (let trial = 0; trial < 40; trial++) {
      const { bones, tip, scene } = buildChain({
        axis: AXES['+Y'], lengths: [0.6, 0.5, 0.4], bend: 0, bendAxis: new Vector3(0, 0, 1), parentRotation: randomQuaternion(random),
      });
      const objects = [...bones, tip];
      const target = worldPosition(bones[0]).addScaledVector(randomUnit(random), 1.2);
      const limits = objects.map(() => ({ type: 'euler', min, max }));
      // The exact reference: solveChain on the bones' own world rotations (+Y bones), the root's parent's as parentRotation.
      const reference = ikpd.solveChain({
        joints: objects.map((o) => ({ position: worldPosition(o).toArray(), rotation: worldQuaternion(o).toArray() })),
        target: target.toArray(), forward: [0, 1, 0], limits, parentRotation: worldQuaternion(bones[0].parent).toArray(),
      });
      const ik = new ChainIK(ikpd, objects, { target, limits });
      ik.update();
      scene.updateMatrixWorld(true);
      bones.forEach((bone, i) => expect(quatAngle(worldQuaternion(bone), new Quaternion().fromArray(reference.joints[i].rotation))).toBeLessThan(1e-4));
      expect(ik.reached).toBe(reference.reached);
      ik.dispose();
      for (const bone of bones) {
        const euler = new Euler().setFromQuaternion(bone.quaternion, 'XYZ');
        ['x', 'y', 'z'].forEach((k, j) => {
          expect(euler[k]).toBeGreaterThanOrEqual(min[j] - 1e-4);
          expect(euler[k]).toBeLessThanOrEqual(max[j] + 1e-4);
        });
      }
    }
  });

  it('turns the bend toward the pole, keeps the tip rotation local and honours weight', () => {
    const { bones, tip } = buildChain({ axis: AXES['+Y'], lengths: [0.6, 0.5, 0.4], bend: 0.5 });
    const objects = [...bones, tip];
    const root = worldPosition(bones[0]);
    const before = objects.map((o) => o.quaternion.clone());
    new ChainIK(ikpd, objects, { target: root.clone().add(new Vector3(0, 2, 0)), weight: 0 }).update();
    objects.forEach((o, i) => expect(o.quaternion.equals(before[i])).toBe(true));

    const target = root.clone().add(new Vector3(1.2, 1.2, 0));
    const pole = root.clone().add(new Vector3(0, 0, 10));
    const ik = new ChainIK(ikpd, objects, { target, pole, method: 'fabrik', iterations: 50 });
    ik.update();
    const tipLocal = tip.quaternion.clone();
    expect(quatAngle(tipLocal, before[3])).toBeLessThan(1e-12);
    // The joints bulge toward the pole side of the root→target line.
    const axis = target.clone().sub(root).normalize();
    const middle = worldPosition(bones[2]).sub(root);
    const bulge = middle.addScaledVector(axis, -middle.dot(axis));
    expect(bulge.z).toBeGreaterThan(0);
  });

  it('limits are a setting: sent when assigned, a bad one throws and leaves the old ones', () => {
    const { bones, tip } = buildChain({ axis: AXES['+Y'], lengths: [0.6, 0.5, 0.4], bend: 0.3 });
    const objects = [...bones, tip];
    const before = objects.map((o) => o.quaternion.clone());
    const restore = () => objects.forEach((o, i) => o.quaternion.copy(before[i]));
    const target = worldPosition(bones[0]).add(new Vector3(0.9, 0.6, 0.2));
    const cone = (angle) => objects.map(() => ({ type: 'cone', angle }));
    const ik = new ChainIK(ikpd, objects, { target, limits: cone(0.2), method: 'ccd', iterations: 30 });
    const bend = () => { restore(); ik.update(); return Math.max(...bones.slice(1).map((b, i) => quatAngle(b.quaternion, before[i + 1]))); };
    const tight = bend();
    ik.limits = cone(1.2);
    const loose = bend();
    expect(loose).toBeGreaterThan(tight + 0.05);
    // A bad entry throws when assigned; the chain keeps the limits it had.
    expect(() => { ik.limits = [null, { type: 'cone', angle: 9 }, null, null]; }).toThrow(/limits: cone angle/);
    expect(ik.limits).toHaveLength(objects.length);
    expect(bend()).toBeCloseTo(loose, 6);
    // The other settings reach the limited solver too: no iterations, the input pose.
    ik.iterations = 0;
    restore();
    ik.update();
    expect(ik.iterationsRun).toBe(0);
    ik.limits = null;
    ik.iterations = 30;
    restore();
    ik.update();
    expect(ik.reached).toBe(true);
    ik.dispose();
    expect(() => { ik.limits = cone(0.5); }).toThrow(/dispose/);
  });

  it('update(dt) checks dt with limits too: a TypeError or RangeError naming dt, bones untouched', () => {
    const { bones, tip } = buildChain({ axis: AXES['+Y'], lengths: [0.6, 0.5, 0.4], bend: 0.3 });
    const objects = [...bones, tip];
    const target = worldPosition(bones[0]).add(new Vector3(0.9, 0.6, 0.2));
    for (const limits of [objects.map(() => ({ type: 'cone', angle: 0.5 })), null]) {
      const ik = new ChainIK(ikpd, objects, { target, limits });
      const before = objects.map((o) => o.quaternion.clone());
      expect(() => ik.update(NaN)).toThrow(new RangeError('dt: must be finite and >= 0, got NaN'));
      expect(() => ik.update(Infinity)).toThrow(RangeError);
      expect(() => ik.update('0.1')).toThrow(new TypeError("dt: expected a number, got '0.1'"));
      expect(() => ik.update(null)).toThrow(/^dt: expected a number/);
      objects.forEach((o, i) => expect(o.quaternion.equals(before[i])).toBe(true));
      ik.update(1 / 60);
      ik.update(-1); // a negative dt counts as 0
      ik.update();
      ik.dispose();
    }
  });

  it('reports bad options naming them', () => {
    const { bones } = buildChain();
    expect(() => new ChainIK(ikpd, [bones[0]])).toThrow(/bones/);
    expect(() => new ChainIK(ikpd, bones, { target: [0, 0, 0], method: 'jacobian' }).update()).toThrow(/method/);
    expect(() => new ChainIK(ikpd, bones, { target: [0, 0, 0], iterations: -1 }).update()).toThrow(/iterations/);
    expect(() => new ChainIK(ikpd, bones, { target: [0, 0, 0], limits: 'none' }).update()).toThrow(/limits/);
    expect(() => new ChainIK(ikpd, bones, { target: [0, 0, 0], weight: NaN }).update()).toThrow(/weight/);
  });
});
