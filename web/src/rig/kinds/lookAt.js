// The rig's 'lookAt' kind (docs/rig/look-at.md): [spine, ..., neck, head]
// turned toward the target under PD smoothing (its settle time must be > 0,
// one number or one per joint), per-joint weights and limits, and the eyes the gaze turns.
import { EYE_OPTIONS, LOOK_LIMITS, SMOOTHED, packEyes, packJointArray } from './shared.js';

export const lookAt = Object.freeze({
  job: 'lookAt',
  options: ['offset', ...LOOK_LIMITS, 'maxSpeed', 'targetMotion', 'ki', ...EYE_OPTIONS],
  common: [...SMOOTHED, 'forward'],
  extras: ['weights', 'limits', 'eyes'],
  settleTimePositive: true,
  settleTimePerJoint: true, // an array: the common block keeps the default, the extras carry one per joint
  commonDefaults: (job) => ({ settleTime: job.defaultValues.settleTime }),
  defaults: () => ({ eyes: [] }),
  packExtras(values, f, o) {
    const n = values.joints.length, at = { o: o + 3 }, settle = values.settleTime;
    f[o] = packJointArray(values.weights, 'weights', n, f, at);
    f[o + 1] = packJointArray(values.limits, 'limits', n, f, at);
    f[o + 2] = typeof settle === 'object' && settle !== null ? packJointArray(settle, 'settleTime', n, f, at) : 0;
    return packEyes(values, f, at.o);
  },
});
