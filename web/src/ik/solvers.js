// API module 'solvers' (see web/types/ik/solvers.d.ts): prepared single-item
// solvers. Each owns one packed job in WASM memory (the layout C++ describes,
// web/src/fields.js) with its result after it. The constructor and
// setOptions() write and validate the options once; solve() writes only the
// per-frame inputs, makes one call and fills a result object it reuses.
// `input` / `output` are Float32Array views over the same floats for callers
// that pack raw numbers themselves (then `run()` solves).
import { WasmObject, created, fillView } from '../core.js';
import { fillTransform, readNumber, readOptions, readTransforms } from '../readers.js';
import { checkOptionNames, nameSet } from '../options.js';
import { LIMIT_FLOATS, MAX_CHAIN_JOINTS, readLimit } from './chain.js';
import { OUT } from '../fields.js';

const BUFFER_FLOATS = OUT + 32;
const NO_KEYS = Object.freeze([]);
const CHAIN_EXTRA_OPTIONS = Object.freeze(['limits']);
const NO_LIMITS = Object.freeze([]);

// Built outside any constructor (see web/src/batch/batch.js).
const releaseOf = (handle) => () => handle.delete();

class PreparedSolver extends WasmObject {
  #core;
  #handle;
  #job;
  #pointer;
  #floats = null;
  #input = null;
  #output = null;
  #layout;
  #name;
  #names;
  #stage = null;
  #copies = null;

  // `create()`: a new Embind solver (cpp/bindings/ik/solvers.cc, chain_solver.cc);
  // `job`: its JobLayout; `layout`: the buffer's floats, how many of its first
  // floats `input` shows, where and how long the result is (by default the
  // job's result description at OUT), and option keys beyond the job's fields
  // (extraOptions, packed by _packOptions). Subclasses call _start(options)
  // once their own fields exist.
  constructor(core, name, create, job, layout, options) {
    readOptions(options);
    const handle = created(create(), layout.sizeName ?? 'options');
    super(name, releaseOf(handle));
    this.#core = core;
    this.#handle = handle;
    this.#job = job;
    this.#pointer = handle.pointer();
    // Storage C++ could not allocate (ChainSolver's, sized by jointCount) comes back as pointer 0.
    if (this.#pointer === 0) {
      this.dispose();
      throw new RangeError(`${layout.sizeName ?? 'options'}: out of WASM memory`);
    }
    this.#name = name;
    const firstOption = Math.min(...job.options.map((f) => f.offset));
    this.#layout = {
      floats: BUFFER_FLOATS, out: OUT, outputFloats: job.result.floats, inputFloats: firstOption, extraOptions: NO_KEYS,
      // The float ranges [start, end) a frame's inputs fill (the per-frame fields before the options).
      frameRanges: [[0, firstOption]],
      ...layout,
    };
  }

  // Sets the first options; on an error frees the solver and rethrows.
  _start(options) {
    try {
      this.setOptions(options);
    } catch (error) {
      this.dispose();
      throw error;
    }
  }

  // Packs the options given into f; returns the native setOptions call's
  // argument (undefined: none).
  _packOptions(options, f) {
    this.assertAlive();
    this.#job.packOptions(options, f);
    return undefined;
  }

  // Packs the frame's per-frame inputs into f.
  _packFrame(frame, f) {
    this.assertAlive();
    this.#job.packInputs(frame, f);
  }

  // Float32Array over the whole buffer (re-derived after WASM memory growth).
  // Growth detaches the old ArrayBuffer, which empties every view over it, so
  // the per-frame check is the view's length, not a lookup of HEAPF32 on the
  // module object (a dictionary of hundreds of properties).
  _buffer() {
    if (this.#floats === null || this.#floats.length === 0) {
      const buffer = this.#core.heapF32.buffer;
      const { floats, inputFloats, out, outputFloats } = this.#layout;
      this.#floats = new Float32Array(buffer, this.#pointer, floats);
      this.#input = this.#floats.subarray(0, inputFloats);
      this.#output = this.#floats.subarray(out, out + outputFloats);
    }
    return this.#floats;
  }

  /**
   * Changes the options given (the others keep their values; null clears an
   * optional vector such as `pole`). On an error nothing changes.
   */
  setOptions(options) {
    this.assertAlive();
    readOptions(options);
    const job = this.#job;
    this.#names ??= nameSet(job.options.map((f) => f.name), this.#layout.extraOptions);
    checkOptionNames(options, this.#names, this.#name);
    const saved = this._buffer().slice(0, job.floats);
    try {
      let argument;
      // fillView: every option is read again if reading one grew WASM memory.
      fillView(() => this._buffer(), (f) => {
        argument = this._packOptions(options, f);
      });
      const handle = this.#handle;
      this.#core.check(argument === undefined ? handle.setOptions() : handle.setOptions(argument));
    } catch (error) {
      this._buffer().set(saved);
      throw error;
    }
    return this;
  }

  /** Float32Array over the per-frame inputs, packed as documented for the solver. */
  get input() {
    this.assertAlive();
    this._buffer();
    return this.#input;
  }

  /** Float32Array over the last result, packed as documented for the solver. */
  get output() {
    this.assertAlive();
    this._buffer();
    return this.#output;
  }

  /** Solves from what `input` holds; the result is in `output`. */
  run() {
    this.assertAlive();
    this.#core.check(this.#handle.solve());
    return this;
  }

  // Packs the frame's inputs, solves, and returns the buffer (result at OUT).
  // The inputs are packed into a JS-side stage first and copied into WASM
  // memory only once all are valid: a frame that throws changes nothing (the
  // next run() solves the previous frame), and reading them cannot lose writes
  // to WASM memory growth (fillView's case).
  _solve(frame) {
    this.assertAlive();
    readOptions(frame, 'frame');
    if (this.#stage === null) this.#makeStage();
    this._packFrame(frame, this.#stage);
    const f = this._buffer();
    for (const [values, start] of this.#copies) f.set(values, start);
    this.#core.check(this.#handle.solve());
    return f;
  }

  // Apart from _solve: a closure there (even in a branch not taken) would
  // make V8 allocate its context on every frame.
  #makeStage() {
    const stage = new Float32Array(this.#layout.floats);
    this.#copies = this.#layout.frameRanges.map(([start, end]) => [stage.subarray(start, end), start]);
    this.#stage = stage;
  }
}

const newJoint = () => ({ position: [0, 0, 0], rotation: [0, 0, 0, 1] });

// A solver's reused result, as its result description reads a default C++
// result (identity joints, reached false, distance 0).
const newResult = (job) => job.result.read(job.result.defaults, 0);

// The options' defaults (C++'s), by name; optional vectors (pole, ...) are absent.
function optionDefaults(job) {
  const entries = job.options.map((f) => [f.name, job.defaultValues[f.name]]).filter(([, v]) => v !== undefined);
  return Object.freeze(Object.fromEntries(entries));
}

export function createSolverApi(core) {
  const { twoBone, aim, pseudoThreeBone, chain } = core.jobs;

  /** Two-bone IK with options kept in WASM memory; see TwoBoneSolver in web/types/ik/solvers.d.ts. */
  class TwoBoneSolver extends PreparedSolver {
    /** Every option's default, from the C++ job (optional vectors absent). */
    static defaults = optionDefaults(twoBone);

    #result = newResult(twoBone);

    constructor(options = {}) {
      super(core, 'TwoBoneSolver', () => core.area('ik').TwoBoneSolver.create(), twoBone, {}, options);
      this._start(options);
    }

    /** Solves for `frame` ({root, mid, end, target}); returns the same result object every call. */
    solve(frame) {
      return twoBone.result.fill(this.#result, this._solve(frame), OUT);
    }
  }

  /** Aim with options kept in WASM memory; see AimSolver in web/types/ik/solvers.d.ts. */
  class AimSolver extends PreparedSolver {
    /** Every option's default, from the C++ job (optional vectors absent). */
    static defaults = optionDefaults(aim);

    #result = newResult(aim);

    constructor(options = {}) {
      super(core, 'AimSolver', () => core.area('ik').AimSolver.create(), aim, {}, options);
      this._start(options);
    }

    /** Solves for `frame` ({position, rotation?, target}); returns the same result object every call. */
    solve(frame) {
      return aim.result.fill(this.#result, this._solve(frame), OUT);
    }
  }

  /** Pseudo three-bone IK with options kept in WASM memory; see PseudoThreeBoneSolver in web/types/ik/solvers.d.ts. */
  class PseudoThreeBoneSolver extends PreparedSolver {
    /** Every option's default, from the C++ job (optional vectors absent). */
    static defaults = optionDefaults(pseudoThreeBone);

    #result = newResult(pseudoThreeBone);

    constructor(options = {}) {
      super(core, 'PseudoThreeBoneSolver', () => core.area('ik').PseudoThreeBoneSolver.create(), pseudoThreeBone, {}, options);
      this._start(options);
    }

    /** Solves for `frame` ({root, mid, end, target, tip, blend?}); returns the same result object every call. */
    solve(frame) {
      return pseudoThreeBone.result.fill(this.#result, this._solve(frame), OUT);
    }
  }

  /**
   * Chain IK (CCD or FABRIK) for chains of `jointCount` joints, with options and
   * limits kept in WASM memory; see ChainSolver in web/types/ik/solvers.d.ts.
   */
  class ChainSolver extends PreparedSolver {
    /** Every option's default, from the C++ job (limits: none). */
    static defaults = Object.freeze({ ...optionDefaults(chain), limits: NO_LIMITS });

    #n;
    #result;

    constructor(jointCount, options = {}) {
      readNumber(jointCount, 'jointCount', { min: 2, max: MAX_CHAIN_JOINTS, integer: true });
      const n = jointCount;
      const joints = chain.floats; // the packed job, then joints, limits, output (cpp/bindings/ik/chain_job.h)
      const out = joints + n * (7 + LIMIT_FLOATS);
      super(core, 'ChainSolver', () => core.area('ik').ChainSolver.create(n), chain,
        {
          floats: out + 7 * n + chain.result.floats, inputFloats: joints + 7 * n, out, outputFloats: 7 * n + chain.result.floats, extraOptions: CHAIN_EXTRA_OPTIONS,
          frameRanges: [[0, Math.min(...chain.options.map((f) => f.offset))], [joints, joints + 7 * n]], sizeName: 'jointCount',
        },
        options);
      this.#n = n;
      const result = [];
      for (let i = 0; i < n; i++) result.push(newJoint());
      this.#result = Object.assign({ joints: result }, newResult(chain));
      this._start(options);
    }

    /** Joints per chain (fixed at construction). */
    get jointCount() {
      this.assertAlive();
      return this.#n;
    }

    // Limits (null or [] clears them) go after the joints; setOptions(-1) keeps the current ones.
    _packOptions(options, f) {
      this.assertAlive();
      chain.packOptions(options, f);
      const limits = options.limits;
      if (limits === undefined) return -1;
      const list = limits ?? NO_LIMITS;
      if (!Array.isArray(list)) throw new TypeError(`limits: expected an array, got ${typeof list}`);
      if (list.length > this.#n) throw new RangeError(`limits: at most ${this.#n} entries (jointCount), got ${list.length}`);
      const at = chain.floats + 7 * this.#n;
      for (let i = 0; i < list.length; i++) readLimit(list[i], `limits[${i}]`, f, at + LIMIT_FLOATS * i);
      return list.length;
    }

    _packFrame(frame, f) {
      this.assertAlive();
      chain.packInputs(frame, f);
      const joints = frame.joints;
      if (!Array.isArray(joints)) throw new TypeError(`joints: expected an array, got ${joints === null ? 'null' : typeof joints}`);
      const n = this.#n;
      if (joints.length !== n) throw new RangeError(`joints: expected ${n} joints (the solver's jointCount), got ${joints.length}`);
      readTransforms(joints, 'joints', f, chain.floats);
    }

    /** Solves for `frame` ({joints, target, pole?, parentRotation?}); returns the same result object every call. */
    solve(frame) {
      const f = this._solve(frame);
      const r = this.#result;
      let o = chain.floats + this.#n * (7 + LIMIT_FLOATS);
      for (let i = 0; i < this.#n; i++, o += 7) fillTransform(r.joints[i], f, o);
      return chain.result.fill(r, f, o);
    }
  }

  return { TwoBoneSolver, AimSolver, PseudoThreeBoneSolver, ChainSolver };
}
