// Look-at IK with PD smoothing (docs/rig/look-at.md; typings web/types/rig/lookAt.d.ts).
import { created } from '../core.js';
import { fillJoints, readArray, readEnabled, readOptions, readTransforms, readVec3, readVector } from '../readers.js';
import { checkOptionNames, nameSet } from '../options.js';
import { SmoothedRig } from './smoothedRig.js';

const NO_EYES = Object.freeze([]);

// Packs a frame (the joints and eyes update() read, its target) at f[0..].
function packFrame(f, joints, eyes, frame) {
  const o = readTransforms(joints, 'joints', f, 0);
  readVec3(frame.target, 'target', f, o);
  readTransforms(eyes, 'eyes', f, o + 3);
}

export function createLookAtApi(core) {
  const { lookAt } = core.jobs;
  // The option names LookAt takes: its description's, and the arrays it packs itself.
  const LOOK_AT_NAMES = nameSet([...lookAt.names], 'weights', 'limits');

  const MAX_LOOK_AT_JOINTS = 64;

  /** Look-at IK with PD smoothing (docs/rig/look-at.md); see LookAt in web/types/rig/lookAt.d.ts. */
  class LookAt extends SmoothedRig {
    #native; // Embind handle of the C++ LookAtHandle (cpp/bindings/rig/look_at.cc)
    #size;
    #gaze = { yaw: 0, pitch: 0 };
    #result = []; // update()'s, reused: a frame allocates nothing

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
      const native = created(core.area('rig', 'LookAt').LookAt.create(), 'weights');
      super('LookAt', native, () => {
        core.fillScratch((f) => {
          readVector(weights, 'weights', n, f, 0);
          if (hasLimits) readVector(options.limits, 'limits', n, f, n);
          if (hasSettleTimes) readVector(options.settleTime, 'settleTime', n, f, hasLimits ? 2 * n : n);
          // The scalar options: the C++ description's packer (defaults, presets, ranges).
          lookAt.pack(hasSettleTimes ? { ...options, settleTime: undefined } : options, core.settingsOf(native, Float32Array, lookAt));
        });
        return native.reset(core.scratchPointer, n, hasLimits ? 1 : 0, hasSettleTimes ? 1 : 0);
      }, core);
      this.#native = native;
      this.#size = n;
    }

    /**
     * Advances dt seconds: offsets toward the target (enabled) or blended out (disabled),
     * applied to the animated pose `joints`. Returns the world-space joints: the same
     * array (and joints) every call, overwritten by the next update; copy what you keep.
     */
    update(dt, frame) {
      const seconds = this.beginUpdate(dt, frame);
      const joints = readArray(frame.joints, 'joints');
      const n = this.#size;
      if (joints.length !== n) throw new RangeError(`joints: expected ${n} joints (one per weight), got ${joints.length}`);
      const eyes = frame.eyes === undefined ? NO_EYES : readArray(frame.eyes, 'eyes');
      if (eyes.length > 2) throw new RangeError(`eyes: needs 0, 1 or 2 joints (left, right), got ${eyes.length}`);
      const e = eyes.length;
      core.fillScratch(packFrame, joints, eyes, frame);
      core.check(this.#native.update(core.scratchPointer, seconds, readEnabled(frame), e));
      const out = core.scratch;
      const result = this.#result;
      let o = fillJoints(result, n, out, 7 * (n + e) + 3);
      if (e > 0) o = fillJoints(result.eyes ??= [], e, out, o);
      else if (result.eyes !== undefined) result.eyes = undefined;
      this.#gaze.yaw = out[o];
      this.#gaze.pitch = out[o + 1];
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

  return { LookAt };
}
