// What every ported helper is: a one-constraint IKRig (web/three/rig/ikRig.js)
// over just its bones. The helper's settings are properties that push a
// change to WASM once (the IKConstraint's setters), not every frame; its
// update(dt) runs the rig's one WASM call.
import { Quaternion, Vector3 } from 'three';
import { IKRig } from './ikRig.js';
import { internalOf } from './internal.js';
import { checkHelperOptions, optionNames, readModule, sharedProperty } from '../readers.js';
import { warnOnce } from '../../src/dev.js';
import { constraintResult } from '../../src/rig/records.js';

// The smoothing settings every rig constraint has.
export const SMOOTHING_KEYS = ['enabled', 'settleTime', 'damping', 'blendOutTime'];

// The property descriptor of helper setting `key`, one per name (sharedProperty): helpers of a
// class share one hidden class.
const HELPER_PROPERTIES = /* @__PURE__ */ new Map();
const helperProperty = (key) => sharedProperty(HELPER_PROPERTIES, key, () => ({
  enumerable: true,
  configurable: true,
  get() { return this._values[key]; },
  set(value) { this._setting(key, value); },
}));

export class RigHelper {
  /**
   * @param {object} ikpd the loaded library with the rig area (`await init({ rig: true })`)
   * @param {string} name the helper's name in errors and warnings
   */
  constructor(ikpd, name) {
    this.ikpd = readModule(ikpd, name, 'Rig', 'rig');
    this._name = name;
    this._disposed = false;
    this._measured = new Float64Array(2);
    // The weight as set, for the per-frame steps to read: a fractional weight
    // read through its accessor, or passed to a call V8 does not inline, is boxed.
    this._weight = new Float64Array(1);
    /** The helper's IKRig (one constraint, over the helper's bones). */
    this.rig = null;
    /** The rig's one constraint. */
    this.constraint = null;
    this._constraint = null; // the same, unguarded
  }

  /**
   * Builds the rig over `objects` with one `kind` constraint from `options`
   * (IKRig.add's), and makes each of `keys` a property of the helper: reading
   * gives the value set (undefined: the default), writing checks it and
   * pushes it to WASM once, through `_toCore(key, value)` (the constraint's
   * settings it stands for).
   */
  _rigUp(objects, kind, options, keys, values, rigOptions = {}) {
    this._kind = kind;
    const settings = {};
    for (const key of keys) Object.assign(settings, this._toCore(key, values[key], values));
    this.rig = new IKRig(this.ikpd, objects, { humanoid: 'none', ...rigOptions });
    try {
      this.constraint = this.rig.add(kind, { ...options, ...settings });
    } catch (error) {
      this.rig.dispose();
      throw error;
    }
    /** The rig's internal interface (web/three/rig/internal.js): its views, pose and unguarded constraint. */
    this._rigInternal = internalOf(this.rig);
    // The same constraint unguarded, for the per-frame reads (a read through the guard's Proxy is slower).
    this._constraint = this._rigInternal.constraint(0);
    this._values = {};
    for (const key of keys) {
      this._values[key] = values[key];
      if (key === 'weight') this._weight[0] = values[key] ?? 1;
      Object.defineProperty(this, key, helperProperty(key));
    }
  }

  // A helper setting as the constraint's settings (default: the same key, undefined as the default).
  _toCore(key, value) {
    return { [key]: value ?? this.ikpd.Rig.defaults[this._kind][key] };
  }

  _setting(key, value) {
    if (Object.is(this._values[key], value)) return;
    this._checkAlive();
    this.constraint.set(this._toCore(key, value, this));
    this._values[key] = value;
    if (key === 'weight') this._weight[0] = value ?? 1;
  }

  // reached / distance live in a Float64Array: written every frame without making garbage
  // (the helpers' settings are per-instance accessors, so plain number fields would box).
  /** True when the last update() reached the target (within `tolerance`). */
  get reached() { return (this._measured ??= new Float64Array(2))[0] !== 0; }
  set reached(value) { (this._measured ??= new Float64Array(2))[0] = value ? 1 : 0; }
  /** Distance from the contact point to the target after the last update(). */
  get distance() { return (this._measured ??= new Float64Array(2))[1]; }
  set distance(value) { (this._measured ??= new Float64Array(2))[1] = value; }

  /** The helper's target (read at every update): an Object3D, a Vector3, [x, y, z] or null. */
  get target() { return this._constraint.target; }
  set target(value) { this.constraint.target = value ?? null; }

  /**
   * dt in seconds: none (an old `update()`) counts as 0, a negative one as 0 with one development warning;
   * else a TypeError (not a number) or RangeError (NaN, Infinity) naming dt, also where the solve does not
   * read dt (ChainIK with limits).
   */
  _dt(dt) {
    this._checkAlive();
    if (dt === undefined) return 0;
    if (typeof dt !== 'number') throw new TypeError(`dt: expected a number, got ${typeof dt === 'string' ? `'${dt}'` : typeof dt}`);
    if (Number.isNaN(dt) || dt === Infinity) throw new RangeError(`dt: must be finite and >= 0, got ${dt}`);
    if (typeof dt === 'number' && dt < 0) {
      warnOnce(`${this._name} negative dt`, `ikpd: ${this._name}.update(dt = ${dt}): a negative dt counts as 0 (THREE.Timer gives one on a first frame). Shown once, in development builds only.`);
      return 0;
    }
    return dt;
  }

  _checkAlive() {
    if (this._disposed) throw new Error(`${this._name}: used after dispose()`);
  }

  /** Frees the rig's WASM memory; later updates throw. Idempotent. */
  dispose() {
    if (this._disposed) return;
    this._disposed = true;
    this.rig?.dispose();
  }
}

/**
 * A helper whose one constraint smooths its effect (LookAtIK, BodyLookAtIK,
 * AvatarIK): `active`, `update(dt)` and `clear()` as every such helper has them.
 */
export class SmoothedRigHelper extends RigHelper {
  /** False once disabled (or without a target) and every effect has blended out. */
  get active() {
    return !this._disposed && this._rigInternal.views().results[constraintResult.active] !== 0; // the helper's one constraint
  }

  /**
   * Reads the targets, advances the smoothing by `dt` seconds and writes the
   * bones' local quaternions. A negative dt counts as 0 (one development
   * warning). Returns this.
   */
  update(dt) {
    this.rig.update(this._dt(dt));
    return this;
  }

  /** Zeroes every effect at once (no blend), e.g. after a teleport or a camera cut. */
  clear() {
    this._checkAlive();
    this._rigInternal.clearSmoothing();
    return this;
  }
}

/**
 * The character's facing for a helper rig over `bones`, in the frame of the
 * first bone's parent (the helper rig's root): a humanoid's (found in the
 * whole hierarchy the bones hang in, as IKRig finds it) or, without one,
 * undefined (IKRig's default: +Z of that frame).
 */
export function characterFacing(ikpd, bones) {
  let top = bones[0];
  while (top.parent) top = top.parent;
  const whole = new IKRig(ikpd, top);
  if (whole.humanoid.size === 0) return undefined;
  const facing = whole.facing; // in the world (the rig's root is the hierarchy's top)
  const base = bones[0].parent;
  if (base) {
    base.updateWorldMatrix(true, false);
    base.matrixWorld.decompose(new Vector3(), _q, new Vector3());
    facing.applyQuaternion(_q.invert());
  }
  return facing.toArray();
}

const _q = /* @__PURE__ */ new Quaternion();

/**
 * `helper` as users hold it (each helper's constructor returns this): writing a
 * property it does not have (`look.wieght = 1`) throws a TypeError naming it
 * with the nearest, as an unknown option does. `update` is handed out bound to
 * the helper itself, so a frame's work runs on the plain object (docs/three.md).
 */
export function guardHelper(helper) {
  const proxy = new Proxy(helper, HELPER_GUARD);
  helper._guardedUpdate = (dt) => { helper.update(dt); return proxy; };
  return proxy;
}

// The guard's traps, one object for every helper (as the constraints' GUARD, web/three/rig/ikConstraint.js).
const HELPER_GUARD = /* @__PURE__ */ Object.freeze({
  get: (target, key) => (key === 'update' ? target._guardedUpdate : Reflect.get(target, key)),
  set(target, key, value) {
    if (typeof key === 'string' && !(key in target) && !key.startsWith('_')) unknownProperty(target, key);
    return Reflect.set(target, key, value);
  },
});

function unknownProperty(helper, key) {
  const names = [];
  for (let o = helper; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      const d = Object.getOwnPropertyDescriptor(o, name);
      if (!name.startsWith('_') && name !== 'constructor' && typeof d.value !== 'function') names.push(name);
    }
  }
  checkHelperOptions({ [key]: true }, optionNames(names), helper._name);
  throw new TypeError(`${key}: not a property of ${helper._name}`);
}
