// AimIK: one-bone aim with the up-vector constraint (docs/ik/aim.md) on a three.js
// Object3D, as a one-constraint IKRig (an 'aim' constraint; web/three/rig/rigHelper.js).
import { Vector3 } from 'three';
import { RigHelper, SMOOTHING_KEYS, guardHelper } from '../rig/rigHelper.js';
import { defaultUpAxis, describe, detectBoneAxis, optionNames, readAxis, checkHelperOptions } from '../readers.js';

const _forward = /* @__PURE__ */ new Vector3();
const _up = /* @__PURE__ */ new Vector3();
const AIM_SETTINGS = ['weight', ...SMOOTHING_KEYS, 'method', 'hingeAxis'];
const AIM_OPTIONS = optionNames(AIM_SETTINGS, 'target', 'pole', 'forward', 'up');

/**
 * Turns one bone (or any Object3D) so that its forward axis points at a
 * target, optionally rolling its up axis toward a pole. A one-constraint
 * IKRig: owns WASM memory, call `dispose()` when done. Call `update(dt)`
 * each frame after animation.
 */
export class AimIK extends RigHelper {
  /**
   * @param {object} ikpd the loaded library with the rig area (`await init({ rig: true })`)
   * @param {import('three').Object3D} bone
   * @param {object} [options] see the typings for the documented defaults
   */
  constructor(ikpd, bone, options = {}) {
    super(ikpd, 'AimIK');
    checkHelperOptions(options, AIM_OPTIONS, 'AimIK');
    if (!bone?.isObject3D) throw new TypeError(`bone: expected an Object3D, got ${describe(bone)}`);
    this.bone = bone;
    // forward: the option, else toward the first child with an offset; up: the option, else +Y (+Z for ±Y bones).
    const forward = readAxis(options.forward, 'forward', _forward) ?? childAxis(bone, _forward);
    const up = readAxis(options.up, 'up', _up) ?? defaultUpAxis(forward, _up);
    const values = { ...options, weight: options.weight ?? 1, enabled: options.enabled ?? true, hingeAxis: options.hingeAxis ?? null };
    const rigOptions = { bone, target: options.target ?? null, pole: options.pole ?? null, forward: forward.toArray(), up: up.toArray() };
    this._rigUp([bone], 'aim', rigOptions, AIM_SETTINGS, values);
    if (new.target === AimIK) return guardHelper(this); // unknown property writes throw
  }

  _toCore(key, value) {
    return key === 'hingeAxis' ? { hingeAxis: value ?? null } : super._toCore(key, value);
  }

  /** World "up target" the up axis rolls toward: an Object3D, a Vector3, [x, y, z] or null. */
  get pole() { return this.constraint.pole; }
  set pole(value) { this.constraint.pole = value ?? null; }

  /** Solves and writes the bone's local quaternion; `dt` in seconds for `settleTime` (none: 0). */
  update(dt) {
    this.rig.update(this._dt(dt));
    return this;
  }
}

// The bone's axis toward its first child with an offset (detectBoneAxis), in `out`.
function childAxis(bone, out) {
  bone.updateWorldMatrix(true, false);
  for (const child of bone.children) if (detectBoneAxis(bone, child, out)) return out;
  const label = bone.name ? `bone '${bone.name}'` : 'bone 0';
  throw new RangeError(`forward: cannot detect the axis of ${label} (it has no child with an offset); pass forward: '+y' (or another axis)`);
}
