// IKRig's 'pseudoThreeBone' constraint (docs/rig/rig.md): a leg [root, mid, end, tip].
import { listJoints, resolveBoneList } from './shared.js';

export const pseudoThreeBone = Object.freeze({
  bones: { min: 4, max: 4, shape: '[root, mid, end, tip]' },
  boneKeys: ['bones'],
  resolve: (rig, options) => resolveBoneList(rig, 'pseudoThreeBone', pseudoThreeBone, options),
  joints: listJoints,
});
