// PseudoThreeBoneIK: a leg or arm with a foot/hand (docs/pseudo-three-bone.md) on three.js bones.
import { LimbIK, newJoint } from './twoBone.js';

const JOINTS = ['root', 'mid', 'end', 'tip'];

/**
 * Pseudo three-bone IK (docs/pseudo-three-bone.md) on `[root, mid, end, tip]` (hip, knee,
 * ankle, toe): the two-bone solver run twice so the foot follows the leg
 * with a tunable `blend` and the tip lands on the target. The tip (a toe
 * bone or any Object3D under the end bone) keeps its local rotation. Solves
 * with a PseudoThreeBoneSolver (options kept in WASM memory; free it with
 * dispose()). Call `update()` each frame after animation.
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
    this.solver = new this.ikpd.PseudoThreeBoneSolver();
    // Reused each frame: the solver's per-frame inputs (blend undefined: its default).
    this._frame = { root: newJoint(), mid: newJoint(), end: newJoint(), tip: newJoint(), target: [0, 0, 0], blend: undefined };
    try {
      this._checkOptions();
    } catch (error) {
      this.solver.dispose();
      throw error;
    }
  }

  _validate() {}

  _contact() {
    return this.bones[3];
  }

  _solve(target) {
    const defaults = this.ikpd.PseudoThreeBoneSolver.defaults;
    const options = this._limbOptions(defaults);
    options.variant = this.variant ?? defaults.variant;
    options.endLimit = this.endLimit ?? defaults.endLimit;
    this.solver.setOptions(options);
    this._frame.blend = this.blend;
    return this._solveFrame(this._frame, JOINTS, target);
  }

  _writeEnd(result) {
    this.chain.writeSolved(2, result.end.rotation);
  }

  /** Frees the solver's WASM memory; later updates throw. Idempotent. */
  dispose() {
    this.solver.dispose();
  }
}
