// The helpers as one-constraint IKRigs (#25 item 5): TwoBoneIK is the IKRig
// twoBone constraint, takes settleTime / enabled / weight without a pop at
// any frame rate, and counts a negative dt as 0.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Object3D, Quaternion, Vector3 } from 'three';
import { ikpd } from '../support/setup.js';
import { AimIK, ChainIK, IKRig, PseudoThreeBoneIK, TwoBoneIK } from '../../web/three/index.js';
import { buildChain, quatAngle, randomQuaternion, randomUnit, rng, segmentLengths, worldPosition, worldQuaternion } from '../support/three-rig.js';

afterEach(() => vi.restoreAllMocks());

const limb = (random) => buildChain({ axis: new Vector3(0, 1, 0), bend: 0.3 + random(), parentRotation: randomQuaternion(random) });

describe('TwoBoneIK as a one-constraint IKRig', () => {
  it('equals the IKRig twoBone constraint over the same bones', () => {
    const random = rng(7);
    for (let trial = 0; trial < 40; trial++) {
      const a = limb(rng(trial + 1)).bones, b = limb(rng(trial + 1)).bones;
      const [la, lb] = segmentLengths(a);
      const target = worldPosition(a[0]).addScaledVector(randomUnit(random), (0.3 + 0.6 * random()) * (la + lb));
      const pole = worldPosition(a[0]).addScaledVector(randomUnit(random), 2);
      const options = { soften: 0.1 * random(), twist: random() - 0.5, weight: trial % 3 ? 1 : 0.6 };
      new TwoBoneIK(ikpd, a, { target, pole, ...options }).update();
      const rig = new IKRig(ikpd, b);
      rig.add('twoBone', { bones: b, target, pole, ...options });
      rig.update(0);
      a.forEach((bone, i) => expect(quatAngle(bone.quaternion, b[i].quaternion)).toBe(0));
      rig.dispose();
    }
  });

  // Largest per-frame turn of any bone over `seconds` at `hz`, after `change` at the start.
  function steps(ik, bones, hz, seconds, change) {
    change(ik);
    let largest = 0;
    for (let t = 0; t < seconds; t += 1 / hz) {
      const before = bones.map((b) => b.quaternion.clone());
      ik.update(1 / hz);
      bones.forEach((b, i) => { largest = Math.max(largest, quatAngle(b.quaternion, before[i])); });
    }
    return largest;
  }

  for (const hz of [30, 60, 240]) {
    it(`toggling enabled and changing weight never pops at ${hz} Hz with settleTime > 0`, () => {
      const { bones } = limb(rng(hz));
      const [a, b] = segmentLengths(bones);
      const rest = bones.map((bone) => bone.quaternion.clone());
      const target = worldPosition(bones[0]).add(new Vector3(0.6, -0.3, 0.5).normalize().multiplyScalar(0.7 * (a + b)));
      const ik = new TwoBoneIK(ikpd, bones, { target, pole: [0, 0, 10], settleTime: 0.3 });
      // Full offset: how far the bones turn when the IK snaps on (settleTime 0).
      const snap = new TwoBoneIK(ikpd, limb(rng(hz)).bones, { target, pole: [0, 0, 10] }).update();
      const full = Math.max(...snap.bones.map((bone, i) => quatAngle(bone.quaternion, rest[i])));
      expect(full).toBeGreaterThan(0.3);
      // A pop would turn a bone by (nearly) the whole offset in one frame.
      const bound = Math.max(0.35 * full * Math.min(1, 30 / hz) * 1.2, 1e-3);
      expect(steps(ik, bones, hz, 2, () => {})).toBeLessThan(bound);        // blends in from the animated pose
      expect(worldPosition(bones[2]).distanceTo(target) / (a + b)).toBeLessThan(1e-3);
      expect(steps(ik, bones, hz, 4, (h) => { h.enabled = false; })).toBeLessThan(bound);
      bones.forEach((bone, i) => expect(quatAngle(bone.quaternion, rest[i])).toBeLessThan(1e-5));
      expect(steps(ik, bones, hz, 2, (h) => { h.enabled = true; })).toBeLessThan(bound);
      expect(steps(ik, bones, hz, 2, (h) => { h.weight = 0.2; })).toBeLessThan(bound);
      expect(steps(ik, bones, hz, 2, (h) => { h.weight = 1; })).toBeLessThan(bound);
      // settleTime 0 (the default) snaps: the same change is one frame.
      expect(steps(snap, snap.bones, hz, 0.1, (h) => { h.enabled = false; })).toBeGreaterThan(0.9 * full);
      ik.dispose();
      snap.dispose();
    });
  }

  it('pushes a setting to WASM once, not every frame', () => {
    const { bones } = limb(rng(3));
    const ik = new TwoBoneIK(ikpd, bones, { target: [0, 0, 0] });
    const set = vi.spyOn(ik.constraint, 'set');
    for (let i = 0; i < 5; i++) { ik.weight = 0.5; ik.soften = 0.2; ik.update(1 / 60); }
    expect(set).toHaveBeenCalledTimes(2);
    ik.dispose();
  });

  it('counts a negative dt as 0, with one development warning, and update() as dt 0', () => {
    const make = () => {
      const { bones } = limb(rng(5));
      const [a, b] = segmentLengths(bones);
      const target = worldPosition(bones[0]).add(new Vector3(0.2, -0.8, 0.4).normalize().multiplyScalar(0.8 * (a + b)));
      return new TwoBoneIK(ikpd, bones, { target, settleTime: 0.2 });
    };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const [negative, zero, none] = [make(), make(), make()];
    for (let i = 0; i < 3; i++) { negative.update(-0.5); zero.update(0); none.update(); }
    negative.bones.forEach((bone, i) => {
      expect(bone.quaternion.equals(zero.bones[i].quaternion)).toBe(true);
      expect(bone.quaternion.equals(none.bones[i].quaternion)).toBe(true);
    });
    expect(warn.mock.calls.filter(([m]) => /TwoBoneIK\.update\(dt = -0\.5\).*counts as 0/.test(m))).toHaveLength(1);
    // And a positive dt moves it.
    negative.update(1 / 30);
    expect(negative.bones.some((bone, i) => !bone.quaternion.equals(zero.bones[i].quaternion))).toBe(true);
    for (const ik of [negative, zero, none]) ik.dispose();
  });
});

describe('AimIK as a one-constraint IKRig', () => {
  it('weight slerps the local rotation; a static rig does not compound; an animated pose is solved from', () => {
    const make = () => buildChain({ axis: new Vector3(0, 1, 0) }).bones;
    const bones = make(), full = make();
    const before = bones[0].quaternion.clone();
    const target = worldPosition(bones[0]).add(new Vector3(1, -2, 0.5));
    new AimIK(ikpd, full[0], { target }).update();
    const aim = new AimIK(ikpd, bones[0], { target, weight: 0.25 });
    aim.update();
    expect(quatAngle(bones[0].quaternion, before.clone().slerp(full[0].quaternion, 0.25))).toBeLessThan(1e-6);
    const once = bones[0].quaternion.clone();
    aim.update();
    aim.update();
    expect(quatAngle(bones[0].quaternion, once)).toBe(0);
    const animated = new Quaternion().setFromAxisAngle(new Vector3(1, 0, 0), 0.7);
    bones[0].quaternion.copy(animated);
    aim.update();
    const other = make();
    other[0].quaternion.copy(animated);
    new AimIK(ikpd, other[0], { target, weight: 0.25 }).update();
    expect(quatAngle(bones[0].quaternion, other[0].quaternion)).toBeLessThan(1e-6);
  });

  it('blends in and out with settleTime and enabled, ending exactly on the animated pose', () => {
    const bones = buildChain({ axis: new Vector3(0, 1, 0) }).bones;
    const rest = bones[0].quaternion.clone();
    const target = worldPosition(bones[0]).add(new Vector3(1, -2, 0.5));
    const aim = new AimIK(ikpd, bones[0], { target, settleTime: 0.2 });
    let largest = 0;
    for (let i = 0; i < 120; i++) {
      if (i === 60) aim.enabled = false;
      const q = bones[0].quaternion.clone();
      aim.update(1 / 60);
      largest = Math.max(largest, quatAngle(q, bones[0].quaternion));
    }
    const snapped = buildChain({ axis: new Vector3(0, 1, 0) }).bones;
    new AimIK(ikpd, snapped[0], { target }).update();
    const full = quatAngle(snapped[0].quaternion, rest);
    expect(full).toBeGreaterThan(1);
    expect(largest).toBeLessThan(0.25 * full); // no frame takes a big part of the turn
    expect(quatAngle(bones[0].quaternion, rest)).toBeLessThan(1e-6);
    aim.dispose();
  });
});

describe('every ported helper has settleTime and enabled', () => {
  const cases = {
    ChainIK: (bones, tip, target) => new ChainIK(ikpd, [...bones, tip], { target, settleTime: 0.2 }),
    PseudoThreeBoneIK: (bones, tip, target) => new PseudoThreeBoneIK(ikpd, bones, { target, settleTime: 0.2 }),
  };
  for (const [name, make] of Object.entries(cases)) {
    it(`${name}: blends in and out without a big step and ends exactly on the animated pose`, () => {
      const { bones, tip } = buildChain({ axis: new Vector3(0, 1, 0), lengths: [0.6, 0.5, 0.4], bend: 0.4 });
      const objects = [...bones, tip];
      const rest = objects.map((o) => o.quaternion.clone());
      const target = worldPosition(bones[0]).add(new Vector3(0.8, 0.4, 0.5));
      const ik = make(bones, tip, target);
      let largest = 0, turned = 0;
      for (let i = 0; i < 240; i++) {
        if (i === 120) { turned = Math.max(...objects.map((o, k) => quatAngle(o.quaternion, rest[k]))); ik.enabled = false; }
        const before = objects.map((o) => o.quaternion.clone());
        ik.update(1 / 60);
        objects.forEach((o, k) => { largest = Math.max(largest, quatAngle(o.quaternion, before[k])); });
      }
      expect(turned).toBeGreaterThan(0.2);
      expect(largest).toBeLessThan(0.3 * turned);
      objects.forEach((o, k) => expect(quatAngle(o.quaternion, rest[k])).toBeLessThan(1e-6));
      ik.dispose();
    });
  }
});

describe('TwoBoneIK post-passes on the rig', () => {
  // ('relative' with an effector is the core's: the offset is held in the world, as before the port.)
  it("effector with endRotation 'target' / 'world' holds over repeated updates without compounding", () => {
    for (const endRotation of ['target', 'world']) {
      const { scene, bones, tip } = buildChain({ axis: new Vector3(0, 1, 0), bend: 0.6 });
      const [a, b] = segmentLengths(bones);
      const target = new Object3D();
      scene.add(target);
      target.quaternion.copy(randomQuaternion(rng(2)));
      const ik = new TwoBoneIK(ikpd, bones, { target, effector: tip, endRotation });
      // The same target every third frame: the pose returns to within float
      // rounding of the first solve's (the first frame starts from composed
      // model transforms, later ones from kept ones: about 1e-6 rad) and then
      // repeats without drift, where compounding would grow every frame.
      let first = null, third = null;
      for (let frame = 0; frame < 12; frame++) {
        target.position.copy(worldPosition(bones[0])).add(new Vector3(0.5, -0.6, 0.3 + 0.05 * (frame % 3)).normalize().multiplyScalar(0.75 * (a + b)));
        ik.update(1 / 60);
        expect(worldPosition(tip).distanceTo(worldPosition(target)) / (a + b), `${endRotation} ${frame}`).toBeLessThan(2e-4);
        expect(ik.reached).toBe(true);
        if (endRotation === 'target') expect(quatAngle(worldQuaternion(bones[2]), worldQuaternion(target))).toBeLessThan(1e-5);
        if (frame === 0) first = bones.map((bone) => bone.quaternion.clone());
        if (frame === 3) third = bones.map((bone) => bone.quaternion.clone());
        if (frame === 3) bones.forEach((bone, i) => expect(quatAngle(bone.quaternion, first[i])).toBeLessThan(2e-6));
        if (frame > 3 && frame % 3 === 0) bones.forEach((bone, i) => expect(quatAngle(bone.quaternion, third[i])).toBeLessThan(1e-7));
      }
      ik.dispose();
    }
  });
});
