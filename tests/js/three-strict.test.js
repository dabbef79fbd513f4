// The ikpd/three helpers are strict and symmetric: chains and options are
// checked at construction, every helper has dispose(), a forgotten
// `await init()` gets a clear TypeError, and the end-rotation mode has the
// core API's name.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Bone, Group, Vector3 } from 'three';
import { ikpd } from '../support/setup.js';
import { init } from '../../web/index.js';
import { AimIK, ChainIK, LookAtIK, PseudoThreeBoneIK, TwoBoneIK } from '../../web/three/index.js';
import { buildChain, quatAngle, worldPosition } from '../support/three-rig.js';

/** Three sibling bones under one parent, 0.35 m apart: not a limb. */
function siblings() {
  const parent = new Group();
  const bones = [0, 1, 2].map((i) => {
    const bone = new Bone();
    bone.name = `b${i}`;
    bone.position.set(0, -0.35 * i, 0);
    parent.add(bone);
    return bone;
  });
  const tip = new Bone();
  tip.position.set(0, -0.2, 0);
  bones[2].add(tip);
  parent.updateMatrixWorld(true);
  return bones;
}

const limb = () => buildChain({ axis: new Vector3(0, 1, 0), lengths: [1, 0.8, 0.3] });

afterEach(() => vi.restoreAllMocks());

describe('helper construction', () => {
  it('rejects sibling bones instead of reporting a reached target', () => {
    const bones = siblings();
    const target = new Vector3(0.7, 0, 0);
    expect(() => new TwoBoneIK(ikpd, bones, { target, forward: '-y' })).toThrow(RangeError);
    expect(() => new TwoBoneIK(ikpd, bones, { target, forward: '-y' })).toThrow(/'b1' is not a descendant of 'b0'/);
    expect(() => new ChainIK(ikpd, bones, { target, forward: '-y' })).toThrow(/descendant/);
    expect(() => new LookAtIK(ikpd, bones, { target })).toThrow(/descendant/);
  });

  it('accepts twist bones between the limb joints (descendants, not only children)', () => {
    const { bones } = limb();
    const twist = new Bone();
    bones[0].remove(bones[1]);
    bones[0].add(twist);
    twist.add(bones[1]);
    expect(() => new TwoBoneIK(ikpd, bones.slice(0, 3), { target: [0, 0, 0] })).not.toThrow();
  });

  it('checks option values at construction, not at the first update()', () => {
    const { bones } = limb();
    const three = bones.slice(0, 3);
    expect(() => new TwoBoneIK(ikpd, three, { soften: -1 })).toThrow(/soften/);
    expect(() => new TwoBoneIK(ikpd, three, { endRotation: 'sideways' })).toThrow(/endRotation/);
    expect(() => new TwoBoneIK(ikpd, three, { target: 'here' })).toThrow(/target/);
    expect(() => new TwoBoneIK(ikpd, three, { weight: 2 })).toThrow(/weight/);
    expect(() => new TwoBoneIK(ikpd, three, { pole: [0, 1] })).toThrow(/pole/);
    expect(() => new PseudoThreeBoneIK(ikpd, bones.slice(0, 4), { blend: 7 })).toThrow(/blend/);
    expect(() => new AimIK(ikpd, bones[0], { method: 'nearest' })).toThrow(/method/);
    expect(() => new AimIK(ikpd, bones[0], { pole: {} })).toThrow(/pole/);
    expect(() => new ChainIK(ikpd, bones, { iterations: -3 })).toThrow(/iterations/);
    expect(() => new LookAtIK(ikpd, bones, { weight: -1 })).toThrow(/weight/);
  });

  it('construction leaves the pose alone', () => {
    const { bones } = limb();
    const before = bones.map((b) => b.quaternion.clone());
    new TwoBoneIK(ikpd, bones.slice(0, 3), { target: [0, 0, 0] }).dispose();
    new PseudoThreeBoneIK(ikpd, bones.slice(0, 4), { target: [0, 0, 0] }).dispose();
    new AimIK(ikpd, bones[0], { target: [0, 0, 0] }).dispose();
    new ChainIK(ikpd, bones, { target: [0, 0, 0] }).dispose();
    bones.forEach((b, i) => expect(quatAngle(b.quaternion, before[i])).toBe(0));
  });

  it('names a forgotten await init() clearly', () => {
    const { bones } = limb();
    const pending = init();
    expect(() => new TwoBoneIK(pending, bones.slice(0, 3))).toThrow(/Promise.*await init\(\)/);
    expect(() => new PseudoThreeBoneIK(pending, bones.slice(0, 4))).toThrow(TypeError);
    expect(() => new AimIK(pending, bones[0])).toThrow(/Promise/);
    expect(() => new ChainIK(pending, bones)).toThrow(/Promise/);
    expect(() => new LookAtIK(pending, bones)).toThrow(/Promise/);
    expect(() => new TwoBoneIK({}, bones.slice(0, 3))).toThrow(/initialised module/);
  });

  it('gives every helper dispose(); disposing twice is fine and a disposed solver helper throws', () => {
    const { bones } = limb();
    const helpers = [
      new TwoBoneIK(ikpd, bones.slice(0, 3), { target: [0, 0, 0] }),
      new PseudoThreeBoneIK(ikpd, bones.slice(0, 4), { target: [0, 0, 0] }),
      new AimIK(ikpd, bones[0], { target: [0, 0, 0] }),
      new ChainIK(ikpd, bones, { target: [0, 0, 0] }),
      new LookAtIK(ikpd, bones, { target: [0, 0, 0] }),
    ];
    for (const helper of helpers) {
      expect(typeof helper.dispose).toBe('function');
      helper.dispose();
      helper.dispose();
    }
    expect(() => helpers[0].update()).toThrow(/dispose/);
    expect(() => helpers[2].update()).toThrow(/dispose/);
  });

  it("calls the end-rotation mode 'relative' like solveTwoBone; the old name 'local' is a RangeError", () => {
    const { bones } = limb();
    const three = bones.slice(0, 3);
    const local = three[2].quaternion.clone();
    new TwoBoneIK(ikpd, three, { target: [0, 0, 0], endRotation: 'relative' }).update().dispose();
    expect(quatAngle(three[2].quaternion, local)).toBeLessThan(1e-5);
    expect(() => new TwoBoneIK(ikpd, three, { target: [0, 0, 0], endRotation: 'local' }))
      .toThrow(new RangeError(`endRotation: expected one of 'world', 'relative', 'target', got "local"`));
  });

  it('rejects an unknown option name with a TypeError naming it and the close one', () => {
    const { bones } = limb();
    expect(() => new TwoBoneIK(ikpd, bones.slice(0, 3), { target: [0, 0, 0], poll: [0, 0, 1] }))
      .toThrow(new RegExp("^poll: unknown option of TwoBoneIK \\(did you mean 'pole'\\?\\)"));
    expect(ikpd.memoryStats().usedBytes).toBeGreaterThan(0); // nothing created: no solver to leak
  });

  it('TwoBoneIK still reaches the target through the prepared solver', () => {
    const { bones } = limb();
    const three = bones.slice(0, 3);
    const target = worldPosition(three[0]).add(new Vector3(0.3, -1.2, 0.4));
    const ik = new TwoBoneIK(ikpd, three, { target, pole: [0, 0, 10] });
    for (let i = 0; i < 3; i++) ik.update();
    expect(ik.reached).toBe(true);
    expect(worldPosition(three[2]).distanceTo(target)).toBeLessThan(1e-4 * 4.5);
    ik.dispose();
  });
});

describe('BodyLookAtIK', () => {
  it('names a forgotten await init() clearly', async () => {
    const { BodyLookAtIK } = await import('../../web/three/index.js');
    const pending = init();
    expect(() => new BodyLookAtIK(pending, new Group())).toThrow(/BodyLookAtIK: ikpd: got a Promise/);
  });
});
