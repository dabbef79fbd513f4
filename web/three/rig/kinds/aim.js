// IKRig's 'aim' constraint (docs/rig/rig.md): one bone, given as `bone`.
import { listJoints } from './shared.js';

export const aim = Object.freeze({
  bones: { min: 1, max: 1, shape: 'one bone' },
  boneKeys: ['bone'],
  resolve(rig, options) {
    if (options.bone === undefined) throw new TypeError("bone: an 'aim' constraint needs the bone to aim (a bone, a name or a role)");
    return [rig.resolveBone(options.bone, 'bone')];
  },
  joints: listJoints,
});
