// API module 'chain' (see web/types/chain.d.ts): N-bone chains (CCD, FABRIK),
// the 2D tentacle, pseudo three-bone IK and look-at. Returns the members it
// adds to the ikpd object.
import {
  SmoothedRig,
  WasmObject,
  created,
  readEnabled,
  readEnum,
  readNumber,
  readOptions,
  readTransform,
  readVec3,
  readVector,
  fillTransform,
  transformFrom,
  tryReadTransform,
} from './core.js';
import { checkOptionNames, nameSet } from './options.js';
import { OUT } from './fields.js';

const LIMIT_TYPES = ['cone', 'euler'];
export const MAX_CHAIN_JOINTS = 128;
export const LIMIT_FLOATS = 11;
const NO_LIMITS = Object.freeze([]);

function readArray(value, name) {
  if (!Array.isArray(value)) throw new TypeError(`${name}: expected an array, got ${value === null ? 'null' : typeof value}`);
  return value;
}

// Writes n solved joints (f[o..], 7 floats each) and the summary after them
// (`summary`, the chain's ResultLayout) into a previous solveChain result,
// reusing its arrays where they are arrays.
function fillChainResult(result, n, f, o, summary) {
  let joints = result.joints;
  if (!Array.isArray(joints)) joints = result.joints = new Array(n);
  if (joints.length !== n) joints.length = n;
  for (let i = 0; i < n; i++, o += 7) joints[i] = fillTransform(joints[i], f, o);
  return summary.fill(result, f, o);
}

// Packs one joint limit (or none) at f[o..o+11): kind angle axis(3) min(3) max(3).
export function readLimit(limit, name, f, o) {
  f.fill(0, o, o + LIMIT_FLOATS);
  if (limit === null || limit === undefined) return;
  readOptions(limit, name);
  const kind = readEnum(limit.type, `${name}.type`, LIMIT_TYPES);
  f[o] = kind + 1;
  if (kind === 0) {
    f[o + 1] = readNumber(limit.angle, `${name}.angle`);
    if (limit.axis !== undefined) readVec3(limit.axis, `${name}.axis`, f, o + 2);
  } else {
    readVec3(limit.min ?? [-Math.PI, -Math.PI, -Math.PI], `${name}.min`, f, o + 5);
    readVec3(limit.max ?? [Math.PI, Math.PI, Math.PI], `${name}.max`, f, o + 8);
  }
}

export function createChainApi(core) {
  const x = core.wasm;
  // Embind free functions taken once (a lookup on the module per call costs ~5 ns).
  const { solveChain: solveChainNative, solvePseudoThreeBone: solvePseudoThreeBoneNative } = x;
  const { pseudoThreeBone, chain, lookAt, tentacle2d } = core.jobs;
  // A typed array over a native handle's options buffer (cpp/bindings/chain_fields.h layout).
  const settingsOf = (native, Type, layout) => new Type(core.heapF32.buffer, native.settings() >>> 0, layout.floats);
  // The option names each entry point takes: its description's, and the arrays it packs itself.
  const CHAIN_NAMES = nameSet([...chain.names], 'joints', 'limits');
  const TENTACLE_NAMES = nameSet([...tentacle2d.names], 'lengths');
  const LOOK_AT_NAMES = nameSet([...lookAt.names], 'weights', 'limits');

  /**
   * N-bone chain IK (CCD or FABRIK); see ChainOptions in web/types/chain.d.ts.
   * With `result` (a previous result), its arrays are filled in place and it is returned.
   */
  function solveChain(options, result) {
    readOptions(options);
    checkOptionNames(options, CHAIN_NAMES, 'solveChain');
    if (result !== undefined) readOptions(result, 'result');
    const joints = readArray(options.joints, 'joints');
    const n = joints.length;
    if (n < 2) throw new RangeError(`joints: needs at least 2 joints, got ${n}`);
    if (n > MAX_CHAIN_JOINTS) throw new RangeError(`joints: at most ${MAX_CHAIN_JOINTS} joints, got ${n}`);
    const limits = options.limits === undefined ? NO_LIMITS : readArray(options.limits, 'limits');
    if (limits.length > MAX_CHAIN_JOINTS) throw new RangeError(`limits: at most ${MAX_CHAIN_JOINTS} entries`);
    let o;
    core.fillScratch((f) => {
      chain.pack(options, f);
      o = chain.floats; // the packed job, then joints, limits (cpp/bindings/chain_job.h)
      for (let i = 0; i < n; i++, o += 7) {
        if (!tryReadTransform(joints[i], f, o)) readTransform(joints[i], `joints[${i}]`, f, o);
      }
      for (let i = 0; i < limits.length; i++, o += LIMIT_FLOATS) readLimit(limits[i], `limits[${i}]`, f, o);
    });
    core.check(solveChainNative(core.scratchPointer, n, limits.length));
    const out = core.scratch;
    if (result !== undefined) return fillChainResult(result, n, out, o, chain.result);
    const solved = new Array(n);
    for (let i = 0; i < n; i++, o += 7) solved[i] = transformFrom(out, o);
    return Object.assign({ joints: solved }, chain.result.read(out, o));
  }

  /**
   * Pseudo three-bone IK (docs/ik/pseudo-three-bone.md); see PseudoThreeBoneOptions in web/types/chain.d.ts.
   * With `result` (a previous result), its arrays are filled in place and it is returned.
   */
  function solvePseudoThreeBone(options, result) {
    readOptions(options);
    for (const name of ['effectorOffset', 'endRotation']) {
      if (options[name] !== undefined) throw new TypeError(`${name}: not an option of solvePseudoThreeBone (the tip sets it)`);
    }
    checkOptionNames(options, pseudoThreeBone.names, 'solvePseudoThreeBone');
    if (result !== undefined) readOptions(result, 'result');
    core.fillScratch((s) => pseudoThreeBone.pack(options, s));
    core.check(solvePseudoThreeBoneNative(core.scratchPointer));
    const r = core.scratch;
    return pseudoThreeBone.result.readInto(result, r, OUT);
  }

  /** The incremental 2D tentacle (docs/ik/tentacle.md); see Tentacle2D in web/types/chain.d.ts. */
  class Tentacle2D extends WasmObject {
    #native; // Embind handle of the C++ Tentacle2DHandle (cpp/bindings/chain.cc)

    constructor(options) {
      readOptions(options);
      checkOptionNames(options, TENTACLE_NAMES, 'Tentacle2D');
      const lengths = options.lengths;
      if (!Array.isArray(lengths) && !ArrayBuffer.isView(lengths)) {
        throw new TypeError('lengths: expected an array of bone lengths');
      }
      const n = lengths.length;
      if (n < 1) throw new RangeError('lengths: must have at least one bone');
      if (2 * n > core.scratchFloats) throw new RangeError(`lengths: at most ${core.scratchFloats >> 1} bones`);
      const hasLimits = typeof options.limit === 'object' && options.limit !== null;
      const native = created(x.Tentacle2D.create(), 'lengths');
      let error;
      try {
        core.fillScratch((f) => {
          readVector(lengths, 'lengths', n, f, 0);
          if (hasLimits) readVector(options.limit, 'limit', n, f, n);
          // The scalar options: the C++ description's packer (defaults, ranges).
          tentacle2d.pack(hasLimits ? { ...options, limit: undefined } : options, settingsOf(native, Float64Array, tentacle2d));
        });
        error = native.reset(core.scratchPointer, n, hasLimits ? 1 : 0);
      } catch (thrown) {
        native.delete();
        throw thrown;
      }
      if (error) native.delete();
      core.check(error);
      super('Tentacle2D', () => native.delete());
      this.#native = native;
    }

    /** Runs one incremental update toward the 2D point `target`. */
    update(target) {
      this.assertAlive();
      const t = [0, 0];
      readVector(target, 'target', 2, t, 0);
      core.check(this.#native.update(t[0], t[1]));
      return this;
    }

    /** Sets every joint angle (radians, each within its limit) and rebuilds the positions. */
    setAngles(angles) {
      this.assertAlive();
      const n = this.#native.bones();
      core.fillScratch((f) => readVector(angles, 'angles', n, f, 0));
      core.check(this.#native.setAngles(core.scratchPointer, n));
      return this;
    }

    #floats(pointer, count) {
      const heap = core.heapF32;
      const start = pointer >>> 2;
      return Array.from(heap.subarray(start, start + count));
    }

    /** True while the tentacle unwinds out of a dead end (only with `escapeAfter` > 0). */
    get unwinding() {
      this.assertAlive();
      return this.#native.unwinding() !== 0;
    }

    /** Number of bones (= joints with an angle). */
    get bones() {
      this.assertAlive();
      return this.#native.bones();
    }

    /** bones + 1 points `[x, y]`: the root, every joint, the tip. */
    get positions() {
      this.assertAlive();
      const n = this.#native.bones() + 1;
      const flat = this.#floats(this.#native.positions(), 2 * n);
      const points = new Array(n);
      for (let i = 0; i < n; i++) points[i] = [flat[2 * i], flat[2 * i + 1]];
      return points;
    }

    /** The tip position `[x, y]`. */
    get tip() {
      this.assertAlive();
      const n = this.#native.bones();
      const flat = this.#floats((this.#native.positions() >>> 0) + 8 * n, 2);
      return [flat[0], flat[1]];
    }

    /** Relative joint angles, radians (bone i's direction minus bone i−1's). */
    get angles() {
      this.assertAlive();
      return this.#floats(this.#native.angles(), this.#native.bones());
    }

    /** Bone lengths. */
    get lengths() {
      this.assertAlive();
      return this.#floats(this.#native.lengths(), this.#native.bones());
    }

    /** Per-joint limits, radians. */
    get limits() {
      this.assertAlive();
      return this.#floats(this.#native.limits(), this.#native.bones());
    }
  }

  const MAX_LOOK_AT_JOINTS = 64;

  /** Look-at IK with PD smoothing (docs/rig/look-at.md); see LookAt in web/types/chain.d.ts. */
  class LookAt extends SmoothedRig {
    #native; // Embind handle of the C++ LookAtHandle (cpp/bindings/chain.cc)
    #size;
    #gaze = Object.freeze({ yaw: 0, pitch: 0 });

    constructor(options) {
      readOptions(options);
      checkOptionNames(options, LOOK_AT_NAMES, 'LookAt');
      const weights = options.weights;
      if (!Array.isArray(weights) && !ArrayBuffer.isView(weights)) throw new TypeError('weights: expected an array of numbers');
      const n = weights.length;
      if (n < 1) throw new RangeError('weights: needs one weight per joint (at least one)');
      if (n > MAX_LOOK_AT_JOINTS) throw new RangeError(`weights: at most ${MAX_LOOK_AT_JOINTS} joints`);
      const hasLimits = options.limits !== undefined;
      const hasSettleTimes = typeof options.settleTime === 'object' && options.settleTime !== null;
      const native = created(x.LookAt.create(), 'weights');
      super('LookAt', native, () => {
        core.fillScratch((f) => {
          readVector(weights, 'weights', n, f, 0);
          if (hasLimits) readVector(options.limits, 'limits', n, f, n);
          if (hasSettleTimes) readVector(options.settleTime, 'settleTime', n, f, hasLimits ? 2 * n : n);
          // The scalar options: the C++ description's packer (defaults, presets, ranges).
          lookAt.pack(hasSettleTimes ? { ...options, settleTime: undefined } : options, settingsOf(native, Float32Array, lookAt));
        });
        return native.reset(core.scratchPointer, n, hasLimits ? 1 : 0, hasSettleTimes ? 1 : 0);
      }, core);
      this.#native = native;
      this.#size = n;
    }

    /**
     * Advances dt seconds: offsets toward the target (enabled) or blended out (disabled),
     * applied to the animated pose `joints`. Returns the world-space joints.
     */
    update(dt, frame) {
      const seconds = this.beginUpdate(dt, frame);
      const joints = readArray(frame.joints, 'joints');
      const n = this.#size;
      if (joints.length !== n) throw new RangeError(`joints: expected ${n} joints (one per weight), got ${joints.length}`);
      const eyes = frame.eyes === undefined ? NO_LIMITS : readArray(frame.eyes, 'eyes');
      if (eyes.length > 2) throw new RangeError(`eyes: needs 0, 1 or 2 joints (left, right), got ${eyes.length}`);
      const e = eyes.length;
      core.fillScratch((f) => {
        for (let i = 0; i < n; i++) readTransform(joints[i], `joints[${i}]`, f, 7 * i);
        readVec3(frame.target, 'target', f, 7 * n);
        for (let i = 0; i < e; i++) readTransform(eyes[i], `eyes[${i}]`, f, 7 * (n + i) + 3);
      });
      core.check(this.#native.update(core.scratchPointer, seconds, readEnabled(frame), e));
      const out = core.scratch;
      const result = new Array(n);
      let o = 7 * (n + e) + 3;
      for (let i = 0; i < n; i++, o += 7) result[i] = transformFrom(out, o);
      if (e > 0) {
        result.eyes = new Array(e);
        for (let i = 0; i < e; i++, o += 7) result.eyes[i] = transformFrom(out, o);
      }
      this.#gaze = { yaw: out[o], pitch: out[o + 1] };
      return result;
    }

    /**
     * The smoothed gaze after the last update, radians relative to the head:
     * `yaw` toward the head's left, `pitch` up (VRM lookAt's yaw/pitch, in radians).
     */
    get gaze() {
      this.assertAlive();
      return this.#gaze;
    }

    /** The smoothed joint-local offset rotations `[x, y, z, w]`, root first. */
    get offsets() {
      this.assertAlive();
      this.#native.readOffsets(core.scratchPointer);
      const f = core.scratch;
      return Array.from({ length: this.#size }, (_, i) => [f[4 * i], f[4 * i + 1], f[4 * i + 2], f[4 * i + 3]]);
    }

    /** Number of joints. */
    get size() {
      this.assertAlive();
      return this.#size;
    }
  }

  return { solveChain, solvePseudoThreeBone, Tentacle2D, LookAt };
}
