// ChainIK: N-bone chains (CCD / FABRIK, docs/ik/chains.md) on three.js bones, as
// a one-constraint IKRig (a 'chain' constraint over just its bones); with joint
// limits, on solveChain (the rig's chain limits are on its canonical frames,
// ChainIK's 'euler' limits on bone.rotation like CCDIKSolver's).
import { Quaternion, Vector3 } from 'three';
import { BoneChain } from '../boneChain.js';
import { checkDescent, optionNames, readPoint, toArray3, checkHelperOptions } from '../readers.js';
import { limbForward } from './limb.js';
import { RigHelper, SMOOTHING_KEYS, guardHelper } from '../rig/rigHelper.js';
import { constraintResult } from '../../src/rig/records.js';

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
   * @param {object} ikpd the loaded library with the rig area (`await init({ rig: true })`)
   * @param {import('three').Object3D[]} bones root → tip (at least 2)
   * @param {object} [options] see the typings for the documented defaults
   */
  constructor(ikpd, bones, options = {}) {
    super(ikpd, 'ChainIK');
    checkHelperOptions(options, CHAIN_OPTIONS, 'ChainIK');
    if (!Array.isArray(bones) || bones.length < 2) throw new TypeError('bones: expected at least [root, tip]');
    checkDescent(bones);
    this.bones = bones;
    this._limits = options.limits ?? null;
    this.reached = false;
    this.distance = 0;
    this.iterationsRun = 0;
    const values = { ...options, weight: options.weight ?? 1, enabled: options.enabled ?? true };
    const forward = limbForward(options, bones.length);
    this._rigUp(bones, 'chain', { bones, target: options.target ?? null, pole: options.pole ?? null, forward }, CHAIN_SETTINGS, values);
    this._axes = options.axes ?? { forward: options.forward, up: options.up };
    this._limited = null; // the limited path (a prepared ChainSolver), made when limits are set
    if (this._limits !== null) this._limitedChain().configure();
    if (new.target === ChainIK) return guardHelper(this); // unknown property writes throw
  }

  /**
   * Joint limits (one per bone, or null): with limits the chain solves on a
   * prepared ChainSolver. A setting: checked and sent when assigned (assign a
   * new array to change them; an error leaves the old ones).
   */
  get limits() { return this._limits; }
  set limits(value) {
    this._checkAlive();
    const before = this._limits;
    this._limits = value ?? null;
    if (this._limits === null) return;
    try {
      this._limitedChain().configure();
    } catch (error) {
      this._limits = before;
      if (before !== null) this._limited.configure();
      throw error;
    }
  }

  // method, iterations and tolerance reach the limited path's solver too (on its next update).
  _setting(key, value) {
    super._setting(key, value);
    if (this._limited !== null) this._limited.stale = true;
  }

  /** Frees the rig's (and the limited path's) WASM memory; later updates throw. Idempotent. */
  dispose() {
    this._limited?.dispose();
    super.dispose();
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
    if (this._limits !== null) {
      this._limitedChain().update();
      return this;
    }
    this.rig.update(dt);
    if (this.target !== null && this.weight > 0) {
      const c = this.constraint;
      this._measured.set(c._measured);
      this.iterationsRun = this._rigInternal.views().results[constraintResult.iterations]; // its one constraint
    }
    return this;
  }
}

// ChainIK with joint limits: a prepared ChainSolver on the BoneChain's frames
// (the bones' own rotations when they share one forward axis, so 'euler'
// limits apply to bone.rotation exactly like CCDIKSolver's). Its settings and
// limits are sent when they change; a frame only writes the joints, the
// target, the pole and the root's parent rotation (reused arrays).
class LimitedChain {
  constructor(helper, axes) {
    this.helper = helper;
    this.chain = new BoneChain(helper.bones, axes);
    const shared = this.chain.useRigFrames();
    this._forward = shared ? toArray3(shared) : [1, 0, 0];
    this._rigFrames = shared !== null;
    this._solver = new helper.ikpd.ChainSolver(this.chain.count);
    this._frame = { joints: [], target: [0, 0, 0], pole: undefined, parentRotation: undefined };
    for (let i = 0; i < this.chain.count; i++) this._frame.joints.push({ position: [0, 0, 0], rotation: [0, 0, 0, 1] });
    this._poleArray = [0, 0, 0];
    this._parentRotation = [0, 0, 0, 1];
    this.stale = true; // the helper's settings changed since configure()
  }

  // The helper's settings and limits into the solver, checked (an error changes nothing).
  configure() {
    const helper = this.helper, defaults = this._solver.constructor.defaults;
    const options = { forward: this._forward, limits: this._limits() };
    for (const key of CHAIN_KEYS) options[key] = helper[key] ?? defaults[key];
    this._solver.setOptions(options);
    this.stale = false;
  }

  dispose() {
    this._solver.dispose();
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
    const weight = helper._weight[0];
    if (helper.target === null || weight === 0 || !helper.enabled) return;
    if (this.stale) this.configure();
    const chain = this.chain;
    chain.read();
    const result = this._solve(readPoint(helper.target, 'target', _target));
    helper._measured[0] = result.reached ? 1 : 0; // (a double passed to the distance setter would be boxed)
    helper._measured[1] = result.distance;
    helper.iterationsRun = result.iterations;
    // The tip keeps its local rotation; every bone above it takes the solve.
    for (let i = 0; i < chain.count - 1; i++) chain.writeSolved(i, result.joints[i].rotation);
    chain.finish(weight);
  }

  // Solves toward the world point `target` (a Vector3) from the pose read last.
  _solve(target) {
    const chain = this.chain, helper = this.helper, frame = this._frame;
    for (let i = 0; i < chain.count; i++) chain.jointInto(i, frame.joints[i]);
    target.toArray(frame.target);
    const root = chain.bones[0];
    frame.parentRotation = undefined;
    if (root.parent) {
      root.parent.matrixWorld.decompose(_position, _parent, _scale);
      frame.parentRotation = _parent.toArray(this._parentRotation);
    }
    frame.pole = helper.pole !== null ? readPoint(helper.pole, 'pole', _pole).toArray(this._poleArray) : undefined;
    return this._solver.solve(frame);
  }
}
