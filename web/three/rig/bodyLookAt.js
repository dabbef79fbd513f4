// BodyLookAtIK: the full-body look-at (docs/rig/body-look-at.md) on a three.js
// humanoid skeleton: spine look-at with the head leading, weight shift of the
// hips, arm reaction and planted feet. Bones are found by name. A
// one-constraint IKRig (a 'bodyLookAt' constraint).
import { Quaternion, Vector3 } from 'three';
import { checkHelperOptions, isDescendant, optionNames, readAxis, readModule } from '../readers.js';
import { SmoothedRigHelper, guardHelper } from './rigHelper.js';

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
  }),
  vrm: Object.freeze({
    spine: ['hips', 'spine', 'chest', 'upperChest?', 'neck', 'head'],
    leftArm: ['leftUpperArm', 'leftLowerArm', 'leftHand'],
    rightArm: ['rightUpperArm', 'rightLowerArm', 'rightHand'],
    leftLeg: ['leftUpperLeg', 'leftLowerLeg', 'leftFoot'],
    rightLeg: ['rightUpperLeg', 'rightLowerLeg', 'rightFoot'],
  }),
});

const LIMBS = ['leftArm', 'rightArm', 'leftLeg', 'rightLeg'];
const SETTING_GROUPS = ['spine', 'weightShift', 'armReaction'];
const BODY_LOOK_AT_OPTIONS = /* @__PURE__ */ optionNames(SETTING_GROUPS, 'bones', 'getBone', 'target', 'enabled', 'weight', 'forward',
  'facing', 'up', 'footLock', 'offset', 'blendOutTime', 'maxYaw', 'maxPitchUp', 'maxPitchDown', 'behind',
  'eyes', 'eyeYaw', 'eyePitchUp', 'eyePitchDown', 'eyeSettleTime');
// The look-at limits, the policy for a target behind and the gaze's limits and
// settle time (docs/rig/look-at.md), passed as given.
const LIMIT_KEYS = ['maxYaw', 'maxPitchUp', 'maxPitchDown', 'behind', 'eyeYaw', 'eyePitchUp', 'eyePitchDown', 'eyeSettleTime'];

const _point = /* @__PURE__ */ new Vector3();
const _axis = /* @__PURE__ */ new Vector3();
const _q = /* @__PURE__ */ new Quaternion();

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
  const out = { spine, arms: [], legs: [], chest: -1 };
  for (const key of LIMBS) {
    if (table[key] === undefined || table[key] === null) continue;
    const bones = chain(key, table[key], true);
    // The spine bone the limb hangs from (nearest ancestor; other bones such as a clavicle may sit between).
    const from = spine.findLastIndex((s) => isDescendant(bones[0], s));
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

// The bones the options name below `root`, checked (a forgotten await and a bad root first).
function findBody(ikpd, root, options) {
  if (typeof ikpd?.then === 'function') readModule(ikpd, 'BodyLookAtIK', 'BodyLookAt'); // throws: a forgotten await
  if (options?.createSolver !== undefined) {
    throw new TypeError("createSolver: unknown option of BodyLookAtIK (removed: it runs on the rig's bodyLookAt constraint; "
      + 'to drive the bones with your own solver, use an IKRig constraint or write the bones yourself)');
  }
  checkHelperOptions(options, BODY_LOOK_AT_OPTIONS, 'BodyLookAtIK');
  if (!root?.isObject3D) throw new TypeError('root: expected the character (an Object3D)');
  const table = typeof (options.bones ?? 'mixamo') === 'string' ? BODY_LOOK_AT_PRESETS[options.bones ?? 'mixamo'] : options.bones;
  if (!table || typeof table !== 'object') {
    throw new RangeError(`bones: expected 'mixamo', 'vrm' or a name table, got ${JSON.stringify(options.bones)}`);
  }
  return resolveBodyBones(root, table, options.getBone);
}

// The head's look axis in its local frame: `forward`, else `facing` (root-local) carried into the head's frame.
function headForward(root, head, options) {
  if (options.forward !== undefined) {
    const forward = readAxis(options.forward, 'forward', new Vector3());
    if (!forward) throw new RangeError("forward: the head's look axis cannot be 'auto'");
    return forward;
  }
  const facing = readAxis(options.facing ?? '+z', 'facing', new Vector3());
  if (!facing) throw new RangeError("facing: cannot be 'auto'; pass the world direction the character faces");
  // root-local facing → world → head-local.
  head.updateWorldMatrix(true, false);
  root.matrixWorld.decompose(_point, _q, _axis);
  facing.applyQuaternion(_q);
  head.matrixWorld.decompose(_point, _q, _axis);
  return facing.applyQuaternion(_q.invert());
}

// The eye bones of a name preset ('mixamo' when none is given) that exist below `root`.
function presetEyes(root, options) {
  const preset = typeof (options.bones ?? 'mixamo') === 'string' ? options.bones ?? 'mixamo' : null;
  const names = preset === 'vrm' ? ['leftEye', 'rightEye'] : preset === 'mixamo' ? ['mixamorigLeftEye', 'mixamorigRightEye'] : [];
  const find = makeFinder(root, options.getBone);
  return names.map((name) => find(name)).filter((bone) => bone?.isObject3D);
}

/**
 * Full-body look-at on a humanoid: see the typings for every option and its
 * default. A one-constraint IKRig (its 'bodyLookAt' constraint). Call `update(dt)` every frame
 * after the animation mixer; `dispose()` when done.
 */
export class BodyLookAtIK extends SmoothedRigHelper {
  /**
   * @param {object} ikpd the loaded library with the rig area (`await init({ rig: true })`)
   * @param {import('three').Object3D} root the character (its bones are found by name below it)
   * @param {object} [options]
   */
  constructor(ikpd, root, options = {}) {
    // A module without the rig area says so before any bone is looked up.
    if (typeof ikpd?.Rig === 'function') readModule(ikpd, 'BodyLookAtIK', 'Rig', 'rig');
    const found = findBody(ikpd, root, options);
    super(ikpd, 'BodyLookAtIK'); // not the module: a TypeError saying what it got
    this.root = root;
    this.hips = found.spine[0];
    /** The bones found: `{ spine, arms, legs }` (arrays of Object3Ds). */
    this.bones = { spine: found.spine, arms: found.arms, legs: found.legs };
    const forward = headForward(root, found.spine[found.spine.length - 1], options);
    const settings = { footLock: options.footLock ?? true, offset: options.offset };
    for (const key of LIMIT_KEYS) if (options[key] !== undefined) settings[key] = options[key];
    for (const group of SETTING_GROUPS) if (options[group] !== undefined) settings[group] = { ...options[group] };
    if (found.arms.length > 0) settings.armReaction = { chest: found.chest, ...settings.armReaction };
    const values = { weight: options.weight ?? 1, enabled: options.enabled ?? true, blendOutTime: options.blendOutTime };
    // eyes: bones or bone names below the head, turned by the gaze; 'auto': the preset's eye
    // bones that exist ('mixamo': mixamorigLeftEye, …; 'vrm': leftEye, …); none by default.
    settings.eyes = options.eyes === 'auto' ? presetEyes(root, options) : options.eyes ?? [];
    this._rigUp(root, 'bodyLookAt', { bones: this.bones, target: options.target ?? null, forward: forward.toArray(), ...settings },
      ['weight', 'enabled', 'blendOutTime'], values, { up: options.up ?? '+y' });
    /** The eye bones the gaze turns (fixed at construction; [] for none). */
    this.eyes = this.constraint.eyes;
    if (new.target === BodyLookAtIK) return guardHelper(this); // unknown property writes throw
  }
}
