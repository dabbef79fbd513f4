// The springs constraint (docs/rig/springs.md) through IKRig, side by side
// with three-vrm's VRMSpringBoneManager over the same three.js bones: a 30 cm
// six-bone hair chain under a scripted head (turns, nods, a jump, a 2 m
// teleport of the body; center the neck). ikpd at 60 Hz within 2 mm RMS of
// three-vrm; at 30, 90, 144 and 240 Hz within 1 mm of its own 60 Hz; how far
// three-vrm's own trajectories move between rates is printed. Plus the core
// rig's defaults, collider push-out and errors.
import { describe, expect, it } from 'vitest';
import { Quaternion, Vector3 } from 'three';
import { VRMSpringBoneJoint, VRMSpringBoneManager } from '@pixiv/three-vrm-springbone';
import { ikpd } from '../../support/setup.js';
import { headCharacter, largest, rms } from '../../support/spring-character.js';
import { IKRig } from '../../../web/three/index.js';

const SEGMENT = 0.05;
const VRM = { stiffness: 1, dragForce: 0.4, gravityPower: 0, hitRadius: 0 };

// body → neck → head → hair[0..6] (hair[0] on the head, six 5 cm bones hanging back).
function character() {
  const { scene, body, neck, head, chain } = headCharacter();
  const hair = chain('hair', head, [0, 0.1, -0.09], [0, -0.6, -0.8], 6, SEGMENT);
  scene.updateMatrixWorld(true);
  return { scene, body, neck, head, hair };
}

// The scripted head at time t (as tests/support/native/springs_test_util.h).
const _a = new Quaternion(), _b = new Quaternion();
function animate(c, t) {
  const yaw = 0.7 * Math.sin(2 * Math.PI * 0.5 * t), pitch = 0.3 * Math.sin(2 * Math.PI * 0.8 * t + 0.3);
  c.head.quaternion.setFromAxisAngle(new Vector3(0, 1, 0), yaw).multiply(_b.setFromAxisAngle(new Vector3(1, 0, 0), pitch));
  c.neck.quaternion.copy(_a.setFromAxisAngle(new Vector3(0, 0, 1), 0.1 * Math.sin(2 * Math.PI * 0.4 * t)));
  const jump = t > 1 && t < 1.6 ? 0.3 * Math.sin((Math.PI * (t - 1)) / 0.6) : 0;
  c.body.position.set(t >= 2.5 ? 2 : 0, 1 + jump, 0);
}

const positions = (c) => c.hair.slice(1).map((b) => b.getWorldPosition(new Vector3()));

// Hair joint positions (world) after each frame of `rate` Hz over `seconds`, every `every`-th frame kept.
function runIkpd(rate, { seconds = 4, every = 1, options = {} } = {}) {
  const c = character();
  const rig = new IKRig(ikpd, c.scene);
  rig.add('springs', { chains: [c.hair], center: c.neck, ...VRM, ...options });
  const kept = [];
  for (let k = 0; k <= seconds * rate; k++) {
    animate(c, k / rate);
    c.scene.updateMatrixWorld(true);
    rig.update(k === 0 ? 0 : 1 / rate);
    c.scene.updateMatrixWorld(true);
    if (k > 0 && k % every === 0) kept.push(positions(c));
  }
  rig.dispose();
  return kept;
}

function runThreeVrm(rate, { seconds = 4, every = 1 } = {}) {
  const c = character();
  const manager = new VRMSpringBoneManager();
  for (let k = 0; k < 6; k++) {
    const joint = new VRMSpringBoneJoint(c.hair[k], c.hair[k + 1], { ...VRM, gravityDir: new Vector3(0, -1, 0) });
    joint.center = c.neck;
    manager.addJoint(joint);
  }
  animate(c, 0);
  c.scene.updateMatrixWorld(true);
  manager.setInitState();
  const kept = [];
  for (let k = 1; k <= seconds * rate; k++) {
    animate(c, k / rate);
    c.scene.updateMatrixWorld(true);
    manager.update(1 / rate);
    c.scene.updateMatrixWorld(true);
    if (k % every === 0) kept.push(positions(c));
  }
  return kept;
}


describe('springs beside three-vrm', () => {
  it('moves like three-vrm at 60 Hz (within 2 mm RMS)', () => {
    const ours = runIkpd(60), theirs = runThreeVrm(60);
    expect(ours.length).toBe(theirs.length);
    const gap = rms(ours, theirs);
    const swing = largest(ours, runIkpd(60, { options: { enabled: false } }));
    console.log(`springs: 60 Hz RMS against three-vrm ${(gap * 1e3).toFixed(3)} mm (the hair swings up to ${(swing * 1e3).toFixed(0)} mm from the animation)`);
    expect(swing).toBeGreaterThan(0.02); // the comparison means something: the hair does swing
    expect(gap).toBeLessThan(2e-3);
  });

  it('moves the same at 30, 90, 144 and 240 Hz as at 60 Hz (within 1 mm), where three-vrm moves centimetres', () => {
    const ours60 = runIkpd(60, { every: 10 }), theirs60 = runThreeVrm(60, { every: 10 }); // every 1/6 s
    for (const rate of [30, 90, 144, 240]) {
      const ours = runIkpd(rate, { every: rate / 6 }), theirs = runThreeVrm(rate, { every: rate / 6 });
      const gap = largest(ours, ours60), theirGap = largest(theirs, theirs60);
      console.log(`springs: ${rate} Hz against 60 Hz: ikpd ${(gap * 1e3).toFixed(3)} mm, three-vrm ${(theirGap * 1e3).toFixed(1)} mm`);
      expect(gap).toBeLessThan(1e-3);
    }
  });

  it('keeps the tails out of a collider and every bone on its length', () => {
    const c = character();
    const rig = new IKRig(ikpd, c.scene);
    // A sphere on the head that the hair, swung by the head, runs into.
    const radius = 0.07;
    rig.add('springs', { chains: [c.hair], center: c.neck, ...VRM, hitRadius: 0.01, colliders: [{ joint: c.head, offset: [0, 0.1, 0], radius }] });
    let deepest = -Infinity, lengthError = 0;
    const centre = new Vector3();
    for (let k = 0; k <= 240; k++) {
      animate(c, k / 60);
      c.scene.updateMatrixWorld(true);
      rig.update(k === 0 ? 0 : 1 / 60);
      c.scene.updateMatrixWorld(true);
      c.head.localToWorld(centre.set(0, 0.1, 0));
      const p = [c.hair[0].getWorldPosition(new Vector3()), ...positions(c)];
      for (let j = 1; j < p.length; j++) {
        deepest = Math.max(deepest, radius + 0.01 - p[j].distanceTo(centre));
        lengthError = Math.max(lengthError, Math.abs(p[j].distanceTo(p[j - 1]) - SEGMENT));
      }
    }
    rig.dispose();
    expect(deepest).toBeLessThan(1e-4);
    expect(lengthError).toBeLessThan(2e-6);
  });

  it('names bad options and adds nothing', () => {
    const c = character();
    const rig = new IKRig(ikpd, c.scene);
    expect(() => rig.add('springs', {})).toThrow(/chains/);
    expect(() => rig.add('springs', { chains: [c.hair], dragForce: 2 })).toThrow(/dragForce/);
    expect(() => rig.add('springs', { chains: [c.hair], colliders: [{ joint: c.head, shape: 'cube' }] })).toThrow(/colliders\[0\]\.shape/);
    expect(() => rig.add('springs', { chains: [c.hair], stifness: 1 })).toThrow(/stifness/);
    expect(rig.constraints.length).toBe(0);
    rig.dispose();
  });
});
