// PseudoThreeBoneIK: a leg or arm with a foot/hand (docs/pseudo-three-bone.md) on three.js bones.
import { LimbIK } from './twoBone.js';
import { toArray3 } from './rig.js';

/**
 * Pseudo three-bone IK (docs/pseudo-three-bone.md) on `[root, mid, end, tip]` (hip, knee,
 * ankle, toe): the two-bone solver run twice so the foot follows the leg
 * with a tunable `blend` and the tip lands on the target. The tip (a toe
 * bone or any Object3D under the end bone) keeps its local rotation. Call
 * `update()` each frame after animation.
 */
export class PseudoThreeBoneIK extends LimbIK {
  /**
   * @param {object} ikpd the loaded library (`await init()`)
   * @param {import('three').Object3D[]} bones `[root, mid, end, tip]`
   * @param {object} [options] see the typings for the documented defaults
   */
  constructor(ikpd, bones, options = {}) {
    super(ikpd, bones, options, 4, '[root, mid, end, tip]', 'PseudoThreeBoneIK', ['blend', 'variant', 'endLimit']);
    this.blend = options.blend;
    this.variant = options.variant;
    this.endLimit = options.endLimit;
    this._checkOptions();
  }

  _validate() {}

  _contact() {
    return this.bones[3];
  }

  _solve(target) {
    const request = this._request();
    request.target = toArray3(target);
    request.tip = this.chain.joint(3);
    if (this.blend !== undefined) request.blend = this.blend;
    if (this.variant !== undefined) request.variant = this.variant;
    if (this.endLimit !== undefined) request.endLimit = this.endLimit;
    this._result = this.ikpd.solvePseudoThreeBone(request, this._result);
    return this._result;
  }

  _writeEnd(result) {
    this.chain.writeSolved(2, result.end.rotation);
  }

  /** Nothing to free (it owns no WASM memory); here so every helper has dispose(). */
  dispose() {}
}
