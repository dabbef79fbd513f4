// BodyLookAtIK: the full-body look-at (docs/body-look-at.md) on a three.js
// humanoid skeleton: spine look-at with the head leading, weight shift of the
// hips, arm reaction and planted feet. Bones are found by name.
import { Quaternion, Vector3 } from 'three';
import { BoneChain, readAxis, readModule, readPoint, readWeight, toArray3 } from './rig.js';
import { SavedRotations, readTimeStep } from './lookAt.js';
import { nearestName } from '../src/dev.js';

/**
 * Bone-name presets. Each names the spine (hips → head; a trailing '?' marks
 * a bone that may be missing) and per limb [upper, lower, end].
 */
export const BODY_LOOK_AT_PRESETS = Object.freeze({
  mixamo: Object.freeze({
    spine: ['mixamorigHips', 'mixamorigSpine', 'mixamorigSpine1', 'mixamorigSpine2', 'mixamorigNeck', 'mixamorigHead'],
    leftArm: ['mixamorigLeftArm', 'mixamorigLeftForeArm', 'mixamorigLeftHand'],
    rightArm: ['mixamorigRightArm', 'mixamorigRightForeArm', 'mixamorigRightHand'],
    leftLeg: ['mixamorigLeftUpLeg', 'mixamorigLeftLeg', 'mixamorigLeftFoot'],
    rightLeg: ['mixamorigRightUpLeg', 'mixamorigRightLeg', 'mixamorigRightFoot'],
    eyes: ['mixamorigLeftEye?', 'mixamorigRightEye?'],
  }),
  vrm: Object.freeze({
    spine: ['hips', 'spine', 'chest', 'upperChest?', 'neck', 'head'],
    leftArm: ['leftUpperArm', 'leftLowerArm', 'leftHand'],
    rightArm: ['rightUpperArm', 'rightLowerArm', 'rightHand'],
    leftLeg: ['leftUpperLeg', 'leftLowerLeg', 'leftFoot'],
    rightLeg: ['rightUpperLeg', 'rightLowerLeg', 'rightFoot'],
    eyes: ['leftEye?', 'rightEye?'],
  }),
});

const LIMBS = ['leftArm', 'rightArm', 'leftLeg', 'rightLeg'];
const SETTING_GROUPS = ['spine', 'weightShift', 'armReaction'];
// Solver options passed through as given (docs/look-at.md).
const SOLVER_KEYS = ['offset', 'blendOutTime', 'maxYaw', 'maxPitchUp', 'maxPitchDown', 'behind', 'eyeYaw', 'eyePitchUp', 'eyePitchDown', 'eyeSettleTime'];
const OPTIONS = Object.freeze([
  'bones', 'getBone', 'target', 'facing', 'forward', 'up', 'footLock', 'enabled', 'weight', 'createSolver',
  ...SETTING_GROUPS, ...SOLVER_KEYS,
]);

// Unknown options are errors: a misspelt one (`footlock`) would silently keep its default.
function checkOptionNames(options) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`BodyLookAtIK: options: expected an object, got ${options === null ? 'null' : typeof options}`);
  }
  for (const key of Object.keys(options)) {
    if (OPTIONS.includes(key)) continue;
    const close = nearestName(key, OPTIONS);
    throw new TypeError(`BodyLookAtIK: unknown option '${key}'${close ? ` (did you mean '${close}'?)` : ''}`);
  }
}

const _point = new Vector3();
const _axis = new Vector3();
const _q = new Quaternion();

// Finds a bone by name: exact, else ignoring ':' and other separators (FBX
// 'mixamorig:Hips' vs glTF 'mixamorigHips').
function makeFinder(root, getBone) {
  if (getBone) return getBone;
  const loose = new Map();
  root.traverse((o) => {
    const key = o.name.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
    if (key && !loose.has(key)) loose.set(key, o);
  });
  return (name) => root.getObjectByName(name) ?? loose.get(name.replace(/[^A-Za-z0-9]/g, '').toLowerCase());
}

function isAncestor(ancestor, object) {
  for (let o = object.parent; o; o = o.parent) if (o === ancestor) return true;
  return false;
}

function label(bone) {
  return `'${bone.name}'`;
}

/**
 * Resolves the name table into bones and checks the chains: spine bones are
 * each the parent of the next, each limb is upper → lower → end, arms hang
 * (through any bones, e.g. a clavicle) from a spine bone above the hips and legs from the
 * hips (no spine bone above the hips between).
 * Throws TypeError for a missing bone, RangeError for a broken chain.
 */
export function resolveBodyBones(root, table, getBone) {
  const find = makeFinder(root, getBone);
  const lookup = (key, names, i) => {
    const name = names[i];
    if (typeof name !== 'string') throw new TypeError(`bones.${key}[${i}]: expected a bone name, got ${typeof name}`);
    const optional = name.endsWith('?');
    const bone = find(optional ? name.slice(0, -1) : name);
    if (bone?.isObject3D) return bone;
    if (optional) return null;
    throw new TypeError(`bones.${key}[${i}]: no bone named '${name}'`);
  };
  const chain = (key, names, limb) => {
    if (!Array.isArray(names) || (limb ? names.length !== 3 : names.length < 2)) {
      throw new TypeError(`bones.${key}: expected ${limb ? '[upper, lower, end] names' : 'at least [hips, head] names'}`);
    }
    const bones = names.map((_, i) => lookup(key, names, i)).filter(Boolean);
    for (let i = 1; i < bones.length; i++) {
      if (bones[i].parent !== bones[i - 1]) {
        throw new RangeError(`bones.${key}: ${label(bones[i])} is not a child of ${label(bones[i - 1])}`);
      }
    }
    return bones;
  };
  const spine = chain('spine', table.spine, false);
  const out = { spine, arms: [], legs: [], eyes: [], chest: -1 };
  if (table.eyes !== undefined && table.eyes !== null) {
    if (!Array.isArray(table.eyes) || table.eyes.length > 2) throw new TypeError('bones.eyes: expected [left, right] names');
    out.eyes = table.eyes.map((_, i) => lookup('eyes', table.eyes, i)).filter(Boolean);
    const head = spine[spine.length - 1];
    for (const eye of out.eyes) {
      if (!isAncestor(head, eye)) throw new RangeError(`bones.eyes: ${label(eye)} does not hang from the head ${label(head)}`);
    }
  }
  for (const key of LIMBS) {
    if (table[key] === undefined || table[key] === null) continue;
    const bones = chain(key, table[key], true);
    // The spine bone the limb hangs from (nearest ancestor; other bones such as a clavicle may sit between).
    const from = spine.findLastIndex((s) => isAncestor(s, bones[0]));
    if (key.endsWith('Arm')) {
      if (from < 1) throw new RangeError(`bones.${key}: ${label(bones[0])} does not hang from a spine bone above the hips`);
      if (out.chest < 0) out.chest = from;
      out.arms.push(bones);
    } else {
      if (from !== 0) throw new RangeError(`bones.${key}: ${label(bones[0])} does not hang from the hips ${label(spine[0])}`);
      out.legs.push(bones);
    }
  }
  return out;
}

/**
 * Full-body look-at on a humanoid: see the typings for every option and its
 * default. Needs the loaded library's `BodyLookAt` (or `options.createSolver`).
 * Call `update(dt)` every frame after the animation mixer; `dispose()` when done.
 */
export class BodyLookAtIK {
  /**
   * @param {object} ikpd the loaded library (`await init()`)
   * @param {import('three').Object3D} root the character (its bones are found by name below it)
   * @param {object} [options]
   */
  constructor(ikpd, root, options = {}) {
    if (typeof ikpd?.then === 'function') readModule(ikpd, 'BodyLookAtIK', 'BodyLookAt'); // throws: a forgotten await
    if (!root?.isObject3D) throw new TypeError('root: expected the character (an Object3D)');
    checkOptionNames(options);
    const table = typeof (options.bones ?? 'mixamo') === 'string' ? BODY_LOOK_AT_PRESETS[options.bones ?? 'mixamo'] : options.bones;
    if (!table || typeof table !== 'object') {
      throw new RangeError(`bones: expected 'mixamo', 'vrm' or a name table, got ${JSON.stringify(options.bones)}`);
    }
    const found = resolveBodyBones(root, table, options.getBone);
    this.root = root;
    this.target = options.target ?? null;
    this.enabled = options.enabled ?? true;
    this.weight = options.weight ?? 1;
    // Checked now, as update() would (a bad value must not wait for the first frame).
    readWeight(this.weight);
    if (this.target !== null) readPoint(this.target, 'target', _point);
    // The solver works on world rotations of the bones themselves (identity frames);
    // only the head's look axis matters, found from the character's facing at construction.
    const identity = { forward: '+x', up: '+y' };
    this.spine = new BoneChain(found.spine, identity, 'bones.spine');
    this.arms = found.arms.map((bones) => new BoneChain(bones, identity, 'bones.arms'));
    this.legs = found.legs.map((bones) => new BoneChain(bones, identity, 'bones.legs'));
    this.eyes = found.eyes.length > 0 ? new BoneChain(found.eyes, identity, 'bones.eyes') : null;
    this.hips = found.spine[0];
    this._saved = new SavedRotations([...found.spine, ...found.arms.flat(), ...found.legs.flat(), ...found.eyes]);
    this._savedHips = new Vector3();
    this.gaze = { yaw: 0, pitch: 0 };
    this._animatedHips = new Vector3();
    this._writtenHips = null;
    this.solver = this._createSolver(ikpd, options, found);
  }

  _createSolver(ikpd, options, found) {
    const head = this.spine.bones[this.spine.count - 1];
    let forward;
    if (options.forward !== undefined) {
      forward = readAxis(options.forward, 'forward', new Vector3());
      if (!forward) throw new RangeError("forward: the head's look axis cannot be 'auto'");
    } else {
      const facing = readAxis(options.facing ?? '+z', 'facing', new Vector3());
      if (!facing) throw new RangeError("facing: cannot be 'auto'; pass the world direction the character faces");
      // root-local facing → world → head-local.
      head.updateWorldMatrix(true, false);
      this.root.matrixWorld.decompose(_point, _q, _axis);
      facing.applyQuaternion(_q);
      head.matrixWorld.decompose(_point, _q, _axis);
      forward = facing.applyQuaternion(_q.invert());
    }
    const settings = {
      spineJoints: this.spine.count,
      forward: toArray3(forward),
      up: toArray3(readAxis(options.up ?? '+y', 'up', new Vector3()) ?? new Vector3(0, 1, 0)),
      footLock: options.footLock ?? true,
    };
    for (const key of SOLVER_KEYS) if (options[key] !== undefined) settings[key] = options[key];
    for (const group of SETTING_GROUPS) if (options[group] !== undefined) settings[group] = { ...options[group] };
    if (found.arms.length > 0) settings.armReaction = { chest: found.chest, ...settings.armReaction };
    const create = options.createSolver ?? ((s) => {
      if (typeof ikpd?.BodyLookAt !== 'function') {
        throw new TypeError('ikpd.BodyLookAt: not in this build of ikpd; pass createSolver');
      }
      return new ikpd.BodyLookAt(s);
    });
    return create(settings);
  }

  /** False once disabled (or without a target) and every effect has blended out. */
  get active() {
    return this.solver.active;
  }

  /** Advances every effect by `dt` seconds (>= 0) and writes the bones. Returns this. */
  update(dt) {
    // Everything that can be checked before reading the bones is, so a bad
    // call leaves them (hips included) as they are.
    const weight = readWeight(this.weight);
    readTimeStep(dt);
    const hasTarget = this.target !== null;
    const target = hasTarget ? toArray3(readPoint(this.target, 'target', _point)) : null;
    this._saved.save();
    this._savedHips.copy(this.hips.position);
    const chains = [this.spine, ...this.arms, ...this.legs];
    if (this.eyes) chains.push(this.eyes);
    let result;
    try {
      this._readHips();
      for (const chain of chains) chain.read();
      const joints = (chain) => Array.from({ length: chain.count }, (_, i) => chain.joint(i));
      const spine = joints(this.spine);
      result = this.solver.update(dt, {
        spine,
        arms: this.arms.flatMap(joints),
        legs: this.legs.flatMap(joints),
        eyes: this.eyes ? joints(this.eyes) : undefined,
        target: target ?? spine[spine.length - 1].position,
        enabled: Boolean(this.enabled) && hasTarget,
      });
    } catch (error) {
      this.hips.position.copy(this._savedHips);
      this._saved.restore();
      throw error;
    }
    this.gaze = result.gaze;
    if (weight === 0) return this;
    this._writeHips(result.spine[0].position, weight);
    write(this.spine, result.spine, 0, weight);
    this.arms.forEach((chain, k) => write(chain, result.arms, 3 * k, weight));
    this.legs.forEach((chain, k) => write(chain, result.legs, 3 * k, weight));
    if (this.eyes) write(this.eyes, result.eyes, 0, weight);
    return this;
  }

  // The hips' local position as animated: put back what the last update wrote
  // unless the animation has replaced it since (as BoneChain.read() does for rotations).
  _readHips() {
    const local = this.hips.position;
    if (this._writtenHips && local.equals(this._writtenHips)) local.copy(this._animatedHips);
    this._animatedHips.copy(local);
  }

  _writeHips(position, weight) {
    const hips = this.hips;
    _point.fromArray(position);
    if (hips.parent) {
      hips.parent.updateWorldMatrix(true, false);
      hips.parent.worldToLocal(_point);
    }
    hips.position.lerpVectors(this._animatedHips, _point, weight);
    this._writtenHips = (this._writtenHips ?? new Vector3()).copy(hips.position);
  }

  /** Zeroes every effect at once (no blend), e.g. after a camera cut or a teleport. */
  clear() {
    this.solver.clear();
    return this;
  }

  /** Frees the solver's memory; later calls throw. Idempotent. */
  dispose() {
    this.solver.dispose();
  }
}

function write(chain, joints, first, weight) {
  for (let i = 0; i < chain.count; i++) chain.writeSolved(i, joints[first + i].rotation);
  chain.finish(weight);
}
