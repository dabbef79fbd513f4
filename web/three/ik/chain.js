// ChainIK: N-bone chains (CCD / FABRIK, docs/ik/chains.md) on three.js bones, as
// a one-constraint IKRig (a 'chain' constraint over just its bones); with joint
// limits, on solveChain (the rig's chain limits are on its canonical frames,
// ChainIK's 'euler' limits on bone.rotation like CCDIKSolver's).
import { Quaternion, Vector3 } from 'three';
import { BoneChain } from '../boneChain.js';
import { checkDescent, optionNames, readPoint, readWeight, toArray3, checkHelperOptions } from '../readers.js';
import { copyDefined, limbForward } from './limb.js';
import { RigHelper, SMOOTHING_KEYS } from '../helper.js';

const _target = /* @__PURE__ */ new Vector3();
const _pole = /* @__PURE__ */ new Vector3();
const _axis = /* @__PURE__ */ new Vector3();
const _parent = /* @__PURE__ */ new Quaternion();
const _position = /* @__PURE__ */ new Vector3();
const _scale = /* @__PURE__ */ new Vector3();

const CHAIN_KEYS = ['method', 'iterations', 'tolerance'];
const CHAIN_SETTINGS = ['weight', ...SMOOTHING_KEYS, ...CHAIN_KEYS];
const CHAIN_OPTIONS = optionNames(CHAIN_SETTINGS, 'target', 'pole', 'limits', 'axes', 'forward', 'up');

/**
 * N-bone chain IK (a tail, a tentacle, a spine, fingers) on three.js bones by
 * CCD or FABRIK: the last object is the tip that reaches for the target.
 * Joint limits are on the bones' local rotations, like CCDIKSolver's.
 * Call `update(dt)` each frame after animation; `dispose()` frees its rig.
 */
export class ChainIK extends RigHelper {
  /**
   * @param {object} ikpd the loaded library (`await init()`)
   * @param {import('three').Object3D[]} bones root → tip (at least 2)
   * @param {object} [options] see the typings for the documented defaults
   */
  constructor(ikpd, bones, options = {}) {
    super(ikpd, 'ChainIK');
    checkHelperOptions(options, CHAIN_OPTIONS, 'ChainIK');
    if (!Array.isArray(bones) || bones.length < 2) throw new TypeError('bones: expected at least [root, tip]');
    checkDescent(bones);
    this.bones = bones;
    /** Joint limits (one per bone, or null): with limits the chain solves on solveChain. */
    this.limits = options.limits ?? null;
    this.reached = false;
    this.distance = 0;
    this.iterationsRun = 0;
    const values = { ...options, weight: options.weight ?? 1, enabled: options.enabled ?? true };
    const forward = limbForward(options, bones.length);
    this._rigUp(bones, 'chain', { bones, target: options.target ?? null, pole: options.pole ?? null, forward }, CHAIN_SETTINGS, values);
    this._axes = options.axes ?? { forward: options.forward, up: options.up };
    this._limited = null; // the solveChain path, made when limits are set
    if (this.limits !== null) this._limitedChain().check();
  }

  /** World point the chain's bend turns toward: an Object3D, a Vector3, [x, y, z] or null. */
  get pole() { return this.constraint.pole; }
  set pole(value) { this.constraint.pole = value ?? null; }

  _limitedChain() {
    this._limited ??= new LimitedChain(this, this._axes);
    return this._limited;
  }

  /** Solves and writes the bones' local quaternions; `dt` in seconds for `settleTime` (none: 0). */
  update(dt) {
    dt = this._dt(dt);
    if (this.limits !== null && this.limits !== undefined) {
      this._limitedChain().update();
      return this;
    }
    this.rig.update(dt);
    if (this.target !== null && this.weight > 0) {
      const c = this.constraint;
      this._measured.set(c._measured);
      this.iterationsRun = this.rig._viewsNow().results[2];
    }
    return this;
  }
}

// ChainIK with joint limits: solveChain on the BoneChain's frames (the
// bones' own rotations when they share one forward axis, so 'euler' limits
// apply to bone.rotation exactly like CCDIKSolver's).
class LimitedChain {
  constructor(helper, axes) {
    this.helper = helper;
    this.chain = new BoneChain(helper.bones, axes);
    const shared = this.chain.useRigFrames();
    this._forward = shared ? toArray3(shared) : [1, 0, 0];
    this._rigFrames = shared !== null;
    this._result = undefined; // the last solveChain result, filled in place by the next solve
  }

  // Every option checked now, as update() would, without moving a bone.
  check() {
    readWeight(this.helper.weight);
    this.chain.read();
    this._solve(_target.copy(this.chain.positions[this.chain.count - 1]));
  }

  _limits() {
    const limits = this.helper.limits;
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

  update() {
    const helper = this.helper;
    const weight = readWeight(helper.weight);
    if (helper.target === null || weight === 0 || !helper.enabled) return;
    const chain = this.chain;
    chain.read();
    const result = this._solve(readPoint(helper.target, 'target', _target));
    helper.reached = result.reached;
    helper.distance = result.distance;
    helper.iterationsRun = result.iterations;
    // The tip keeps its local rotation; every bone above it takes the solve.
    for (let i = 0; i < chain.count - 1; i++) chain.writeSolved(i, result.joints[i].rotation);
    chain.finish(weight);
  }

  // Solves toward the world point `target` (a Vector3) from the pose read last.
  _solve(target) {
    const chain = this.chain, helper = this.helper;
    const joints = [];
    for (let i = 0; i < chain.count; i++) joints.push(chain.joint(i));
    const request = copyDefined({ joints, target: toArray3(target), forward: this._forward }, helper, CHAIN_KEYS);
    request.limits = this._limits();
    const root = chain.bones[0];
    if (root.parent) {
      root.parent.matrixWorld.decompose(_position, _parent, _scale);
      request.parentRotation = [_parent.x, _parent.y, _parent.z, _parent.w];
    }
    if (helper.pole !== null) request.pole = toArray3(readPoint(helper.pole, 'pole', _pole));
    this._result = helper.ikpd.solveChain(request, this._result);
    return this._result;
  }
}
