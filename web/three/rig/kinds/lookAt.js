// IKRig's 'lookAt' constraint (docs/rig/look-at.md): [spine, ..., neck, head],
// the core's 2 to 64 look-at joints; a humanoid's spine to head when no bones
// are given; the eyes the gaze turns.
import { listJoints, resolveBoneList } from './shared.js';

export const lookAt = Object.freeze({
  bones: { min: 2, max: 64, shape: '[spine, ..., neck, head]' },
  boneKeys: ['bones'],
  // Humanoid roles used when no bones are given ('?': skipped when missing).
  humanoid: Object.freeze(['spine', 'chest', 'upperChest?', 'neck', 'head']),
  eyes: true,
  resolve: (rig, options) => resolveBoneList(rig, 'lookAt', lookAt, options),
  head: (bones) => bones[bones.length - 1],
  joints: (c, ix) => ({ ...listJoints(c, ix), eyes: c.eyes.map(ix) }),
});
