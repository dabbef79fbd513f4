// IKRig's 'twist' constraint (docs/rig/twist.md): [first, ..., last], 2 to
// 16 bones (a forearm, its twist bones and the hand); no target.
import { listJoints, resolveBoneList } from './shared.js';

export const twist = Object.freeze({
  bones: { min: 2, max: 16, shape: '[first, ..., last] (2 to 16 bones: a forearm, its twist bones, the hand)' },
  boneKeys: ['bones'],
  resolve: (rig, options) => resolveBoneList(rig, 'twist', twist, options),
  joints: listJoints,
  targetless: true,
});
