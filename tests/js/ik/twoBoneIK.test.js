// ikpd/three: AimIK and TwoBoneIK on real three.js Bone hierarchies, for
// several bone axis conventions under rotated, translated and scaled parents.
import { describe, expect, it } from 'vitest';
import { AnimationClip, AnimationMixer, Object3D, Quaternion, QuaternionKeyframeTrack, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { AimIK, TwoBoneIK, detectBoneAxis } from '../../../web/three/index.js';
import {
  buildChain, perpendicular, quatAngle, randomQuaternion, randomUnit, rng, segmentLengths, worldPosition, worldQuaternion,
} from '../../support/three-rig.js';

const AXES = {
  '+X': new Vector3(1, 0, 0),
  '+Y': new Vector3(0, 1, 0),
  '-Z': new Vector3(0, 0, -1),
  oblique: new Vector3(1, 2, -0.5).normalize(),
};

/** A random reachable world target for a limb whose root is at `root` (world lengths a, b). */
function reachableTarget(random, root, a, b) {
  const lo = Math.abs(a - b) + 0.05 * (a + b), hi = 0.95 * (a + b);
  return root.clone().addScaledVector(randomUnit(random), lo + (hi - lo) * random());
}

describe('TwoBoneIK', () => {
  for (const [name, axis] of Object.entries(AXES)) {
    it(`reaches random targets with ${name} bones under a rotated, scaled parent`, () => {
      const random = rng(name.length * 7919);
      for (let trial = 0; trial < 200; trial++) {
        const { bones, tip } = buildChain({
          axis,
          lengths: [0.5 + random(), 0.5 + random()],
          bend: 0.2 + 2 * random(),
          parentRotation: randomQuaternion(random),
          parentScale: 0.5 + 3 * random(),
        });
        const [a, b] = segmentLengths(bones);
        const root = worldPosition(bones[0]);
        const target = reachableTarget(random, root, a, b);
        const pole = root.clone().addScaledVector(randomUnit(random), a + b);
        const endRotation = worldQuaternion(bones[2]);
        const tipOffset = worldPosition(tip).sub(worldPosition(bones[2]));

        const ik = new TwoBoneIK(ikpd, bones, { target, pole });
        ik.update();

        const scale = a + b;
        expect(worldPosition(bones[2]).distanceTo(target) / scale).toBeLessThan(1e-4);
        const [a2, b2] = segmentLengths(bones);
        expect(Math.abs(a2 - a) / scale).toBeLessThan(1e-5);
        expect(Math.abs(b2 - b) / scale).toBeLessThan(1e-5);
        // The end bone keeps its world rotation (endRotation: 'world'), so the tip moves rigidly with it.
        expect(quatAngle(worldQuaternion(bones[2]), endRotation)).toBeLessThan(1e-5);
        expect(worldPosition(tip).sub(worldPosition(bones[2])).distanceTo(tipOffset) / scale).toBeLessThan(1e-4);
        // The limb bends in the plane of root, target and pole.
        const normal = new Vector3().crossVectors(target.clone().sub(root), pole.clone().sub(root)).normalize();
        expect(Math.abs(worldPosition(bones[1]).sub(root).dot(normal)) / scale).toBeLessThan(1e-3);
        expect(ik.reached).toBe(true);
        expect(ik.distance / scale).toBeLessThan(1e-4);
      }
    });
  }

  it('takes target and pole from Object3Ds and makes the effector touch the target', () => {
    const { scene, bones, tip } = buildChain({ axis: AXES['+Y'] });
    const target = new Object3D();
    const pole = new Object3D();
    scene.add(target, pole);
    const root = worldPosition(bones[0]);
    const [a, b] = segmentLengths(bones);
    target.position.copy(root).add(new Vector3(0.4, -0.7, 0.2).normalize().multiplyScalar(0.8 * (a + b)));
    pole.position.copy(root).add(new Vector3(0, 0, 5));
    const ik = new TwoBoneIK(ikpd, bones, { target, pole, effector: tip });
    ik.update();
    expect(worldPosition(tip).distanceTo(worldPosition(target))).toBeLessThan(1e-4 * (a + b));
    // Moving the target and updating again follows it.
    target.position.x += 0.3;
    ik.update();
    expect(worldPosition(tip).distanceTo(worldPosition(target))).toBeLessThan(1e-4 * (a + b));
  });

  it("endRotation 'target' copies the target's world rotation; 'relative' keeps the local rotation", () => {
    const { scene, bones } = buildChain({ axis: AXES['+X'] });
    const target = new Object3D();
    scene.add(target);
    target.position.copy(worldPosition(bones[0])).add(new Vector3(1, 1, 0));
    target.quaternion.copy(randomQuaternion(rng(3)));
    new TwoBoneIK(ikpd, bones, { target, endRotation: 'target' }).update();
    expect(quatAngle(worldQuaternion(bones[2]), worldQuaternion(target))).toBeLessThan(1e-5);

    // (Fresh bones: a second helper on the same bones would read the first one's output as the
    // animated pose it came from, docs/rig/rig.md "Helpers sharing bones".)
    const other = buildChain({ axis: AXES['+X'] }).bones;
    const local = other[2].quaternion.clone();
    new TwoBoneIK(ikpd, other, { target: [0, 0, 0], endRotation: 'relative' }).update();
    expect(quatAngle(other[2].quaternion, local)).toBeLessThan(1e-5);
  });

  it('weight 0 leaves the pose alone and weight blends the local rotations', () => {
    const { bones } = buildChain({ axis: AXES['+Y'] });
    const before = bones.map((b) => b.quaternion.clone());
    const target = worldPosition(bones[0]).add(new Vector3(1, 0.5, -1));
    new TwoBoneIK(ikpd, bones, { target, weight: 0 }).update();
    bones.forEach((b, i) => expect(b.quaternion.equals(before[i])).toBe(true));

    const full = buildChain({ axis: AXES['+Y'] }).bones;
    new TwoBoneIK(ikpd, full, { target }).update();
    new TwoBoneIK(ikpd, bones, { target, weight: 0.5 }).update();
    for (let i = 0; i < 2; i++) {
      const half = before[i].clone().slerp(full[i].quaternion, 0.5);
      expect(quatAngle(bones[i].quaternion, half)).toBeLessThan(1e-6);
    }
  });

  it('gives finite poses for unreachable targets, a target at the root and a collinear pole', () => {
    const { bones } = buildChain({ axis: AXES['+Y'] });
    const root = worldPosition(bones[0]);
    const [a, b] = segmentLengths(bones);
    const far = root.clone().add(new Vector3(10, 0, 0));
    const ik = new TwoBoneIK(ikpd, bones, { target: far, pole: root.clone().add(new Vector3(20, 0, 0)) });
    ik.update();
    expect(ik.reached).toBe(false);
    // Out of reach: straight toward the target.
    const end = worldPosition(bones[2]);
    expect(end.clone().sub(root).normalize().distanceTo(new Vector3(1, 0, 0))).toBeLessThan(1e-4);
    expect(end.distanceTo(root)).toBeCloseTo(a + b, 4);
    for (const target of [root, root.clone().add(new Vector3(0, 1e-7, 0))]) {
      ik.target = target;
      ik.pole = null;
      ik.update();
      for (const bone of bones) {
        expect(Number.isFinite(bone.quaternion.x + bone.quaternion.y + bone.quaternion.z + bone.quaternion.w)).toBe(true);
      }
    }
  });

  it("keeps the mid bone's hinge normal to the limb plane (bendAxis detected from the bent pose)", () => {
    const random = rng(99);
    for (let trial = 0; trial < 50; trial++) {
      const axis = randomUnit(random);
      const hinge = perpendicular(axis).applyAxisAngle(axis, 2 * Math.PI * random());
      const { bones } = buildChain({ axis, bendAxis: hinge, parentRotation: randomQuaternion(random) });
      const [a, b] = segmentLengths(bones);
      const target = reachableTarget(random, worldPosition(bones[0]), a, b);
      new TwoBoneIK(ikpd, bones, { target, pole: worldPosition(bones[0]).addScaledVector(randomUnit(random), 3) }).update();
      const [root, mid, end] = bones.map(worldPosition);
      const normal = new Vector3().crossVectors(mid.clone().sub(root), end.clone().sub(mid)).normalize();
      // The rig's hinge (bone-local `hinge`) in world space; positive bend keeps it along the normal.
      expect(Math.abs(hinge.clone().applyQuaternion(worldQuaternion(bones[1])).dot(normal))).toBeGreaterThan(1 - 1e-4);
    }
  });

  it('stretches toward out-of-reach targets up to maxStretch and restores the lengths', () => {
    const { bones } = buildChain({ axis: AXES['+Y'] });
    const rest = bones.map((b) => b.position.clone());
    const [a, b] = segmentLengths(bones);
    const root = worldPosition(bones[0]);
    const direction = new Vector3(1, -1, 0.5).normalize();
    const ik = new TwoBoneIK(ikpd, bones, { target: root.clone().addScaledVector(direction, 1.2 * (a + b)), maxStretch: 1.5 });
    ik.update();
    expect(worldPosition(bones[2]).distanceTo(ik.target) / (a + b)).toBeLessThan(1e-4);
    expect(ik.reached).toBe(true);
    ik.target = root.clone().addScaledVector(direction, 0.7 * (a + b));
    ik.update();
    const [a2, b2] = segmentLengths(bones);
    expect(a2).toBeCloseTo(a, 5);
    expect(b2).toBeCloseTo(b, 5);
    expect(bones[1].position.distanceTo(rest[1])).toBeLessThan(1e-12);
  });

  it('matches solveTwoBone exactly on a +X rig (identity frames) and keeps the bend plane without a pole', () => {
    const random = rng(4242);
    for (let trial = 0; trial < 100; trial++) {
      const { bones } = buildChain({
        axis: AXES['+X'], bendAxis: new Vector3(0, 0, 1), bend: 0.3 + random(), parentRotation: randomQuaternion(random), parentScale: 1.5,
      });
      const [a, b] = segmentLengths(bones);
      const root = worldPosition(bones[0]);
      const normalBefore = new Vector3().crossVectors(worldPosition(bones[1]).sub(root), worldPosition(bones[2]).sub(root)).normalize();
      const target = reachableTarget(random, root, a, b);
      const joint = (o) => ({ position: worldPosition(o).toArray(), rotation: worldQuaternion(o).toArray() });
      const expected = ikpd.solveTwoBone({ root: joint(bones[0]), mid: joint(bones[1]), end: joint(bones[2]), target: target.toArray() });
      new TwoBoneIK(ikpd, bones, { target }).update();
      ['root', 'mid', 'end'].forEach((key, i) => {
        expect(quatAngle(worldQuaternion(bones[i]), new Quaternion().fromArray(expected[key].rotation)), `${key} ${trial}`).toBeLessThan(1e-5);
        expect(worldPosition(bones[i]).distanceTo(new Vector3().fromArray(expected[key].position)) / (a + b)).toBeLessThan(1e-5);
      });
      // No pole: the limb stays in a plane whose normal keeps its side (dot > 0).
      const [r, m, e] = bones.map(worldPosition);
      const normalAfter = new Vector3().crossVectors(m.sub(r), e.sub(r)).normalize();
      expect(normalAfter.dot(normalBefore)).toBeGreaterThan(0);
    }
  });

  it('runs after an AnimationMixer each frame: reaches the target, and weight 0 shows the animation', () => {
    const { scene, bones } = buildChain({ axis: AXES['+Y'] });
    bones[0].name = 'upper';
    const [a, b] = segmentLengths(bones);
    const q0 = bones[0].quaternion.clone();
    const q1 = new Quaternion().setFromAxisAngle(new Vector3(1, 0, 0), 0.8).multiply(q0);
    const clip = new AnimationClip('swing', 1, [new QuaternionKeyframeTrack('upper.quaternion', [0, 1], [...q0.toArray(), ...q1.toArray()])]);
    const mixer = new AnimationMixer(scene);
    mixer.clipAction(clip).play();
    const target = worldPosition(bones[0]).add(new Vector3(0.5, -0.9, 0.4).normalize().multiplyScalar(0.8 * (a + b)));
    const ik = new TwoBoneIK(ikpd, bones, { target });
    for (let frame = 0; frame < 20; frame++) {
      mixer.update(1 / 30);
      ik.weight = frame % 5 === 4 ? 0 : 1;
      const animated = bones[0].quaternion.clone();
      ik.update();
      if (ik.weight === 0) expect(bones[0].quaternion.equals(animated)).toBe(true);
      else expect(worldPosition(bones[2]).distanceTo(target) / (a + b)).toBeLessThan(1e-4);
    }
  });

  it('reports bad options naming them', () => {
    const { bones } = buildChain();
    expect(() => new TwoBoneIK(ikpd, bones.slice(0, 2))).toThrow(/bones/);
    expect(() => new TwoBoneIK(ikpd, bones, { target: [0, 0, 0], weight: 2 }).update()).toThrow(/weight/);
    expect(() => new TwoBoneIK(ikpd, bones, { target: 'x' }).update()).toThrow(/target/);
    expect(() => new TwoBoneIK(ikpd, bones, { target: [0, 0, 0], pole: [0, 0] }).update()).toThrow(/pole/);
    expect(() => new TwoBoneIK(ikpd, bones, { target: [0, 0, 0], endRotation: 'target' }).update()).toThrow(/endRotation/);
    expect(() => new TwoBoneIK(ikpd, bones, { forward: '+w' })).toThrow(/forward/);
    expect(() => new TwoBoneIK(ikpd, bones, { target: [0, 0, 0], maxAngle: -1 }).update()).toThrow(/maxAngle/);
  });
});

describe('detectBoneAxis (AimIK\'s default forward)', () => {
  it('finds the child direction in the bone frame through scaled, rotated parents', () => {
    for (const axis of Object.values(AXES)) {
      const { bones } = buildChain({ axis });
      expect(detectBoneAxis(bones[0], bones[1]).distanceTo(axis)).toBeLessThan(1e-9);
      // Through an intermediate bone (the grandchild) too.
      expect(detectBoneAxis(bones[0], bones[2]).length()).toBeCloseTo(1, 12);
    }
  });

  it('returns null for a child at the bone', () => {
    const a = new Object3D(), b = new Object3D();
    a.add(b);
    a.updateMatrixWorld(true);
    expect(detectBoneAxis(a, b)).toBeNull();
  });
});

describe('AimIK', () => {
  for (const [name, axis] of Object.entries(AXES)) {
    it(`points the ${name} axis at the target under a rotated, scaled parent`, () => {
      const random = rng(name.length * 31);
      for (let trial = 0; trial < 200; trial++) {
        const { bones } = buildChain({ axis, parentRotation: randomQuaternion(random), parentScale: 0.5 + 2 * random() });
        const bone = bones[0];
        const target = worldPosition(bone).addScaledVector(randomUnit(random), 0.5 + 3 * random());
        const pole = worldPosition(bone).addScaledVector(randomUnit(random), 2);
        const up = perpendicular(axis);
        new AimIK(ikpd, bone, { target, pole, up: up.toArray(), method: ['yawPitch', 'crossProduct', 'shortestArc'][trial % 3] }).update();
        const q = worldQuaternion(bone);
        const forward = axis.clone().applyQuaternion(q);
        const wanted = target.clone().sub(worldPosition(bone)).normalize();
        expect(forward.dot(wanted)).toBeGreaterThan(1 - 1e-5);
        if (trial % 3 !== 2) {
          // The up axis turns toward the pole (its component off the forward axis points at it).
          const toPole = pole.clone().sub(worldPosition(bone));
          toPole.addScaledVector(wanted, -toPole.dot(wanted));
          if (toPole.length() > 1e-3) expect(up.clone().applyQuaternion(q).dot(toPole.normalize())).toBeGreaterThan(1 - 1e-4);
        }
        // The child follows: it now lies on the line to the target.
        const child = worldPosition(bones[1]).sub(worldPosition(bone)).normalize();
        expect(child.dot(wanted)).toBeGreaterThan(1 - 1e-5);
      }
    });
  }

  it('detects the axis from the first child and accepts an explicit one', () => {
    const { bones } = buildChain({ axis: AXES['-Z'] });
    const aim = new AimIK(ikpd, bones[0], { target: [1, 2, 3] });
    // The axis toward the first child with an offset (detectBoneAxis), handed to the rig's aim constraint.
    expect(new Vector3(...aim.constraint.forward).distanceTo(AXES['-Z'])).toBeLessThan(1e-9);
    expect(aim.chain).toBe(undefined);
    const head = new Object3D();
    expect(() => new AimIK(ikpd, head, { target: [1, 2, 3] })).toThrow(/^forward: cannot detect the axis of bone 0 \(it has no child with an offset\)/);
    expect(() => new AimIK(ikpd, 'head', { target: [1, 2, 3] })).toThrow(/^bone: expected an Object3D/);
    expect(() => new AimIK(ikpd, head, { forward: [0, 0, 0] })).toThrow(/^forward: must be a finite non-zero vector/);
    expect(() => new AimIK(ikpd, head, { forward: '+y', up: 'sideways' })).toThrow(/^up: expected 'auto'/);
    const explicit = new AimIK(ikpd, head, { target: [1, 2, 3], forward: '+z' }).update();
    expect(new Vector3(0, 0, 1).applyQuaternion(head.quaternion).distanceTo(new Vector3(1, 2, 3).normalize())).toBeLessThan(1e-5);
    expect(explicit.bone).toBe(head);
  });

  it('is a no-op without a target and at weight 0', () => {
    const head = new Object3D();
    head.quaternion.copy(new Quaternion(0.1, 0.2, 0.3, 0.9).normalize());
    const before = head.quaternion.clone();
    new AimIK(ikpd, head, { forward: '+x' }).update();
    new AimIK(ikpd, head, { forward: '+x', target: [1, 0, 0], weight: 0 }).update();
    expect(head.quaternion.equals(before)).toBe(true);
  });
});
