// The rig's 'chain' kind (docs/rig/rig.md): [root, ..., tip] by CCD or FABRIK,
// with per-joint limits (packed after the job block, as web/src/ik/chain.js reads them)
// on the canonical frames or the joints' local rotations (limitFrames).
import { describe, readEnum } from '../../readers.js';
import { LIMIT_FLOATS, readLimit } from '../../ik/chain.js';
import { cloneData } from '../rigKinds.js';
import { SMOOTHED } from './shared.js';

// 'canonical': the limits on the detected frames (the root's relative to its rest);
// 'local': on the joints' own local rotations (docs/rig/rig.md, "Chain limits").
const LIMIT_FRAMES = Object.freeze(['canonical', 'local']);
function readLimitFrames(value) {
  return readEnum(value, 'limitFrames', LIMIT_FRAMES);
}

export const chain = Object.freeze({
  job: 'chain',
  options: ['method', 'iterations', 'tolerance'],
  common: [...SMOOTHED, 'forward'],
  extras: ['limits', 'limitFrames'],
  defaults: () => ({ limits: [], limitFrames: 'canonical' }),
  mergeKey(key, value) {
    if (key === 'limitFrames') return LIMIT_FRAMES[readLimitFrames(value)];
    if (key !== 'limits') return undefined;
    if (!Array.isArray(value)) throw new TypeError(`limits: expected an array, got ${describe(value)}`);
    return cloneData(value);
  },
  packExtras(values, f, o) {
    const limits = values.limits, n = values.joints.length;
    if (!Array.isArray(limits)) throw new TypeError(`limits: expected an array, got ${describe(limits)}`);
    if (limits.length > n) throw new RangeError(`limits: at most one limit per joint (${n}), got ${limits.length}`);
    f[o++] = readLimitFrames(values.limitFrames); // 0 canonical, 1 local
    f[o++] = limits.length;
    for (let i = 0; i < limits.length; i++, o += LIMIT_FLOATS) readLimit(limits[i], `limits[${i}]`, f, o);
    return o;
  },
});
