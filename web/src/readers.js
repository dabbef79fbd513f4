// The argument readers every JS wrapper shares (and web/src/fields.js, which
// packs the described jobs with them). A leaf module: it imports nothing, so
// core.js and fields.js both depend on it without importing each other.
// Each reader checks type and shape, throws TypeError/RangeError naming the
// parameter, and writes float32 values into `out` at `offset`. The ranges of
// a job's numbers come from its C++ description (web/src/fields.js); other
// value rules are left to C++ unless JS must know them to pack the data.

/**
 * A value as the errors of every layer name what they got: 'null', "an array
 * of length 3", "a Float32Array of length 3", a class instance by its class
 * ('Vector3'), else its type ('object', 'string').
 */
export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${value.length}`;
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto !== null && proto !== Object.prototype && typeof proto.constructor?.name === 'string' && proto.constructor.name) return proto.constructor.name;
  }
  return typeof value;
}

// Formats any value for an error message without throwing (Symbols, BigInts,
// objects without toString and cyclic objects included).
function show(value) {
  switch (typeof value) {
    case 'number': case 'boolean': case 'undefined': return String(value);
    case 'string': return JSON.stringify(value);
    case 'bigint': return `${value}n`;
    case 'symbol': return value.toString();
    default: return describe(value);
  }
}

function isArrayLike(value) {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
}

const NO_LIMITS = Object.freeze({});

/** The largest float32 (C++ FLT_MAX): vectors, quaternions and joints cross to C++ as float32. */
export const FLOAT_MAX = 3.4028234663852886e38;

// Whether the number `x` stays finite as a float32 (NaN, ±Infinity and 1e39
// do not): the test of every vector component read here.
const isFloat32 = (x) => x <= FLOAT_MAX && x >= -FLOAT_MAX;

/** Reads a finite number; `name` is used in errors. */
export function readNumber(value, name, limits) {
  if (limits === undefined && typeof value === 'number' && Number.isFinite(value)) return value;
  return readNumberChecked(value, name, limits ?? NO_LIMITS);
}

function readNumberChecked(value, name, { min = -Infinity, max = Infinity, integer = false }) {
  if (typeof value !== 'number') throw new TypeError(`${name}: expected a number, got ${describe(value)}`);
  if (!Number.isFinite(value)) throw new RangeError(`${name}: must be finite, got ${value}`);
  if (integer && !Number.isInteger(value)) throw new RangeError(`${name}: must be an integer, got ${value}`);
  if (value < min || value > max) throw new RangeError(`${name}: must be in [${min}, ${max}], got ${value}`);
  return value;
}

/** Reads an array (or typed array) of `length` finite numbers into out[offset..]. */
export function readVector(value, name, length, out, offset) {
  if (!isArrayLike(value) || value.length !== length) {
    const object = length === 3 ? ', or {x, y, z}' : length === 4 ? ', or {x, y, z, w}' : '';
    throw new TypeError(`${name}: expected an array of ${length} numbers${object}, got ${describe(value)}`);
  }
  for (let i = 0; i < length; i++) {
    const v = value[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new RangeError(`${name}[${i}]: must be a finite number, got ${show(v)}`);
    }
    if (!isFloat32(v)) throw new RangeError(`${name}[${i}]: must be finite as a 32-bit float (|x| <= ${FLOAT_MAX}), got ${v}`);
    out[offset + i] = v;
  }
}

// Fast paths of readVec3 and readQuat, unrolled (about half the time of the
// loop in readVector): copy the value to out[offset..] and return true when it
// is valid; return false, writing nothing, otherwise (the full reader then
// throws the precise error).
function tryReadVec3(value, out, offset) {
  if (!isArrayLike(value) || value.length !== 3) return false;
  const x = value[0], y = value[1], z = value[2];
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') return false;
  if (!isFloat32(x) || !isFloat32(y) || !isFloat32(z)) return false;
  out[offset] = x;
  out[offset + 1] = y;
  out[offset + 2] = z;
  return true;
}

function tryReadQuat(value, out, offset) {
  if (!isArrayLike(value) || value.length !== 4) return false;
  const x = value[0], y = value[1], z = value[2], w = value[3];
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number' || typeof w !== 'number') return false;
  if (!isFloat32(x) || !isFloat32(y) || !isFloat32(z) || !isFloat32(w)) return false;
  if (!(x * x + y * y + z * z + w * w > 1e-12)) return false;
  out[offset] = x;
  out[offset + 1] = y;
  out[offset + 2] = z;
  out[offset + 3] = w;
  return true;
}

// An object with finite numeric x, y, z (and w for length 4) properties, such
// as a three.js Vector3 or Quaternion: copied to out[offset..] (true), else
// false, writing nothing. Only tried after the array fast path failed, so
// arrays pay nothing for it.
function tryReadXYZ(value, out, offset, length) {
  if (value === null || typeof value !== 'object' || isArrayLike(value)) return false;
  const x = value.x, y = value.y, z = value.z, w = length === 4 ? value.w : 0;
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number' || typeof w !== 'number') return false;
  if (!isFloat32(x) || !isFloat32(y) || !isFloat32(z) || !isFloat32(w)) return false;
  if (length === 4 && !(x * x + y * y + z * z + w * w > 1e-12)) return false;
  out[offset] = x;
  out[offset + 1] = y;
  out[offset + 2] = z;
  if (length === 4) out[offset + 3] = w;
  return true;
}

// [x, y, z(, w)] of an object with numeric x, y, z (and w), for the precise
// error of readVector (which element is not finite); null for anything else.
function fromXYZ(value, length) {
  if (value === null || typeof value !== 'object' || isArrayLike(value)) return null;
  if (typeof value.x !== 'number' || typeof value.y !== 'number' || typeof value.z !== 'number') return null;
  if (length === 4) return typeof value.w === 'number' ? [value.x, value.y, value.z, value.w] : null;
  return [value.x, value.y, value.z];
}

/**
 * Reads a vector into out[offset..]: `[x, y, z]`, a Float32Array/Float64Array
 * of length 3, or an `{x, y, z}` object (a three.js Vector3), finite numbers.
 */
export function readVec3(value, name, out, offset) {
  if (tryReadVec3(value, out, offset) || tryReadXYZ(value, out, offset, 3)) return;
  readVector(fromXYZ(value, 3) ?? value, name, 3, out, offset);
}

/**
 * Reads a quaternion `[x, y, z, w]` (three.js order), a typed array of length 4
 * or an `{x, y, z, w}` object (a three.js Quaternion); it need not be unit but
 * must not be zero.
 */
export function readQuat(value, name, out, offset) {
  if (tryReadQuat(value, out, offset) || tryReadXYZ(value, out, offset, 4)) return;
  const q = fromXYZ(value, 4) ?? value;
  readVector(q, name, 4, out, offset);
  const n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (!(n > 1e-12)) throw new RangeError(`${name}: quaternion must not be zero`);
}

const IDENTITY = Object.freeze([0, 0, 0, 1]);

/**
 * Fast path of readTransform, for callers that would otherwise build a name per
 * joint: packs a valid joint at out[offset..offset+7) and returns true; returns
 * false otherwise (readTransform then throws the precise error).
 */
export function tryReadTransform(value, out, offset) {
  if (value === null || typeof value !== 'object') return false;
  return tryReadVec3(value.position, out, offset) && tryReadQuat(value.rotation ?? IDENTITY, out, offset + 3);
}

/** Reads a world-space joint {position, rotation} into out[offset..offset+7). */
export function readTransform(value, name, out, offset) {
  if (tryReadTransform(value, out, offset)) return;
  if (value === null || typeof value !== 'object') {
    throw new TypeError(`${name}: expected {position, rotation}, got ${describe(value)}`);
  }
  readVec3(value.position, `${name}.position`, out, offset);
  readQuat(value.rotation ?? IDENTITY, `${name}.rotation`, out, offset + 3);
}

/** Returns the index of `value` in `allowed` (an array of strings), or throws naming the options. */
export function readEnum(value, name, allowed) {
  const index = allowed.indexOf(value);
  if (index < 0) {
    throw new RangeError(`${name}: expected one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${show(value)}`);
  }
  return index;
}

/** Throws when `value` is not an array; returns it. */
export function readArray(value, name) {
  if (!Array.isArray(value)) throw new TypeError(`${name}: expected an array, got ${value === null ? 'null' : typeof value}`);
  return value;
}

/** Throws when `options` is not a plain object. */
export function readOptions(options, name = 'options') {
  if (options === null || typeof options !== 'object' || Array.isArray(options) || ArrayBuffer.isView(options)) {
    throw new TypeError(`${name}: expected an object, got ${describe(options)}`);
  }
  return options;
}

/** `value` when it is a boolean; otherwise a TypeError naming it. */
export function readBoolean(value, name) {
  if (typeof value !== 'boolean') throw new TypeError(`${name}: expected a boolean, got ${describe(value)}`);
  return value;
}

/** A frame's `enabled` flag (default true) as the 0/1 the rigs' update() takes. */
export function readEnabled(frame) {
  const enabled = frame.enabled ?? true;
  if (typeof enabled !== 'boolean') throw new TypeError('enabled: expected a boolean');
  return enabled ? 1 : 0;
}

export const vec3From = (f, o) => [f[o], f[o + 1], f[o + 2]];
export const quatFrom = (f, o) => [f[o], f[o + 1], f[o + 2], f[o + 3]];
export const transformFrom = (f, o) => ({ position: vec3From(f, o), rotation: quatFrom(f, o + 3) });

// f[o..o+n) (n = 3 or 4) written into `array` when it is an array, Float32Array or
// Float64Array of length n, else into a new array.
function fillArray(array, f, o, n) {
  const reusable = Array.isArray(array) || array instanceof Float32Array || array instanceof Float64Array;
  if (!reusable || array.length !== n) return n === 3 ? vec3From(f, o) : quatFrom(f, o);
  array[0] = f[o];
  array[1] = f[o + 1];
  array[2] = f[o + 2];
  if (n === 4) array[3] = f[o + 3];
  return array;
}
/** Writes a quaternion f[o..o+4) into `array` (a previous result's), or returns a new array. */
export const fillQuat = (array, f, o) => fillArray(array, f, o, 4);
/**
 * Writes a joint f[o..o+7) into `joint` (a previous result's), reusing its position and
 * rotation arrays (or Float32/Float64Arrays) of the right length; returns it, or a new joint
 * when it is not an object.
 */
export function fillTransform(joint, f, o) {
  if (joint === null || typeof joint !== 'object') return transformFrom(f, o);
  // Stores only a new array: re-storing the same one still costs a write barrier.
  const position = fillArray(joint.position, f, o, 3);
  const rotation = fillArray(joint.rotation, f, o + 3, 4);
  if (position !== joint.position) joint.position = position;
  if (rotation !== joint.rotation) joint.rotation = rotation;
  return joint;
}

/**
 * Packs the joints of `list` at out[offset..] (7 floats each) and returns the
 * offset after them; a bad one throws naming `name[i]`, a name built only then,
 * so a frame allocates nothing.
 */
export function readTransforms(list, name, out, offset) {
  for (let i = 0; i < list.length; i++, offset += 7) {
    if (!tryReadTransform(list[i], out, offset)) readTransform(list[i], `${name}[${i}]`, out, offset);
  }
  return offset;
}

/** Writes `count` solved joints f[o..] into `joints` (resized, entries reused); returns the offset after them. */
export function fillJoints(joints, count, f, o) {
  if (joints.length !== count) joints.length = count;
  for (let i = 0; i < count; i++, o += 7) joints[i] = fillTransform(joints[i], f, o);
  return o;
}
