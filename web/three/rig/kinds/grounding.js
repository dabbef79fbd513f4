// IKRig's 'grounding' constraint (docs/rig/grounding.md): its bones `{ pelvis,
// chest, legs }` (a humanoid's legs and hips when none are given), its
// three.js parts (`ground`, `plant`) and, each frame, the ground under its
// feet (web/three/rig/grounding.js). It runs without a target.
import { Plane, Vector3 } from 'three';
import { describe, sharedProperty } from '../../readers.js';
import { attachGroundQuery, readGround } from '../grounding.js';

/** Humanoid roles of a grounding constraint given no legs (the toes only when both feet have them). */
const HUMANOID_GROUNDING = /* @__PURE__ */ Object.freeze({
  pelvis: 'hips',
  legs: [['leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'leftToes'], ['rightUpperLeg', 'rightLowerLeg', 'rightFoot', 'rightToes']],
});

// The humanoid's legs, with toes only if every leg has its toe bone.
function humanoidLegs(rig) {
  const legs = HUMANOID_GROUNDING.legs;
  return legs.every((leg) => rig.humanoid.has(leg[3])) ? legs : legs.map((leg) => leg.slice(0, 3));
}

// Its three.js-only options (not the core's).
const OWN_KEYS = Object.freeze(['ground', 'plant']);

/**
 * A grounding constraint's bones from its options: `{ pelvis, chest, legs }`
 * (legs: 2 or 4 of [hip, knee, ankle, toe?]), each a bone, a name or a role;
 * on a humanoid rig `legs` and `pelvis` default to its legs and hips.
 */
function groundingBones(rig, options) {
  const humanoid = rig.humanoid.size > 0;
  const legsGiven = options.legs ?? (humanoid ? humanoidLegs(rig) : undefined);
  if (legsGiven === undefined) {
    throw new TypeError("legs: a 'grounding' constraint needs legs: [[hip, knee, ankle, toe?], …] (2 or 4; bones, names or humanoid roles)" +
      `; ${rig.humanoid.reason}`);
  }
  if (!Array.isArray(legsGiven) || (legsGiven.length !== 2 && legsGiven.length !== 4)) {
    throw new RangeError(`legs: expected 2 or 4 legs, each [hip, knee, ankle, toe?], got ${Array.isArray(legsGiven) ? `${legsGiven.length} leg(s)` : describe(legsGiven)}`);
  }
  const legs = legsGiven.map((leg, i) => rig.resolveList(leg, `legs[${i}]`, 3, 4, '[hip, knee, ankle, toe?]'));
  if (legs.some((leg) => leg.length !== legs[0].length)) {
    throw new RangeError(`legs: every leg needs the same joints: [hip, knee, ankle] or [hip, knee, ankle, toe] (legs[0] has ${legs[0].length}, another has ${legs.find((l) => l.length !== legs[0].length).length})`);
  }
  const pelvisGiven = options.pelvis ?? (humanoid ? HUMANOID_GROUNDING.pelvis : legs[0][0].parent);
  const pelvis = rig.resolveBone(pelvisGiven, 'pelvis');
  if (!pelvis) throw new RangeError("pelvis: no bone found (give the joint whose translation moves, e.g. 'hips')");
  const chest = options.chest === undefined || options.chest === null ? null : rig.resolveBone(options.chest, 'chest');
  legs.forEach((leg, i) => {
    let o = leg[0];
    while (o && o !== pelvis) o = o.parent;
    if (!o) throw new RangeError(`legs[${i}][0]: the hip must hang below the pelvis ('${pelvis.name}')`);
  });
  return { pelvis, chest, legs };
}

/** The core's joint options of a grounding constraint's bones (`ix`: bone → joint index). */
function groundingJoints(c, ix) {
  const bones = c.bones;
  const out = { pelvis: ix(bones.pelvis), legs: bones.legs.map((leg) => leg.map(ix)) };
  if (bones.chest) out.chest = ix(bones.chest);
  return out;
}

/**
 * Gives a grounding constraint its three.js parts: `ground` (a property
 * that reads the option again when set) and `plant` (a Float32Array, one per
 * leg: −1 auto, 0 free, 1 planted; read every update).
 */
function attachGround(constraint, options) {
  const legs = constraint.bones.legs.length;
  attachGroundQuery(constraint, options, legs);
  // One Float32Array for the constraint's life: assigning `plant` checks and copies into it.
  constraint._plant = new Float32Array(legs).fill(-1);
  Object.defineProperty(constraint, 'plant', sharedProperty(PROPERTIES, 'plant', plantProperty));
  if (options.plant !== undefined && options.plant !== null) constraint.plant = options.plant;
  constraint._legLength = 0;
  constraint._plane = new Plane();
}

// `plant` checked against the constraint's legs (`plant`: its Float32Array).
function checkPlant(v, plant) {
  const legs = plant.length;
  if (!(Array.isArray(v) || ArrayBuffer.isView(v)) || v.length !== legs) {
    throw new TypeError(`plant: expected ${legs} numbers (one per leg: -1 auto, 0 free, 1 planted), got ${describe(v)}`);
  }
  for (let i = 0; i < legs; i++) {
    if (typeof v[i] !== 'number' || !Number.isFinite(v[i])) throw new TypeError(`plant[${i}]: expected a finite number (-1 auto, 0 free, 1 planted), got ${describe(v[i])}`);
  }
}

// `plant`'s descriptor, made once and shared by every grounding constraint (sharedProperty).
const PROPERTIES = /* @__PURE__ */ new Map();
const plantProperty = () => ({
  enumerable: true,
  get() { return this._plant; },
  set(v) { checkPlant(v, this._plant); this._plant.set(v); },
});

// constraint.set({ ground, plant }): each checked with the other options before any is set.
const checkOwn = (key, v, constraint) => (key === 'ground' ? readGround(v) : checkPlant(v, constraint._plant));

/** The rest-pose length of a constraint's longest leg, in the rig's model units. */
export function restLegLength(rig, constraint) {
  let longest = 0;
  const a = new Vector3(), b = new Vector3();
  for (const leg of constraint.bones.legs) {
    let length = 0;
    for (let i = 1; i < 3; i++) length += rig.restModelPosition(leg[i - 1], a).distanceTo(rig.restModelPosition(leg[i], b));
    longest = Math.max(longest, length);
  }
  return longest;
}

export const grounding = Object.freeze({
  bones: { min: 2, max: 4, shape: '{ legs: [[hip, knee, ankle, toe?], …], pelvis, chest? }' },
  boneKeys: ['legs', 'pelvis', 'chest'],
  ownKeys: OWN_KEYS,
  // No target: it runs while enabled; its derived settings (null) read back as the numbers in force;
  // each frame its feet query the ground (groundFrame, web/three/rig/grounding.js).
  targetless: true,
  derived: true,
  grounds: true,
  resolve: groundingBones,
  joints: groundingJoints,
  attach: attachGround,
  checkOwn,
  built: (rig, c) => { c._legLength = restLegLength(rig, c); },
});
