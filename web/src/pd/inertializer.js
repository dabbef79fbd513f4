// API module 'pd' (see web/types/pd/inertializer.d.ts): inertialized transitions over a
// skeleton's locals (docs/pd/inertializer.md). The poses cross through Float32Array views
// of the native handle's buffer (cpp/bindings/pd/inertializer.cc), 7 floats per joint
// (tx ty tz qx qy qz qw): a frame is one update(dt) call, with no allocation. The
// bindings are in the rig module (init({ rig: true })): the default one has no room.
import { WasmObject, created } from '../core.js';
import { readBoolean, readNumber, readOptions } from '../readers.js';
import { checkOptionNames, nameSet } from '../options.js';
import { warnIfMilliseconds } from '../dev.js';

const JOINT_FLOATS = 7;
const MAX_JOINTS = 65536;
const HALF_LIFE_DEFAULT = 0.1;
const OPTIONS = /* @__PURE__ */ nameSet('halfLife');
const TRANSITION_OPTIONS = /* @__PURE__ */ nameSet('halfLife', 'velocity');
// The C++ transition's fields, named as the views JS fills (docs/pd/inertializer.md).
const VIEW_NAMES = /* @__PURE__ */ Object.freeze({ pose: 'input', from: 'output', to: 'input', fromPrevious: 'output', toPrevious: 'previous' });

const readHalfLife = (value) => readNumber(value, 'halfLife', { min: 0, max: 1e9 });

export function createInertializerApi(core) {
  // A C++ "field: reason" error, with the transition's field renamed to its view.
  function check(errorPointer) {
    if (!errorPointer) return;
    const message = core.wasm.UTF8ToString(errorPointer >>> 0);
    const colon = message.indexOf(':');
    const name = VIEW_NAMES[message.slice(0, colon)];
    throw new RangeError(name === undefined ? message : name + message.slice(colon));
  }

  class Inertializer extends WasmObject {
    #native;
    #count;
    #halfLife = HALF_LIFE_DEFAULT;
    #pointer;
    #floats = new Float32Array(0);
    #input;
    #output;
    #previous;
    #offset;

    constructor(jointCount, options = {}) {
      const n = readNumber(jointCount, 'jointCount', { min: 1, max: MAX_JOINTS, integer: true });
      checkOptionNames(readOptions(options), OPTIONS, 'Inertializer');
      const halfLife = options.halfLife === undefined ? HALF_LIFE_DEFAULT : readHalfLife(options.halfLife);
      const native = created(core.area('rig', 'Inertializer').PdInertializer(n), 'jointCount');
      super('Inertializer', () => native.delete());
      this.#native = native;
      this.#count = n;
      this.#halfLife = halfLife;
      this.#pointer = native.buffer() >>> 0;
    }

    // Views over the handle's buffer (re-created after WASM memory growth).
    #views() {
      if (this.#floats.length !== 0) return;
      const k = JOINT_FLOATS * this.#count;
      this.#floats = new Float32Array(core.heapF32.buffer, this.#pointer, 3 * k + 6);
      this.#input = this.#floats.subarray(0, k);
      this.#output = this.#floats.subarray(k, 2 * k);
      this.#previous = this.#floats.subarray(2 * k, 3 * k);
      this.#offset = this.#floats.subarray(3 * k);
    }

    /** Number of joints. */
    get jointCount() { this.assertAlive(); return this.#count; }
    /** Float32Array(7 × jointCount): the pose to play now, tx ty tz qx qy qz qw per joint (fill before update and transition). */
    get input() { this.assertAlive(); this.#views(); return this.#input; }
    /** Float32Array(7 × jointCount): the pose shown (written by update; a transition starts from it). */
    get output() { this.assertAlive(); this.#views(); return this.#output; }
    /** Float32Array(7 × jointCount): the new pose one update's dt before `input` (read by a transition with velocity). */
    get previous() { this.assertAlive(); this.#views(); return this.#previous; }

    /** The half-life of the transitions that give none (seconds; 0: a cut). */
    get halfLife() { this.assertAlive(); return this.#halfLife; }
    set halfLife(value) { this.assertAlive(); this.#halfLife = readHalfLife(value); }

    /** Seconds since the last transition. */
    get elapsed() { this.assertAlive(); return this.#native.elapsed(); }

    /**
     * Switches to the pose in `input`: records the offset output − input (and, with
     * `velocity` after an update, the rates from `output` and `previous` one update's dt
     * earlier), so the shown pose continues where it was. Errors change nothing.
     */
    transition(options = {}) {
      this.assertAlive();
      checkOptionNames(readOptions(options), TRANSITION_OPTIONS, 'Inertializer.transition');
      const halfLife = options.halfLife === undefined ? this.#halfLife : readHalfLife(options.halfLife);
      const velocity = options.velocity === undefined || readBoolean(options.velocity, 'velocity');
      check(this.#native.transition(halfLife, velocity ? 1 : 0));
      return this;
    }

    /** Advances dt seconds: output = input with the decayed offsets. Returns `output`. */
    update(dt) {
      this.assertAlive();
      warnIfMilliseconds(readNumber(dt, 'dt'), this, 'update');
      check(this.#native.update(dt));
      this.#views();
      return this.#output;
    }

    /** The offsets of `joint` now: rotation (scaled angle-axis, radians) and translation. */
    offsetAt(joint) {
      this.assertAlive();
      const j = readNumber(joint, 'joint', { min: 0, max: this.#count - 1, integer: true });
      check(this.#native.offset(j));
      this.#views();
      const f = this.#offset;
      return { rotation: [f[0], f[1], f[2]], translation: [f[3], f[4], f[5]] };
    }

    /** Drops every offset: the output is the input from the next update on. */
    reset() {
      this.assertAlive();
      this.#native.reset();
      return this;
    }
  }

  return { Inertializer };
}
