// The rig's 'twist' kind (docs/rig/twist.md): [first, ..., last], the last
// joint's twist about the line from the first spread over the joints before
// it, by `spread` or one amount per joint but the last.
import { SMOOTHED, packJointArray } from './shared.js';

export const twist = Object.freeze({
  job: 'twist',
  options: ['spread'],
  common: SMOOTHED,
  extras: ['amounts'],
  defaults: () => ({ amounts: null }),
  packExtras(values, f, o) {
    const at = { o: o + 1 };
    f[o] = packJointArray(values.amounts, 'amounts', values.joints.length - 1, f, at);
    return at.o;
  },
});
