// API module 'batch' (see web/types/batch.d.ts): solvers over
// structure-of-arrays buffers that live in WASM memory and are exposed as
// Float32Array views, so filling inputs and reading outputs copies nothing
// and one call solves N items (SPEC §8).
//
// The field layout of each batch comes from C++ (one source of truth): the
// native class reports "in.name:components,...,out.name:components" and a
// pointer per field. Views are re-derived whenever WASM memory has grown
// (growth detaches the old ArrayBuffer), so `batch.input.target` is always
// valid when read; a view kept in a variable is only valid until the next
// allocation (creating another batch or controller).
import { WasmObject, readEnum, readNumber, readOptions, readVec3 } from './core.js';

const MAX_COUNT = 1 << 24;

// Built outside any constructor: a closure created in a constructor whose
// other closures use `this` would share its context and keep the object alive.
const releaseOf = (native) => () => native.delete();

const layouts = new WeakMap();
function layoutOf(NativeClass) {
  let fields = layouts.get(NativeClass);
  if (!fields) {
    fields = NativeClass.layout().split(',').map((entry, index) => {
      const [path, components] = entry.split(':');
      const [group, name] = path.split('.');
      return { group, name, components: Number(components), index };
    });
    layouts.set(NativeClass, fields);
  }
  return fields;
}

/**
 * Base of every batch: owns the native object, exposes `input` and `output`
 * objects whose properties are Float32Array views over the fields, and turns
 * "item i failed" into a RangeError naming the item.
 */
class SoaBatch extends WasmObject {
  #core;
  #native;
  #count;
  #fields;
  #pointers;
  #buffer = null;
  #views = null;

  constructor(core, name, NativeClass, count) {
    readNumber(count, 'count', { min: 1, max: MAX_COUNT, integer: true });
    const native = new NativeClass(count);
    super(name, releaseOf(native));
    this.#core = core;
    this.#native = native;
    this.#count = count;
    this.#fields = layoutOf(NativeClass);
    this.#pointers = this.#fields.map((f) => native.pointer(f.index));
    const groups = { in: {}, out: {} };
    for (const field of this.#fields) {
      Object.defineProperty(groups[field.group], field.name, {
        get: () => this.#view(field.index),
        enumerable: true,
      });
    }
    /** Input fields (Float32Array views; components of one item are adjacent). */
    this.input = Object.freeze(groups.in);
    /** Output fields (Float32Array views). */
    this.output = Object.freeze(groups.out);
  }

  /** Number of items. */
  get count() {
    return this.#count;
  }

  #view(index) {
    this.assertAlive();
    const buffer = this.#core.heapF32.buffer;
    if (buffer !== this.#buffer) {
      this.#buffer = buffer;
      this.#views = this.#fields.map((f, i) => new Float32Array(buffer, this.#pointers[i], f.components * this.#count));
    }
    return this.#views[index];
  }

  /** Runs the subclass's constructor steps; frees the native object if they throw. */
  _init(steps) {
    try {
      steps();
    } catch (error) {
      this.dispose();
      throw error;
    }
  }

  /** Packs shared options with `pack(options, scratch)` and hands them to C++ (which validates them). */
  _setOptions(options, pack) {
    this.assertAlive();
    pack(readOptions(options), this.#core.scratch);
    this.#core.check(this.#native.setOptions(this.#core.scratchPointer));
  }

  /** Solves items [0, count) (default: all); throws a RangeError "item i: parameter: reason". */
  solve(count = this.#count) {
    this.assertAlive();
    if (count !== this.#count) readNumber(count, 'count', { min: 0, max: this.#count, integer: true });
    const error = this.#native.solve(count);
    if (error) {
      throw new RangeError(`item ${this.#native.failedItem()}: ${this.#core.wasm.UTF8ToString(error)}`);
    }
    return this;
  }
}

const POLE_MODES = ['none', 'point', 'direction'];
const BEND_DIRECTIONS = ['auto', 'positive', 'negative'];
const AIM_METHODS = ['yawPitch', 'crossProduct', 'shortestArc'];

function readAxis(value, name, fallback, out, offset) {
  readVec3(value ?? fallback, name, out, offset);
}

function packTwoBoneOptions(o, s) {
  readAxis(o.forward, 'forward', [1, 0, 0], s, 0);
  readAxis(o.bendAxis, 'bendAxis', [0, 0, 1], s, 3);
  s[6] = readEnum(o.bendDirection ?? 'auto', 'bendDirection', BEND_DIRECTIONS);
  s[7] = 1 + readEnum(o.straightBend ?? 'positive', 'straightBend', ['positive', 'negative']);
  s[8] = readNumber(o.minAngle ?? 0, 'minAngle');
  s[9] = readNumber(o.maxAngle ?? Math.PI, 'maxAngle');
  s[10] = readNumber(o.soften ?? 0, 'soften');
  s[11] = readNumber(o.maxStretch ?? 1, 'maxStretch');
  s[12] = readNumber(o.twist ?? 0, 'twist');
  s[13] = readEnum(o.endRotation ?? 'world', 'endRotation', ['world', 'relative']);
  s[14] = readNumber(o.tolerance ?? 1e-4, 'tolerance');
  s[15] = readEnum(o.poleMode ?? 'none', 'poleMode', POLE_MODES);
}

function packAimOptions(o, s) {
  readAxis(o.forward, 'forward', [1, 0, 0], s, 0);
  s[3] = readEnum(o.method ?? 'yawPitch', 'method', AIM_METHODS);
  readAxis(o.up, 'up', [0, 1, 0], s, 4);
  s[7] = o.hingeAxis === undefined ? 0 : 1;
  readAxis(o.hingeAxis, 'hingeAxis', [0, 0, 1], s, 8);
  s[11] = readEnum(o.poleMode ?? 'none', 'poleMode', POLE_MODES.slice(0, 2));
}

export function createBatchApi(core) {
  const { wasm } = core;

  /** Two-bone IK (SPEC §3) for `count` limbs per call. */
  class TwoBoneBatch extends SoaBatch {
    constructor(count, options = {}) {
      super(core, 'TwoBoneBatch', wasm.NativeTwoBoneBatch, count);
      this._init(() => this.setOptions(options));
    }

    /** Replaces the settings shared by every item (defaults as in solveTwoBone). */
    setOptions(options) {
      this._setOptions(options, packTwoBoneOptions);
    }
  }

  /** One-bone aim (SPEC §1/§2) for `count` joints per call. */
  class AimBatch extends SoaBatch {
    constructor(count, options = {}) {
      super(core, 'AimBatch', wasm.NativeAimBatch, count);
      this._init(() => this.setOptions(options));
    }

    /** Replaces the settings shared by every item (defaults as in solveAim). */
    setOptions(options) {
      this._setOptions(options, packAimOptions);
    }
  }

  return { TwoBoneBatch, AimBatch };
}
