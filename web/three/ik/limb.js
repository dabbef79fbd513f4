// The limb base TwoBoneIK and PseudoThreeBoneIK share: a one-constraint
// IKRig (web/three/rig/rigHelper.js) with the limb options mapped onto the rig's settings,
// stretch done here (the core rig does not stretch bones), and reached /
// distance measured on the blended pose below weight 1.
import { Vector3 } from 'three';
import { RigHelper, SMOOTHING_KEYS } from '../rig/rigHelper.js';
import { LIMB } from '../../src/rig/kinds/shared.js';
import { checkDescent, optionNames, readAxis, readPoint, checkHelperOptions } from '../readers.js';

const _a = /* @__PURE__ */ new Vector3();
const _b = /* @__PURE__ */ new Vector3();
const _c = /* @__PURE__ */ new Vector3();
const _axis = /* @__PURE__ */ new Vector3();
// Per-frame lengths are kept here, not returned: a double returned from (or
// passed to) a call V8 does not inline is boxed, garbage on every frame.
const _length = /* @__PURE__ */ new Float64Array(2);

// |a − b| into _length[slot], as Vector3.distanceTo computes it.
function distanceInto(slot, a, b) {
  const dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  _length[slot] = Math.sqrt(dx * dx + dy * dy + dz * dz);
}

// Passed to the rig as they are (undefined: the default): the rig's limb
// options but the pole direction and stretch, which the helper handles.
const LIMB_KEYS = LIMB.filter((key) => key !== 'poleDirection' && key !== 'maxStretch');
// The settings every limb helper pushes to its constraint (weight and smoothing included).
const LIMB_SETTINGS = ['weight', ...SMOOTHING_KEYS, ...LIMB_KEYS];
// Every option the limb helpers share (for the unknown-name warning).
const LIMB_OPTIONS = [...LIMB_SETTINGS, 'target', 'pole', 'poleDirection', 'maxStretch', 'axes', 'forward', 'up', 'bendAxis'];

const END_ROTATIONS = ['world', 'relative', 'target'];

/** Reads the end rotation mode, naming the option in errors. */
export function readEndRotation(value, target) {
  if (!END_ROTATIONS.includes(value)) {
    throw new RangeError(`endRotation: expected one of 'world', 'relative', 'target', got ${JSON.stringify(value)}`);
  }
  if (value === 'target' && !target?.isObject3D) {
    throw new TypeError("endRotation: 'target' needs an Object3D target");
  }
  return value;
}

/**
 * The rig's forward for the limb: `forward`, or `axes` when it gives one
 * forward for every bone; else undefined (the rig detects each bone's axis,
 * the direction to the next joint, as 'auto' did). Every axis is checked.
 */
export function limbForward(options, count) {
  const { axes } = options;
  if (axes === undefined) {
    readAxis(options.up, 'up', _axis);
    return readAxis(options.forward, 'forward', _axis) ? options.forward : undefined;
  }
  const list = Array.isArray(axes) ? axes : Array(count).fill(axes);
  let shared;
  list.forEach((a, i) => {
    const label = Array.isArray(axes) ? `axes[${i}].` : 'axes.';
    readAxis(a?.up, `${label}up`, _axis);
    const given = readAxis(a?.forward, `${label}forward`, _axis) ? _axis.toArray() : null;
    if (i === 0) shared = given;
    else if (shared && (!given || given.some((v, k) => Math.abs(v - shared[k]) > 1e-9))) shared = null;
  });
  return list.length === count && shared ? shared : undefined;
}

export class LimbIK extends RigHelper {
  // `name`: the helper's name in errors; `extra`: its own option names;
  // `settings`: its own settings pushed to the rig (through `_toCore`).
  constructor(ikpd, bones, options, count, shape, name, extra, kind, settings = []) {
    super(ikpd, name);
    checkHelperOptions(options, optionNames(LIMB_OPTIONS, extra), name);
    if (!Array.isArray(bones) || bones.length !== count) throw new TypeError(`bones: expected ${shape}`);
    checkDescent(bones);
    this.bones = bones;
    this.maxStretch = options.maxStretch ?? 1;
    if (typeof this.maxStretch !== 'number' || !(this.maxStretch >= 1)) throw new RangeError(`maxStretch: must be a number >= 1, got ${this.maxStretch}`);
    /** True when the last update() reached the target (within `tolerance`). */
    this.reached = false;
    /** Distance from the contact point to the target after the last update(). */
    this.distance = 0;
    const values = { ...options, weight: options.weight ?? 1, enabled: options.enabled ?? true };
    const forward = limbForward(options, count);
    const rigOptions = { bones, target: options.target ?? null, pole: options.pole ?? null, forward, bendAxis: options.bendAxis };
    this._rigUp(bones, kind, rigOptions, [...LIMB_SETTINGS, ...settings], values);
    this.poleDirection = options.poleDirection ?? null;
    this._poleDirection = [NaN, NaN, NaN]; // as last pushed
    this._pushPoleDirection();
    // Rest offsets of mid and end, restored before each stretched solve.
    this._rest = [bones[1].position.clone(), bones[2].position.clone()];
    this._stretched = false;
    this._defaultTolerance = this.ikpd.Rig.defaults.twoBone.tolerance;
  }

  /** World point the middle joint bends toward: an Object3D, a Vector3, [x, y, z] or null. */
  get pole() { return this._constraint.pole; }
  set pole(value) { this.constraint.pole = value ?? null; }

  // poleDirection is a rig setting: pushed when its value changes (a Vector3 may be changed in place).
  _pushPoleDirection() {
    const last = this._poleDirection;
    if (this.poleDirection === null || this.poleDirection === undefined) {
      if (last[0] === null) return;
      this.constraint.set({ poleDirection: null });
      last[0] = null;
      return;
    }
    const d = readPoint(this.poleDirection, 'poleDirection', _a);
    if (d.x === last[0] && d.y === last[1] && d.z === last[2]) return;
    this.constraint.set({ poleDirection: [d.x, d.y, d.z] });
    last[0] = d.x; last[1] = d.y; last[2] = d.z;
  }

  // Before the solve: the rest lengths back, then, out of reach with
  // maxStretch > 1, the mid and end offsets scaled so the limb reaches
  // (by the weight's share of the stretch).
  _stretch(target) {
    const weight = this._weight[0];
    const bones = this.bones;
    if (this._stretched) {
      bones[1].position.copy(this._rest[0]);
      bones[2].position.copy(this._rest[1]);
      this._stretched = false;
    }
    const max = this.maxStretch;
    if (typeof max !== 'number' || !(max >= 1)) throw new RangeError(`maxStretch: must be a number >= 1, got ${max}`);
    if (max === 1 || target === null || weight === 0) return;
    this._limbLength();
    distanceInto(1, _c, readPoint(target, 'target', _a)); // _c: the root (from _limbLength)
    const ratio = _length[1] / _length[0];
    if (!(ratio > 1 + 1e-5)) return;
    const scale = 1 + (Math.min(ratio, max) - 1) * weight;
    bones[1].position.multiplyScalar(scale);
    bones[2].position.multiplyScalar(scale);
    this._stretched = true;
  }

  // World length root → mid → end of the current pose into _length[0] (leaves the root's world position in _c).
  _limbLength() {
    const bones = this.bones;
    bones[2].updateWorldMatrix(true, false);
    _c.setFromMatrixPosition(bones[0].matrixWorld);
    _a.setFromMatrixPosition(bones[1].matrixWorld);
    _b.setFromMatrixPosition(bones[2].matrixWorld);
    distanceInto(0, _a, _c);
    distanceInto(1, _a, _b);
    _length[0] += _length[1];
  }

  // reached / distance: the rig's (the full-weight solve), or below weight 1
  // measured on the contact point as it lands.
  _results() {
    const weight = this._weight[0];
    if (this.target === null || weight === 0) return;
    if (weight >= 1) {
      const m = this._constraint._measured; // (the unguarded constraint)
      this._measured[0] = m[0]; this._measured[1] = m[1];
      return;
    }
    this._limbLength();
    const point = this._contact();
    point.updateWorldMatrix(true, false);
    distanceInto(1, _a.setFromMatrixPosition(point.matrixWorld), readPoint(this.target, 'target', _b));
    this._measured[1] = _length[1];
    // (Both sides are products: `tolerance ?? default` would box the default.)
    const tolerance = this.tolerance;
    const near = tolerance === undefined || tolerance === null ? this._defaultTolerance * _length[0] : tolerance * _length[0];
    this._measured[0] = _length[1] <= near ? 1 : 0;
  }

  /**
   * Solves and writes the bones' local quaternions. `dt` in seconds (for
   * `settleTime`; none counts as 0, a negative one as 0 with one warning).
   */
  update(dt) {
    dt = this._dt(dt);
    // Each step reads this._weight[0] itself (web/three/rig/rigHelper.js).
    this._pushPoleDirection();
    this._stretch(this.target);
    this._beforeSolve();
    this.rig.update(dt);
    this._afterSolve();
    this._results();
    return this;
  }

  _beforeSolve() {}
  _afterSolve() {}
}
