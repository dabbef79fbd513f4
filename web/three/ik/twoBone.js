// TwoBoneIK: a limb (docs/ik/two-bone.md) on three.js bones, as a one-constraint
// IKRig (a 'twoBone' constraint over just its bones; web/three/ik/limb.js).
import { Quaternion, Vector3 } from 'three';
import { LimbIK, readEndRotation } from './limb.js';
import { guardHelper } from '../rig/rigHelper.js';
import { readPoint } from '../readers.js';
import { constraintFrame } from '../../src/rig/records.js';


const _offset = /* @__PURE__ */ new Vector3();
const _v = /* @__PURE__ */ new Vector3();
const _s = /* @__PURE__ */ new Vector3();
const _q = /* @__PURE__ */ new Quaternion();
const _q2 = /* @__PURE__ */ new Quaternion();
const _solved = /* @__PURE__ */ new Quaternion();

/**
 * Two-bone limb IK (shoulder–elbow–wrist, hip–knee–ankle) on three.js bones,
 * any bone axis convention. Call `update(dt)` each frame after animation.
 */
export class TwoBoneIK extends LimbIK {
  /**
   * @param {object} ikpd the loaded library with the rig area (`await init({ rig: true })`)
   * @param {import('three').Object3D[]} bones `[root, mid, end]`, each a descendant of the one before
   * @param {object} [options] see the typings for the documented defaults
   */
  constructor(ikpd, bones, options = {}) {
    const endRotation = options.endRotation ?? 'world';
    super(ikpd, bones, { ...options, endRotation }, 3, '[root, mid, end]', 'TwoBoneIK', ['effector', 'endRotation'],
      'twoBone', ['endRotation']);
    /** The point that must touch the target (an Object3D moving with the end bone), or null: the end joint. */
    this.effector = options.effector ?? null;
    this._hadEffector = false;
    if (new.target === TwoBoneIK) return guardHelper(this); // unknown property writes throw
  }

  // 'target' is a post-pass here: the rig keeps the end's world rotation, then it takes the target's.
  _toCore(key, value, source) {
    if (key !== 'endRotation') return super._toCore(key, value);
    const mode = readEndRotation(value ?? 'world', source.target);
    return { endRotation: mode === 'relative' ? 'relative' : 'world' };
  }

  _contact() {
    return this.effector ?? this.bones[2];
  }

  _beforeSolve() {
    if (this.endRotation === 'target' && !this.target?.isObject3D) readEndRotation('target', this.target);
    if (this.effector === null) {
      if (this._hadEffector) this._writeOffset(0, 0, 0);
      this._hadEffector = false;
      return;
    }
    // The effector's world offset from the end joint in the pose the solve starts from.
    this._rigInternal.pose.restoreAnimated();
    const end = this.bones[2];
    end.updateWorldMatrix(true, false);
    const offset = readPoint(this.effector, 'effector', _offset).sub(_v.setFromMatrixPosition(end.matrixWorld));
    if (this.endRotation === 'target' && this.target !== null) {
      // The end takes the target's world rotation after the solve: aim the contact point
      // where it lands then, so reached/distance describe the final pose.
      end.matrixWorld.decompose(_v, _q2, _s);
      offset.applyQuaternion(_q2.invert()).applyQuaternion(this.target.getWorldQuaternion(_q));
    }
    this._writeOffset(offset.x, offset.y, offset.z);
    this._hadEffector = true;
  }

  _writeOffset(x, y, z) {
    const frames = this._rigInternal.views().frames;
    const o = constraintFrame.effectorOffset; // the helper's one constraint
    frames[o] = x; frames[o + 1] = y; frames[o + 2] = z;
  }

  // endRotation 'target': the end bone's world rotation becomes the target's (blended by weight).
  _afterSolve() {
    const weight = this._weight[0];
    if (this.endRotation !== 'target' || this.target === null || weight === 0 || !this.enabled) return;
    const end = this.bones[2];
    end.parent.updateWorldMatrix(true, false);
    end.parent.matrixWorld.decompose(_v, _q, _s);
    const local = _q.invert().multiply(this.target.getWorldQuaternion(_q2)).normalize();
    if (weight < 1) local.slerpQuaternions(this._rigInternal.pose.animatedRotation(end, _q2), _solved.copy(local), weight);
    end.quaternion.copy(local);
    this._rigInternal.pose.claim(end);
  }
}
