// IKRig's 'bodyLookAt' constraint (docs/rig/body-look-at.md): its bones are
// `{ spine, arms, legs }` (a humanoid's when none are given), its joints the
// spine, the arms' and the legs' [upper, lower, end], and the eyes.
import { missingBones } from './shared.js';

const SHAPE = '{ spine, arms, legs }';

export const bodyLookAt = Object.freeze({
  bones: { min: 2, max: 64, shape: SHAPE },
  boneKeys: ['bones'],
  // Humanoid roles used when no bones are given ('?': skipped when missing).
  humanoid: Object.freeze({
    spine: ['hips', 'spine', 'chest', 'upperChest?', 'neck', 'head'],
    arms: [['leftUpperArm', 'leftLowerArm', 'leftHand'], ['rightUpperArm', 'rightLowerArm', 'rightHand']],
    legs: [['leftUpperLeg', 'leftLowerLeg', 'leftFoot'], ['rightUpperLeg', 'rightLowerLeg', 'rightFoot']],
  }),
  eyes: true,
  resolve(rig, options) {
    const given = options.bones ?? (rig.humanoid.size > 0 ? bodyLookAt.humanoid : undefined);
    if (given === undefined) throw missingBones(rig, 'bodyLookAt', SHAPE);
    if (given === null || typeof given !== 'object' || Array.isArray(given)) throw new TypeError(`bones: expected ${SHAPE}`);
    const limbs = (key) => (given[key] ?? []).map((limb, i) => rig.resolveList(limb, `bones.${key}[${i}]`, 3, 3, '[upper, lower, end]'));
    return { spine: rig.resolveList(given.spine, 'bones.spine', 2, 64, '[hips, ..., head]'), arms: limbs('arms'), legs: limbs('legs') };
  },
  head: (bones) => bones.spine[bones.spine.length - 1],
  joints: (c, ix) => ({ joints: c.bones.spine.map(ix), arms: c.bones.arms.flat().map(ix), legs: c.bones.legs.flat().map(ix), eyes: c.eyes.map(ix) }),
});
