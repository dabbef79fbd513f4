// Shared plumbing for every JS wrapper: scratch memory views that survive
// WASM memory growth, status → exception translation, the disposable base
// class, and the one way to give objects accessors (sharedProperty). The argument readers (errors that name the parameter) are
// web/src/readers.js, a leaf module that web/src/fields.js imports too.

// The last floats of the C++ scratch buffer hold an area's name for
// bindArea (Core.scratchFloats leaves them out), so binding an area never
// touches the heap or the inputs a call has packed.
const AREA_NAME_FLOATS = 4;

/**
 * Registers the bindings of area `name` ('ik', 'rig', 'pd', 'hdr', 'batch';
 * '*': all) on `wasm` (cpp/bindings/core.cc BindArea); again is a no-op.
 */
export function bindArea(wasm, name) {
  const at = wasm.scratchPointer() + 4 * (wasm.scratchFloats() - AREA_NAME_FLOATS);
  const bytes = wasm.HEAPU8;
  for (let i = 0; i < name.length; i++) bytes[at + i] = name.charCodeAt(i);
  bytes[at + name.length] = 0;
  if (wasm.bindArea(at) === 0) throw new Error(`ikpd: no bindings for the area '${name}'`);
}

/**
 * The property descriptor `make(key)` gives, made once per `key` and kept in `table` (a Map):
 * one descriptor shared by every object given property `key`, so those objects share a hidden
 * class (accessors made per object give each its own, and a frame's loop over several of them
 * goes megamorphic; docs/performance.md, "three.js path").
 */
export function sharedProperty(table, key, make) {
  let property = table.get(key);
  if (property === undefined) table.set(key, property = make(key));
  return property;
}

/**
 * The Error for `user` (a class) needing `area` of a module that has only
 * `areas`: it names the init() option that loads a module with it.
 */
export function missingArea(user, area, areas) {
  return new Error(`${user}: the ${area} area is not in the module init() loaded (areas: ${areas.join(', ')}); ` +
    `load it with init({ ${area}: true }) (docs/loading.md, "Modules")`);
}

/** Access to the WASM module shared by all API modules. */
export class Core {
  /**
   * `wasm`: the Embind module. Its functions and classes are declared in the
   * EMSCRIPTEN_BINDINGS blocks of cpp/bindings/*.cc and take numbers only
   * (byte offsets, counts, flags, values).
   */
  constructor(wasm, jobs) {
    this.wasm = wasm;
    this.scratchPointer = wasm.scratchPointer();
    /** The described jobs' packed layouts (web/src/<area>/described.js), by job: twoBone, aim, ... */
    this.jobs = jobs;
    this.scratchFloats = wasm.scratchFloats() - AREA_NAME_FLOATS;
    this._scratch = new Float32Array(0);
    this._scratchView = () => this.scratch;
    this._bound = new Set();
  }

  /**
   * The module with `name`'s bindings ('ik', 'rig', 'pd', 'hdr', 'batch'),
   * registered the first time an area is asked for: init() binds none of
   * them, so it does not pay for the areas an app never uses
   * (docs/loading.md, "Start-up"). An area the loaded module does not have
   * is an Error naming `user` (the class asking) and the init() option that
   * loads it (docs/loading.md, "Modules").
   */
  area(name, user = 'ikpd') {
    if (!this._bound.has(name)) {
      const { areas } = this.wasm.ikpdModule; // web/src/module.js createModule
      if (!areas.includes(name)) throw missingArea(user, name, areas);
      bindArea(this.wasm, name);
      this._bound.add(name);
    }
    return this.wasm;
  }

  /** Float32Array over the WASM memory (re-derived after memory growth). */
  get heapF32() {
    return this.wasm.HEAPF32;
  }

  /** Float32Array view over the scratch buffer (re-derived after memory growth). */
  get scratch() {
    // Memory growth detaches the old ArrayBuffer, which empties every view over it.
    if (this._scratch.length === 0) {
      this._scratch = new Float32Array(this.wasm.HEAPF32.buffer, this.scratchPointer, this.scratchFloats);
    }
    return this._scratch;
  }

  /** fillView over the scratch buffer: fill(scratch, a, b, c), again on a fresh view if memory grew meanwhile. */
  fillScratch(fill, a, b, c) {
    return fillView(this._scratchView, fill, a, b, c);
  }

  /** A `Type` (Float32Array, Float64Array) view over a native handle's options buffer (`layout.floats` numbers). */
  settingsOf(native, Type, layout) {
    return new Type(this.heapF32.buffer, native.settings() >>> 0, layout.floats);
  }

  /** WASM memory size and bytes in use by C++ allocations (see Ikpd.memoryStats). */
  memoryStats() {
    return { heapBytes: this.wasm.HEAPU8.length, usedBytes: this.wasm.heapUsed() };
  }

  /** Throws the C++ Status message ("parameter: reason") when `errorPointer` is non-zero. */
  check(errorPointer) {
    if (errorPointer) throw new RangeError(this.wasm.UTF8ToString(errorPointer >>> 0));
  }
}

/**
 * A native object from an Embind factory (`Class.create(...)`, `wasm.PdQuat()`:
 * cpp/bindings/conventions.h Create), which gives null when WASM memory cannot hold
 * it: then a RangeError naming `name`, the parameter that sized it (or
 * 'options').
 */
export function created(handle, name) {
  if (handle === null) throw new RangeError(`${name}: out of WASM memory`);
  return handle;
}

/**
 * Runs fill(view(), a, b, c) with a typed-array view over WASM memory (`view`
 * derives a current one) and returns the view filled. Reading the caller's
 * inputs can grow WASM memory (a getter or Proxy that creates an ikpd object),
 * which detaches every view: writes to it then vanish silently. A view
 * emptied that way (length 0) is filled again from a fresh one, so every
 * wrapper packs its inputs completely (the inputs are then read twice).
 * Per-frame callers pass a `fill` made once and their values as a, b, c: a
 * closure over a call's values would be garbage on every call.
 */
export function fillView(view, fill, a, b, c) {
  let v = view();
  fill(v, a, b, c);
  while (v.length === 0) {
    v = view();
    fill(v, a, b, c);
  }
  return v;
}

// ---------------------------------------------------------------- lifetime

/**
 * True in development builds, for dev-only warnings: when a bundler states
 * the mode (Vite's `import.meta.env.DEV`; `process.env.NODE_ENV`, which Vite,
 * webpack and esbuild replace), or in Node and other runtimes with `process`
 * unless NODE_ENV is 'production'. False everywhere else, so a page built
 * without such a replacement (or loaded with no bundler) never warns.
 */
export function isDevelopment() {
  const dev = import.meta.env?.DEV;
  if (typeof dev === 'boolean') return dev;
  let mode;
  try {
    mode = process.env.NODE_ENV; // written out in full: bundlers replace this exact expression
  } catch {
    return false; // no `process` and no replacement: a browser without a bundler
  }
  return mode !== 'production' && (mode !== undefined || typeof process.versions?.node === 'string');
}

let warnedAboutLeak = false;

const registry = /* @__PURE__ */ new FinalizationRegistry((release) => {
  if (!warnedAboutLeak && isDevelopment()) {
    warnedAboutLeak = true;
    console.warn('ikpd: an object was garbage-collected without dispose(); call dispose() to free WASM memory promptly.');
  }
  release();
});

/**
 * Base class of every JS object that owns WASM memory (controllers, solvers,
 * batches). `release` frees the native side; it runs once, from dispose() or,
 * as a safety net, when the object is garbage-collected.
 */
export class WasmObject {
  #release;
  #name;

  constructor(name, release) {
    this.#name = name;
    this.#release = release;
    registry.register(this, release, this);
  }

  /** True after dispose(). */
  get disposed() {
    return this.#release === null;
  }

  /** Frees the WASM memory now; later calls on this object throw. Idempotent. */
  dispose() {
    if (this.#release === null) return;
    registry.unregister(this);
    const release = this.#release;
    this.#release = null;
    release();
  }

  /** Throws an Error when the object was disposed; call at the start of every method. */
  assertAlive() {
    if (this.#release === null) throw new Error(`${this.#name}: used after dispose()`);
  }
}

// `using pd = new ikpd.PD()` (explicit resource management) where the runtime has it.
if (typeof Symbol.dispose === 'symbol') {
  WasmObject.prototype[Symbol.dispose] = function dispose() {
    this.dispose();
  };
}
