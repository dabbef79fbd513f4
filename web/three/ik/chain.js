// ChainIK: N-bone chains (CCD / FABRIK, docs/ik/chains.md) on three.js bones, as
// a one-constraint IKRig (a 'chain' constraint over just its bones); its joint
// limits are the constraint's on the bones' local rotations (limitFrames
// 'local': 'euler' limits on bone.rotation like CCDIKSolver's).
import { checkDescent, optionNames, checkHelperOptions } from '../readers.js';
import { limbForward } from './limb.js';
import { RigHelper, SMOOTHING_KEYS, guardHelper } from '../rig/rigHelper.js';
import { constraintResult } from '../../src/rig/records.js';

const CHAIN_KEYS = ['method', 'iterations', 'tolerance'];
const CHAIN_SETTINGS = ['weight', ...SMOOTHING_KEYS, ...CHAIN_KEYS, 'limits'];
const CHAIN_OPTIONS = optionNames(CHAIN_SETTINGS, 'target', 'pole', 'axes', 'forward', 'up');

/**
 * N-bone chain IK (a tail, a tentacle, a spine, fingers) on three.js bones by
 * CCD or FABRIK: the last object is the tip that reaches for the target.
 * Joint limits are on the bones' local rotations, like CCDIKSolver's.
 * Call `update(dt)` each frame after animation; `dispose()` frees its rig.
 */
export class ChainIK extends RigHelper {
  /**
   * @param {object} ikpd the loaded library with the rig area (`await init({ rig: true })`)
   * @param {import('three').Object3D[]} bones root → tip (at least 2)
   * @param {object} [options] see the typings for the documented defaults
   */
  constructor(ikpd, bones, options = {}) {
    super(ikpd, 'ChainIK');
    checkHelperOptions(options, CHAIN_OPTIONS, 'ChainIK');
    if (!Array.isArray(bones) || bones.length < 2) throw new TypeError('bones: expected at least [root, tip]');
    checkDescent(bones);
    this.bones = bones;
    this.reached = false;
    this.distance = 0;
    this.iterationsRun = 0;
    const values = { ...options, weight: options.weight ?? 1, enabled: options.enabled ?? true, limits: options.limits ?? null };
    const forward = limbForward(options, bones.length);
    // limitFrames 'local': the limits are on the bones' local rotations (docs/rig/rig.md, "Chain limits").
    const core = { bones, target: options.target ?? null, pole: options.pole ?? null, forward, limitFrames: 'local' };
    this._rigUp(bones, 'chain', core, CHAIN_SETTINGS, values);
    if (new.target === ChainIK) return guardHelper(this); // unknown property writes throw
  }

  // limits (one per bone, or null: none): a setting like the others, checked and sent when assigned
  // (assign a new array to change them; an error leaves the old ones).
  _toCore(key, value) {
    if (key === 'limits') return { limits: value ?? [] };
    return super._toCore(key, value);
  }

  /** World point the chain's bend turns toward: an Object3D, a Vector3, [x, y, z] or null. */
  get pole() { return this.constraint.pole; }
  set pole(value) { this.constraint.pole = value ?? null; }

  /** Solves and writes the bones' local quaternions; `dt` in seconds for `settleTime` (none: 0). */
  update(dt) {
    dt = this._dt(dt);
    this.rig.update(dt);
    if (this.target !== null && this.weight > 0) {
      const c = this.constraint;
      this._measured.set(c._measured);
      this.iterationsRun = this._rigInternal.views().results[constraintResult.iterations]; // its one constraint
    }
    return this;
  }
}
