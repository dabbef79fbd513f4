// The character rig's layout constants (the ones cpp/bindings/rig/rig.cc
// reads) and the readers of its options; each constraint kind is a file of
// web/src/rig/kinds/ (docs/rig/rig.md).
import { describe, readVector } from '../readers.js';
import { checkOptionNames, nameSet } from '../options.js';
import { constraintFrame, constraintResult, groundHit, groundProbe, targetPose, localTransform } from './records.js';

// Records C++ shares by memory, their sizes from the structs (records.js).
export const FLOATS_PER_JOINT = localTransform.floats; // tx ty tz qx qy qz qw sx sy sz
export const FRAME_FLOATS = constraintFrame.floats;
export const RESULT_FLOATS = constraintResult.floats;
export const GROUND_FLOATS = groundHit.floats; // point xyz, normal xyz, hit, plant, edge (docs/rig/grounding.md)
export const PROBE_FLOATS = groundProbe.floats; // sole xyz, hip xyz
export const TARGET_FLOATS = targetPose.floats; // position xyz, rotation xyzw, weight (docs/rig/avatar.md)
export const MAX_JOINTS = 1024;
export const IDENTITY_LOCAL = Object.freeze([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]);
export const RIG_OPTIONS = /* @__PURE__ */ nameSet('parents', 'names', 'rest', 'facing', 'up');

// An unknown key, by the one rule (web/src/options.js): a TypeError naming it and the nearest valid name.
export function unknownKey(key, valid, what, prefix = '') {
  try {
    checkOptionNames({ [key]: true }, nameSet(valid), `Rig.${what}`, prefix);
  } catch (error) {
    return error;
  }
  return new TypeError(`${key}: unknown option of Rig.${what}`);
}

export function readIndices(value, name, { min = 1, max = MAX_JOINTS } = {}) {
  if (!Array.isArray(value) && !ArrayBuffer.isView(value)) throw new TypeError(`${name}: expected an array of joint indices, got ${describe(value)}`);
  if (value.length < min || value.length > max) throw new RangeError(`${name}: needs ${min} to ${max} entries, got ${value.length}`);
  const out = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new TypeError(`${name}[${i}]: expected an integer, got ${describe(v)}`);
    out[i] = v;
  }
  return out;
}

export function readIndex(value, name) {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new TypeError(`${name}: expected a joint index (an integer), got ${describe(value)}`);
  return value;
}

// Grounding legs: 2 or 4 arrays of [hip, knee, ankle] or [hip, knee, ankle, toe], all the same length.
export function readLegs(value) {
  if (!Array.isArray(value) || (value.length !== 2 && value.length !== 4)) {
    throw new TypeError(`legs: expected 2 or 4 legs ([hip, knee, ankle, toe?] each), got ${describe(value)}`);
  }
  const out = value.map((leg, i) => {
    if (!Array.isArray(leg) && !ArrayBuffer.isView(leg)) throw new TypeError(`legs[${i}]: expected [hip, knee, ankle, toe?], got ${describe(leg)}`);
    if (leg.length !== 3 && leg.length !== 4) throw new RangeError(`legs[${i}]: needs 3 or 4 joints ([hip, knee, ankle, toe?]), got ${leg.length}`);
    return Array.from(leg, (j, k) => readIndex(j, `legs[${i}][${k}]`));
  });
  for (let i = 1; i < out.length; i++) {
    if (out[i].length !== out[0].length) throw new RangeError(`legs[${i}]: every leg needs as many joints as legs[0] (${out[0].length}), got ${out[i].length}`);
  }
  return out;
}

// A Float32Array of `count` locals (10 floats each), checked finite, rotations non-zero.
export function readLocals(value, name, count) {
  if (!(Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView)))) {
    throw new TypeError(`${name}: expected a Float32Array or array of ${FLOATS_PER_JOINT * count} numbers, got ${describe(value)}`);
  }
  const out = new Float32Array(FLOATS_PER_JOINT * count);
  readVector(value, name, out.length, out, 0);
  for (let j = 0; j < count; j++) {
    const o = FLOATS_PER_JOINT * j;
    if (!(out[o + 3] ** 2 + out[o + 4] ** 2 + out[o + 5] ** 2 + out[o + 6] ** 2 > 1e-12)) {
      throw new RangeError(`${name}[${o + 3}]: joint ${j}'s rotation must not be zero`);
    }
  }
  return out;
}

/** A frame's dt: a number, finite and >= 0 (Rig.update, RigBatch.update). */
export function readDt(dt) {
  if (typeof dt === 'number' && dt >= 0 && dt !== Infinity) return dt;
  if (typeof dt !== 'number') throw new TypeError(`dt: expected a number, got ${describe(dt)}`);
  throw new RangeError(`dt: must be finite and >= 0, got ${dt}`);
}

export const stale = (view) => view === null || view.buffer.byteLength === 0;

// A copy of plain data (arrays, typed arrays as arrays, plain objects); other values as they are.
export function cloneData(value) {
  if (Array.isArray(value) || ArrayBuffer.isView(value)) return Array.from(value, cloneData);
  if (value === null || typeof value !== 'object') return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    // A three.js Vector3/Quaternion-like object: its components.
    if (typeof value.x === 'number' && typeof value.y === 'number' && typeof value.z === 'number') {
      return typeof value.w === 'number' ? [value.x, value.y, value.z, value.w] : [value.x, value.y, value.z];
    }
    return value;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cloneData(v)]));
}

// A deep-frozen object (in place): the defaults and every copy of a constraint's settings.
export const freezeDeep = (o) => {
  for (const v of Object.values(o)) if (v !== null && typeof v === 'object') freezeDeep(v);
  return Object.freeze(o);
};
