// A procedural biped walk for the built-in humanoid (demo/lib/humanoid.js):
// in place, with the root motion it is authored for, on the flat y = 0 ground
// of the humanoid's own space. It writes the bones' local transforms (the
// "animated" pose an IKRig reads), as an AnimationMixer would.
//
// One cycle is two steps. Each foot is on the ground for `duty` of the cycle
// and moves backward at exactly the root speed there, so a stance foot's
// animated world position holds still while the root walks straight at
// `speed` (what the grounding's plant detection looks for); in the swing it
// eases forward with a lift of `lift`. The legs reach their feet by a
// law-of-cosines solve in the sagittal plane (knees bend toward +Z).
import * as THREE from 'three/webgpu';

const _q = new THREE.Quaternion();
const _r = new THREE.Quaternion();
const _hips = new THREE.Quaternion();
const _e = new THREE.Euler();
const _hip = new THREE.Vector3();
const _knee = new THREE.Vector3();
const _d = new THREE.Vector3();
const _p = new THREE.Vector3();
const _a = new THREE.Vector3();
const FORWARD = new THREE.Vector3(0, 0, 1);

/**
 * A walk over the humanoid's `bones` (by role; every rest rotation the
 * identity). Options: `stride` (metres per cycle, each foot's step), `speed`
 * (m/s of the root motion it matches), `lift` (swing height, metres), `duty`
 * (stance fraction of the cycle, > 0.5 so both feet are down at times),
 * `crouch` (how far the hips sit below their rest height, so the legs reach).
 * Returns `{ period, speed, stride, pose(phase), stance(side, phase) }`:
 * `pose(phase)` writes the locals at `phase` (cycles; any real number).
 */
export function createWalk(bones, { stride = 1.0, speed = 1.1, lift = 0.09, duty = 0.62, crouch = 0.06 } = {}) {
  const rest = {};
  for (const [role, bone] of Object.entries(bones)) rest[role] = { position: bone.position.clone(), quaternion: bone.quaternion.clone() };
  const model = (role) => {
    const p = new THREE.Vector3();
    for (let b = bones[role]; b && b !== bones.hips.parent; b = b.parent) p.add(b.position);
    return p;
  };
  const hipsRest = rest.hips.position.clone();
  const legs = ['left', 'right'].map((side, i) => {
    const hip = model(`${side}UpperLeg`), knee = model(`${side}LowerLeg`), ankle = model(`${side}Foot`);
    return {
      side, offset: i * 0.5,
      upper: bones[`${side}UpperLeg`], lower: bones[`${side}LowerLeg`], foot: bones[`${side}Foot`],
      hipInHips: hip.clone().sub(model('hips')),
      thighDir: knee.clone().sub(hip).normalize(), shinDir: ankle.clone().sub(knee).normalize(),
      a: knee.distanceTo(hip), b: ankle.distanceTo(knee),
      ankle, // rest ankle (model space): x and height of the planted foot
    };
  });
  const period = stride / speed;
  const half = 0.5 * duty * stride; // a stance foot goes from +half to −half

  // The ankle of a foot at cycle `phase` (0: the foot lands), model space.
  function ankleAt(leg, phase, out) {
    const u = phase - leg.offset - Math.floor(phase - leg.offset);
    out.set(leg.ankle.x, leg.ankle.y, leg.ankle.z);
    if (u < duty) {
      out.z += half - (u / duty) * 2 * half; // moves back at the root speed
      return out;
    }
    const s = (u - duty) / (1 - duty);
    out.z += -half + 2 * half * (0.5 - 0.5 * Math.cos(Math.PI * s));
    out.y += lift * Math.sin(Math.PI * s) ** 2 * (1 + 0.6 * (1 - s));
    return out;
  }

  function setLeg(leg, phase) {
    const ankle = ankleAt(leg, phase, _a);
    _hip.copy(leg.hipInHips).applyQuaternion(_hips).add(bones.hips.position);
    _d.subVectors(ankle, _hip);
    const reach = leg.a + leg.b;
    const dist = Math.min(_d.length(), 0.999 * reach);
    _d.normalize();
    const cosA = THREE.MathUtils.clamp((leg.a * leg.a + dist * dist - leg.b * leg.b) / (2 * leg.a * dist), -1, 1);
    _p.copy(FORWARD).addScaledVector(_d, -FORWARD.dot(_d)).normalize(); // bend toward the front
    _knee.copy(_hip).addScaledVector(_d, leg.a * cosA).addScaledVector(_p, leg.a * Math.sqrt(1 - cosA * cosA));
    const thigh = _q.setFromUnitVectors(leg.thighDir, _p.subVectors(_knee, _hip).normalize());
    leg.upper.quaternion.copy(_hips).invert().multiply(thigh);
    _p.copy(_hip).addScaledVector(_d, dist).sub(_knee).normalize();
    const shin = _r.setFromUnitVectors(leg.shinDir, _p);
    leg.lower.quaternion.copy(thigh).invert().multiply(shin);
    // The foot flat on the ground in stance, the toe a little down in the swing.
    const u = phase - leg.offset - Math.floor(phase - leg.offset);
    const toe = u < duty ? 0 : 0.35 * Math.sin(Math.PI * (u - duty) / (1 - duty));
    leg.foot.quaternion.copy(shin).invert().multiply(_q.setFromEuler(_e.set(toe, 0, 0)));
  }

  const arms = ['left', 'right'].map((side, i) => ({ upper: bones[`${side}UpperArm`], lower: bones[`${side}LowerArm`], sign: i === 0 ? 1 : -1, offset: i * 0.5 }));

  return {
    period, speed, stride, duty,
    /** Writes every walking bone's local transform at `phase` (in cycles). */
    pose(phase) {
      const w = 2 * Math.PI * phase;
      // Hips: lower by `crouch`, bob twice a cycle, turn and roll with the steps.
      bones.hips.position.set(hipsRest.x, hipsRest.y - crouch - 0.018 * Math.cos(2 * w), hipsRest.z);
      _hips.setFromEuler(_e.set(0.04, 0.07 * Math.sin(w), 0.03 * Math.cos(w)));
      bones.hips.quaternion.copy(_hips);
      for (const leg of legs) setLeg(leg, phase);
      // The spine turns back against the hips; the arms swing against the legs.
      bones.spine.quaternion.setFromEuler(_e.set(0.02, -0.06 * Math.sin(w), -0.02 * Math.cos(w)));
      bones.chest.quaternion.setFromEuler(_e.set(0.01 * Math.cos(2 * w), -0.03 * Math.sin(w), 0));
      bones.head.quaternion.setFromEuler(_e.set(-0.04, 0.03 * Math.sin(w), 0));
      for (const arm of arms) {
        const swing = Math.sin(w + Math.PI * (arm.offset * 2 + 1));
        arm.upper.quaternion.setFromEuler(_e.set(0.35 * swing, 0, arm.sign * 0.08));
        arm.lower.quaternion.setFromEuler(_e.set(-0.35 - 0.2 * Math.max(0, -swing), 0, 0));
      }
    },
    /** True while the `side` foot ('left' | 'right') is on the ground at `phase`. */
    stance(side, phase) {
      return this.stanceProgress(side, phase) >= 0;
    },
    /** How far through its stance the `side` foot is at `phase`, 0 (landing) to 1 (lift-off); −1 in the swing. */
    stanceProgress(side, phase) {
      const leg = legs[side === 'left' ? 0 : 1];
      const u = phase - leg.offset - Math.floor(phase - leg.offset);
      return u < duty ? u / duty : -1;
    },
    /** Puts every bone back to its rest transform. */
    rest() {
      for (const [role, r] of Object.entries(rest)) {
        bones[role].position.copy(r.position);
        bones[role].quaternion.copy(r.quaternion);
      }
    },
  };
}
