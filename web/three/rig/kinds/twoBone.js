// IKRig's 'twoBone' constraint (docs/rig/rig.md): a limb [root, mid, end].
import { listJoints, resolveBoneList } from './shared.js';

export const twoBone = Object.freeze({
  bones: { min: 3, max: 3, shape: '[root, mid, end]' },
  boneKeys: ['bones'],
  resolve: (rig, options) => resolveBoneList(rig, 'twoBone', twoBone, options),
  joints: listJoints,
});
