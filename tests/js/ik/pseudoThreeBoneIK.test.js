// ikpd/three: PseudoThreeBoneIK on real three.js Bone legs (hip, knee, ankle, toe).
import { describe, expect, it } from 'vitest';
import { Object3D, Quaternion, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { IKRig, PseudoThreeBoneIK } from '../../../web/three/index.js';
import { buildChain, quatAngle, randomQuaternion, randomUnit, rng, segmentLengths, worldPosition, worldQuaternion } from '../../support/three-rig.js';

const AXES = {
  '+X': new Vector3(1, 0, 0),
  '+Y': new Vector3(0, 1, 0),
  oblique: new Vector3(-0.3, 1, 0.6).normalize(),
};

/** A leg [hip, knee, ankle, toe]: bones along `axis`, the toe a child Object3D of the ankle. */
function leg(random, axis) {
  const { bones, tip } = buildChain({
    axis, lengths: [0.5, 0.45], tipLength: 0.2, bend: 0.5 + random(), parentRotation: randomQuaternion(random), parentScale: 0.5 + 2 * random(),
  });
  // Bend the ankle too so the foot is not in line with the shin.
  bones[2].quaternion.setFromAxisAngle(new Vector3().crossVectors(axis, randomUnit(random)).normalize(), 0.8);
  bones[0].parent.updateMatrixWorld(true);
  return [...bones, tip];
}

describe('PseudoThreeBoneIK', () => {
  for (const [name, axis] of Object.entries(AXES)) {
    it(`puts the toe on the target for blends 0, 0.5 and 1 with ${name} bones`, () => {
      const random = rng(name.length * 97);
      let reachedCount = 0;
      for (let trial = 0; trial < 150; trial++) {
        const bones = leg(random, axis);
        const lengths = segmentLengths(bones);
        const size = lengths[0] + lengths[1];
        const endBefore = worldQuaternion(bones[2]);
        const toeLocal = bones[3].quaternion.clone();
        const target = worldPosition(bones[3]).addScaledVector(randomUnit(random), 0.3 * size * random());
        const blend = [0, 0.5, 1][trial % 3];
        const ik = new PseudoThreeBoneIK(ikpd, bones, { target, blend });
        ik.update();
        // Lengths hold, the toe moves rigidly with the ankle, and it lands where the solver says.
        segmentLengths(bones).forEach((l, i) => expect(Math.abs(l - lengths[i]) / size).toBeLessThan(1e-5));
        expect(bones[3].quaternion.equals(toeLocal)).toBe(true);
        expect(Math.abs(worldPosition(bones[3]).distanceTo(target) - ik.distance) / size).toBeLessThan(1e-4);
        if (ik.reached) {
          reachedCount++;
          expect(worldPosition(bones[3]).distanceTo(target) / size).toBeLessThan(2e-4);
        }
        // blend = 1: the foot keeps its world rotation.
        if (blend === 1) expect(quatAngle(worldQuaternion(bones[2]), endBefore)).toBeLessThan(1e-5);
      }
      expect(reachedCount).toBeGreaterThan(120);
    });
  }

  // 'relative' matches the single call. 'followMid' sets the foot's canonical rotation to the
  // shin's: the rig's foot frame is the shin's at rest (the foot keeps its rest turn from the
  // shin), the old helper's was its own forward (toward the toe), so there it is compared with
  // an IKRig 'pseudoThreeBone' constraint, which the helper is.
  it('matches solvePseudoThreeBone on a +X rig (variant relative) and the IKRig constraint (followMid)', () => {
    const random = rng(31);
    for (let trial = 0; trial < 60; trial++) {
      const bones = leg(random, AXES['+X']);
      const target = worldPosition(bones[3]).addScaledVector(randomUnit(random), 0.2);
      const pole = worldPosition(bones[0]).addScaledVector(randomUnit(random), 2);
      const joint = (o) => ({ position: worldPosition(o).toArray(), rotation: worldQuaternion(o).toArray() });
      const options = { blend: random(), variant: trial % 2 ? 'followMid' : 'relative', endLimit: 0.5 + 2 * random() };
      const expected = ikpd.solvePseudoThreeBone({
        root: joint(bones[0]), mid: joint(bones[1]), end: joint(bones[2]), tip: joint(bones[3]),
        target: target.toArray(), pole: pole.toArray(), bendAxis: helperBendAxis(bones), ...options,
      });
      const pose = bones.map((b) => b.quaternion.clone());
      if (options.variant === 'followMid') {
        const rig = new IKRig(ikpd, bones);
        rig.add('pseudoThreeBone', { bones, target, pole, ...options });
        rig.update(0);
        const solved = bones.map((b) => [worldPosition(b), worldQuaternion(b)]);
        rig.dispose();
        bones.forEach((b, i) => b.quaternion.copy(pose[i]));
        expected.root.rotation = solved[0][1].toArray(); expected.mid.rotation = solved[1][1].toArray();
        expected.end.rotation = solved[2][1].toArray(); expected.tip.rotation = solved[3][1].toArray();
        ['root', 'mid', 'end', 'tip'].forEach((key, i) => { expected[key].position = solved[i][0].toArray(); });
      }
      new PseudoThreeBoneIK(ikpd, bones, { target, pole, ...options }).update();
      ['root', 'mid', 'end', 'tip'].forEach((key, i) => {
        expect(quatAngle(worldQuaternion(bones[i]), new Quaternion().fromArray(expected[key].rotation)), key).toBeLessThan(1e-5);
        expect(worldPosition(bones[i]).distanceTo(new Vector3().fromArray(expected[key].position))).toBeLessThan(1e-5);
      });
    }
  });

  it('follows a moving Object3D target, honours weight and reports bad options', () => {
    const bones = leg(rng(4), AXES['+Y']);
    const target = new Object3D();
    bones[0].parent.parent.add(target);
    target.position.copy(worldPosition(bones[3])).add(new Vector3(0.1, 0.05, 0));
    const before = bones.map((b) => b.quaternion.clone());
    new PseudoThreeBoneIK(ikpd, bones, { target, weight: 0 }).update();
    bones.forEach((b, i) => expect(b.quaternion.equals(before[i])).toBe(true));
    const ik = new PseudoThreeBoneIK(ikpd, bones, { target, blend: 1 });
    for (let step = 0; step < 5; step++) {
      target.position.x += 0.05;
      ik.update();
      expect(ik.reached).toBe(true);
      expect(worldPosition(bones[3]).distanceTo(worldPosition(target))).toBeLessThan(1e-3);
    }
    expect(() => new PseudoThreeBoneIK(ikpd, bones.slice(0, 3))).toThrow(/bones/);
    expect(() => new PseudoThreeBoneIK(ikpd, bones, { target, blend: 2 }).update()).toThrow(/blend/);
    expect(() => new PseudoThreeBoneIK(ikpd, bones, { target, variant: 'other' }).update()).toThrow(/variant/);
  });

  it('is a one-constraint IKRig: options changed between frames apply, blend reaches the solver, dispose frees it', () => {
    const random = rng(12);
    const bones = leg(random, AXES['+X']);
    const target = worldPosition(bones[3]).addScaledVector(randomUnit(random), 0.2);
    const pose = bones.map((b) => b.quaternion.clone());
    const ik = new PseudoThreeBoneIK(ikpd, bones, { target, blend: 0.2 });
    expect(ik.rig).toBeInstanceOf(IKRig);
    expect(ik.constraint.kind).toBe('pseudoThreeBone');
    const run = (changes) => {
      bones.forEach((b, i) => b.quaternion.copy(pose[i]));
      bones[0].parent.updateMatrixWorld(true);
      Object.assign(ik, changes).update();
      return bones.map((b) => b.quaternion.clone());
    };
    const first = run({});
    const fresh = (options) => {
      bones.forEach((b, i) => b.quaternion.copy(pose[i]));
      bones[0].parent.updateMatrixWorld(true);
      new PseudoThreeBoneIK(ikpd, bones, { target, ...options }).update();
      return bones.map((b) => b.quaternion.clone());
    };
    for (const changes of [{ blend: 0.9 }, { variant: 'followMid' }, { endLimit: 0.3 }, { blend: undefined, variant: undefined, endLimit: undefined }]) {
      const got = run(changes);
      const expected = fresh({ blend: ik.blend, variant: ik.variant, endLimit: ik.endLimit });
      got.forEach((q, i) => expect(quatAngle(q, expected[i])).toBeLessThan(1e-6));
    }
    expect(run({ blend: 0.2 }).every((q, i) => quatAngle(q, first[i]) < 1e-6)).toBe(true);
    ik.dispose();
    ik.dispose();
    expect(() => ik.update()).toThrow();
  });
});

/** The hinge TwoBoneIK/PseudoThreeBoneIK detect: upper × lower in the knee's frame (identity frames on +X rigs). */
function helperBendAxis(bones) {
  const [root, mid, end] = bones.map(worldPosition);
  const axis = new Vector3().crossVectors(mid.clone().sub(root).normalize(), end.clone().sub(mid).normalize()).normalize();
  return axis.applyQuaternion(worldQuaternion(bones[1]).invert()).toArray();
}
