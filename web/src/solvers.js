// API module 'solvers' (see web/types/solvers.d.ts): prepared single-item
// solvers. Each owns one packed job in WASM memory (the layout C++ describes,
// web/src/fields.js) with its result after it. The constructor and
// setOptions() write and validate the options once; solve() writes only the
// per-frame inputs, makes one call and fills a result object it reuses.
// `input` / `output` are Float32Array views over the same floats for callers
// that pack raw numbers themselves (then `run()` solves).
import { WasmObject, fillQuat, fillTransform, readOptions } from './core.js';
import { OUT } from './fields.js';

const BUFFER_FLOATS = OUT + 32;

// Built outside any constructor (see batch.js).
const releaseOf = (handle) => () => handle.delete();

class PreparedSolver extends WasmObject {
  #core;
  #handle;
  #job;
  #pointer;
  #buffer = null;
  #floats = null;
  #input = null;
  #output = null;
  #inputFloats;
  #outputFloats;

  // `Native`: the Embind solver class (cpp/bindings/solvers.cc); `job`: its JobLayout.
  constructor(core, name, Native, job, outputFloats, options) {
    readOptions(options);
    const handle = new Native();
    super(name, releaseOf(handle));
    this.#core = core;
    this.#handle = handle;
    this.#job = job;
    this.#pointer = handle.pointer();
    this.#inputFloats = Math.min(...job.options.map((f) => f.offset));
    this.#outputFloats = outputFloats;
    try {
      this.setOptions(options);
    } catch (error) {
      this.dispose();
      throw error;
    }
  }

  // Float32Array over the whole buffer (re-derived after WASM memory growth).
  _buffer() {
    const buffer = this.#core.heapF32.buffer;
    if (buffer !== this.#buffer) {
      this.#buffer = buffer;
      this.#floats = new Float32Array(buffer, this.#pointer, BUFFER_FLOATS);
      this.#input = this.#floats.subarray(0, this.#inputFloats);
      this.#output = this.#floats.subarray(OUT, OUT + this.#outputFloats);
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
    for (const key of Object.keys(options)) {
      if (job.byName[key]?.role !== 'option' && options[key] !== undefined) {
        throw new TypeError(`options: unknown option '${key}' (expected one of ${job.options.map((f) => f.name).join(', ')})`);
      }
    }
    const f = this._buffer();
    const saved = f.slice(0, job.floats);
    try {
      job.packOptions(options, f);
      this.#core.check(this.#handle.setOptions());
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
  _solve(frame) {
    this.assertAlive();
    readOptions(frame, 'frame');
    const f = this._buffer();
    this.#job.packInputs(frame, f);
    this.#core.check(this.#handle.solve());
    return f;
  }
}

// The options' defaults (C++'s), by name; optional vectors (pole, ...) are absent.
function optionDefaults(job) {
  const entries = job.options.map((f) => [f.name, job.defaultValues[f.name]]).filter(([, v]) => v !== undefined);
  return Object.freeze(Object.fromEntries(entries));
}

export function createSolverApi(core) {
  const { twoBone, aim } = core.jobs;

  /** Two-bone IK with options kept in WASM memory; see TwoBoneSolver in web/types/solvers.d.ts. */
  class TwoBoneSolver extends PreparedSolver {
    /** Every option's default, from the C++ job (optional vectors absent). */
    static defaults = optionDefaults(twoBone);

    #result = {
      root: { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      mid: { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      end: { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      reached: false,
      distance: 0,
    };

    constructor(options = {}) {
      super(core, 'TwoBoneSolver', core.wasm.TwoBoneSolver, twoBone, 23, options);
    }

    /** Solves for `frame` ({root, mid, end, target}); returns the same result object every call. */
    solve(frame) {
      const f = this._solve(frame);
      const r = this.#result;
      fillTransform(r.root, f, OUT);
      fillTransform(r.mid, f, OUT + 7);
      fillTransform(r.end, f, OUT + 14);
      r.reached = f[OUT + 21] !== 0;
      r.distance = f[OUT + 22];
      return r;
    }
  }

  /** Aim with options kept in WASM memory; see AimSolver in web/types/solvers.d.ts. */
  class AimSolver extends PreparedSolver {
    /** Every option's default, from the C++ job (optional vectors absent). */
    static defaults = optionDefaults(aim);

    #result = { rotation: [0, 0, 0, 1] };

    constructor(options = {}) {
      super(core, 'AimSolver', core.wasm.AimSolver, aim, 4, options);
    }

    /** Solves for `frame` ({position, rotation?, target}); returns the same result object every call. */
    solve(frame) {
      const f = this._solve(frame);
      fillQuat(this.#result.rotation, f, OUT);
      return this.#result;
    }
  }

  return { TwoBoneSolver, AimSolver };
}
