// API module 'rig' (see web/types/rig.d.ts): a character rig (docs/rig/rig.md),
// one object that owns a skeleton and an ordered stack of constraints and
// solves them all in one WebAssembly call per frame. Locals in, locals out,
// through Float32Array views of WASM memory (re-created after memory growth).
// Settings are packed once per add()/set() in the layout cpp/bindings/rig.cc
// reads: joints, the common settings, the kind's job description block (the
// same description the single calls use, web/src/fields.js) and its extras.
import { WasmObject, readNumber, readOptions, readVec3, readVector } from './core.js';
import { readRanged } from './fields.js';
import { checkOptionNames, nameSet } from './options.js';
import { LIMIT_FLOATS, readLimit } from './chain.js';

// The look-at limits and the policy for a target behind (docs/rig/look-at.md).
const LOOK_LIMITS = Object.freeze(['maxYaw', 'maxPitchUp', 'maxPitchDown', 'behind']);
// The gaze's limits and settle time: the look-ats turn their `eyes` joints with
// them (docs/rig/look-at.md, "Eyes"; the gaze runs without eye joints too).
const EYE_OPTIONS = Object.freeze(['eyeYaw', 'eyePitchUp', 'eyePitchDown', 'eyeSettleTime']);
export const KINDS = Object.freeze(['aim', 'twoBone', 'pseudoThreeBone', 'chain', 'lookAt', 'bodyLookAt', 'grounding']);
const FLOATS_PER_JOINT = 10; // tx ty tz qx qy qz qw sx sy sz
const FRAME_FLOATS = 12;
const RESULT_FLOATS = 4;
const GROUND_FLOATS = 8; // point xyz, normal xyz, hit, plant (docs/rig/grounding.md)
const PROBE_FLOATS = 6;  // sole xyz, hip xyz
const COMMON_FLOATS = 17;
const MAX_JOINTS = 1024;
const IDENTITY_LOCAL = Object.freeze([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]);
const GROUPS = Object.freeze(['spine', 'weightShift', 'armReaction']);
const LIMB = Object.freeze(['poleDirection', 'bendDirection', 'straightBend', 'minAngle', 'maxAngle', 'soften', 'maxStretch', 'twist', 'tolerance']);
const SMOOTHED = Object.freeze(['weight', 'enabled', 'settleTime', 'damping', 'blendOutTime']);

// The grounding's scalar options, packed in this order after legJoints
// (cpp/bindings/rig.cc), with their ranges and defaults (GroundingSettings in
// cpp/include/ikpd/rig/grounding.h); null: derived from the shortest leg.
const GROUND_OPTIONS = Object.freeze([
  { name: 'groundHeight', value: 0 },
  { name: 'maxPelvisDrop', value: null, min: 0 },
  { name: 'maxPelvisRise', value: null, min: 0 },
  { name: 'maxFootPitch', value: 0.7, min: 0, max: Math.fround(Math.PI / 2) },
  { name: 'maxFootRoll', value: 0.5, min: 0, max: Math.fround(Math.PI / 2) },
  { name: 'plantSpeed', value: 0.2, min: 0 },
  { name: 'plantHeight', value: null, min: 0 },
  { name: 'soften', value: 0.02, min: 0, max: 1 },
]);

// Per kind: the job description it reuses, which of its options the rig
// takes (the others are per-frame inputs, common settings or the rig's own),
// the common keys and the kind's extra keys.
const SPECS = Object.freeze({
  aim: { job: 'aim', options: ['method', 'hingeAxis', 'offset'], common: [...SMOOTHED, 'forward', 'up'], extras: [] },
  twoBone: { job: 'twoBone', options: [...LIMB, 'endRotation'], common: [...SMOOTHED, 'forward', 'bendAxis'], extras: [] },
  pseudoThreeBone: { job: 'pseudoThreeBone', options: [...LIMB, 'variant', 'endLimit'], common: [...SMOOTHED, 'forward', 'bendAxis'], extras: ['blend'] },
  chain: { job: 'chain', options: ['method', 'iterations', 'tolerance'], common: [...SMOOTHED, 'forward'], extras: ['limits'] },
  lookAt: { job: 'lookAt', options: ['offset', ...LOOK_LIMITS, 'maxSpeed', 'targetMotion', 'ki', ...EYE_OPTIONS], common: [...SMOOTHED, 'forward'], extras: ['weights', 'limits', 'eyes'] },
  bodyLookAt: { job: 'bodyLookAt', options: ['offset', 'footLock', ...LOOK_LIMITS, ...EYE_OPTIONS], common: ['weight', 'enabled', 'blendOutTime', 'forward'], extras: ['arms', 'legs', ...GROUPS, 'eyes'] },
  grounding: { job: null, options: GROUND_OPTIONS.map((o) => o.name), common: SMOOTHED, extras: ['pelvis', 'chest', 'legs', 'soleOffsets'] },
});
const RIG_OPTIONS = /* @__PURE__ */ nameSet('parents', 'names', 'rest', 'facing', 'up');
const KIND_INDEX = Object.freeze(Object.fromEntries(KINDS.map((k, i) => [k, i])));

function describeValue(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  return typeof value;
}

// An unknown key, by the one rule (web/src/options.js): a TypeError naming it and the nearest valid name.
function unknownKey(key, valid, what, prefix = '') {
  try {
    checkOptionNames({ [key]: true }, nameSet(valid), `Rig.${what}`, prefix);
  } catch (error) {
    return error;
  }
  return new TypeError(`${key}: unknown option of Rig.${what}`);
}

function readIndices(value, name, { min = 1, max = MAX_JOINTS } = {}) {
  if (!Array.isArray(value) && !ArrayBuffer.isView(value)) throw new TypeError(`${name}: expected an array of joint indices, got ${describeValue(value)}`);
  if (value.length < min || value.length > max) throw new RangeError(`${name}: needs ${min} to ${max} entries, got ${value.length}`);
  const out = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    if (typeof v !== 'number' || !Number.isInteger(v)) throw new TypeError(`${name}[${i}]: expected an integer, got ${describeValue(v)}`);
    out[i] = v;
  }
  return out;
}

function readIndex(value, name) {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new TypeError(`${name}: expected a joint index (an integer), got ${describeValue(value)}`);
  return value;
}

// Grounding legs: 2 or 4 arrays of [hip, knee, ankle] or [hip, knee, ankle, toe], all the same length.
function readLegs(value) {
  if (!Array.isArray(value) || (value.length !== 2 && value.length !== 4)) {
    throw new TypeError(`legs: expected 2 or 4 legs ([hip, knee, ankle, toe?] each), got ${describeValue(value)}`);
  }
  const out = value.map((leg, i) => {
    if (!Array.isArray(leg) && !ArrayBuffer.isView(leg)) throw new TypeError(`legs[${i}]: expected [hip, knee, ankle, toe?], got ${describeValue(leg)}`);
    if (leg.length !== 3 && leg.length !== 4) throw new RangeError(`legs[${i}]: needs 3 or 4 joints ([hip, knee, ankle, toe?]), got ${leg.length}`);
    return Array.from(leg, (j, k) => readIndex(j, `legs[${i}][${k}]`));
  });
  for (let i = 1; i < out.length; i++) {
    if (out[i].length !== out[0].length) throw new RangeError(`legs[${i}]: every leg needs as many joints as legs[0] (${out[0].length}), got ${out[i].length}`);
  }
  return out;
}

// A grounding constraint's joints: [pelvis] or [pelvis, chest].
const groundJoints = (values) => (values.chest === null || values.chest === undefined ? [values.pelvis] : [values.pelvis, values.chest]);

// Every option name a kind takes.
function kindOptions(kind) {
  const spec = SPECS[kind];
  return [...(kind === 'grounding' ? [] : ['joints']), ...spec.common, ...spec.options, ...spec.extras];
}

function readBoolean(value, name) {
  if (typeof value !== 'boolean') throw new TypeError(`${name}: expected a boolean, got ${describeValue(value)}`);
  return value;
}

// A Float32Array of `count` locals (10 floats each), checked finite, rotations non-zero.
function readLocals(value, name, count) {
  if (!(Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView)))) {
    throw new TypeError(`${name}: expected a Float32Array or array of ${FLOATS_PER_JOINT * count} numbers, got ${describeValue(value)}`);
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

const stale = (view) => view === null || view.buffer.byteLength === 0;

// A copy of plain data (arrays, typed arrays as arrays, plain objects); other values as they are.
function cloneData(value) {
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

export function createRigApi(core) {
  const x = core.wasm;
  const jobs = core.jobs;
  const dampingField = { ...jobs.lookAt.byName.damping, name: 'damping' };

  // ------------------------------------------------------------- defaults
  function groupDefaults(group) {
    const out = {};
    for (const f of jobs.bodyLookAt.options) {
      if (f.name.startsWith(`${group}.`)) out[f.name.slice(group.length + 1)] = jobs.bodyLookAt.defaultValues[f.name];
    }
    return out;
  }
  function kindDefaults(kind) {
    if (kind === 'grounding') {
      const out = { weight: 1, enabled: true, settleTime: 0.1, damping: 1, blendOutTime: 0.1, chest: null, soleOffsets: null };
      for (const o of GROUND_OPTIONS) out[o.name] = o.value;
      return out;
    }
    const spec = SPECS[kind];
    const job = jobs[spec.job];
    const out = { weight: 1, enabled: true };
    if (spec.common.includes('settleTime')) out.settleTime = kind === 'lookAt' ? job.defaultValues.settleTime : 0;
    if (spec.common.includes('damping')) out.damping = 1;
    out.blendOutTime = kind === 'bodyLookAt' ? job.defaultValues.blendOutTime : 0.1;
    for (const name of spec.options) out[name] = job.defaultValues[name];
    if (kind === 'pseudoThreeBone') out.blend = job.defaultValues.blend;
    if (kind === 'chain') out.limits = [];
    if (kind === 'lookAt' || kind === 'bodyLookAt') out.eyes = [];
    if (kind === 'bodyLookAt') {
      out.arms = [];
      out.legs = [];
      const spine = groupDefaults('spine');
      delete spine.headSettleTime;
      delete spine.pelvisSettleTime;
      out.spine = spine;
      out.weightShift = groupDefaults('weightShift');
      out.armReaction = groupDefaults('armReaction');
    }
    return out;
  }
  const freezeDeep = (o) => {
    for (const v of Object.values(o)) if (v !== null && typeof v === 'object') freezeDeep(v);
    return Object.freeze(o);
  };
  const DEFAULTS = freezeDeep(Object.fromEntries(KINDS.map((k) => [k, kindDefaults(k)])));

  // ------------------------------------------------------------- packing
  // Packs one constraint's settings (values: every key, defaults filled) at
  // f[0..]; returns nothing, throws naming the option.
  function packSettings(kind, values, f) {
    if (kind === 'grounding') return packGrounding(values, f);
    const spec = SPECS[kind];
    const joints = values.joints, arms = values.arms ?? [], legs = values.legs ?? [];
    let o = 0;
    f[o++] = joints.length;
    f[o++] = arms.length;
    f[o++] = legs.length;
    for (const list of [joints, arms, legs]) for (const j of list) f[o++] = j;
    // common
    f[o] = readNumber(values.weight, 'weight', { min: 0, max: 1 });
    f[o + 1] = readBoolean(values.enabled, 'enabled') ? 1 : 0;
    if (spec.common.includes('settleTime')) {
      const t = readNumber(values.settleTime, 'settleTime', { min: 0 });
      if (kind === 'lookAt' && !(t > 0)) throw new RangeError(`settleTime: must be > 0 for lookAt, got ${t}`);
      f[o + 2] = t;
      f[o + 3] = readRanged(values.damping, dampingField);
    } else {
      f[o + 2] = 0;
      f[o + 3] = 1;
    }
    f[o + 4] = readNumber(values.blendOutTime, 'blendOutTime', { min: 0 });
    const optional = (name, at) => {
      const v = values[name];
      if (v === undefined || v === null) {
        f.fill(0, at, at + 4);
      } else {
        readVec3(v, name, f, at);
        f[at + 3] = 1;
      }
    };
    optional('forward', o + 5);
    optional('bendAxis', o + 9);
    optional('up', o + 13);
    o += COMMON_FLOATS;
    // the kind's job block: its defaults, then the options the rig takes
    const job = jobs[spec.job];
    f.set(job.defaults, o);
    if (kind === 'bodyLookAt') {
      const flat = { offset: values.offset, footLock: values.footLock };
      for (const key of [...LOOK_LIMITS, ...EYE_OPTIONS]) flat[key] = values[key];
      for (const group of GROUPS) {
        for (const [key, v] of Object.entries(values[group])) {
          if (group === 'spine' && (key === 'weights' || key === 'limits' || key === 'settleTime')) continue;
          flat[`${group}.${key}`] = v;
        }
      }
      const settle = values.spine.settleTime;
      if (typeof settle === 'number' || typeof settle === 'string') {
        const field = { ...job.byName['spine.headSettleTime'], name: 'spine.settleTime' };
        flat['spine.headSettleTime'] = flat['spine.pelvisSettleTime'] = readRanged(settle, field);
      }
      job.packOptions(flat, f, o);
    } else {
      job.packOptions(values, f, o, spec.options);
    }
    o += job.floats;
    // extras
    const n = joints.length;
    const array = (value, name) => {
      if (value === undefined || value === null) return 0;
      readVector(value, name, n, f, o);
      o += n;
      return 1;
    };
    if (kind === 'pseudoThreeBone') {
      f[o] = readRanged(values.blend, job.byName.blend);
    } else if (kind === 'chain') {
      const limits = values.limits;
      if (!Array.isArray(limits)) throw new TypeError(`limits: expected an array, got ${describeValue(limits)}`);
      if (limits.length > n) throw new RangeError(`limits: at most one limit per joint (${n}), got ${limits.length}`);
      f[o++] = limits.length;
      for (let i = 0; i < limits.length; i++, o += LIMIT_FLOATS) readLimit(limits[i], `limits[${i}]`, f, o);
    } else if (kind === 'lookAt') {
      const flags = o;
      o += 2;
      f[flags] = array(values.weights, 'weights');
      f[flags + 1] = array(values.limits, 'limits');
    } else if (kind === 'bodyLookAt') {
      const spine = values.spine;
      const flags = o;
      o += 3;
      f[flags] = array(spine.weights, 'spine.weights');
      f[flags + 1] = array(spine.limits, 'spine.limits');
      const settle = spine.settleTime;
      f[flags + 2] = typeof settle === 'object' && settle !== null ? array(settle, 'spine.settleTime') : 0;
    }
    if (kind === 'lookAt' || kind === 'bodyLookAt') {
      const eyes = values.eyes ?? [];
      f[o++] = eyes.length;
      for (const j of eyes) f[o++] = j;
    }
    if (o > core.scratchFloats) throw new RangeError('joints: too many joints or limits for one constraint');
  }

  // The common block (weight, enabled, settleTime, damping, blendOutTime, no
  // axes) at f[o..]; returns the offset after it.
  function packCommon(values, f, o) {
    f[o] = readNumber(values.weight, 'weight', { min: 0, max: 1 });
    f[o + 1] = readBoolean(values.enabled, 'enabled') ? 1 : 0;
    f[o + 2] = readNumber(values.settleTime, 'settleTime', { min: 0 });
    f[o + 3] = readRanged(values.damping, dampingField);
    f[o + 4] = readNumber(values.blendOutTime, 'blendOutTime', { min: 0 });
    f.fill(0, o + 5, o + COMMON_FLOATS);
    return o + COMMON_FLOATS;
  }

  // Grounding (docs/rig/grounding.md): [pelvis, chest?], the legs, the common
  // block, legJoints and GROUND_OPTIONS (NaN: derived), then the sole offsets.
  function packGrounding(values, f) {
    const joints = groundJoints(values), legs = values.legs;
    let o = 0;
    f[o++] = joints.length;
    f[o++] = 0;
    f[o++] = legs.length * legs[0].length;
    for (const j of joints) f[o++] = j;
    for (const leg of legs) for (const j of leg) f[o++] = j;
    o = packCommon(values, f, o);
    f[o++] = legs[0].length;
    for (const { name, value, min = -Infinity, max = Infinity } of GROUND_OPTIONS) {
      const v = values[name];
      f[o++] = v === null && value === null ? NaN : readNumber(v, name, { min, max });
    }
    const soles = values.soleOffsets;
    if (soles === null || soles === undefined) {
      f[o++] = 0;
    } else {
      if (!(Array.isArray(soles) || ArrayBuffer.isView(soles)) || soles.length !== legs.length) {
        throw new TypeError(`soleOffsets: expected null or one number (or null) per leg (${legs.length}), got ${describeValue(soles)}`);
      }
      f[o++] = 1;
      for (let i = 0; i < legs.length; i++) {
        const v = soles[i];
        if (v === null || v === undefined) f[o++] = NaN;
        else if (typeof v !== 'number' || !(v > 0) || v === Infinity) throw new RangeError(`soleOffsets[${i}]: must be a finite number > 0 (or null: from the rest pose), got ${v}`);
        else f[o++] = v;
      }
    }
    if (o > core.scratchFloats) throw new RangeError('legs: too many joints for one constraint');
  }

  // Merges `changes` into `current` (a constraint's values), checking keys;
  // returns the new values (current is not modified).
  function merge(kind, current, changes) {
    readOptions(changes);
    const valid = kindOptions(kind);
    const next = { ...current };
    for (const key of Object.keys(changes)) {
      if (!valid.includes(key)) throw unknownKey(key, valid, kind);
      const value = changes[key];
      if (value === undefined) continue;
      if (GROUPS.includes(key)) {
        const group = readOptions(value, key);
        const groupValid = Object.keys(DEFAULTS.bodyLookAt[key]).concat(key === 'spine' ? ['weights', 'limits', 'settleTime'] : []);
        for (const k of Object.keys(group)) if (!groupValid.includes(k)) throw unknownKey(k, groupValid, kind, `${key}.`);
        next[key] = { ...current[key], ...cloneData(group) };
      } else if (kind === 'grounding' && (key === 'pelvis' || key === 'chest' || key === 'legs')) {
        next[key] = key === 'legs' ? readLegs(value) : key === 'chest' && value === null ? null : readIndex(value, key);
      } else if (key === 'joints' || key === 'arms' || key === 'legs' || key === 'eyes') {
        next[key] = readIndices(value, key, key === 'joints' ? {} : { min: 0, max: key === 'eyes' ? 2 : 6 });
      } else if (key === 'limits' && kind === 'chain') {
        if (!Array.isArray(value)) throw new TypeError(`limits: expected an array, got ${describeValue(value)}`);
        next[key] = cloneData(value);
      } else {
        next[key] = cloneData(value);
      }
    }
    return next;
  }

  // ------------------------------------------------------------- classes
  /** One constraint of a Rig; see RigConstraint in web/types/rig.d.ts. */
  class RigConstraint {
    #rig;
    #apply;
    #index;
    #kind;
    #values;
    #groundFirst;

    constructor(rig, apply, index, kind, values, groundFirst) {
      this.#rig = rig;
      this.#apply = apply;
      this.#index = index;
      this.#kind = kind;
      this.#values = values;
      this.#groundFirst = groundFirst;
    }

    /** Position in the rig's stack (and in rig.frames / rig.results). */
    get index() { return this.#index; }
    /** 'aim' | 'twoBone' | 'pseudoThreeBone' | 'chain' | 'lookAt' | 'bodyLookAt'. */
    get kind() { return this.#kind; }
    /** The joint indices (a copy; grounding: [pelvis] or [pelvis, chest]). */
    get joints() { return this.#kind === 'grounding' ? groundJoints(this.#values) : this.#values.joints.slice(); }
    /** Grounding: the number of legs (2 or 4); 0 for the other kinds. */
    get legCount() { return this.#kind === 'grounding' ? this.#values.legs.length : 0; }
    /** Index of this constraint's first float in rig.grounds (8 per leg). */
    get groundOffset() { return GROUND_FLOATS * this.#groundFirst; }
    /** Index of this constraint's first float in rig.probes (6 per leg). */
    get probeOffset() { return PROBE_FLOATS * this.#groundFirst; }
    /** Index of this constraint's first float in rig.frames. */
    get frameOffset() { return FRAME_FLOATS * this.#index; }
    /** Index of this constraint's first float in rig.results. */
    get resultOffset() { return RESULT_FLOATS * this.#index; }
    /** Every current setting (a frozen copy). */
    get options() { return freezeDeep(cloneData(this.#values)); }

    /** One current setting by name. */
    get(name) {
      const valid = Object.keys(this.#values);
      if (!valid.includes(name)) throw unknownKey(name, valid, this.#kind);
      const v = this.#values[name];
      return v !== null && typeof v === 'object' ? freezeDeep(cloneData(v)) : v;
    }

    /** Changes the settings given (validated, one WASM call); on an error nothing changes. */
    set(changes) {
      this.#rig.assertAlive();
      this.#values = this.#apply(this.#index, this.#kind, this.#values, changes);
      return this;
    }
  }

  /** A character rig (docs/rig/rig.md); see Rig in web/types/rig.d.ts. */
  class Rig extends WasmObject {
    #native;
    #count;
    #names;
    #pointer;
    #changedPointer;
    #floats = null;
    #input = null;
    #output = null;
    #root = null;
    #rest = null;
    #changed = null;
    #frames = null;
    #results = null;
    #grounds = null;
    #probes = null;
    #legs = 0;
    #constraints = [];

    constructor(options) {
      readOptions(options);
      checkOptionNames(options, RIG_OPTIONS, 'Rig');
      // Every JS input is read before WASM memory is touched.
      const parents = readIndices(options.parents, 'parents', { min: 1, max: MAX_JOINTS });
      const n = parents.length;
      for (let i = 0; i < n; i++) {
        if (parents[i] < -1 || parents[i] >= i) throw new RangeError(`parents[${i}]: must be -1 or the index of an earlier joint, got ${parents[i]}`);
      }
      let names = null;
      if (options.names !== undefined) {
        if (!Array.isArray(options.names) || options.names.length !== n) throw new TypeError(`names: expected an array of ${n} strings`);
        names = options.names.map((s, i) => {
          if (typeof s !== 'string') throw new TypeError(`names[${i}]: expected a string, got ${describeValue(s)}`);
          return s;
        });
      }
      const rest = options.rest === undefined ? null : readLocals(options.rest, 'rest', n);
      const facing = new Float32Array([0, 0, 1, 0, 1, 0]);
      if (options.facing !== undefined) readVec3(options.facing, 'facing', facing, 0);
      if (options.up !== undefined) readVec3(options.up, 'up', facing, 3);
      for (const [name, at] of [['facing', 0], ['up', 3]]) {
        if (facing[at] === 0 && facing[at + 1] === 0 && facing[at + 2] === 0) throw new RangeError(`${name}: must not be zero`);
      }

      const native = new x.Rig();
      try {
        core.check(native.allocate(n));
        const f = new Float32Array(core.heapF32.buffer, native.buffer() >>> 0, 30 * n + 10 + n);
        if (rest !== null) f.set(rest, 20 * n + 10);
        for (let i = 0; i < n; i++) f[30 * n + 10 + i] = parents[i];
        core.check(native.init());
        core.check(native.setFacing(facing[0], facing[1], facing[2]));
        core.check(native.setUp(facing[3], facing[4], facing[5]));
      } catch (error) {
        native.delete();
        throw error;
      }
      super('Rig', () => native.delete());
      this.#native = native;
      this.#count = n;
      this.#names = names;
      this.#pointer = native.buffer() >>> 0;
      this.#changedPointer = native.changed() >>> 0;
      // The animated input starts at the rest pose.
      this.#views();
      this.#input.set(this.#rest);
      this.#output.set(this.#rest);
    }

    // Views over the handle's buffer (re-created after WASM memory growth).
    #views() {
      if (stale(this.#floats)) {
        const n = this.#count;
        const buffer = core.heapF32.buffer;
        this.#floats = new Float32Array(buffer, this.#pointer, 30 * n + 10);
        this.#input = this.#floats.subarray(0, 10 * n);
        this.#output = this.#floats.subarray(10 * n, 20 * n);
        this.#root = this.#floats.subarray(20 * n, 20 * n + 10);
        this.#rest = this.#floats.subarray(20 * n + 10, 30 * n + 10);
        this.#changed = new Uint8Array(buffer, this.#changedPointer, n);
        this.#frames = null;
      }
      if (stale(this.#frames) || this.#frames.length !== FRAME_FLOATS * this.#constraints.length) {
        const m = this.#constraints.length;
        const buffer = core.heapF32.buffer;
        this.#frames = new Float32Array(buffer, m === 0 ? 0 : this.#native.frames() >>> 0, FRAME_FLOATS * m);
        this.#results = new Float32Array(buffer, m === 0 ? 0 : this.#native.results() >>> 0, RESULT_FLOATS * m);
        this.#grounds = null;
      }
      if (stale(this.#grounds) || this.#grounds.length !== GROUND_FLOATS * this.#legs) {
        const legs = this.#legs;
        const buffer = core.heapF32.buffer;
        this.#grounds = new Float32Array(buffer, legs === 0 ? 0 : this.#native.grounds() >>> 0, GROUND_FLOATS * legs);
        this.#probes = new Float32Array(buffer, legs === 0 ? 0 : this.#native.probes() >>> 0, PROBE_FLOATS * legs);
      }
    }

    /** Number of joints. */
    get count() { this.assertAlive(); return this.#count; }
    /** Joint names given to the constructor (a copy), or null. */
    get names() { this.assertAlive(); return this.#names === null ? null : this.#names.slice(); }
    /** Index of the joint called `name`, or -1. */
    find(name) {
      this.assertAlive();
      return this.#names === null ? -1 : this.#names.indexOf(name);
    }
    /** Float32Array(10 × count): the animated locals, tx ty tz qx qy qz qw sx sy sz per joint. */
    get input() { this.assertAlive(); this.#views(); return this.#input; }
    /** Float32Array(10 × count): the solved locals after update(). */
    get output() { this.assertAlive(); this.#views(); return this.#output; }
    /** Uint8Array(count): 1 where output differs from input after update(). */
    get changed() { this.assertAlive(); this.#views(); return this.#changed; }
    /** Float32Array(10): the root transform (the skeleton root's parent, world space). */
    get root() { this.assertAlive(); this.#views(); return this.#root; }
    /** Float32Array(12 × constraints): target xyz, pole xyz, effectorOffset xyz, poleSet, 2 reserved. */
    get frames() { this.assertAlive(); this.#views(); return this.#frames; }
    /** Float32Array(4 × constraints): reached, distance, iterations, active. */
    get results() { this.assertAlive(); this.#views(); return this.#results; }
    /** Float32Array(8 × legs): per grounding leg point xyz, normal xyz, hit, plant (world; fill before update()). */
    get grounds() { this.assertAlive(); this.#views(); return this.#grounds; }
    /** Float32Array(6 × legs): per grounding leg the animated sole xyz and hip xyz (world), filled by probe(). */
    get probes() { this.assertAlive(); this.#views(); return this.#probes; }
    /** The constraints in stack order (a copy of the list). */
    get constraints() { this.assertAlive(); return this.#constraints.slice(); }

    /** New rest pose (default: identity locals); re-detects every constraint's axes. */
    setRest(locals) {
      this.assertAlive();
      const n = this.#count;
      const rest = locals === undefined ? null : readLocals(locals, 'rest', n);
      this.#views();
      const saved = this.#rest.slice();
      if (rest === null) for (let j = 0; j < n; j++) this.#rest.set(IDENTITY_LOCAL, FLOATS_PER_JOINT * j);
      else this.#rest.set(rest);
      try {
        core.check(this.#native.setRest());
      } catch (error) {
        this.#views();
        this.#rest.set(saved);
        throw error;
      }
      return this;
    }

    /** Model-space character forward (default [0, 0, 1]); re-detects axes. */
    setFacing(v) {
      this.assertAlive();
      const f = new Float32Array(3);
      readVec3(v, 'facing', f, 0);
      core.check(this.#native.setFacing(f[0], f[1], f[2]));
      return this;
    }

    /** Model-space up (default [0, 1, 0]); re-detects axes. */
    setUp(v) {
      this.assertAlive();
      const f = new Float32Array(3);
      readVec3(v, 'up', f, 0);
      core.check(this.#native.setUp(f[0], f[1], f[2]));
      return this;
    }

    /** Appends a constraint; see RigConstraintOptions. Throws with nothing added on error. */
    add(kind, options) {
      this.assertAlive();
      if (typeof kind !== 'string' || !KINDS.includes(kind)) {
        throw new RangeError(`kind: expected one of ${KINDS.map((k) => `'${k}'`).join(', ')}, got ${typeof kind === 'string' ? `'${kind}'` : describeValue(kind)}`);
      }
      readOptions(options);
      if (kind === 'grounding') {
        if (options.pelvis === undefined) throw new TypeError('pelvis: required (a joint index)');
        if (options.legs === undefined) throw new TypeError('legs: required (2 or 4 legs of [hip, knee, ankle, toe?])');
      } else if (options.joints === undefined) {
        throw new TypeError('joints: required (an array of joint indices)');
      }
      const values = merge(kind, cloneData(DEFAULTS[kind]), options);
      packSettings(kind, values, core.scratch);
      core.check(this.#native.add(KIND_INDEX[kind], core.scratchPointer));
      const c = new RigConstraint(this, (i, k, current, changes) => this.#apply(i, k, current, changes), this.#constraints.length, kind, values, this.#legs);
      if (kind === 'grounding') this.#legs += values.legs.length;
      this.#constraints.push(c);
      this.#frames = null;  // the rig's frames (and grounds, probes) moved
      return c;
    }

    #apply(index, kind, current, changes) {
      this.assertAlive();
      const values = merge(kind, current, changes);
      packSettings(kind, values, core.scratch);
      core.check(this.#native.set(index, core.scratchPointer));
      return values;
    }

    /** Fills rig.probes from rig.input and rig.root (one WASM call); throws as update() on bad input. */
    probe() {
      this.assertAlive();
      core.check(this.#native.probe());
      return this;
    }

    /** Solves one frame (one WASM call): dt seconds, finite and >= 0. Throws with nothing changed on error. */
    update(dt) {
      this.assertAlive();
      if (typeof dt !== 'number' || !(dt >= 0) || dt === Infinity) {
        if (typeof dt !== 'number') throw new TypeError(`dt: expected a number, got ${describeValue(dt)}`);
        throw new RangeError(`dt: must be finite and >= 0, got ${dt}`);
      }
      core.check(this.#native.update(dt));
      return this;
    }
  }
  Rig.defaults = DEFAULTS;
  Rig.kinds = KINDS;
  /** Every option name each kind takes (`joints` and, for bodyLookAt, `arms`/`legs` included). */
  Rig.options = Object.freeze(Object.fromEntries(KINDS.map((kind) => [kind, Object.freeze(kindOptions(kind))])));

  return { Rig };
}
