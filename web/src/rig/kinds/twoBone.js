// The rig's 'twoBone' kind (docs/rig/rig.md): a limb [root, mid, end] with
// every described two-bone option the rig does not own, and the end's rotation.
import { LIMB, SMOOTHED } from './shared.js';

export const twoBone = Object.freeze({
  job: 'twoBone',
  options: [...LIMB, 'endRotation'],
  common: [...SMOOTHED, 'forward', 'bendAxis'],
  extras: [],
});
