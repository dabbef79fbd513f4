// LookAtIK: a spine → neck → head rig turning toward a target with PD smoothing (docs/look-at.md).
import { Quaternion, Vector3 } from 'three';
import {
  BoneChain, checkDescent, optionNames, readAxis, readModule, readPoint, readWeight, toArray3, warnUnknownHelperOptions,
} from './rig.js';

const _target = new Vector3();
const _forward = new Vector3();

const SOLVER_KEYS = [
  'weights', 'limits', 'settleTime', 'damping', 'blendOutTime', 'maxYaw', 'maxPitchUp', 'maxPitchDown', 'behind',
  'maxSpeed', 'targetMotion', 'ki', 'eyeYaw', 'eyePitchUp', 'eyePitchDown', 'eyeSettleTime',
];
const LOOK_AT_OPTIONS = optionNames(SOLVER_KEYS, 'target', 'enabled', 'weight', 'forward', 'up', 'eyes');

/**
 * Throws unless `dt` is a time step the solver takes (seconds, finite, >= 0):
 * checked before any bone is touched.
 */
export function readTimeStep(dt) {
  if (typeof dt !== 'number') throw new TypeError(`dt: expected a number of seconds, got ${typeof dt}`);
  if (!(dt >= 0) || !Number.isFinite(dt)) throw new RangeError(`dt: must be finite and >= 0, got ${dt}`);
  return dt;
}

/** The local rotations of `bones`, saved to put back if a solve fails after reading them. */
export class SavedRotations {
  constructor(bones) {
    this.bones = bones;
    this.saved = bones.map(() => new Quaternion());
  }

  save() {
    this.bones.forEach((b, i) => this.saved[i].copy(b.quaternion));
  }

  restore() {
    this.bones.forEach((b, i) => b.quaternion.copy(this.saved[i]));
    for (const b of this.bones) b.updateWorldMatrix(false, true);
  }
}

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
    warnUnknownHelperOptions(options, LOOK_AT_OPTIONS, 'LookAtIK');
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
    const up = readAxis(options.up ?? '+y', 'up', new Vector3());
    if (!up) throw new RangeError("up: cannot be 'auto'; pass the world up axis, e.g. '+y'");
    const settings = { forward: toArray3(forward), up: toArray3(up) };
    const eyes = options.eyes ?? [];
    if (!Array.isArray(eyes) || eyes.length > 2 || !eyes.every((e) => e?.isObject3D)) {
      throw new TypeError('eyes: expected [] or [leftEye, rightEye] (Object3Ds)');
    }
    // Eye bones: their world rotations are turned by the gaze (identity frames, as the chain).
    this.eyes = eyes.length > 0 ? new BoneChain(eyes, { forward: '+x', up: '+y' }, 'eyes') : null;
    this._saved = new SavedRotations([...bones, ...eyes]);
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
    // Everything that can be checked before reading the bones is, so a bad
    // call leaves them as they are.
    const weight = readWeight(this.weight);
    readTimeStep(dt);
    const hasTarget = this.target !== null;
    if (hasTarget) readPoint(this.target, 'target', _target);
    const { chain, eyes } = this;
    this._saved.save();
    let result;
    try {
      chain.read();
      eyes?.read();
      const joints = [];
      for (let i = 0; i < chain.count; i++) joints.push(chain.joint(i));
      const target = hasTarget ? toArray3(_target) : chain.joint(chain.count - 1).position;
      const eyeJoints = eyes ? Array.from({ length: eyes.count }, (_, i) => eyes.joint(i)) : undefined;
      result = this.solver.update(dt, { joints, target, enabled: Boolean(this.enabled) && hasTarget, eyes: eyeJoints });
    } catch (error) {
      this._saved.restore(); // e.g. a non-finite bone: the bones stay as they were
      throw error;
    }
    if (weight === 0) return this;
    for (let i = 0; i < chain.count; i++) chain.writeSolved(i, result[i].rotation);
    chain.finish(weight);
    if (eyes) {
      for (let i = 0; i < eyes.count; i++) eyes.writeSolved(i, result.eyes[i].rotation);
      eyes.finish(weight);
    }
    return this;
  }

  /** The eyes' smoothed yaw and pitch relative to the head (radians), as `ikpd.LookAt`'s `gaze`. */
  get gaze() {
    return this.solver.gaze;
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
