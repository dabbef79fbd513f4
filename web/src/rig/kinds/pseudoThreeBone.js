// The rig's 'pseudoThreeBone' kind (docs/rig/rig.md): a leg [root, mid, end,
// tip] with the limb options, its variant and end limit, and `blend` (packed
// after the job block).
import { readRanged } from '../../fields.js';
import { LIMB, SMOOTHED } from './shared.js';

export const pseudoThreeBone = Object.freeze({
  job: 'pseudoThreeBone',
  options: [...LIMB, 'variant', 'endLimit'],
  common: [...SMOOTHED, 'forward', 'bendAxis'],
  extras: ['blend'],
  defaults: (job) => ({ blend: job.defaultValues.blend }),
  packExtras(values, f, o, job) {
    f[o] = readRanged(values.blend, job.byName.blend);
    return o;
  },
});
