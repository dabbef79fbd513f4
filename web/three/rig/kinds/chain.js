// IKRig's 'chain' constraint (docs/rig/rig.md): [root, ..., tip], 2 to 256 bones.
import { listJoints, resolveBoneList } from './shared.js';

export const chain = Object.freeze({
  bones: { min: 2, max: 256, shape: '[root, ..., tip] (2 to 256 bones)' },
  boneKeys: ['bones'],
  resolve: (rig, options) => resolveBoneList(rig, 'chain', chain, options),
  joints: listJoints,
});
