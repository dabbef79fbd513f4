// ikpd/three's Inertializer on a small bone chain with made-up clips: given a mixer or
// its root, half-life 0 is the mixer's cut, the offset decays to the new clip, the
// new action keeps its time, and bad arguments are errors naming them.
import { AnimationClip, AnimationMixer, Bone, Quaternion, QuaternionKeyframeTrack, VectorKeyframeTrack } from 'three';
import { describe, expect, it } from 'vitest';
import { Inertializer } from '../../../web/three/index.js';
import { ikpd } from '../../support/setup.js';

// root → a → b, each clip turning `a` about its own axis and sliding `b`.
function rig() {
  const root = new Bone();
  root.name = 'root';
  const a = new Bone();
  a.name = 'a';
  const b = new Bone();
  b.name = 'b';
  root.add(a);
  a.add(b);
  b.position.set(0, 1, 0);
  const q = (axis, angle) => new Quaternion().setFromAxisAngle({ x: axis[0], y: axis[1], z: axis[2] }, angle).toArray();
  const clip = (name, axis) => new AnimationClip(name, 1, [
    new QuaternionKeyframeTrack('a.quaternion', [0, 0.5, 1], [...q(axis, 0), ...q(axis, 1.2), ...q(axis, 0)]),
    new VectorKeyframeTrack('b.position', [0, 1], [0, 1, 0, axis[0], 1, axis[2]]),
  ]);
  const mixer = new AnimationMixer(root);
  return { root, a, b, mixer, x: mixer.clipAction(clip('x', [1, 0, 0])), z: mixer.clipAction(clip('z', [0, 0, 1])) };
}

const run = (mixer, inertia, dt, n) => { for (let i = 0; i < n; i++) { mixer.update(dt); inertia.update(dt); } };

describe('ikpd/three Inertializer', () => {
  it('half-life 0 is the cut the mixer makes; otherwise the offset decays to the new clip', () => {
    for (const halfLife of [0, 0.1]) {
      const inertial = rig();
      const plain = rig();
      const inertia = new Inertializer(ikpd, inertial.root, { halfLife }); // the root: each action's mixer
      expect(inertia.mixer).toBe(null);
      expect(inertia.bones.map((b) => b.name)).toEqual(['root', 'a', 'b']);
      inertial.x.play();
      plain.x.play();
      run(inertial.mixer, inertia, 1 / 60, 20);
      plain.mixer.update(20 / 60);
      inertial.z.time = 0.25; // the new action keeps the time it is given
      plain.z.time = 0.25;
      inertia.transition(inertial.z);
      expect(inertial.x.isRunning()).toBe(false);
      expect(inertial.z.isRunning()).toBe(true);
      plain.mixer.stopAllAction();
      plain.z.time = 0.25;
      plain.z.play();
      run(inertial.mixer, inertia, 1 / 60, 1);
      plain.mixer.update(1 / 60);
      const gap = () => inertial.a.quaternion.angleTo(plain.a.quaternion) + inertial.b.position.distanceTo(plain.b.position);
      if (halfLife === 0) expect(gap()).toBeLessThan(1e-5);
      else expect(gap()).toBeGreaterThan(0.1);
      run(inertial.mixer, inertia, 1 / 60, 60);
      plain.mixer.update(1);
      expect(gap()).toBeLessThan(halfLife === 0 ? 1e-5 : 2e-3); // 10 half-lives: 0.05 % of the offset
      expect(inertial.z.time).toBeCloseTo(plain.z.time, 9);
      inertia.dispose();
      expect(inertia.disposed).toBe(true);
      expect(() => inertia.update(1 / 60)).toThrow(/used after dispose/);
    }
  });

  // AnimationMixer writes a property only when its value changes: a bone the new clip holds
  // still, or leaves to its original pose, keeps what the Inertializer wrote last frame. Read
  // back as the new clip, that output fed into itself and ran away (2.5 rad in 50 ms on the
  // demo's humanoid); it must decay to the new clip's pose like every other bone.
  it('a bone the new clip holds still or does not animate decays to it, without feeding back', () => {
    const { root, a, b, mixer, x } = rig();
    const still = mixer.clipAction(new AnimationClip('still', 1, [
      new QuaternionKeyframeTrack('a.quaternion', [0, 1], [0, 0, 0, 1, 0, 0, 0, 1]), // holds `a` at rest; `b` not animated
    ]));
    const inertia = new Inertializer(ikpd, root, { halfLife: 0.1 });
    b.position.set(0, 1, 0); // b's original position (what the mixer restores)
    x.time = 0.4;
    x.play();
    run(mixer, inertia, 1 / 60, 3); // a turned about 1 rad, b slid
    expect(a.quaternion.angleTo(new Quaternion())).toBeGreaterThan(0.8);
    inertia.transition(still);
    let worst = 0;
    let last = a.quaternion.clone();
    for (let i = 0; i < 60; i++) {
      run(mixer, inertia, 1 / 60, 1);
      worst = Math.max(worst, a.quaternion.angleTo(last));
      last = a.quaternion.clone();
    }
    expect(worst).toBeLessThan(0.3); // the spring's own speed; the feedback turned it by radians
    expect(a.quaternion.angleTo(new Quaternion())).toBeLessThan(2e-3); // 10 half-lives
    expect(b.position.distanceTo({ x: 0, y: 1, z: 0 })).toBeLessThan(1e-3);
    inertia.dispose();
  });

  it('bad arguments are errors naming them, and change nothing', () => {
    const { root, mixer, x, z } = rig();
    expect(() => new Inertializer(ikpd, {})).toThrow(/^mixerOrRoot:/);
    expect(() => new Inertializer(ikpd, root, { halfLive: 1 })).toThrow(/halfLive: unknown option of Inertializer \(did you mean 'halfLife'\?\)/);
    expect(() => new Inertializer(ikpd, root, { halfLife: -1 })).toThrow(/^halfLife:/);
    expect(() => new Inertializer(null, root)).toThrow(TypeError);
    const inertia = new Inertializer(ikpd, mixer);
    x.play();
    run(mixer, inertia, 1 / 60, 5);
    expect(() => inertia.transition(null)).toThrow(/^action:/);
    expect(() => inertia.transition(rig().z)).toThrow(/^action: belongs to another mixer/);
    expect(() => inertia.transition(z, { halfLife: NaN })).toThrow(/^halfLife:/);
    expect(x.isRunning()).toBe(true);
    expect(z.isRunning()).toBe(false);
    expect(() => { inertia.halfLife = -1; }).toThrow(/^halfLife:/);
    expect(inertia.halfLife).toBe(0.1);
    inertia.dispose();
  });
});
