// AimIK: one-bone aim with the up-vector constraint (docs/aim.md) on a three.js Object3D.
import { Vector3 } from 'three';
import { BoneChain, optionNames, readAxis, readModule, readPoint, readWeight, toArray3, checkHelperOptions } from './rig.js';

const _target = new Vector3();
const _pole = new Vector3();
const _hinge = new Vector3();

const AIM_OPTIONS = optionNames('target', 'pole', 'method', 'weight', 'hingeAxis', 'forward', 'up');

/**
 * Turns one bone (or any Object3D) so that its forward axis points at a
 * target, optionally rolling its up axis toward a pole. Owns WASM memory:
 * call `dispose()` when done. Call `update()` each frame after animation.
 */
export class AimIK {
  /**
   * @param {object} ikpd the loaded library (`await init()`)
   * @param {import('three').Object3D} bone
   * @param {object} [options] see the typings for the documented defaults
   */
  constructor(ikpd, bone, options = {}) {
    this.ikpd = readModule(ikpd, 'AimIK', 'solveAim');
    checkHelperOptions(options, AIM_OPTIONS, 'AimIK');
    this.bone = bone;
    this.target = options.target ?? null;
    this.pole = options.pole ?? null;
    this.method = options.method ?? this.ikpd.AimSolver.defaults.method;
    this.weight = options.weight ?? 1;
    this.hingeAxis = options.hingeAxis ?? null;
    this.chain = new BoneChain([bone], { forward: options.forward, up: options.up }, 'bone');
    this.solver = new this.ikpd.AimSolver();
    this._frame = { position: [0, 0, 0], rotation: [0, 0, 0, 1], target: [0, 0, 0] };
    try {
      // Every option checked now, as update() would, without moving the bone.
      readWeight(this.weight);
      if (this.target !== null) readPoint(this.target, 'target', _target);
      this.chain.read();
      this._solve(this.chain.positions[0].clone().add(_target.set(1, 0, 0)));
    } catch (error) {
      this.solver.dispose();
      throw error;
    }
  }

  // Solves toward the world point `target` (a Vector3) from the pose read last.
  _solve(target) {
    const options = { method: this.method, pole: null, hingeAxis: null };
    if (this.hingeAxis !== null && readAxis(this.hingeAxis, 'hingeAxis', _hinge)) {
      options.hingeAxis = toArray3(_hinge.applyQuaternion(this.chain.inverseFrames[0]));
    }
    if (this.pole !== null) options.pole = toArray3(readPoint(this.pole, 'pole', _pole));
    this.solver.setOptions(options);
    const frame = this._frame;
    this.chain.jointInto(0, frame);
    target.toArray(frame.target);
    return this.solver.solve(frame);
  }

  /** Solves and writes the bone's local quaternion. No-op without a target or at weight 0. */
  update() {
    const weight = readWeight(this.weight);
    if (this.target === null || weight === 0) return this;
    const chain = this.chain;
    chain.read();
    const result = this._solve(readPoint(this.target, 'target', _target));
    chain.writeSolved(0, result.rotation);
    chain.finish(weight);
    return this;
  }

  /** Frees the solver's WASM memory; later updates throw. Idempotent. */
  dispose() {
    this.solver.dispose();
  }
}
