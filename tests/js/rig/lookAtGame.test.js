// Issue #26 through JS and ikpd/three: the game look-at options reach the
// solvers (targets behind, eyes and gaze) and the rig-based helpers (the look
// limits), feet that never slide with straight legs through BodyLookAtIK,
// strict BodyLookAtIK construction, and failed updates that leave every bone
// as it was.
import { describe, expect, it } from 'vitest';
import { Bone, Group, Quaternion, Vector3 } from 'three';
import { BodyLookAtIK } from '../../../web/three/rig/bodyLookAt.js';
import { LookAtIK } from '../../../web/three/index.js';
import { createHumanoid } from '../../../demo/lib/humanoid.js';
import { underTurnedParent, worldPosition } from '../../support/three-rig.js';
import { ikpd } from '../../support/setup.js';

const DEG = Math.PI / 180;

/** The demo humanoid under a turned, scaled parent; `straight`: knees on the hip → ankle line. */
function character({ straight = false } = {}) {
  const human = createHumanoid({ names: 'mixamo' });
  if (straight) {
    const b = human.bones;
    for (const [upper, lower, foot] of [[b.leftUpperLeg, b.leftLowerLeg, b.leftFoot], [b.rightUpperLeg, b.rightLowerLeg, b.rightFoot]]) {
      const leg = lower.position.clone().add(foot.position); // hip → ankle (identity rest rotations)
      lower.position.copy(leg).multiplyScalar(0.5);
      foot.position.copy(leg).multiplyScalar(0.5);
      expect(upper.quaternion.equals(new Quaternion())).toBe(true);
    }
  }
  return underTurnedParent(human);
}

/** A target orbiting the head: azimuth in degrees from the character's facing (0 in front, 180 behind). */
/** A four-bone spine (pelvis → head) straight up +Y under a group: { root, bones }. */
function spineBones() {
  const root = new Group();
  const bones = [];
  let parent = root;
  for (const y of [1, 0.3, 0.3, 0.15]) {
    const bone = new Bone();
    bone.position.y = y;
    parent.add(bone);
    bones.push(bone);
    parent = bone;
  }
  root.updateMatrixWorld(true);
  return { root, bones };
}

function orbit(parent, head, azimuth, out = new Vector3()) {
  const local = new Vector3(Math.sin(azimuth * DEG), 0, Math.cos(azimuth * DEG)).multiplyScalar(2);
  return out.copy(local.applyQuaternion(parent.quaternion)).add(head);
}

describe('issue #26: targets behind', () => {
  it('BodyLookAt through JS: the head never turns more than 10°/frame at 60 Hz while a target circles behind', () => {
    const rig = new ikpd.BodyLookAt();
    const spine = [1, 1.1, 1.22, 1.35, 1.5, 1.6].map((y) => ({ position: [0, y, 0], rotation: [0, 0, 0, 1] }));
    const yawOf = (r) => {
      const f = new Vector3(0, 0, 1).applyQuaternion(new Quaternion().fromArray(r.spine[5].rotation));
      return Math.atan2(f.x, f.z);
    };
    const at = (deg) => [2 * Math.sin(deg * DEG), 1.6, 2 * Math.cos(deg * DEG)];
    let previous;
    for (let i = 0; i < 120; i++) previous = yawOf(rig.update(1 / 60, { spine, target: at(150) }));
    let largest = 0;
    for (let i = 1; i <= 240; i++) {
      const phase = (1.5 * i) % 120; // 90°/s, 150° → 210° → 150°
      const yaw = yawOf(rig.update(1 / 60, { spine, target: at(150 + (phase < 60 ? phase : 120 - phase)) }));
      largest = Math.max(largest, Math.abs(Math.atan2(Math.sin(yaw - previous), Math.cos(yaw - previous))));
      previous = yaw;
    }
    expect(largest / DEG).toBeLessThan(10);
    rig.dispose();
    expect(() => new ikpd.BodyLookAt({ behind: 'back' })).toThrow(/behind/);
    expect(() => new ikpd.BodyLookAt({ maxYaw: 4 })).toThrow(RangeError);
    expect(() => new ikpd.BodyLookAt({ spine: { maxSpeed: 0 } })).toThrow(/spine\.maxSpeed/);
    expect(() => new ikpd.LookAt({ weights: [1], maxPitchUp: -1 })).toThrow(/maxPitchUp/);
  });
});

describe('issue #26: eyes and gaze', () => {
  it('LookAt turns eye joints within their limits and reports the gaze', () => {
    const look = new ikpd.LookAt({ weights: [0.5, 1], eyeYaw: 0.3 });
    const joints = [{ position: [0, 1.5, 0], rotation: [0, 0, 0, 1] }, { position: [0, 1.7, 0], rotation: [0, 0, 0, 1] }];
    const eyes = [{ position: [0.03, 1.75, 0.08], rotation: [0, 0, 0, 1] }, { position: [-0.03, 1.75, 0.08], rotation: [0, 0, 0, 1] }];
    const result = look.update(1 / 60, { joints, eyes, target: [3, 1.7, 1] });
    expect(result.eyes).toHaveLength(2);
    expect(look.gaze.yaw).toBeGreaterThan(0.05); // the eyes lead toward +X (the head's left)
    expect(look.gaze.yaw).toBeLessThanOrEqual(Math.fround(0.3));
    const gaze = new Vector3(0, 0, 1).applyQuaternion(new Quaternion().fromArray(result.eyes[0].rotation));
    const head = new Vector3(0, 0, 1).applyQuaternion(new Quaternion().fromArray(result[1].rotation));
    expect(gaze.angleTo(head)).toBeCloseTo(Math.hypot(look.gaze.yaw, look.gaze.pitch), 3);
    expect(() => look.update(1 / 60, { joints, eyes: [...eyes, eyes[0]], target: [1, 1, 1] })).toThrow(/eyes/);
    look.dispose();
  });

  it('BodyLookAt reports the gaze without eye joints (for blend-shape eyes)', () => {
    const rig = new ikpd.BodyLookAt({ spineJoints: 2 });
    const spine = [{ position: [0, 1, 0], rotation: [0, 0, 0, 1] }, { position: [0, 1.6, 0], rotation: [0, 0, 0, 1] }];
    const result = rig.update(1 / 60, { spine, target: [0, 2.6, 2] });
    expect(result.eyes).toEqual([]);
    expect(result.gaze.pitch).toBeGreaterThan(0.05); // looking up
    rig.dispose();
  });
});

// The helpers are one-constraint rigs (web/three/rig/rigHelper.js): the rig has no
// eye joints, so eye bones and the gaze are ikpd.LookAt's and
// ikpd.BodyLookAt's only (tested above); the look limits reach the rig.
describe('issue #26: the look limits through the helpers', () => {
  const headYaw = (head) => {
    const f = new Vector3(0, 0, 1).applyQuaternion(head.getWorldQuaternion(new Quaternion()));
    return Math.atan2(f.x, f.z);
  };

  it('LookAtIK: maxYaw caps the head\'s yaw, maxYaw π reaches a target 150° to the side', () => {
    const target = new Vector3(2 * Math.sin(150 * DEG), 1.75, 2 * Math.cos(150 * DEG));
    for (const [maxYaw, expected] of [[0.5, 0.5], [Math.PI, 150 * DEG]]) {
      const { bones } = spineBones();
      const ik = new LookAtIK(ikpd, bones, { target, maxYaw, forward: '+z' });
      for (let i = 0; i < 180; i++) ik.update(1 / 60);
      expect(headYaw(bones[3]), `maxYaw ${maxYaw}`).toBeCloseTo(expected, 2);
      expect(ik.maxYaw).toBe(maxYaw);
      ik.dispose();
    }
  });

  it('LookAtIK: the new options are properties; eyes are an option', () => {
    const { bones } = spineBones();
    const ik = new LookAtIK(ikpd, bones, { behind: 'front', maxSpeed: 4, targetMotion: 'linear', ki: 0.5, maxPitchUp: 0.3 });
    ik.maxYaw = 1;
    ik.update(1 / 60);
    expect(() => { ik.behind = 'sideways'; }).toThrow(/behind/);
    ik.dispose();
    const eyed = new LookAtIK(ikpd, bones, { eyes: [], eyeSettleTime: 0.04 });
    expect(eyed.eyes).toEqual([]);
    eyed.dispose();
    expect(() => new LookAtIK(ikpd, bones, { eye: [] })).toThrow(/did you mean 'eyes'/);
  });
});

describe('issue #26: BodyLookAtIK feet and strictness', () => {
  it('keeps each foot within 0.1 mm with straight legs, weight shift amount 0.2–1, limit 0.3', () => {
    for (const amount of [0.2, 0.6, 1]) {
      const { human, parent } = character({ straight: true });
      const b = human.bones;
      const feet = [b.leftFoot, b.rightFoot];
      const planted = feet.map((f) => worldPosition(f));
      const head = worldPosition(b.head);
      const target = new Vector3();
      const ik = new BodyLookAtIK(ikpd, human.root, { target, weightShift: { amount, limit: 0.3 } });
      let worst = 0;
      for (let i = 0; i < 150; i++) {
        orbit(parent, head, -100 + 2 * i, target).y += 0.8 * Math.sin(i / 20);
        ik.update(1 / 60);
        feet.forEach((f, k) => { worst = Math.max(worst, worldPosition(f).distanceTo(planted[k])); });
      }
      expect(worst, `amount ${amount}`).toBeLessThan(1e-4);
      ik.dispose();
    }
  });

  it('checks target, weight and option names at construction', () => {
    const { human } = character();
    expect(() => new BodyLookAtIK(ikpd, human.root, { target: 'camera' })).toThrow(TypeError);
    expect(() => new BodyLookAtIK(ikpd, human.root, { weight: 2 })).toThrow(/weight/);
    expect(() => new BodyLookAtIK(ikpd, human.root, { footlock: false })).toThrow(/^footlock: unknown option of BodyLookAtIK \(did you mean 'footLock'\?\)/);
    expect(() => new BodyLookAtIK(ikpd, human.root, { behind: 'keep', maxYaw: 1.5, spine: { maxSpeed: 6 } }).dispose()).not.toThrow();
    expect(() => new BodyLookAtIK(ikpd, human.root, { maxYaw: 4 })).toThrow(/maxYaw/);
    expect(() => new BodyLookAtIK(ikpd, human.root, { eyeSettleTime: 0.04 }).dispose()).not.toThrow(); // the rig's eyes (#26 item 4)
    expect(() => new BodyLookAtIK(ikpd, human.root, { eyeSettleTime: 0 })).toThrow(/eyeSettleTime/);
  });
});

describe('issue #26: a failed update moves no bone', () => {
  const snapshot = (bones) => bones.map((b) => [b.position.clone(), b.quaternion.clone()]);
  const same = (bones, saved) => bones.forEach((b, i) => {
    expect(b.position.equals(saved[i][0])).toBe(true);
    expect(b.quaternion.equals(saved[i][1])).toBe(true);
  });

  it('BodyLookAtIK.update(NaN) and a bad target leave every bone, hips included, as they were', () => {
    const { human } = character();
    const ik = new BodyLookAtIK(ikpd, human.root, { target: new Vector3(1, 1.5, 1) });
    for (let i = 0; i < 20; i++) ik.update(1 / 60);
    const saved = snapshot(human.skeleton.bones);
    expect(() => ik.update(NaN)).toThrow(/dt/);
    same(human.skeleton.bones, saved);
    ik.target = [NaN, 0, 0];
    expect(() => ik.update(1 / 60)).toThrow(/target/);
    same(human.skeleton.bones, saved);
    ik.dispose();
  });

  it('LookAtIK.update(NaN) and a non-finite bone leave the bones as they were', () => {
    const { root, bones } = spineBones();
    const ik = new LookAtIK(ikpd, bones, { target: new Vector3(1, 2, 1) });
    for (let i = 0; i < 20; i++) ik.update(1 / 60);
    const saved = snapshot(bones);
    expect(() => ik.update(NaN)).toThrow(/dt/);
    same(bones, saved);
    root.position.x = NaN; // every world position non-finite: the rig refuses the frame
    expect(() => ik.update(1 / 60)).toThrow(/must be finite/);
    same(bones, saved);
    ik.dispose();
  });
});
