// AimIK: one-bone aim (SPEC §1) with the up-vector constraint (§2) on a three.js Object3D.
import { Vector3 } from 'three';
import { BoneChain, readAxis, readPoint, readWeight, toArray3 } from './rig.js';

const _target = new Vector3();
const _pole = new Vector3();
const _hinge = new Vector3();

/**
 * Turns one bone (or any Object3D) so that its forward axis points at a
 * target, optionally rolling its up axis toward a pole. Call `update()` each
 * frame after animation.
 */
export class AimIK {
  /**
   * @param {object} ikpd the loaded library (`await init()`)
   * @param {import('three').Object3D} bone
   * @param {object} [options] see the typings for the documented defaults
   */
  constructor(ikpd, bone, options = {}) {
    this.ikpd = ikpd;
    this.bone = bone;
    this.target = options.target ?? null;
    this.pole = options.pole ?? null;
    this.method = options.method ?? 'yawPitch';
    this.weight = options.weight ?? 1;
    this.hingeAxis = options.hingeAxis ?? null;
    this.chain = new BoneChain([bone], { forward: options.forward, up: options.up }, 'bone');
    this._result = undefined; // the last solveAim result, filled in place by the next solve
  }

  /** Solves and writes the bone's local quaternion. No-op without a target or at weight 0. */
  update() {
    const weight = readWeight(this.weight);
    if (this.target === null || weight === 0) return this;
    const chain = this.chain;
    chain.read();
    const joint = chain.joint(0);
    const request = {
      position: joint.position,
      rotation: joint.rotation,
      target: toArray3(readPoint(this.target, 'target', _target)),
      forward: [1, 0, 0],
      up: [0, 1, 0],
      method: this.method,
    };
    if (this.hingeAxis !== null && readAxis(this.hingeAxis, 'hingeAxis', _hinge)) {
      request.hingeAxis = toArray3(_hinge.applyQuaternion(chain.inverseFrames[0]));
    }
    if (this.pole !== null) request.pole = toArray3(readPoint(this.pole, 'pole', _pole));
    const result = this.ikpd.solveAim(request, this._result);
    this._result = result;
    chain.writeSolved(0, result.rotation);
    chain.finish(weight);
    return this;
  }
}
