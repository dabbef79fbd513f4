// The rig's 'grounding' kind (docs/rig/grounding.md): feet on the ground and
// the pelvis lowered over [pelvis, chest?] and 2 or 4 legs; its options are
// the described ones (cpp/src/rig/fields.h; null: derived from the rest pose,
// packed as NaN), then the legs' joint count before the block and the sole
// offsets after it.
import { describe } from '../../readers.js';
import { grounding as layout } from '../described.js';
import { readIndex, readLegs } from '../rigKinds.js';
import { SMOOTHED } from './shared.js';

/** A grounding constraint's joints: [pelvis] or [pelvis, chest]. */
export const groundJoints = (values) => (values.chest === null || values.chest === undefined ? [values.pelvis] : [values.pelvis, values.chest]);

export const grounding = Object.freeze({
  job: 'grounding',
  options: layout.options.map((f) => f.name),
  common: SMOOTHED,
  extras: ['pelvis', 'chest', 'legs', 'soleOffsets'],
  takesJoints: false,
  required: Object.freeze([['pelvis', 'pelvis: required (a joint index)'], ['legs', 'legs: required (2 or 4 legs of [hip, knee, ankle, toe?])']]),
  // The core names the pelvis and chest joints[0] and joints[1].
  errorNames: Object.freeze([['joints[0]', 'pelvis'], ['joints[1]', 'chest']]),
  // The derived defaults (null) as the numbers in force: `f` holds what the
  // core's derived() wrote (the four distances, then one sole offset per leg).
  inForce(values, f) {
    for (const [k, name] of ['maxPelvisDrop', 'maxPelvisRise', 'plantHeight', 'unplantRadius'].entries()) if (values[name] === null) values[name] = f[k];
    const soles = Array.from(f.subarray(4, 4 + values.legs.length));
    values.soleOffsets = values.soleOffsets === null ? soles : values.soleOffsets.map((v, i) => (v === null ? soles[i] : v));
    return values;
  },
  tooMany: 'legs: too many joints for one constraint',
  joints: groundJoints,
  legCount: (values) => values.legs.length,
  jointLists: (values) => [groundJoints(values), [], values.legs.flat()],
  // (chest and soleOffsets listed before the described options, as Rig.defaults.grounding lists them.)
  commonDefaults: () => ({ settleTime: 0.1, chest: null, soleOffsets: null }),
  mergeKey(key, value) {
    if (key === 'legs') return readLegs(value);
    if (key === 'chest' && value === null) return null;
    if (key === 'pelvis' || key === 'chest') return readIndex(value, key);
    return undefined;
  },
  packJob(values, job, f, o) {
    f[o] = values.legs[0].length;
    job.packOptions(values, f, o + 1);
    return o + 1 + job.floats;
  },
  packExtras(values, f, o) {
    const soles = values.soleOffsets, legs = values.legs;
    if (soles === null || soles === undefined) {
      f[o++] = 0;
      return o;
    }
    if (!(Array.isArray(soles) || ArrayBuffer.isView(soles)) || soles.length !== legs.length) {
      throw new TypeError(`soleOffsets: expected null or one number (or null) per leg (${legs.length}), got ${describe(soles)}`);
    }
    f[o++] = 1;
    for (let i = 0; i < legs.length; i++) {
      const v = soles[i];
      if (v === null || v === undefined) f[o++] = NaN;
      else if (typeof v !== 'number' || !(v > 0) || v === Infinity) throw new RangeError(`soleOffsets[${i}]: must be a finite number > 0 (or null: from the rest pose), got ${v}`);
      else f[o++] = v;
    }
    return o;
  },
});
