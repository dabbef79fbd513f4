// IKRig's 'avatar' constraint (docs/rig/avatar.md): its bones are
// `{ spine, arms, legs }` (a humanoid's when none are given): the spine
// [hips, spine, chest?, upperChest?, neck, head], each arm [shoulder?, upper,
// lower, hand], each leg [upper, lower, foot]; its targets `head`,
// `leftHand`, `rightHand` (and the full-body trackers `pelvis`, `leftFoot`,
// `rightFoot`) are Object3Ds (null: that part follows the animation or the
// steps), their world position and rotation read every update, each with
// a weight (`headWeight`, …; default 1) the core smooths (pop-free);
// `constraint.calibrate(sample)` scales the avatar to the user; `ground` (as
// grounding takes it; null: the root's ground plane) is where the steps land
// (docs/rig/avatar.md, "Uneven ground").
import { Plane, Quaternion, Vector3 } from 'three';
import { describe } from '../../../src/readers.js';
import { readWeight, sharedProperty } from '../../readers.js';
import { targetPose as TARGET } from '../../../src/rig/records.js';
import { missingBones } from './shared.js';
import { attachGroundQuery, readGround } from '../grounding.js';
import { restLegLength } from './grounding.js';

const SHAPE = '{ spine, arms, legs }';
const TARGET_KEYS = Object.freeze(['head', 'leftHand', 'rightHand', 'pelvis', 'leftFoot', 'rightFoot']);
// The targets a calibration sample reads (docs/rig/avatar.md, "Calibration").
const SAMPLE_KEYS = Object.freeze(TARGET_KEYS.slice(0, 3));
// Each target's weight: `headWeight`, `leftHandWeight`, … (in the order of the core's targets).
const WEIGHT_KEYS = Object.freeze(TARGET_KEYS.map((key) => `${key}Weight`));
const OWN_KEYS = Object.freeze([...TARGET_KEYS, ...WEIGHT_KEYS, 'ground']);
const _p = /* @__PURE__ */ new Vector3();
const _q = /* @__PURE__ */ new Quaternion();
const _s = /* @__PURE__ */ new Vector3();

function readTarget(value, key) {
  if (value !== null && value !== undefined && value.isObject3D !== true) throw new TypeError(`${key}: expected an Object3D or null, got ${describe(value)}`);
  return value ?? null;
}

const readTargetWeight = (value, key) => (value === undefined ? 1 : readWeight(value, key));

// The ground the steps land on (docs/rig/avatar.md, "Uneven ground"): a
// property read again when set, and what the rig's ground frame uses
// (web/three/rig/grounding.js: one query per foot at its probe).
function attachGround(constraint, options) {
  attachGroundQuery(constraint, options, constraint.bones.legs.length > 0 ? 2 : 0);
  constraint._legLength = 0;
  constraint._plane = new Plane();
}

// The avatar constraint's own properties (its targets, their weights, calibrate), each descriptor
// made once per name and shared by every avatar constraint (sharedProperty: one hidden class).
const PROPERTIES = /* @__PURE__ */ new Map();
function ownProperty(key) {
  const k = TARGET_KEYS.indexOf(key);
  if (k >= 0) {
    return { enumerable: true, get() { return this._targets[k]; }, set(v) { this._targets[k] = readTarget(v, key); } };
  }
  const w = WEIGHT_KEYS.indexOf(key);
  if (w >= 0) {
    return { enumerable: true, get() { return this._targetWeights[w]; }, set(v) { this._targetWeights[w] = readTargetWeight(v, key); } };
  }
  // key 'calibrate': a method on the constraint (as an assignment would make it).
  return { enumerable: true, writable: true, configurable: true, value: function calibrateAvatar(sample) { return calibrate(this, sample); } };
}

// The targets and their weights as properties (checked when set), and constraint.set() for them.
function attachTargets(constraint, options) {
  // The targets as set; the weights in a Float64Array for the per-frame read (a fractional number in a field is boxed).
  const targets = constraint._targets = [];
  const weights = constraint._targetWeights = new Float64Array(TARGET_KEYS.length);
  TARGET_KEYS.forEach((key, k) => {
    targets.push(readTarget(options[key], key));
    Object.defineProperty(constraint, key, sharedProperty(PROPERTIES, key, ownProperty));
    const weightKey = WEIGHT_KEYS[k];
    weights[k] = readTargetWeight(options[weightKey], weightKey);
    Object.defineProperty(constraint, weightKey, sharedProperty(PROPERTIES, weightKey, ownProperty));
  });
  Object.defineProperty(constraint, 'calibrate', sharedProperty(PROPERTIES, 'calibrate', ownProperty));
  attachGround(constraint, options);
}

// constraint.set({ head, headWeight, ground, … }): each checked with the other options before any is set.
function checkOwn(key, value) {
  if (key === 'ground') return readGround(value);
  return WEIGHT_KEYS.includes(key) ? readTargetWeight(value, key) : readTarget(value, key);
}

// Each target's world transform and weight into the core rig's targets (weight 0 without one).
function writeTargets(constraint, targets) {
  const o = constraint._core.targetOffset, weights = constraint._targetWeights, objects = constraint._targets;
  for (let k = 0; k < TARGET_KEYS.length; k++) {
    const object = objects[k], at = o + TARGET.floats * k;
    if (object === null) { targets[at + TARGET.weight] = 0; targets[at + TARGET.rotation + 3] = 1; continue; }
    // One walk up the hierarchy for both (getWorldPosition and getWorldQuaternion would walk it twice).
    object.updateWorldMatrix(true, false);
    object.matrixWorld.decompose(_p, _q, _s);
    targets[at] = _p.x; targets[at + 1] = _p.y; targets[at + 2] = _p.z;
    targets[at + 3] = _q.x; targets[at + 4] = _q.y; targets[at + 5] = _q.z; targets[at + 6] = _q.w;
    targets[at + TARGET.weight] = weights[k];
  }
}

// A sample's point: an Object3D's world position, else a point as ikpd.Rig reads it.
function samplePoint(value, key) {
  if (value?.isObject3D === true) return value.getWorldPosition(new Vector3());
  if (value === null || value === undefined) throw new TypeError(`${key}: expected an Object3D or a point, got ${describe(value)}`);
  return value;
}

// constraint.calibrate(sample): scale and armScale from one T-pose sample of
// the user (docs/rig/avatar.md, "Calibration"; its own targets by default),
// set on the constraint and returned.
function calibrate(constraint, sample) {
  const host = constraint._host;
  host.checkAlive();
  const given = sample ?? constraint;
  if (typeof given !== 'object') throw new TypeError(`sample: expected { head, leftHand, rightHand }, got ${describe(sample)}`);
  const points = {};
  for (const key of SAMPLE_KEYS) points[key] = samplePoint(given[key], key);
  const scales = host.calibrateAvatar(constraint._core.index, points);
  constraint.set(scales);
  return scales;
}

export const avatar = Object.freeze({
  bones: { min: 3, max: 6, shape: SHAPE },
  boneKeys: ['bones'],
  ownKeys: OWN_KEYS,
  /** The targets (Object3D options) in the core's order; each has a weight option `${target}Weight`. */
  targets: TARGET_KEYS,
  humanoid: Object.freeze({
    spine: ['hips', 'spine', 'chest?', 'upperChest?', 'neck', 'head'],
    arms: [['leftShoulder?', 'leftUpperArm', 'leftLowerArm', 'leftHand'], ['rightShoulder?', 'rightUpperArm', 'rightLowerArm', 'rightHand']],
    legs: [['leftUpperLeg', 'leftLowerLeg', 'leftFoot'], ['rightUpperLeg', 'rightLowerLeg', 'rightFoot']],
  }),
  targetless: true,
  // Its feet query the ground where they land (groundFrame), only while `ground` is given.
  grounds: true,
  groundOptional: true,
  built: (rig, c) => { c._legLength = c.bones.legs.length > 0 ? restLegLength(rig, c) : 0; },
  resolve(rig, options) {
    const given = options.bones ?? (rig.humanoid.size > 0 ? avatar.humanoid : undefined);
    if (given === undefined) throw missingBones(rig, 'avatar', SHAPE);
    if (given === null || typeof given !== 'object' || Array.isArray(given)) throw new TypeError(`bones: expected ${SHAPE}`);
    const arms = (given.arms ?? []).map((limb, i) => rig.resolveList(limb, `bones.arms[${i}]`, 3, 4, '[shoulder?, upper, lower, hand]'));
    if (arms.length === 2 && arms[0].length !== arms[1].length) throw new RangeError('bones.arms: both arms need a shoulder, or neither');
    const legs = (given.legs ?? []).map((limb, i) => rig.resolveList(limb, `bones.legs[${i}]`, 3, 3, '[upper, lower, foot]'));
    return { spine: rig.resolveList(given.spine, 'bones.spine', 3, 6, '[hips, spine..., neck?, head]'), arms, legs };
  },
  joints: (c, ix) => ({ joints: c.bones.spine.map(ix), arms: c.bones.arms.flat().map(ix), legs: c.bones.legs.flat().map(ix) }),
  attach: attachTargets,
  checkOwn,
  writeTargets,
});
