// LookAtIK: a spine → neck → head rig turning toward a target with PD
// smoothing (docs/rig/look-at.md), as a one-constraint IKRig (a 'lookAt'
// constraint over just its bones; web/three/rig/rigHelper.js).
import { SmoothedRigHelper, SMOOTHING_KEYS, characterFacing, guardHelper } from './rigHelper.js';
import { checkDescent, optionNames, readAxis, checkHelperOptions } from '../readers.js';
import { Vector3 } from 'three';
import { checkEyes } from './eyes.js';

const _forward = /* @__PURE__ */ new Vector3();
// The look-at limits, the policy for a target behind and the PD's speed cap,
// target motion and integral gain (docs/rig/look-at.md); the rig takes them as given.
// The gaze's limits and settle time come with them (docs/rig/look-at.md, "Eyes").
const GAME_KEYS = ['maxYaw', 'maxPitchUp', 'maxPitchDown', 'behind', 'maxSpeed', 'targetMotion', 'ki',
  'eyeYaw', 'eyePitchUp', 'eyePitchDown', 'eyeSettleTime'];
const LOOK_AT_SETTINGS = ['weight', ...SMOOTHING_KEYS, 'weights', 'limits', ...GAME_KEYS];
const LOOK_AT_OPTIONS = optionNames(LOOK_AT_SETTINGS, 'target', 'forward', 'eyes');

/**
 * Look-at IK (docs/rig/look-at.md) on `[pelvis/spine, ..., neck, head]`: the head leads
 * and the body follows through per-joint weights and limits; each joint's
 * offset is smoothed by a quaternion PD controller (frame-rate independent),
 * and `enabled = false` blends the offsets out to exactly zero. Owns WASM
 * memory: call `dispose()` when done. Call `update(dt)` each frame after
 * animation.
 */
export class LookAtIK extends SmoothedRigHelper {
  /**
   * @param {object} ikpd the loaded library with the rig area (`await init({ rig: true })`)
   * @param {import('three').Object3D[]} bones root → head
   * @param {object} [options] see the typings for the documented defaults
   */
  constructor(ikpd, bones, options = {}) {
    super(ikpd, 'LookAtIK');
    checkHelperOptions(options, LOOK_AT_OPTIONS, 'LookAtIK');
    if (!Array.isArray(bones) || bones.length < 1) throw new TypeError('bones: expected [root, ..., head]');
    // The rig's look-at turns 2 to 64 joints (docs/rig/look-at.md): said here, under the helper's own name.
    if (bones.length < 2 || bones.length > 64) throw new RangeError(`bones: expected [root, ..., head], 2 to 64 bones, got ${bones.length}`);
    checkDescent(bones);
    this.bones = bones;
    // forward: the head-local look axis; 'auto' (the default): the character's facing, as IKRig detects it.
    const forward = readAxis(options.forward, 'forward', _forward) ? options.forward : undefined;
    /** The head-local look axis as given; 'auto': the character's facing (fixed at construction). */
    this.forward = options.forward ?? 'auto';
    const { weights } = options;
    if (weights !== undefined && weights !== null && weights.length !== bones.length) {
      throw new RangeError(`weights: expected one weight per bone (${bones.length}), got ${weights.length}`);
    }
    const values = { ...options, weight: options.weight ?? 1, enabled: options.enabled ?? true };
    // eyes: 0, 1 or 2 eye bones below the head, turned by the gaze (none by default).
    const eyes = options.eyes ?? [];
    if (!Array.isArray(eyes)) throw new TypeError('eyes: expected [leftEye, rightEye] (Object3Ds below the head) or []');
    checkEyes(eyes, bones[bones.length - 1]);
    /** The eye bones the gaze turns (fixed at construction). */
    this.eyes = Object.freeze(eyes.slice());
    const facing = forward === undefined ? characterFacing(this.ikpd, bones) : undefined;
    // With eyes, the rig spans the first bone's subtree (the eyes hang off the head, outside the chain).
    this._rigUp(eyes.length > 0 ? bones[0] : bones, 'lookAt', { bones, target: options.target ?? null, forward, eyes },
      LOOK_AT_SETTINGS, values, facing ? { facing } : {});
    if (new.target === LookAtIK) return guardHelper(this); // unknown property writes throw
  }

  _toCore(key, value) {
    // weights / limits null: the defaults (equal shares, no limit).
    if (key === 'weights' || key === 'limits') return { [key]: value ?? null };
    return super._toCore(key, value);
  }
}
