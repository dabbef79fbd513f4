// ChainIK: N-bone chains (CCD / FABRIK, docs/chains.md) on three.js bones.
import { Quaternion, Vector3 } from 'three';
import {
  BoneChain, checkDescent, optionNames, readModule, readPoint, readWeight, toArray3, checkHelperOptions,
} from './rig.js';
import { copyDefined } from './twoBone.js';

const _target = new Vector3();
const _pole = new Vector3();
const _axis = new Vector3();
const _parent = new Quaternion();
const _position = new Vector3();
const _scale = new Vector3();

const CHAIN_KEYS = ['method', 'iterations', 'tolerance'];
const CHAIN_OPTIONS = optionNames(CHAIN_KEYS, 'target', 'pole', 'limits', 'weight', 'axes', 'forward', 'up');

/**
 * N-bone chain IK (a tail, a tentacle, a spine, fingers) on three.js bones by
 * CCD or FABRIK: the last object is the tip that reaches for the target.
 * Joint limits are on the bones' local rotations, like CCDIKSolver's.
 * Call `update()` each frame after animation.
 */
export class ChainIK {
  /**
   * @param {object} ikpd the loaded library (`await init()`)
   * @param {import('three').Object3D[]} bones root → tip (at least 2)
   * @param {object} [options] see the typings for the documented defaults
   */
  constructor(ikpd, bones, options = {}) {
    this.ikpd = readModule(ikpd, 'ChainIK', 'solveChain');
    checkHelperOptions(options, CHAIN_OPTIONS, 'ChainIK');
    if (!Array.isArray(bones) || bones.length < 2) throw new TypeError('bones: expected at least [root, tip]');
    this.bones = bones;
    this.target = options.target ?? null;
    this.pole = options.pole ?? null;
    this.limits = options.limits ?? null;
    this.weight = options.weight ?? 1;
    for (const key of CHAIN_KEYS) this[key] = options[key];
    this.reached = false;
    this.distance = 0;
    this.iterationsRun = 0;
    this._result = undefined; // the last solveChain result, filled in place by the next solve
    this.chain = new BoneChain(bones, options.axes ?? { forward: options.forward, up: options.up });
    // Bones sharing one forward axis (every usual rig) are handed over as they
    // are, so 'euler' limits apply to bone.rotation exactly like CCDIKSolver's;
    // otherwise each bone goes through its canonical frame (forward +X).
    const shared = this.chain.useRigFrames();
    this._forward = shared ? toArray3(shared) : [1, 0, 0];
    this._rigFrames = shared !== null;
    checkDescent(bones);
    // Every option checked now, as update() would, without moving a bone: a
    // solve toward the tip's current position whose result is dropped.
    readWeight(this.weight);
    if (this.target !== null) readPoint(this.target, 'target', _target);
    this.chain.read();
    this._solve(_target.copy(this.chain.positions[this.chain.count - 1]));
  }

  /** Nothing to free (it owns no WASM memory); here so every helper has dispose(). */
  dispose() {}

  _limits() {
    const limits = this.limits;
    if (limits === null || limits === undefined) return undefined;
    if (!Array.isArray(limits)) throw new TypeError('limits: expected an array with one limit (or null) per bone');
    if (this._rigFrames) return limits;
    return limits.map((limit, i) => {
      if (limit === null || limit === undefined) return limit;
      if (limit.type === 'euler') {
        throw new RangeError(`limits[${i}]: 'euler' limits need bones that share one forward axis; pass forward (or use 'cone')`);
      }
      if (limit.type !== 'cone' || limit.axis === undefined || i === 0) return limit;
      // The cone axis is in the parent bone's frame: into its canonical frame.
      _axis.fromArray(limit.axis).applyQuaternion(this.chain.inverseFrames[i - 1]);
      return { ...limit, axis: toArray3(_axis) };
    });
  }

  /** Solves and writes the bones' local quaternions. No-op without a target or at weight 0. */
  update() {
    const weight = readWeight(this.weight);
    if (this.target === null || weight === 0) return this;
    const chain = this.chain;
    chain.read();
    const result = this._solve(readPoint(this.target, 'target', _target));
    this.reached = result.reached;
    this.distance = result.distance;
    this.iterationsRun = result.iterations;
    // The tip keeps its local rotation; every bone above it takes the solve.
    for (let i = 0; i < chain.count - 1; i++) chain.writeSolved(i, result.joints[i].rotation);
    chain.finish(weight);
    return this;
  }

  // Solves toward the world point `target` (a Vector3) from the pose read last.
  _solve(target) {
    const chain = this.chain;
    const joints = [];
    for (let i = 0; i < chain.count; i++) joints.push(chain.joint(i));
    const request = copyDefined({
      joints,
      target: toArray3(target),
      forward: this._forward,
    }, this, CHAIN_KEYS);
    const limits = this._limits();
    if (limits !== undefined) request.limits = limits;
    const root = this.bones[0];
    if (root.parent) {
      root.parent.matrixWorld.decompose(_position, _parent, _scale);
      request.parentRotation = [_parent.x, _parent.y, _parent.z, _parent.w];
    }
    if (this.pole !== null) request.pole = toArray3(readPoint(this.pole, 'pole', _pole));
    this._result = this.ikpd.solveChain(request, this._result);
    return this._result;
  }
}
