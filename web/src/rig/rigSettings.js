// A rig constraint's settings (docs/rig/rig.md): every kind's defaults, the packing
// of one constraint's settings in the layout cpp/bindings/rig/rig.cc reads (joints,
// the common settings, the kind's job description block — the same description
// the single calls use, web/src/fields.js — and its extras), and the merge of
// changes into the current settings. What differs by kind is in its file of
// web/src/rig/kinds/.
import { readBoolean, readNumber, readOptions } from '../readers.js';
import { readRanged } from '../fields.js';
import { cloneData, freezeDeep, readIndices, unknownKey } from './rigKinds.js';
import { KINDS, KIND_TABLE, kindOptions } from './kinds/index.js';

/** The settings functions of the rig over `core`: { DEFAULTS, packSettings, merge }. */
export function createRigSettings(core) {
  const jobs = core.jobs;
  const common = jobs.common, at = Object.fromEntries(common.fields.map((c) => [c.name, c.offset]));
  const dampingField = common.byName.damping;
  const AXES = ['forward', 'bendAxis', 'up'];

  // ------------------------------------------------------------- defaults
  function kindDefaults(name) {
    const kind = KIND_TABLE[name], job = jobs[kind.job];
    const d = common.defaultValues;
    const out = { weight: d.weight, enabled: d.enabled };
    if (kind.common.includes('settleTime')) {
      out.settleTime = d.settleTime;
      out.damping = d.damping;
    }
    out.blendOutTime = d.blendOutTime;
    Object.assign(out, kind.commonDefaults?.(job));
    for (const option of kind.options) out[option] = job.defaultValues[option];
    return Object.assign(out, kind.defaults?.(job));
  }
  const DEFAULTS = freezeDeep(Object.fromEntries(KINDS.map((k) => [k, kindDefaults(k)])));

  // ------------------------------------------------------------- packing
  // Packs one constraint's settings (values: every key, defaults filled) at
  // f[0..]: the joint lists, the common block, the job block, the extras.
  // Returns nothing, throws naming the option.
  function packSettings(name, values, f) {
    const kind = KIND_TABLE[name], job = jobs[kind.job];
    const lists = kind.jointLists ? kind.jointLists(values) : [values.joints, [], []];
    let o = 0;
    for (const list of lists) f[o++] = list.length;
    for (const list of lists) for (const j of list) f[o++] = j;
    o = packCommon(name, values, f, o);
    if (kind.packJob) {
      o = kind.packJob(values, job, f, o);
    } else {
      f.set(job.defaults, o);
      job.packOptions(values, f, o, kind.options);
      o += job.floats;
    }
    if (kind.packExtras) o = kind.packExtras(values, f, o, job);
    if (o > core.scratchFloats) throw new RangeError(kind.tooMany ?? 'joints: too many joints or limits for one constraint');
  }

  // The common block at f[o..] (its description, jobs.common: weight,
  // enabled, settleTime, damping, blendOutTime, then forward, bendAxis and up,
  // each xyz and a given flag); returns the offset after it. A kind without
  // smoothing keeps settleTime's and damping's defaults.
  function packCommon(name, values, f, o) {
    const kind = KIND_TABLE[name];
    f.set(common.defaults, o);
    f[o + at.weight] = readNumber(values.weight, 'weight', { min: 0, max: 1 });
    f[o + at.enabled] = readBoolean(values.enabled, 'enabled') ? 1 : 0;
    if (kind.common.includes('settleTime')) {
      // One per joint (the kind's extras pack and check them): the common block keeps its default.
      const perJoint = kind.settleTimePerJoint && typeof values.settleTime === 'object' && values.settleTime !== null;
      const t = perJoint ? DEFAULTS[name].settleTime : readNumber(values.settleTime, 'settleTime', { min: 0 });
      if (kind.settleTimePositive && !(t > 0)) throw new RangeError(`settleTime: must be > 0 for ${name}, got ${t}`);
      f[o + at.settleTime] = t;
      f[o + at.damping] = readRanged(values.damping, dampingField);
    }
    f[o + at.blendOutTime] = readNumber(values.blendOutTime, 'blendOutTime', { min: 0 });
    common.packOptions(values, f, o, AXES); // the described optional vectors: null or absent is not given
    return o + common.floats;
  }

  // Merges `changes` into `current` (a constraint's values), checking keys;
  // returns the new values (current is not modified).
  function merge(name, current, changes) {
    readOptions(changes);
    const kind = KIND_TABLE[name], valid = kindOptions(name);
    const next = { ...current };
    for (const key of Object.keys(changes)) {
      if (!valid.includes(key)) throw unknownKey(key, valid, name);
      const value = changes[key];
      if (value === undefined) continue;
      const own = kind.mergeKey?.(key, value, current, DEFAULTS[name]);
      if (own !== undefined) next[key] = own;
      else if (key === 'joints') next[key] = readIndices(value, key);
      else if (key === 'eyes') next[key] = readIndices(value, key, { min: 0, max: 2 });
      else next[key] = cloneData(value);
    }
    return next;
  }

  return { DEFAULTS, packSettings, merge };
}
