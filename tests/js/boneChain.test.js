// ikpd/three plumbing (BoneChain, axis detection) independent of the solvers:
// a reference shortest-arc aim written with three.js math stands in for ikpd,
// so these tests pin the frame conversion and the world → local writes.
import { describe, expect, it } from 'vitest';
import { Object3D, Quaternion, Vector3 } from 'three';
import { BoneChain, detectBoneAxis } from '../../web/three/index.js';
import { buildChain, perpendicular, quatAngle, randomQuaternion, randomUnit, rng, worldPosition, worldQuaternion } from '../support/three-rig.js';

const AXES = {
  '+X': new Vector3(1, 0, 0),
  '+Y': new Vector3(0, 1, 0),
  '-Z': new Vector3(0, 0, -1),
  oblique: new Vector3(1, 2, -0.5).normalize(),
};

/** Shortest-arc aim of the canonical +X axis: the reference the frames must make exact for every rig. */
const referenceAim = {
  solveAim({ position, rotation, target, forward }) {
    const q = new Quaternion().fromArray(rotation);
    const from = new Vector3().fromArray(forward).applyQuaternion(q);
    const to = new Vector3().fromArray(target).sub(new Vector3().fromArray(position)).normalize();
    return { rotation: new Quaternion().setFromUnitVectors(from, to).multiply(q).toArray() };
  },
};

/**
 * A one-bone aim on BoneChain with the reference solve (what AimIK was before
 * it became a one-constraint IKRig): pins the frame conversion, the world →
 * local writes and the weight blend of BoneChain, exactly.
 */
class ReferenceAimIK {
  constructor(bone, { target, up, weight = 1 }) {
    this.chain = new BoneChain([bone], { up }, 'bone');
    this.target = target;
    this.weight = weight;
  }

  update() {
    const chain = this.chain;
    chain.read();
    const solved = referenceAim.solveAim({ ...chain.joint(0), target: this.target.toArray(), forward: [1, 0, 0] });
    chain.writeSolved(0, solved.rotation);
    chain.finish(this.weight);
    return this;
  }
}

describe('detectBoneAxis', () => {
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

describe('BoneChain', () => {
  it('builds right-handed frames mapping +X/+Y to the forward/up axes', () => {
    for (const [name, axis] of Object.entries(AXES)) {
      const { bones } = buildChain({ axis });
      const chain = new BoneChain(bones);
      chain.frames.forEach((frame, i) => {
        expect(new Vector3(1, 0, 0).applyQuaternion(frame).distanceTo(chain.forwards[i]), name).toBeLessThan(1e-9);
        expect(new Vector3(0, 1, 0).applyQuaternion(frame).dot(chain.forwards[i])).toBeCloseTo(0, 9);
        expect(Math.abs(frame.length() - 1)).toBeLessThan(1e-12);
      });
    }
    const { bones } = buildChain({ axis: AXES['+Y'] });
    const chain = new BoneChain(bones, { up: '-x' });
    expect(new Vector3(0, 1, 0).applyQuaternion(chain.frames[0]).distanceTo(new Vector3(-1, 0, 0))).toBeLessThan(1e-9);
  });

  it('round-trips: writing the read rotations leaves the pose unchanged', () => {
    const random = rng(11);
    for (const axis of Object.values(AXES)) {
      const { bones } = buildChain({ axis, parentRotation: randomQuaternion(random), parentScale: 3.7 });
      const before = bones.map((b) => b.quaternion.clone());
      const chain = new BoneChain(bones);
      chain.read();
      bones.forEach((_, i) => chain.writeSolved(i, chain.joint(i).rotation));
      bones.forEach((b, i) => expect(quatAngle(b.quaternion, before[i])).toBeLessThan(1e-7));
    }
  });

  it('writes world rotations under rotated, translated and uniformly scaled parents', () => {
    const random = rng(12);
    for (let trial = 0; trial < 100; trial++) {
      const { bones } = buildChain({ axis: randomUnit(random), parentRotation: randomQuaternion(random), parentScale: 0.2 + 5 * random() });
      const chain = new BoneChain(bones);
      chain.read();
      const wanted = bones.map(() => randomQuaternion(random));
      bones.forEach((_, i) => chain.writeWorldRotation(i, wanted[i]));
      chain.finish();
      bones.forEach((b, i) => expect(quatAngle(worldQuaternion(b), wanted[i])).toBeLessThan(1e-7));
    }
  });

  it('reports chains it cannot use', () => {
    expect(() => new BoneChain([])).toThrow(/bones/);
    expect(() => new BoneChain([new Object3D(), 3])).toThrow(/bones\[1\]/);
    expect(() => new BoneChain([new Object3D()])).toThrow(/forward/);
    expect(() => new BoneChain([new Object3D()], { forward: [0, 0, 0] })).toThrow(/forward/);
    expect(() => new BoneChain([new Object3D()], { forward: '+y', up: 'sideways' })).toThrow(/up/);
  });
});

describe('BoneChain frames (reference aim)', () => {
  for (const [name, axis] of Object.entries(AXES)) {
    it(`points a ${name} bone's child at the target under rotated, scaled parents`, () => {
      const random = rng(name.length * 131);
      for (let trial = 0; trial < 200; trial++) {
        const { bones } = buildChain({ axis, parentRotation: randomQuaternion(random), parentScale: 0.3 + 3 * random() });
        const target = worldPosition(bones[0]).addScaledVector(randomUnit(random), 0.1 + 3 * random());
        new ReferenceAimIK(bones[0], { target, up: perpendicular(axis) }).update();
        const child = worldPosition(bones[1]).sub(worldPosition(bones[0])).normalize();
        expect(child.dot(target.sub(worldPosition(bones[0])).normalize())).toBeGreaterThan(1 - 1e-9);
      }
    });
  }

  it('weight slerps the local rotation between the input and the solved pose', () => {
    const { bones } = buildChain({ axis: AXES['+Y'] });
    const before = bones[0].quaternion.clone();
    const target = worldPosition(bones[0]).add(new Vector3(1, -2, 0.5));
    const full = buildChain({ axis: AXES['+Y'] }).bones;
    new ReferenceAimIK(full[0], { target }).update();
    new ReferenceAimIK(bones[0], { target, weight: 0.25 }).update();
    const expected = before.clone().slerp(full[0].quaternion, 0.25);
    expect(quatAngle(bones[0].quaternion, expected)).toBeLessThan(1e-6);
    expect(quatAngle(bones[0].quaternion, before)).toBeGreaterThan(0.01);
  });

  it('solves from the animated pose: repeated updates on a static rig do not compound, animated bones are respected', () => {
    const { bones } = buildChain({ axis: AXES['+Y'] });
    const rest = bones[0].quaternion.clone();
    const target = worldPosition(bones[0]).add(new Vector3(1, -2, 0.5));
    const aim = new ReferenceAimIK(bones[0], { target, weight: 0.5 });
    aim.update();
    const once = bones[0].quaternion.clone();
    aim.update();
    aim.update();
    expect(quatAngle(bones[0].quaternion, once)).toBeLessThan(1e-12);
    // An "animation" sets a new pose: the next update solves from it.
    const animated = new Quaternion().setFromAxisAngle(new Vector3(1, 0, 0), 0.7);
    bones[0].quaternion.copy(animated);
    aim.update();
    const fromAnimated = buildChain({ axis: AXES['+Y'] }).bones;
    fromAnimated[0].quaternion.copy(animated);
    new ReferenceAimIK(fromAnimated[0], { target, weight: 0.5 }).update();
    expect(quatAngle(bones[0].quaternion, fromAnimated[0].quaternion)).toBeLessThan(1e-9);
    expect(quatAngle(once, rest)).toBeGreaterThan(0.01);
  });
});
