// What several rig constraint kinds share (docs/rig/rig.md): the option lists
// they take from the look-at and two-bone descriptions, and the packers of the
// per-joint arrays and the eye joints.
import { readVector } from '../../readers.js';
import { twoBone } from '../../ik/described.js';

// The look-at limits and the policy for a target behind (docs/rig/look-at.md).
export const LOOK_LIMITS = Object.freeze(['maxYaw', 'maxPitchUp', 'maxPitchDown', 'behind']);
// The gaze's limits and settle time: the look-ats turn their `eyes` joints with
// them (docs/rig/look-at.md, "Eyes"; the gaze runs without eye joints too).
export const EYE_OPTIONS = Object.freeze(['eyeYaw', 'eyePitchUp', 'eyePitchDown', 'eyeSettleTime']);
// The smoothing settings of the common block.
export const SMOOTHED = Object.freeze(['weight', 'enabled', 'settleTime', 'damping', 'blendOutTime']);
// The two-bone options a limb constraint takes: every described option
// (cpp/src/ik/fields.h) but those the rig owns: the pole and the effector are
// per-frame inputs, forward and bendAxis common settings, weight the smoothed
// weight, and endRotation is the two-bone kind's alone. A new two-bone option
// reaches the rig, its limbs and the three.js limb helpers with no edit here.
const RIG_OWNED = Object.freeze(['pole', 'effectorOffset', 'forward', 'bendAxis', 'weight', 'endRotation']);
export const LIMB = Object.freeze(twoBone.options.map((f) => f.name).filter((name) => !RIG_OWNED.includes(name)));

/**
 * A per-joint array option (`count` numbers, or undefined/null: none) at
 * f[at.o..]: returns 1 when packed (and advances at.o), else 0.
 */
export function packJointArray(value, name, count, f, at) {
  if (value === undefined || value === null) return 0;
  readVector(value, name, count, f, at.o);
  at.o += count;
  return 1;
}

/** The eye joints (count, then the indices) at f[o..]; returns the offset after them. */
export function packEyes(values, f, o) {
  const eyes = values.eyes ?? [];
  f[o++] = eyes.length;
  for (const j of eyes) f[o++] = j;
  return o;
}
