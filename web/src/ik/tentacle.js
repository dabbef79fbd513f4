// The incremental 2D tentacle (docs/ik/tentacle.md; typings web/types/ik/tentacle.d.ts).
import { WasmObject, created } from '../core.js';
import { readOptions, readVector } from '../readers.js';
import { checkOptionNames, nameSet } from '../options.js';

// update()'s target, read here before it crosses (reused: a frame allocates nothing).
const TARGET = /* @__PURE__ */ new Float64Array(2);

export function createTentacleApi(core) {
  const { tentacle2d } = core.jobs;
  // The option names Tentacle2D takes: its description's, and the lengths it packs itself.
  const TENTACLE_NAMES = nameSet([...tentacle2d.names], 'lengths');

  /** The incremental 2D tentacle (docs/ik/tentacle.md); see Tentacle2D in web/types/ik/tentacle.d.ts. */
  class Tentacle2D extends WasmObject {
    #native; // Embind handle of the C++ Tentacle2DHandle (cpp/bindings/ik/tentacle.cc)

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
      const native = created(core.area('ik').Tentacle2D.create(), 'lengths');
      let error;
      try {
        core.fillScratch((f) => {
          readVector(lengths, 'lengths', n, f, 0);
          if (hasLimits) readVector(options.limit, 'limit', n, f, n);
          // The scalar options: the C++ description's packer (defaults, ranges).
          tentacle2d.pack(hasLimits ? { ...options, limit: undefined } : options, core.settingsOf(native, Float64Array, tentacle2d));
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
      const t = TARGET;
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

  return { Tentacle2D };
}
