// The rig's 'aim' kind (docs/rig/rig.md): one joint turned toward the target,
// its up axis rolled toward the pole; the aim job's method, hinge and offset.
import { SMOOTHED } from './shared.js';

export const aim = Object.freeze({
  job: 'aim',
  options: ['method', 'hingeAxis', 'offset'],
  common: [...SMOOTHED, 'forward', 'up'],
  extras: [],
});
