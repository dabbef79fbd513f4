// PseudoThreeBoneIK: a leg or arm with a foot/hand (docs/ik/pseudo-three-bone.md)
// on three.js bones, as a one-constraint IKRig (web/three/ik/limb.js).
import { guardHelper } from '../rig/rigHelper.js';
import { LimbIK } from './limb.js';

/**
 * Pseudo three-bone IK (docs/ik/pseudo-three-bone.md) on `[root, mid, end, tip]` (hip, knee,
 * ankle, toe): the two-bone solver run twice so the foot follows the leg
 * with a tunable `blend` and the tip lands on the target. The tip (a toe
 * bone or any Object3D under the end bone) keeps its local rotation. A
 * one-constraint IKRig ('pseudoThreeBone'; free it with dispose()). Call
 * `update(dt)` each frame after animation.
 */
export class PseudoThreeBoneIK extends LimbIK {
  /**
   * @param {object} ikpd the loaded library with the rig area (`await init({ rig: true })`)
   * @param {import('three').Object3D[]} bones `[root, mid, end, tip]`
   * @param {object} [options] see the typings for the documented defaults
   */
  constructor(ikpd, bones, options = {}) {
    super(ikpd, bones, options, 4, '[root, mid, end, tip]', 'PseudoThreeBoneIK', ['blend', 'variant', 'endLimit'],
      'pseudoThreeBone', ['blend', 'variant', 'endLimit']);
    if (new.target === PseudoThreeBoneIK) return guardHelper(this); // unknown property writes throw
  }

  _contact() {
    return this.bones[3];
  }
}
