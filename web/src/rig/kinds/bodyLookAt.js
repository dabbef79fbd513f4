// The rig's 'bodyLookAt' kind (docs/rig/body-look-at.md): the spine look-at
// with weight shift, arm reaction and planted feet over `joints` (the spine),
// `arms` and `legs`; its option groups are the description's "group.option"
// fields, and spine.settleTime is one number or one per spine joint.
import { readRanged } from '../../fields.js';
import { readOptions } from '../../readers.js';
import { cloneData, readIndices, unknownKey } from '../rigKinds.js';
import { EYE_OPTIONS, LOOK_LIMITS, packEyes, packJointArray } from './shared.js';

export const GROUPS = Object.freeze(['spine', 'weightShift', 'armReaction']);
// spine's options that are not description fields.
const SPINE_OWN = Object.freeze(['weights', 'limits', 'settleTime']);

// A group's defaults from the description's "group.option" fields.
function groupDefaults(job, group) {
  const out = {};
  for (const f of job.options) {
    if (f.name.startsWith(`${group}.`)) out[f.name.slice(group.length + 1)] = job.defaultValues[f.name];
  }
  return out;
}

export const bodyLookAt = Object.freeze({
  job: 'bodyLookAt',
  options: ['offset', 'footLock', ...LOOK_LIMITS, ...EYE_OPTIONS],
  common: ['weight', 'enabled', 'blendOutTime', 'forward'],
  extras: ['arms', 'legs', ...GROUPS, 'eyes'],
  jointLists: (values) => [values.joints, values.arms ?? [], values.legs ?? []],
  commonDefaults: (job) => ({ blendOutTime: job.defaultValues.blendOutTime }),
  defaults(job) {
    const spine = groupDefaults(job, 'spine');
    delete spine.headSettleTime;
    delete spine.pelvisSettleTime;
    return { eyes: [], arms: [], legs: [], spine, weightShift: groupDefaults(job, 'weightShift'), armReaction: groupDefaults(job, 'armReaction') };
  },
  mergeKey(key, value, current, defaults) {
    if (key === 'arms' || key === 'legs') return readIndices(value, key, { min: 0, max: 6 });
    if (!GROUPS.includes(key)) return undefined;
    const group = readOptions(value, key);
    const valid = Object.keys(defaults[key]).concat(key === 'spine' ? SPINE_OWN : []);
    for (const k of Object.keys(group)) if (!valid.includes(k)) throw unknownKey(k, valid, 'bodyLookAt', `${key}.`);
    return { ...current[key], ...cloneData(group) };
  },
  // The job block from the flat and grouped options (spine.settleTime: both settle times).
  packJob(values, job, f, o) {
    const flat = { offset: values.offset, footLock: values.footLock };
    for (const key of [...LOOK_LIMITS, ...EYE_OPTIONS]) flat[key] = values[key];
    for (const group of GROUPS) {
      for (const [key, v] of Object.entries(values[group])) {
        if (group === 'spine' && SPINE_OWN.includes(key)) continue;
        flat[`${group}.${key}`] = v;
      }
    }
    const settle = values.spine.settleTime;
    if (typeof settle === 'number' || typeof settle === 'string') {
      const field = { ...job.byName['spine.headSettleTime'], name: 'spine.settleTime' };
      flat['spine.headSettleTime'] = flat['spine.pelvisSettleTime'] = readRanged(settle, field);
    }
    f.set(job.defaults, o);
    job.packOptions(flat, f, o);
    return o + job.floats;
  },
  packExtras(values, f, o) {
    const spine = values.spine, n = values.joints.length, at = { o: o + 3 };
    f[o] = packJointArray(spine.weights, 'spine.weights', n, f, at);
    f[o + 1] = packJointArray(spine.limits, 'spine.limits', n, f, at);
    const settle = spine.settleTime;
    f[o + 2] = typeof settle === 'object' && settle !== null ? packJointArray(settle, 'spine.settleTime', n, f, at) : 0;
    return packEyes(values, f, at.o);
  },
});
