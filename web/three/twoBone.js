// TwoBoneIK: a limb (docs/two-bone.md) on three.js bones.
import { Quaternion, Vector3 } from 'three';
import {
  BoneChain, checkDescent, optionNames, readAxis, readModule, readPoint, readWeight, toArray3, checkHelperOptions,
} from './rig.js';
import { warnOnce } from '../src/dev.js';

const _target = new Vector3();
const _pole = new Vector3();
const _offset = new Vector3();
const _a = new Vector3();
const _b = new Vector3();
const _q = new Quaternion();
const _q2 = new Quaternion();

/** Copies the options that are set (undefined keeps the solver's default). */
export function copyDefined(request, source, keys) {
  for (const key of keys) if (source[key] !== undefined) request[key] = source[key];
  return request;
}

// Passed to the limb solvers as they are (undefined keeps the solver's default).
export const LIMB_KEYS = ['bendDirection', 'straightBend', 'minAngle', 'maxAngle', 'soften', 'twist', 'tolerance'];
// Every option the limb helpers share (for the unknown-name warning).
const LIMB_OPTIONS = [...LIMB_KEYS, 'target', 'pole', 'poleDirection', 'weight', 'maxStretch', 'axes', 'forward', 'up', 'bendAxis'];

const END_ROTATIONS = ['world', 'relative', 'target'];

/**
 * Reads the end rotation mode, naming the option in errors. 'local', the old
 * name of 'relative', is still accepted (with a development warning).
 */
export function readEndRotation(value, target) {
  if (value === 'local') {
    warnOnce('endRotation local', "ikpd: endRotation 'local' is now called 'relative' (as in solveTwoBone); " +
      'shown once, in development builds only.');
    return 'relative';
  }
  if (!END_ROTATIONS.includes(value)) {
    throw new RangeError(`endRotation: expected one of 'world', 'relative', 'target', got ${JSON.stringify(value)}`);
  }
  if (value === 'target' && !target?.isObject3D) {
    throw new TypeError("endRotation: 'target' needs an Object3D target");
  }
  return value;
}

/**
 * The mid joint's hinge in the solver's canonical mid frame: the given
 * bone-local axis, else the current bend (upper × lower bone) when the limb
 * is bent, else the canonical +Z (the rig's forward × up).
 */
export function limbBendAxis(chain, option, out = new Vector3()) {
  if (readAxis(option, 'bendAxis', out)) return out.applyQuaternion(chain.inverseFrames[1]);
  chain.read();
  const [root, mid, end] = chain.positions;
  _a.subVectors(mid, root).normalize();
  _b.subVectors(end, mid).normalize();
  out.crossVectors(_a, _b);
  if (out.length() < 1e-3) return out.set(0, 0, 1);
  // World → mid rig-local → canonical.
  _q.copy(chain.rotations[1]).multiply(chain.frames[1]).invert();
  return out.normalize().applyQuaternion(_q);
}

/** Adds pole / poleDirection to a solver request. */
export function addPole(request, pole, poleDirection) {
  if (pole !== null && pole !== undefined) request.pole = toArray3(readPoint(pole, 'pole', _pole));
  if (poleDirection !== null && poleDirection !== undefined) {
    request.poleDirection = toArray3(readPoint(poleDirection, 'poleDirection', _pole));
  }
  return request;
}

/**
 * What TwoBoneIK and PseudoThreeBoneIK share: the limb options, the hinge
 * detection, stretch of the middle and end bones, and the solve → write
 * sequence. Subclasses give the solver call and the end-bone handling.
 */
export class LimbIK {
  // `name`: the helper's name in errors; `extra`: its own option names.
  constructor(ikpd, bones, options, count, shape, name, extra) {
    this.ikpd = readModule(ikpd, name, 'solveTwoBone');
    checkHelperOptions(options, optionNames(LIMB_OPTIONS, extra), name);
    if (!Array.isArray(bones) || bones.length !== count) throw new TypeError(`bones: expected ${shape}`);
    this.bones = bones;
    this.target = options.target ?? null;
    this.pole = options.pole ?? null;
    this.poleDirection = options.poleDirection ?? null;
    this.weight = options.weight ?? 1;
    this.maxStretch = options.maxStretch ?? 1;
    for (const key of LIMB_KEYS) this[key] = options[key];
    /** True when the last update() reached the target (within `tolerance`). */
    this.reached = false;
    /** Distance from the contact point to the target after the last update(). */
    this.distance = 0;
    this.chain = new BoneChain(bones, options.axes ?? { forward: options.forward, up: options.up });
    checkDescent(bones);
    this._bendAxis = toArray3(limbBendAxis(this.chain, options.bendAxis));
    // Rest offsets of mid and end, restored before each stretched solve.
    this._rest = [bones[1].position.clone(), bones[2].position.clone()];
    this._stretched = false;
  }

  /**
   * Checks every option now, as update() would, without moving a bone: a
   * solve toward the end bone's current position whose result is dropped.
   * Subclasses call it at the end of their constructor.
   */
  _checkOptions() {
    readWeight(this.weight);
    this._validate();
    if (this.target !== null) readPoint(this.target, 'target', _target);
    this.chain.read();
    this._solve(_target.copy(this.chain.positions[2]));
  }

  /**
   * The limb options for a prepared solver's setOptions: every shared option
   * as set on the helper, else the solver's default (`defaults`), and the pole.
   */
  _limbOptions(defaults) {
    const options = { bendAxis: this._bendAxis, maxStretch: this.maxStretch, pole: null, poleDirection: null };
    for (const key of LIMB_KEYS) options[key] = this[key] ?? defaults[key];
    return addPole(options, this.pole, this.poleDirection);
  }

  /** Solves `frame` (its joints `names` read from the current pose, its target set) with the prepared solver. */
  _solveFrame(frame, names, target) {
    for (let i = 0; i < names.length; i++) this.chain.jointInto(i, frame[names[i]]);
    frame.target[0] = target.x;
    frame.target[1] = target.y;
    frame.target[2] = target.z;
    return this.solver.solve(frame);
  }

  /** Solves and writes the bones' local quaternions. No-op without a target or at weight 0. */
  update() {
    const weight = readWeight(this.weight);
    this._validate();
    if (this.target === null || weight === 0) return this;
    const { chain, bones } = this;
    const stretch = this.maxStretch !== 1;
    if (stretch || this._stretched) {
      bones[1].position.copy(this._rest[0]);
      bones[2].position.copy(this._rest[1]);
      this._stretched = false;
    }
    chain.read();
    const result = this._solve(readPoint(this.target, 'target', _target));
    this.reached = result.reached;
    this.distance = result.distance;

    if (stretch) {
      const upper = _a.fromArray(result.mid.position).distanceTo(chain.positions[0]) / chain.positions[1].distanceTo(chain.positions[0]);
      const lower = _a.distanceTo(_b.fromArray(result.end.position)) / chain.positions[2].distanceTo(chain.positions[1]);
      // Ratios within float32 rounding of 1 leave the rest offsets exact.
      if (upper > 1 + 1e-5) bones[1].position.multiplyScalar(1 + (upper - 1) * weight);
      if (lower > 1 + 1e-5) bones[2].position.multiplyScalar(1 + (lower - 1) * weight);
      this._stretched = true;
    }
    chain.writeSolved(0, result.root.rotation);
    chain.writeSolved(1, result.mid.rotation);
    this._writeEnd(result);
    chain.finish(weight);
    if (weight < 1) this._measure(result);
    return this;
  }

  // Below weight 1 the bones are blended here, after the full-weight solve, so
  // reached/distance are measured on the contact point as it lands.
  _measure(result) {
    const limb = _a.fromArray(result.mid.position).distanceTo(_b.fromArray(result.root.position))
      + _a.distanceTo(_b.fromArray(result.end.position));
    const point = this._contact();
    point.updateWorldMatrix(true, false);
    this.distance = point.getWorldPosition(_a).distanceTo(_target);
    this.reached = this.distance <= (this.tolerance ?? this.ikpd.TwoBoneSolver.defaults.tolerance) * limb;
  }
}

/**
 * Two-bone limb IK (shoulder–elbow–wrist, hip–knee–ankle) on three.js bones,
 * any bone axis convention. Call `update()` each frame after animation.
 */
export class TwoBoneIK extends LimbIK {
  /**
   * @param {object} ikpd the loaded library (`await init()`)
   * @param {import('three').Object3D[]} bones `[root, mid, end]`, each a descendant of the one before
   * @param {object} [options] see the typings for the documented defaults
   */
  constructor(ikpd, bones, options = {}) {
    super(ikpd, bones, options, 3, '[root, mid, end]', 'TwoBoneIK', ['effector', 'endRotation']);
    this.effector = options.effector ?? null;
    this.endRotation = options.endRotation ?? 'world';
    this.solver = new this.ikpd.TwoBoneSolver();
    // Reused each frame: the solver's per-frame inputs.
    this._frame = { root: newJoint(), mid: newJoint(), end: newJoint(), target: [0, 0, 0] };
    try {
      this._checkOptions();
    } catch (error) {
      this.solver.dispose();
      throw error;
    }
  }

  _validate() {
    readEndRotation(this.endRotation, this.target);
  }

  _solve(target) {
    const mode = readEndRotation(this.endRotation, this.target);
    const defaults = this.ikpd.TwoBoneSolver.defaults;
    const options = this._limbOptions(defaults);
    options.endRotation = mode === 'relative' ? 'relative' : 'world';
    options.effectorOffset = this.effector === null ? defaults.effectorOffset : toArray3(this._effectorOffset(mode));
    this.solver.setOptions(options);
    return this._solveFrame(this._frame, LIMB_JOINTS, target);
  }

  // World offset from the end joint to the effector, as the solve must place it.
  _effectorOffset(mode) {
    const offset = readPoint(this.effector, 'effector', _offset).sub(this.chain.positions[2]);
    if (mode === 'target') {
      // The end takes the target's world rotation after the solve: aim the contact point
      // where it lands then, so reached/distance describe the final pose.
      offset.applyQuaternion(_q2.copy(this.chain.rotations[2]).invert()).applyQuaternion(this.target.getWorldQuaternion(_q));
    }
    return offset;
  }

  _contact() {
    return this.effector ?? this.bones[2];
  }

  _writeEnd(result) {
    if (this.endRotation === 'target') this.chain.writeWorldRotation(2, this.target.getWorldQuaternion(_q));
    else this.chain.writeSolved(2, result.end.rotation);
  }

  /** Frees the solver's WASM memory; later updates throw. Idempotent. */
  dispose() {
    this.solver.dispose();
  }
}

export const newJoint = () => ({ position: [0, 0, 0], rotation: [0, 0, 0, 1] });
const LIMB_JOINTS = ['root', 'mid', 'end'];
