// A rig constraint's settings (docs/rig/rig.md): every kind's defaults, the packing
// of one constraint's settings in the layout cpp/bindings/rig/rig.cc reads (joints,
// the common settings, the kind's job description block — the same description
// the single calls use, web/src/fields.js — and its extras), and the merge of
// changes into the current settings.
import { readBoolean, readNumber, readOptions, readVec3, readVector } from '../readers.js';
import { readRanged } from '../fields.js';
import { LIMIT_FLOATS, readLimit } from '../ik/chain.js';
import {
  COMMON_FLOATS, EYE_OPTIONS, GROUPS, KINDS, LOOK_LIMITS, SPECS,
  cloneData, describeValue, freezeDeep, groundJoints, kindOptions, readIndex, readIndices, readLegs, unknownKey,
} from './rigKinds.js';

/** The settings functions of the rig over `core`: { DEFAULTS, packSettings, merge }. */
export function createRigSettings(core) {
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
      return { weight: 1, enabled: true, settleTime: 0.1, damping: 1, blendOutTime: 0.1, chest: null, soleOffsets: null, ...jobs.grounding.defaultValues };
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
  // block, legJoints and the described options (cpp/src/rig/fields.h; null:
  // derived, packed as NaN), then the sole offsets.
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
    jobs.grounding.packOptions(values, f, o);
    o += jobs.grounding.floats;
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

  return { DEFAULTS, packSettings, merge };
}
