// AvatarIK: a whole humanoid from a head and two hand targets (VR tracking;
// docs/rig/avatar.md, "three.js: AvatarIK") as a one-constraint IKRig (an
// 'avatar' constraint over the humanoid; web/three/rig/rigHelper.js).
import { SmoothedRigHelper, guardHelper } from './rigHelper.js';
import { settingNames } from './ikConstraint.js';
import { KIND_TABLE } from './kinds/index.js';
import { checkHelperOptions, describe, optionNames, sharedProperty } from '../readers.js';

const KIND = KIND_TABLE.avatar;
// The targets (head, leftHand, rightHand, …) and their weights (headWeight, …), as the kind names them.
const TARGETS = KIND.targets;
const WEIGHTS = TARGETS.map((key) => `${key}Weight`);
// The rig's own options (IKRig's constructor) and the constraint's bones.
const RIG_KEYS = ['humanoid', 'facing', 'up'];

// A property standing for the constraint's `key` (a target or `ground`; null for none), checked by the constraint.
const PROPERTIES = /* @__PURE__ */ new Map();
const constraintProperty = (key) => ({
  enumerable: true,
  get() { return this._constraint[key]; },
  set(value) { this._checkAlive(); this.constraint[key] = value ?? null; },
});

/**
 * A whole body from a head and two hand targets (docs/rig/avatar.md): the
 * pelvis follows the head, the spine bends to reach it, the shoulders turn
 * toward the hands, each arm and leg is a two-bone solve. The humanoid is
 * found by bone names (Mixamo, VRM/VRoid, …), or given (a three-vrm
 * `VRMHumanoid` or a role table). Owns WASM memory: call `dispose()` when
 * done. Call `update(dt)` each frame after the animation mixer.
 */
export class AvatarIK extends SmoothedRigHelper {
  /**
   * @param {object} ikpd the loaded library with the rig area (`await init({ rig: true })`)
   * @param {import('three').Object3D|import('three').Skeleton} root the character: a SkinnedMesh, its Skeleton or any Object3D hierarchy
   * @param {object} [options] see the typings for the documented defaults
   */
  constructor(ikpd, root, options = {}) {
    super(ikpd, 'AvatarIK');
    // Every setting of the rig's avatar constraint passes through (those added later included).
    const settings = settingNames(this.ikpd, 'avatar');
    checkHelperOptions(options, optionNames(settings, TARGETS, WEIGHTS, RIG_KEYS, 'bones', 'ground'), 'AvatarIK');
    if (!root?.isObject3D && !root?.isSkeleton) {
      throw new TypeError(`root: expected the character (a SkinnedMesh, its Skeleton or an Object3D), got ${describe(root)}`);
    }
    /** The character as given. */
    this.root = root;
    const values = { ...options, weight: options.weight ?? 1, enabled: options.enabled ?? true };
    for (const key of WEIGHTS) values[key] = options[key] ?? 1;
    const rigOptions = { humanoid: options.humanoid ?? 'auto' };
    for (const key of ['facing', 'up']) if (options[key] !== undefined) rigOptions[key] = options[key];
    const targets = {};
    for (const key of TARGETS) targets[key] = options[key] ?? null;
    try {
      this._rigUp(root, 'avatar', { ...targets, bones: options.bones, ground: options.ground ?? null }, [...settings, ...WEIGHTS], values, rigOptions);
    } catch (error) {
      // No humanoid found and no bones given: said of the humanoid option (the rig's error names bones).
      const humanoid = this.rig?.humanoid;
      if (options.bones === undefined && humanoid?.size === 0) {
        throw new RangeError(`humanoid: ${humanoid.reason}; pass humanoid: a role table ({ hips: 'Hips', … }), a table name or a three-vrm VRMHumanoid`);
      }
      throw error;
    }
    // The targets and where the steps land (docs/rig/avatar.md, "Uneven ground": as grounding's
    // `ground`), the constraint's own: one shared descriptor per name (sharedProperty).
    for (const key of [...TARGETS, 'ground']) Object.defineProperty(this, key, sharedProperty(PROPERTIES, key, constraintProperty));
    if (new.target === AvatarIK) return guardHelper(this); // unknown property writes throw
  }

  _toCore(key, value) {
    // The target weights are the constraint's own (three.js-side) options: 1 by default.
    if (WEIGHTS.includes(key)) return { [key]: value ?? 1 };
    return super._toCore(key, value);
  }

  /** An avatar has no single target: its targets are `head`, `leftHand` and `rightHand`. */
  get target() { return undefined; }
  set target(value) {
    throw new TypeError(`target: AvatarIK has no single target; set ${TARGETS.join(', ')} (Object3Ds)`);
  }

  /** The humanoid the rig found: a read-only Map role → bone, with its `convention`. */
  get humanoid() { return this.rig.humanoid; }

  /** The bones the avatar drives: `{ spine, arms, legs }`. */
  get bones() { return this._constraint.bones; }
}
