// LookAtIK: a spine → neck → head rig turning toward a target with PD smoothing (docs/look-at.md).
import { Vector3 } from 'three';
import {
  BoneChain, checkDescent, optionNames, readAxis, readModule, readPoint, readWeight, toArray3, checkHelperOptions,
} from './rig.js';

const _target = new Vector3();
const _forward = new Vector3();

const SOLVER_KEYS = ['weights', 'limits', 'settleTime', 'damping', 'blendOutTime'];
const LOOK_AT_OPTIONS = optionNames(SOLVER_KEYS, 'target', 'enabled', 'weight', 'forward');

/**
 * Look-at IK (docs/look-at.md) on `[pelvis/spine, ..., neck, head]`: the head leads
 * and the body follows through per-joint weights and limits; each joint's
 * offset is smoothed by a quaternion PD controller (frame-rate independent),
 * and `enabled = false` blends the offsets out to exactly zero. Owns WASM
 * memory: call `dispose()` when done. Call `update(dt)` each frame after
 * animation.
 */
export class LookAtIK {
  /**
   * @param {object} ikpd the loaded library (`await init()`)
   * @param {import('three').Object3D[]} bones root → head
   * @param {object} [options] see the typings for the documented defaults
   */
  constructor(ikpd, bones, options = {}) {
    this.ikpd = readModule(ikpd, 'LookAtIK', 'LookAt');
    checkHelperOptions(options, LOOK_AT_OPTIONS, 'LookAtIK');
    if (!Array.isArray(bones) || bones.length < 1) throw new TypeError('bones: expected [root, ..., head]');
    this.bones = bones;
    this.target = options.target ?? null;
    this.enabled = options.enabled ?? true;
    this.weight = options.weight ?? 1;
    // The look-at solver works on the rig's own rotations: identity frames.
    this.chain = new BoneChain(bones, { forward: '+x', up: '+y' });
    checkDescent(bones);
    readWeight(this.weight);
    if (this.target !== null) readPoint(this.target, 'target', _target);
    const forward = readAxis(options.forward ?? '+z', 'forward', _forward);
    if (!forward) throw new RangeError("forward: the head's look axis cannot be 'auto'; pass e.g. '+z'");
    const settings = { forward: toArray3(forward) };
    for (const key of SOLVER_KEYS) {
      if (options[key] !== undefined) settings[key] = options[key];
    }
    settings.weights ??= defaultWeights(bones.length);
    if (settings.weights?.length !== bones.length) {
      throw new RangeError(`weights: expected one weight per bone (${bones.length}), got ${settings.weights?.length}`);
    }
    this.solver = new this.ikpd.LookAt(settings);
  }

  /** False once disabled and every offset has blended out (the rig is back to its animation). */
  get active() {
    return this.solver.active;
  }

  /**
   * Advances the smoothing by `dt` seconds (>= 0) toward the target and writes
   * the bones' local quaternions. Without a target the offsets blend out as
   * if disabled.
   */
  update(dt) {
    const weight = readWeight(this.weight);
    const chain = this.chain;
    chain.read();
    const joints = [];
    for (let i = 0; i < chain.count; i++) joints.push(chain.joint(i));
    const hasTarget = this.target !== null;
    const target = hasTarget ? toArray3(readPoint(this.target, 'target', _target)) : chain.joint(chain.count - 1).position;
    const result = this.solver.update(dt, { joints, target, enabled: Boolean(this.enabled) && hasTarget });
    if (weight === 0) return this;
    for (let i = 0; i < chain.count; i++) chain.writeSolved(i, result[i].rotation);
    chain.finish(weight);
    return this;
  }

  /** Zeroes the offsets at once (no blend), e.g. after a teleport or a cut. */
  clear() {
    this.solver.clear();
    return this;
  }

  /** Frees the WASM memory; later calls throw. Idempotent. */
  dispose() {
    this.solver.dispose();
  }
}

/** Weights 1/n, 1/(n−1), …, 1/2, 1: every joint takes an equal share of the turn. */
export function defaultWeights(count) {
  return Array.from({ length: count }, (_, i) => 1 / (count - i));
}
