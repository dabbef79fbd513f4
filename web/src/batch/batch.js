// API module 'batch' (see web/types/batch/batch.d.ts): solvers over
// structure-of-arrays buffers that live in WASM memory and are exposed as
// Float32Array views, so filling inputs and reading outputs copies nothing
// and one call solves N items (docs/architecture.md).
//
// The field layout of each batch comes from C++ (one source of truth): its
// list of per-item fields (cpp/bindings/batch/fields.h), each naming the
// described single-job or result field it carries, written at build time into
// web/src/batch/described.js; the native class gives a pointer per field. Views are re-derived whenever WASM memory has grown
// (growth detaches the old ArrayBuffer), so `batch.input.target` is always
// valid when read; a view kept in a variable is only valid until the next
// allocation (creating another batch or controller).
import { WasmObject, created, sharedProperty } from '../core.js';
import { readBoolean, readEnum, readNumber, readOptions } from '../readers.js';
import { checkOptionNames, nameSet } from '../options.js';
import * as batchLayouts from './described.js';

const MAX_COUNT = 1 << 24;

// Built outside any constructor: a closure created in a constructor whose
// other closures use `this` would share its context and keep the object alive.
const releaseOf = (handle) => () => handle.delete();

// Field layout of an Embind batch class, written at build time from its list
// (cpp/bindings/batch/fields.h) into web/src/batch/described.js: each field's
// group and name, components, and the described field(s) it carries per item
// (`sources`; two for a pole: point, direction) from float `start` of that
// field. Embind names each class as its list does.
export function layoutOf(wasm, Native) {
  const fields = batchLayouts[Native.name];
  if (fields === undefined) throw new Error(`ikpd: no described layout for batch class ${Native.name}`);
  return fields;
}

// A field group's batch (a non-enumerable key of `input`, `output`, `state`), and the groups'
// accessors by field index.
const BATCH = /* @__PURE__ */ Symbol('batch');
const VIEW_PROPERTIES = /* @__PURE__ */ new Map();

/**
 * Base of every batch: owns the native object, exposes `input` and `output`
 * objects whose properties are Float32Array views over the fields, and turns
 * "item i failed" into a RangeError naming the item ("items[i].parameter: reason").
 */
class SoaBatch extends WasmObject {
  #core;
  #handle;
  #count;
  #fields;
  #pointers;
  #buffer = null;
  #views = null;

  // `Native`: the Embind class of the batch kind (cpp/bindings/batch/batch.cc).
  constructor(core, name, Native, count) {
    readNumber(count, 'count', { min: 1, max: MAX_COUNT, integer: true });
    const handle = created(Native.create(count), 'count');
    // Storage C++ could not allocate comes back as null fields (cpp/bindings/batch/batch.cc).
    if (handle.pointer(0) === 0) {
      handle.delete();
      throw new RangeError(`count: out of WASM memory for ${count} items`);
    }
    super(name, releaseOf(handle));
    this.#core = core;
    this.#handle = handle;
    this.#count = count;
    this.#fields = layoutOf(core.wasm, Native);
    this.#pointers = this.#fields.map((f) => handle.pointer(f.index) >>> 0);
    // Each group's fields as accessors of its batch's views, one descriptor per field shared by
    // every batch (sharedProperty): the groups of a batch kind share one hidden class.
    const groups = { in: {}, out: {}, state: {} };
    for (const group of Object.values(groups)) Object.defineProperty(group, BATCH, { value: this });
    for (const field of this.#fields) {
      Object.defineProperty(groups[field.group], field.name, sharedProperty(VIEW_PROPERTIES, field.index, SoaBatch.#viewProperty));
    }
    /** Input fields (Float32Array views; components of one item are adjacent). */
    this.input = Object.freeze(groups.in);
    /** Output fields (Float32Array views). */
    this.output = Object.freeze(groups.out);
    /** State fields, read and written by update() (Float32Array views; controllers only). */
    if (Object.keys(groups.state).length) this.state = Object.freeze(groups.state);
  }

  /** Number of items. */
  get count() {
    return this.#count;
  }

  // The descriptor of a group's field `index`: its view, read through the group's batch.
  static #viewProperty(index) {
    return { enumerable: true, get() { return this[BATCH].#view(index); } };
  }

  // No closure here: one that captures a local of a per-frame method makes V8
  // allocate its context on every call, even when the branch is not taken.
  #view(index) {
    this.assertAlive();
    const buffer = this.#core.heapF32.buffer;
    if (buffer !== this.#buffer) this.#makeViews(buffer);
    return this.#views[index];
  }

  #makeViews(buffer) {
    this.#buffer = buffer;
    this.#views = this.#fields.map((f, i) => new Float32Array(buffer, this.#pointers[i], f.components * this.#count));
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

  /**
   * call(handle, count, dt): the native solve or update (module-level
   * functions, so a frame allocates no closure); throws
   * "items[i].parameter: reason" on error.
   */
  _run(count, call, dt) {
    this.assertAlive();
    if (count !== this.#count) readNumber(count, 'count', { min: 0, max: this.#count, integer: true });
    const error = call(this.#handle, count, dt);
    if (error) {
      const item = this.#handle.failedItem() >>> 0;
      throw new RangeError(`items[${item}].${this.#core.wasm.UTF8ToString(error >>> 0)}`);
    }
    return this;
  }

  /** Native setOptions (given the native handle) with the options already packed; throws the C++ error. */
  _configure(call) {
    this.assertAlive();
    this.#core.check(call(this.#handle));
  }
}

const NON_NEGATIVE = /* @__PURE__ */ Object.freeze({ min: 0 }); // made once: a literal per update() can be garbage
const solveItems = (handle, n) => handle.solve(n);
const updateItems = (handle, n, dt) => handle.update(dt, n);

/** Batches of solvers: solve(count) solves items [0, count). */
class SolverBatch extends SoaBatch {
  /** Solves items [0, count) (default: all); throws a RangeError "items[i].parameter: reason". */
  solve(count = this.count) {
    return this._run(count, solveItems);
  }
}

/** Batches of PD controllers: update(dt, count) advances items [0, count) in place. */
class ControllerBatch extends SoaBatch {
  /** Advances items [0, count) (default: all) by dt seconds toward `input.target`. */
  update(dt, count = this.count) {
    readNumber(dt, 'dt', NON_NEGATIVE);
    return this._run(count, updateItems, dt);
  }
}

const POLE_MODES = ['none', 'point', 'direction'];

// The pole modes a batch takes: 'none', then one per single-job field its
// in.pole stands for ('point': pole, 'direction': poleDirection).
const poleModesOf = (wasm, Native) => POLE_MODES.slice(0, 1 + layoutOf(wasm, Native).find((f) => f.group === 'in' && f.name === 'pole').sources.length);

// The single call's options a batch shares across its items: every option of
// the job's description (web/src/fields.js) but those its in.* fields carry
// per item (in.pole, in.effectorOffset, in.weight; poleDirection is in.pole
// with poleMode 'direction').
function sharedKeys(wasm, job, Native) {
  const perItem = layoutOf(wasm, Native).filter((f) => f.group === 'in').flatMap((f) => f.sources);
  return Object.freeze(job.options.map((f) => f.name).filter((name) => !perItem.includes(name)));
}

// Options given as null take their defaults in batches.
function given(o, keys) {
  const out = {};
  for (const key of keys) if (o[key] !== undefined && o[key] !== null) out[key] = o[key];
  return out;
}

// Packs the shared options as the single call's packed job (defaults first),
// then poleMode after it (cpp/bindings/batch/batch.cc SolverBatch::setOptions).
function packShared(job, keys, poleModes, o, s) {
  s.set(job.defaults);
  job.packOptions(given(o, keys), s);
  s[job.floats] = readEnum(o.poleMode ?? 'none', 'poleMode', poleModes);
}

// Options of PD batches: the PD controller options a batch can honour (it
// keeps no integral or previous target), packed by web/src/pd/pd.js.
const PD_BATCH_OPTIONS = ['kp', 'kd', 'settleTime', 'damping', 'integrator', 'dtMax', 'maxVelocity'];
const PD_BATCH_NAMES = nameSet(PD_BATCH_OPTIONS);
const PD_BATCH_ANGLE_NAMES = nameSet(PD_BATCH_OPTIONS, 'angle');
const QUAT_PD_BATCH_NAMES = nameSet(PD_BATCH_OPTIONS, 'maxAngle', 'method');

// A solver batch kind: its Embind class, the shared options it takes and its
// pole modes.
function solverKind(wasm, className, job) {
  const Native = wasm[className];
  const keys = sharedKeys(wasm, job, Native);
  return { Native, job, keys, names: nameSet(keys, 'poleMode'), poleModes: poleModesOf(wasm, Native) };
}

export function createBatchApi(core) {
  const { twoBone, aim, pseudoThreeBone } = core.jobs;
  // Each kind is made on its first batch, when the batch bindings are bound (Core.area).
  const kinds = {};
  const kindOf = (className, job) => (kinds[className] ??= solverKind(core.area('batch', className), className, job));
  const configure = (batch, kind, options) =>
    batch._configure((handle) => {
      checkOptionNames(readOptions(options), kind.names, batch.constructor.name);
      core.fillScratch((s) => packShared(kind.job, kind.keys, kind.poleModes, options, s));
      return handle.setOptions(core.scratchPointer);
    });

  /** Two-bone IK (docs/ik/two-bone.md) for `count` limbs per call. */
  class TwoBoneBatch extends SolverBatch {
    constructor(count, options = {}) {
      super(core, 'TwoBoneBatch', kindOf('TwoBoneBatch', twoBone).Native, count);
      this._init(() => this.setOptions(options));
    }

    /** Replaces the settings shared by every item (defaults as in solveTwoBone). */
    setOptions(options) {
      configure(this, kindOf('TwoBoneBatch', twoBone), options);
    }
  }

  /** One-bone aim (docs/ik/aim.md) for `count` joints per call. */
  class AimBatch extends SolverBatch {
    constructor(count, options = {}) {
      super(core, 'AimBatch', kindOf('AimBatch', aim).Native, count);
      this._init(() => this.setOptions(options));
    }

    /** Replaces the settings shared by every item (defaults as in solveAim). */
    setOptions(options) {
      configure(this, kindOf('AimBatch', aim), options);
    }
  }

  /** Pseudo three-bone IK (docs/ik/pseudo-three-bone.md) for `count` legs/arms per call. */
  class PseudoThreeBoneBatch extends SolverBatch {
    constructor(count, options = {}) {
      super(core, 'PseudoThreeBoneBatch', kindOf('PseudoThreeBoneBatch', pseudoThreeBone).Native, count);
      this._init(() => this.setOptions(options));
    }

    /** Replaces the settings shared by every item (defaults as in solvePseudoThreeBone). */
    setOptions(options) {
      configure(this, kindOf('PseudoThreeBoneBatch', pseudoThreeBone), options);
    }
  }

  /** Scalar PD controllers (docs/pd/pd.md), `count` per update(); `angle: true` wraps like AnglePD. */
  class PDBatch extends ControllerBatch {
    constructor(count, options = {}) {
      super(core, 'PDBatch', core.area('batch', 'PDBatch').PdBatch, count);
      this._init(() => this.setOptions(options));
    }

    /** Replaces the shared settings (as for `new ikpd.PD`, plus `angle`); keeps the state. */
    setOptions(options) {
      this.assertAlive();
      const { angle = false, ...rest } = checkOptionNames(readOptions(options), PD_BATCH_ANGLE_NAMES, 'PDBatch');
      readBoolean(angle, 'angle');
      this._configure((handle) => {
        core.packPdOptions(rest, PD_BATCH_NAMES, 'PDBatch');
        return handle.setOptions(angle ? 1 : 0);
      });
    }
  }

  /** Quaternion PD controllers (docs/pd/pd.md, like QuatPD with method 'log'), `count` per update(). */
  class QuatPDBatch extends ControllerBatch {
    constructor(count, options = {}) {
      super(core, 'QuatPDBatch', core.area('batch', 'QuatPDBatch').QuatPdBatch, count);
      this._init(() => this.setOptions(options));
    }

    /** Replaces the shared settings (as for `new ikpd.QuatPD`); keeps the state. */
    setOptions(options) {
      this.assertAlive();
      readOptions(options);
      this._configure((handle) => {
        core.packPdOptions(options, QUAT_PD_BATCH_NAMES, 'QuatPDBatch');
        return handle.setOptions(0);
      });
    }
  }

  return { TwoBoneBatch, AimBatch, PseudoThreeBoneBatch, PDBatch, QuatPDBatch };
}
