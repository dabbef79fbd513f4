// Shared readers of the ikpd/three helpers: points, axes, weights, the loaded
// module, bone chains' descent and helper options, each throwing an error that
// names the parameter; and a bone's axis as its child shows it.
import { Quaternion, Vector3 } from 'three';

import { checkOptionNames, nameSet } from '../src/options.js';
import { missingArea, sharedProperty } from '../src/core.js';
import { describe } from '../src/readers.js';

const NAMED_AXES = {
  '+x': [1, 0, 0], '-x': [-1, 0, 0],
  '+y': [0, 1, 0], '-y': [0, -1, 0],
  '+z': [0, 0, 1], '-z': [0, 0, -1],
};

// A value as errors name it (one helper for every layer).
export { describe };
// One property descriptor per name, shared by every object given it (one helper for every layer).
export { sharedProperty };

function isArrayLike(value) {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
}

/**
 * Reads a world-space point from an Object3D (its world position), a Vector3
 * or an `[x, y, z]` array into `out`. Throws a TypeError naming `name`.
 */
export function readPoint(value, name, out) {
  if (value?.isObject3D) {
    value.updateWorldMatrix(true, false);
    return out.setFromMatrixPosition(value.matrixWorld);
  }
  if (value?.isVector3) return out.copy(value);
  if (isArrayLike(value) && value.length === 3) return out.fromArray(value);
  throw new TypeError(`${name}: expected an Object3D, a Vector3 or [x, y, z], got ${describe(value)}`);
}

/**
 * Resolves an axis option: `'+x' | '-x' | '+y' | '-y' | '+z' | '-z'`, a
 * Vector3 or an `[x, y, z]` array, normalized into `out`. Returns null for
 * `'auto'` (or undefined). Throws naming `name` for anything else.
 */
export function readAxis(value, name, out) {
  if (value === undefined || value === 'auto') return null;
  let source = null;
  if (typeof value === 'string') source = NAMED_AXES[value.toLowerCase()];
  else if (value?.isVector3) source = [value.x, value.y, value.z];
  else if (isArrayLike(value) && value.length === 3) source = value;
  if (!source) {
    throw new TypeError(`${name}: expected 'auto', '+x', '-x', '+y', '-y', '+z', '-z', a Vector3 or [x, y, z], got ${JSON.stringify(value) ?? describe(value)}`);
  }
  out.fromArray(source);
  const length = out.length();
  if (!Number.isFinite(length) || length < 1e-8) throw new RangeError(`${name}: must be a finite non-zero vector`);
  return out.divideScalar(length);
}

const _position = /* @__PURE__ */ new Vector3();
const _rotation = /* @__PURE__ */ new Quaternion();
const _scale = /* @__PURE__ */ new Vector3();

/**
 * Detects `bone`'s forward axis: the direction from `bone` to `child` in the
 * bone's rotation frame (so it works through intermediate bones and scaled
 * parents), unit, in `out`. Returns null when the child sits on the bone
 * (zero offset). Brings both world matrices up to date.
 */
export function detectBoneAxis(bone, child, out = new Vector3()) {
  child.updateWorldMatrix(true, false);
  bone.matrixWorld.decompose(_position, _rotation, _scale);
  out.setFromMatrixPosition(child.matrixWorld).sub(_position).applyQuaternion(_rotation.invert());
  const length = out.length();
  if (!(length > 1e-6 * Math.max(1, _position.length()))) return null;
  return out.divideScalar(length);
}

/**
 * The default up axis for a forward axis, in `out`: +Y unless the forward is
 * (nearly) ±Y, then +Z.
 */
export function defaultUpAxis(forward, out = new Vector3()) {
  if (Math.abs(forward.y) < 0.9) return out.set(0, 1, 0);
  return out.set(0, 0, 1);
}

/** True when `ancestor` is above `object` in its hierarchy. */
export function isDescendant(object, ancestor) {
  for (let o = object.parent; o; o = o.parent) if (o === ancestor) return true;
  return false;
}

/** Throws unless `weight` is a number in [0, 1]. */
export function readWeight(weight, name = 'weight') {
  if (typeof weight !== 'number' || !(weight >= 0 && weight <= 1)) {
    throw new RangeError(`${name}: must be a number in [0, 1], got ${weight}`);
  }
  return weight;
}

export const toArray3 = (v) => [v.x, v.y, v.z];

/**
 * Checks the first constructor argument of a helper: the library as
 * `await init()` gives it (having `method`), with a clear TypeError for a
 * Promise (a forgotten `await`) or anything else, and an Error when the
 * helper needs an `area` the loaded module does not have.
 */
export function readModule(ikpd, helper, method, area) {
  if (typeof ikpd?.then === 'function') {
    throw new TypeError(`${helper}: ikpd: got a Promise; pass the initialised module (const ikpd = await init())`);
  }
  if (ikpd === null || typeof ikpd !== 'object' || typeof ikpd[method] !== 'function') {
    throw new TypeError(`${helper}: ikpd: expected the initialised module from await init(), got ${describe(ikpd)}`);
  }
  if (area !== undefined && !ikpd.areas.includes(area)) throw missingArea(helper, area, ikpd.areas);
  return ikpd;
}

/**
 * Throws a RangeError unless every bone is a descendant of the one before it
 * (its child, or deeper through twist or helper bones): sibling bones would
 * be solved as a limb they are not, and writing them would move nothing.
 */
export function checkDescent(bones, name = 'bones') {
  for (let i = 1; i < bones.length; i++) {
    if (!isDescendant(bones[i], bones[i - 1])) {
      const label = (j) => (bones[j].name ? `'${bones[j].name}'` : `${name}[${j}]`);
      throw new RangeError(`${name}: ${label(i)} is not a descendant of ${label(i - 1)}; pass a parent → child chain`);
    }
  }
}

/**
 * Checks a helper's options: an object, every name known (`poll:` for
 * `pole:` is a TypeError naming it, with the nearest valid name: the rule of
 * every ikpd entry point, core's checkOptionNames).
 */
export function checkHelperOptions(options, known, helper) {
  readOptionsObject(options, helper);
  return checkOptionNames(options, known, helper);
}

function readOptionsObject(options, helper) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${helper}: options: expected an object, got ${describe(options)}`);
  }
}

/** The Set of option names `names` (arrays or strings), for checkHelperOptions. */
export const optionNames = nameSet;
