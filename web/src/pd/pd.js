// API module 'pd' (see web/types/pd/pd.d.ts): PD controllers (docs/pd/pd.md). Their
// options are packed by web/src/pd/pdOptions.js from the C++ description; state
// crosses through the C++ double buffer `pdBuffer()`, so the controllers'
// double-precision state reaches JS unrounded.
import { WasmObject, created, fillView } from '../core.js';
import { readNumber, readOptions, readQuat, readVector } from '../readers.js';
import { nameSet } from '../options.js';
import { warnIfMilliseconds } from '../dev.js';
import { createPdOptions } from './pdOptions.js';

const PHASES = ['none', 'spring', 'linear', 'done'];
const NO_DOUBLES = /* @__PURE__ */ new Float64Array(0);
// Options of the rotation controllers only (the others: every described PD option).
const ROTATION_ONLY = ['method', 'maxAngle'];

// A value of `length` (1, 3 or 4) doubles at f[offset..]: a number or a new array.
function valueAt(f, offset, length) {
  if (length === 1) return f[offset];
  if (length === 3) return [f[offset], f[offset + 1], f[offset + 2]];
  return [f[offset], f[offset + 1], f[offset + 2], f[offset + 3]];
}

export function createPdApi(core) {
  const wasm = core.wasm;
  const shared = createPdOptions(core);
  const { io, layout, packOptions } = shared;
  const COMMON_OPTIONS = layout.fields.map((f) => f.name).filter((name) => !ROTATION_ONLY.includes(name));
  // Shared with the PD batches (web/src/batch/batch.js).
  core.packPdOptions = packOptions;
  const { checkStability } = shared.api;
  const writeTargets = (f, controller, target, targetVelocity) => controller._writeTargets(f, target, targetVelocity);

  /**
   * Shared implementation. `n` = value length (1, 3, 4), `m` = velocity length (1, 3).
   * Layout in io: update/reset [target|value (n), velocity (m)];
   * read (and update/blendOut on success) → [value (n), velocity (m), target (n), -, -, phase].
   */
  class Controller extends WasmObject {
    #handle;
    #n;
    #m;
    #kp = 0;
    #kd = 0;
    #integrator = layout.defaultValues.integrator;
    #dtMax = layout.defaultValues.dtMax;
    #options;
    #name;

    // `create` makes the C++ controller (cpp/bindings/pd/pd.cc) and returns its Embind
    // handle. It runs only after the options' shape is checked, and any later error
    // disposes the native object at once (no leak, no FinalizationRegistry warning).
    constructor(name, create, n, m, options, allowed, defaultValue, defaultVelocity) {
      const settings = withoutState(options);
      const handle = created(create(), 'options');
      super(name, () => handle.delete());
      this.#handle = handle;
      this.#n = n;
      this.#m = m;
      this.#options = allowed;
    this.#name = name;
      try {
        this.configure(settings);
        initialState(this, options, defaultValue, defaultVelocity);
      } catch (error) {
        this.dispose();
        throw error;
      }
    }

    /** Applies new options (all of them; omitted ones take their defaults); keeps the state. */
    configure(options = {}) {
      this.assertAlive();
      packOptions(options, this.#options, this.#name);
      core.check(this.#handle.configure());
      const f = io();
      this.#kp = f[0];
      this.#kd = f[1];
      this.#integrator = options.integrator ?? layout.defaultValues.integrator;
      this.#dtMax = options.dtMax ?? layout.defaultValues.dtMax;
      return this;
    }

    // The Embind handle, for subclasses with their own update path (QuatPD).
    get _native() {
      return this.#handle;
    }

    /** Spring gain kp (1/s²) in use. */
    get kp() {
      this.assertAlive();
      return this.#kp;
    }

    /** Damper gain kd (1/s) in use. */
    get kd() {
      this.assertAlive();
      return this.#kd;
    }

    // Writes `value` into the io buffer view `f` (inside fillView: see update).
    _write(value, name, offset, f) {
      if (this.#n === 1) f[offset] = readNumber(value, name);
      else if (this.#n === 4 && offset === 0) readQuat(value, name, f, offset);
      else readVector(value, name, offset === 0 ? this.#n : this.#m, f, offset);
    }

    // `fresh`: the io buffer already holds the state (written by update/blendOut).
    _read(part, fresh = false) {
      if (!fresh) this.#handle.read();
      const f = io();
      const n = this.#n;
      const m = this.#m;
      switch (part) {
        case 'value': return valueAt(f, 0, n);
        case 'velocity': return valueAt(f, n, m);
        case 'target': return valueAt(f, n + m, n);
        default: return PHASES[f[2 * n + m + 2]];
      }
    }

    /**
     * Advances by dt seconds toward `target` (where the target is at the end of the step);
     * with `targetVelocity` the target moves linearly during the step. Returns the new value.
     */
    update(dt, target, targetVelocity) {
      this.assertAlive();
      warnIfMilliseconds(readNumber(dt, 'dt'), this, 'update');
      // fillView: every input is read again if reading one grew WASM memory.
      fillView(io, writeTargets, this, target, targetVelocity);
      core.check(this.#handle.update(dt, targetVelocity !== undefined ? 1 : 0));
      return this._read('value', true);
    }

    // Writes update()'s target and, when given, its velocity into the io view `f`.
    _writeTargets(f, target, targetVelocity) {
      this._write(target, 'target', 0, f);
      if (targetVelocity === undefined) return;
      if (this.#m === 1) f[this.#n] = readNumber(targetVelocity, 'targetVelocity');
      else readVector(targetVelocity, 'targetVelocity', this.#m, f, this.#n);
    }

    get value() {
      this.assertAlive();
      return this._read('value');
    }

    get velocity() {
      this.assertAlive();
      return this._read('velocity');
    }

    get target() {
      this.assertAlive();
      return this._read('target');
    }

    /** |error| <= restTolerance and |velocity| <= restVelocity. */
    get atRest() {
      this.assertAlive();
      return this.#handle.atRest() !== 0;
    }

    /** Spring energy kp·e²/2 + v²/2 relative to the current target. */
    get energy() {
      this.assertAlive();
      return this.#handle.energy();
    }

    /** 'none' | 'spring' | 'linear' | 'done' (see blendOut). */
    get blendPhase() {
      this.assertAlive();
      return this._read('phase');
    }

    /** Sets the state (clears the integral, the blend-out and the remembered target). */
    reset(value, velocity) {
      this.assertAlive();
      fillView(io, (f) => {
        this._write(value, 'value', 0, f);
        if (velocity === undefined) f.fill(0, this.#n, this.#n + this.#m);
        else if (this.#m === 1) f[this.#n] = readNumber(velocity, 'velocity');
        else readVector(velocity, 'velocity', this.#m, f, this.#n);
      });
      core.check(this.#handle.reset());
      return this;
    }

    /** The state t seconds from now (t < 0: in the past) on the current segment, exact. */
    stateAt(t) {
      this.assertAlive();
      core.check(this.#handle.stateAt(readNumber(t, 't')));
      const f = io();
      return { value: valueAt(f, 0, this.#n), velocity: valueAt(f, this.#n, this.#m) };
    }

    /** Seconds until the error stays within `tolerance` on the current segment (Infinity: never). */
    timeToSettle(tolerance) {
      this.assertAlive();
      core.check(this.#handle.timeToSettle(readNumber(tolerance, 'tolerance')));
      return io()[0];
    }

    /** Stability of this controller's integrator at step dt (see checkStability). */
    checkStability(dt) {
      this.assertAlive();
      return checkStability({ kp: this.#kp, kd: this.#kd, dt, integrator: this.#integrator, dtMax: this.#dtMax });
    }

    _blendOut(dt, rest) {
      this.assertAlive();
      warnIfMilliseconds(readNumber(dt, 'dt'), this, 'blendOut');
      if (rest !== undefined) fillView(io, (f) => this._write(rest, 'rest', 0, f));
      core.check(this.#handle.blendOut(dt));
      return this._read('value', true);
    }

    _track(dt, animation, desired) {
      this.assertAlive();
      warnIfMilliseconds(readNumber(dt, 'dt'), this, 'trackOffset');
      const release = desired === null || desired === undefined;
      fillView(io, (f) => {
        this._write(animation, 'animation', 0, f);
        if (release) return;
        if (this.#n === 1) f[1] = readNumber(desired, 'desired');
        else readQuat(desired, 'desired', f, 4);
      });
      core.check(this.#handle.track(dt, release ? 1 : 0));
      return valueAt(io(), 0, this.#n);
    }
  }

  const SCALAR_OPTIONS = nameSet(COMMON_OPTIONS, 'value', 'velocity');
  const ROTATION_OPTIONS = nameSet(COMMON_OPTIONS, 'method', 'value', 'velocity');
  const QUAT_OPTIONS = nameSet([...ROTATION_OPTIONS], 'maxAngle');

  function initialState(controller, options, defaultValue, defaultVelocity) {
    if (options.value !== undefined || options.velocity !== undefined) {
      controller.reset(options.value ?? defaultValue, options.velocity ?? defaultVelocity);
    }
  }

  class PD extends Controller {
    constructor(options = {}) {
      super('PD', () => core.area('pd').PdScalar(false), 1, 1, options, SCALAR_OPTIONS, 0, 0);
    }

    /** Blend-out toward `rest` (default 0): spring, then a linear blend reaching it exactly. */
    blendOut(dt, rest = 0) {
      return this._blendOut(dt, rest);
    }

    /** IK offset: smooths desired − animation; returns animation + smoothed offset (desired null: blend out). */
    trackOffset(dt, animation, desired) {
      return this._track(dt, animation, desired);
    }
  }

  class AnglePD extends Controller {
    constructor(options = {}) {
      super('AnglePD', () => core.area('pd').PdScalar(true), 1, 1, options, SCALAR_OPTIONS, 0, 0);
    }

    blendOut(dt, rest = 0) {
      return this._blendOut(dt, rest);
    }

    trackOffset(dt, animation, desired) {
      return this._track(dt, animation, desired);
    }
  }

  /**
   * Vec3PD and QuatPD: update() packs into the controller's own buffer in WASM
   * memory (cpp/bindings/pd/pd.cc Vec3Handle/QuatHandle::io) and returns this
   * controller's value array, the same array every call (no allocation per
   * frame), overwritten by the next update.
   */
  class OwnBufferController extends Controller {
    // Float64Array over the controller's update buffer; memory growth empties it.
    #io = NO_DOUBLES;
    #value;
    #readTarget;

    constructor(name, create, n, options, allowed, defaultValue, readTarget) {
      super(name, create, n, 3, options, allowed, defaultValue, [0, 0, 0]);
      this.#value = new Array(n).fill(0);
      this.#readTarget = readTarget;
    }

    /**
     * Advances by dt toward `target` (see Controller.update). Returns this
     * controller's value array, the same array every call, overwritten by the next update.
     */
    update(dt, target, targetVelocity) {
      this.assertAlive();
      warnIfMilliseconds(readNumber(dt, 'dt'), this, 'update');
      const handle = this._native;
      const v = this.#value;
      const n = v.length;
      const hasVelocity = targetVelocity !== undefined ? 1 : 0;
      let f;
      // As fillView, unrolled for this per-frame call: read again if reading grew WASM memory.
      do {
        f = this.#io;
        if (f.length === 0) f = this.#io = new Float64Array(wasm.HEAPF64.buffer, handle.pointer(), 8);
        this.#readTarget(target, 'target', f, 0);
        if (hasVelocity) readVector(targetVelocity, 'targetVelocity', 3, f, n);
      } while (f.length === 0);
      core.check(handle.update(dt, hasVelocity));
      v[0] = f[0];
      v[1] = f[1];
      v[2] = f[2];
      if (n === 4) v[3] = f[3];
      return v;
    }
  }

  const readVec3Target = (value, name, f, o) => readVector(value, name, 3, f, o);

  class Vec3PD extends OwnBufferController {
    constructor(options = {}) {
      super('Vec3PD', () => core.area('pd').PdVec3(), 3, options, ROTATION_OPTIONS, [1, 0, 0], readVec3Target);
    }

    /** Blend-out toward the unit vector `rest` (required). */
    blendOut(dt, rest) {
      if (rest === undefined) throw new TypeError('rest: expected an array of 3 numbers, got undefined');
      return this._blendOut(dt, rest);
    }
  }

  class QuatPD extends OwnBufferController {
    constructor(options = {}) {
      super('QuatPD', () => core.area('pd').PdQuat(), 4, options, QUAT_OPTIONS, [0, 0, 0, 1], readQuat);
    }

    /** Blend-out toward identity: spring, then a slerp reaching [0, 0, 0, 1] exactly. */
    blendOut(dt) {
      return this._blendOut(dt, undefined);
    }

    /** IK offset on rotations: offset = desired·animation⁻¹, returns smoothedOffset·animation (desired null: blend out). */
    trackOffset(dt, animation, desired) {
      return this._track(dt, animation, desired);
    }
  }

  function withoutState(options) {
    readOptions(options, 'options');
    if (options.value === undefined && options.velocity === undefined) return options;
    const { value, velocity, ...rest } = options;
    return rest;
  }

  return {
    PD,
    AnglePD,
    Vec3PD,
    QuatPD,
    ...shared.api,
  };
}
