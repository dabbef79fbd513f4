// API module 'rig', RigBatch (see web/types/rig/rigBatch.d.ts): N characters
// that share one Rig's skeleton and constraint stack (docs/rig/rig-batch.md),
// solved side by side in one WebAssembly call per frame. Every per-character
// input and output is a Float32Array view of WASM memory, joint-major
// (all characters of joint 0, then joint 1, …), re-created after memory growth.
import { WasmObject, created } from '../core.js';
import { describe, readNumber, readOptions } from '../readers.js';
import { checkOptionNames, nameSet } from '../options.js';
import { cloneData, readDt, stale } from './rigKinds.js';

const OPTIONS = /* @__PURE__ */ nameSet('rig', 'count');
/** Most characters one batch holds (cpp/include/ikpd/rig/rig_batch.h). */
const MAX_COUNT = 2 ** 20;

// pointer(field, constraint) of the binding (cpp/bindings/rig/rig_batch.cc):
// [name, floats per joint and character (joint-major) or per character].
const JOINT_FIELDS = /* @__PURE__ */ Object.freeze([['translations', 3], ['rotations', 4], ['scales', 3], ['output', 4]]);
const ROOT_FIELDS = /* @__PURE__ */ Object.freeze([['rootPositions', 3], ['rootRotations', 4], ['rootScales', 1]]);
const POLE_SET = 7;
const CONSTRAINT_FIELDS = /* @__PURE__ */ Object.freeze([['targets', 3], ['poles', 3], ['weights', 1], ['reached', 1], ['distance', 1]]);
const FIRST_CONSTRAINT_FIELD = 8;

export function createRigBatch(core, { Rig, ConstraintSettings, nativeOf, applySettings, checkMemory }) {
  /** One constraint of a RigBatch: its settings and its per-character views. */
  class RigBatchConstraint extends ConstraintSettings {
    #views;

    constructor(batch, apply, index, kind, values, views) {
      super(batch, apply, index, kind, values);
      this.#views = views;
    }

    /** Float32Array(3 × count): each character's target (world). */
    get targets() { return this.#views().targets[this.index]; }
    /** Float32Array(3 × count): each character's pole (world), read when `batch.poleSet[index]` is 1. */
    get poles() { return this.#views().poles[this.index]; }
    /** Float32Array(count): each character's weight in [0, 1], times the constraint's `weight` (starts at 1). */
    get weights() { return this.#views().weights[this.index]; }
    /** Float32Array(count): 1 where the character's full-weight solve reached its target. */
    get reached() { return this.#views().reached[this.index]; }
    /** Float32Array(count): each character's distance to its target (world units; aim: radians). */
    get distance() { return this.#views().distance[this.index]; }
  }

  let viewsOf;
  // The batch's constraints, made outside its constructor: a closure made there
  // would share the constructor's context, and the release closure the
  // FinalizationRegistry holds would then keep the batch alive.
  function constraintsOf(batch, rig, native) {
    const apply = (i, kind, current, changes) => applySettings(native, i, kind, current, changes);
    const views = () => {
      batch.assertAlive(); // a constraint's views of a disposed batch would be freed memory
      return viewsOf(batch);
    };
    return rig.constraints.map((c) => new RigBatchConstraint(batch, apply, c.index, c.kind, cloneData(c.options), views));
  }

  /** N characters sharing one rig (docs/rig/rig-batch.md); see RigBatch in web/types/rig/rigBatch.d.ts. */
  class RigBatch extends WasmObject {
    #native;
    #count;
    #joints;
    #views = null;
    #constraints;

    constructor(options) {
      readOptions(options);
      checkOptionNames(options, OPTIONS, 'RigBatch');
      const { rig, count } = options;
      if (!(rig instanceof Rig)) throw new TypeError(`rig: expected an ikpd Rig, got ${describe(rig)}`);
      rig.assertAlive();
      readNumber(count, 'count', { min: 1, max: MAX_COUNT, integer: true });
      const native = created(core.area('batch', 'RigBatch').RigBatch.create(), 'count');
      try {
        checkMemory(native.init(nativeOf(rig).address(), count), 'count');
      } catch (error) {
        native.delete();
        throw error;
      }
      super('RigBatch', () => native.delete());
      this.#native = native;
      this.#count = count;
      this.#joints = rig.count;
      this.#constraints = Object.freeze(constraintsOf(this, rig, native));
    }

    // For constraintsOf: a batch's current views.
    static { viewsOf = (batch) => batch.#viewsNow(); }

    // Views over the batch's storage (re-created after WASM memory growth).
    #viewsNow() {
      if (!stale(this.#views?.rotations ?? null)) return this.#views;
      const buffer = core.heapF32.buffer;
      const n = this.#count, native = this.#native;
      const view = (field, constraint, length) => new Float32Array(buffer, native.pointer(field, constraint) >>> 0, length);
      const v = {};
      JOINT_FIELDS.forEach(([name, k], field) => { v[name] = view(field, 0, k * n * this.#joints); });
      ROOT_FIELDS.forEach(([name, k], i) => { v[name] = view(JOINT_FIELDS.length + i, 0, k * n); });
      v.poleSet = new Uint8Array(buffer, native.pointer(POLE_SET, 0) >>> 0, this.#constraints.length);
      CONSTRAINT_FIELDS.forEach(([name, k], i) => {
        v[name] = this.#constraints.map((c) => view(FIRST_CONSTRAINT_FIELD + i, c.index, k * n));
      });
      this.#views = v;
      return v;
    }

    /** Number of characters. */
    get count() { this.assertAlive(); return this.#count; }
    /** Joints per character (the rig's). */
    get jointCount() { this.assertAlive(); return this.#joints; }
    /** The constraints in stack order (a frozen list, the same every call): settings and per-character views. */
    get constraints() { this.assertAlive(); return this.#constraints; }
    /** Float32Array(3 × joints × count): animated local translations, joint-major (`(j × count + c) × 3`). */
    get translations() { this.assertAlive(); return this.#viewsNow().translations; }
    /** Float32Array(4 × joints × count): animated local rotations [x, y, z, w], joint-major. */
    get rotations() { this.assertAlive(); return this.#viewsNow().rotations; }
    /** Float32Array(3 × joints × count): animated local scales, joint-major. */
    get scales() { this.assertAlive(); return this.#viewsNow().scales; }
    /** Float32Array(4 × joints × count): the solved local rotations after update(), joint-major. */
    get output() { this.assertAlive(); return this.#viewsNow().output; }
    /** Float32Array(3 × count): each character's root position (world). */
    get rootPositions() { this.assertAlive(); return this.#viewsNow().rootPositions; }
    /** Float32Array(4 × count): each character's root rotation [x, y, z, w]. */
    get rootRotations() { this.assertAlive(); return this.#viewsNow().rootRotations; }
    /** Float32Array(count): each character's root scale (uniform, > 0). */
    get rootScales() { this.assertAlive(); return this.#viewsNow().rootScales; }
    /** Uint8Array(constraints): 1 where this frame's poles of that constraint are read. */
    get poleSet() { this.assertAlive(); return this.#viewsNow().poleSet; }

    /**
     * Characters [first, first + count) back to their first frame, as `Rig.clearSmoothing` for each:
     * smoothing at rest, springs' tails restarted from the next frame's pose (docs/rig/rig-batch.md).
     * Defaults: every character. Bad ranges throw a RangeError with nothing changed.
     */
    clearSmoothing(first = 0, count = this.#count - first) {
      this.assertAlive();
      readNumber(first, 'first', { min: 0, max: this.#count, integer: true });
      readNumber(count, 'count', { min: 0, max: this.#count - first, integer: true });
      core.check(this.#native.clearSmoothing(first, count));
      return this;
    }

    /** Solves one frame for every character (one WASM call): dt seconds, finite and >= 0. Throws with nothing changed on error (threads, from 256 characters: only the bad value's part unchanged, docs/rig/rig-batch.md). */
    update(dt) {
      this.assertAlive();
      core.check(this.#native.update(readDt(dt)));
      return this;
    }
  }
  /** Most characters one batch holds. */
  RigBatch.maxCount = MAX_COUNT;
  return RigBatch;
}
