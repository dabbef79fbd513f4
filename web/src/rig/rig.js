// API module 'rig' (see web/types/rig/rig.d.ts): a character rig (docs/rig/rig.md),
// one object that owns a skeleton and an ordered stack of constraints and
// solves them all in one WebAssembly call per frame. Locals in, locals out,
// through Float32Array views of WASM memory (re-created after memory growth).
// Settings are packed once per add()/set() (web/src/rig/rigSettings.js); the
// kinds are web/src/rig/kinds/, the layout constants web/src/rig/rigKinds.js.
import { WasmObject, created } from '../core.js';
import { describe, readOptions, readVec3 } from '../readers.js';
import { checkOptionNames } from '../options.js';
import {
  FLOATS_PER_JOINT, FRAME_FLOATS, GROUND_FLOATS, TARGET_FLOATS, IDENTITY_LOCAL, MAX_JOINTS, PROBE_FLOATS, RESULT_FLOATS, RIG_OPTIONS,
  cloneData, freezeDeep, readDt, readIndices, readLocals, stale, unknownKey,
} from './rigKinds.js';
import { KINDS, KIND_INDEX, KIND_TABLE, kindOptions } from './kinds/index.js';
import { createRigSettings } from './rigSettings.js';
import { createRigBatch } from './rigBatch.js';

const SAMPLE_KEYS = /* @__PURE__ */ new Set(['head', 'leftHand', 'rightHand']); // Rig.calibrateAvatar

const JOINTS_REQUIRED = Object.freeze([['joints', 'joints: required (an array of joint indices)']]);

export function createRigApi(core) {
  const { DEFAULTS, packSettings, merge } = createRigSettings(core);
  let nativeOf;

  // core.check, with the rig's allocation failures ("memory: …", "count: out
  // of memory": cpp/src/rig/allocating.h) as a RangeError naming `call`, the
  // call that asked for memory (docs/rig/rig.md, "Out of memory").
  function checkMemory(errorPointer, call) {
    if (!errorPointer) return;
    const message = core.wasm.UTF8ToString(errorPointer >>> 0);
    if (/^memory: |: out of memory$/.test(message)) throw new RangeError(`${call}: out of WASM memory`);
    throw new RangeError(message);
  }

  // An error of constraint `index`'s settings, named by the one rule of
  // docs/rig/rig.md ("Errors"): `constraints[i].` then the option as this API
  // names it (a kind's `errorNames`: the core's grounding joints[0] and
  // joints[1] are its pelvis and chest). Out-of-memory errors name the call instead.
  function named(error, index, kind) {
    if (!(error instanceof TypeError || error instanceof RangeError) || /: out of WASM memory/.test(error.message)) return error;
    const prefix = `constraints[${index}].`;
    let message = error.message.startsWith(prefix) ? error.message : prefix + error.message;
    for (const [core, api] of KIND_TABLE[kind].errorNames ?? []) message = message.replace(prefix + core, prefix + api);
    return message === error.message ? error : new error.constructor(message);
  }

  // A constraint's changes, validated and packed, sent to `native` (a Rig's or
  // a RigBatch's handle): the new values. Nothing changes on an error.
  function applySettings(native, index, kind, current, changes) {
    try {
      const values = merge(kind, current, changes);
      packSettings(kind, values, core.scratch);
      checkMemory(native.set(index, core.scratchPointer), 'set');
      return values;
    } catch (error) {
      throw named(error, index, kind);
    }
  }

  // ------------------------------------------------------------- classes
  /**
   * A constraint's settings, of a Rig or a RigBatch (the owner's `apply`
   * packs and sends a change); see RigConstraint in web/types/rig/rig.d.ts.
   */
  class ConstraintSettings {
    #owner;
    #apply;
    #index;
    #kind;
    #values;
    #inForce;

    // `inForce(index, values)`, where the owner has one: the values with each derived default
    // (null: from the rest pose) replaced by the number in force.
    constructor(owner, apply, index, kind, values, inForce = null) {
      this.#owner = owner;
      this.#apply = apply;
      this.#index = index;
      this.#kind = kind;
      this.#values = values;
      this.#inForce = inForce;
    }

    #current() {
      const values = cloneData(this.#values);
      return this.#inForce ? this.#inForce(this.#index, values) : values;
    }

    /** Position in the stack (and in the owner's frames / results). */
    get index() { return this.#index; }
    /** 'aim' | 'twoBone' | 'pseudoThreeBone' | 'chain' | 'lookAt' | 'bodyLookAt' | 'grounding' | 'twist' | 'avatar'. */
    get kind() { return this.#kind; }
    /** The joint indices (a copy; grounding: [pelvis] or [pelvis, chest]). */
    get joints() { const k = KIND_TABLE[this.#kind]; return k.joints ? k.joints(this.#values) : this.#values.joints.slice(); }
    /** Grounding: the number of legs (2 or 4); avatar with legs: 2 (where each foot lands); 0 for the other kinds. */
    get legCount() { return KIND_TABLE[this.#kind].legCount?.(this.#values) ?? 0; }
    /** Every current setting (a frozen copy; derived defaults as the numbers in force). */
    get options() { return freezeDeep(this.#current()); }

    /** One current setting by name. */
    get(name) {
      if (!Object.hasOwn(this.#values, name)) {
        // An option of the kind not given at add(): its default (null: detected or none; docs/rig/rig.md).
        const valid = kindOptions(this.#kind);
        if (!valid.includes(name)) throw unknownKey(name, valid, this.#kind);
        const d = DEFAULTS[this.#kind][name] ?? null;
        return d !== null && typeof d === 'object' ? freezeDeep(cloneData(d)) : d;
      }
      const v = this.#values[name] === null ? this.#current()[name] : this.#values[name];
      return v !== null && typeof v === 'object' ? freezeDeep(cloneData(v)) : v;
    }

    /** Changes the settings given (validated, one WASM call); on an error nothing changes. */
    set(changes) {
      this.#owner.assertAlive();
      this.#values = this.#apply(this.#index, this.#kind, this.#values, changes);
      return this;
    }
  }

  /** One constraint of a Rig; see RigConstraint in web/types/rig/rig.d.ts. */
  class RigConstraint extends ConstraintSettings {
    #groundFirst;

    #targetFirst;

    constructor(rig, apply, index, kind, values, groundFirst, inForce, targetFirst = 0) {
      super(rig, apply, index, kind, values, inForce);
      this.#groundFirst = groundFirst;
      this.#targetFirst = targetFirst;
    }

    /** Index of this constraint's first float in rig.targets (8 per target; avatar: head, left hand, right hand, pelvis, left foot, right foot). */
    get targetOffset() { return TARGET_FLOATS * this.#targetFirst; }

    /** Index of this constraint's first float in rig.grounds (9 per leg). */
    get groundOffset() { return GROUND_FLOATS * this.#groundFirst; }
    /** Index of this constraint's first float in rig.probes (6 per leg). */
    get probeOffset() { return PROBE_FLOATS * this.#groundFirst; }
    /** Index of this constraint's first float in rig.frames. */
    get frameOffset() { return FRAME_FLOATS * this.index; }
    /** Index of this constraint's first float in rig.results. */
    get resultOffset() { return RESULT_FLOATS * this.index; }
  }

  /** A character rig (docs/rig/rig.md); see Rig in web/types/rig/rig.d.ts. */
  class Rig extends WasmObject {
    #native;
    #count;
    #names;
    #pointer;
    #changedPointer;
    #floats = null;
    #input = null;
    #output = null;
    #root = null;
    #rest = null;
    #changed = null;
    #frames = null;
    #results = null;
    #grounds = null;
    #probes = null;
    #legs = 0;
    #targets = null;
    #targetCount = 0;
    #constraints = [];

    // RigBatch copies a rig through its native handle (rigBatch.js).
    static { nativeOf = (rig) => rig.#native; }

    constructor(options) {
      readOptions(options);
      checkOptionNames(options, RIG_OPTIONS, 'Rig');
      // Every JS input is read before WASM memory is touched.
      const parents = readIndices(options.parents, 'parents', { min: 1, max: MAX_JOINTS });
      const n = parents.length;
      for (let i = 0; i < n; i++) {
        if (parents[i] < -1 || parents[i] >= i) throw new RangeError(`parents[${i}]: must be -1 or the index of an earlier joint, got ${parents[i]}`);
      }
      let names = null;
      if (options.names !== undefined) {
        if (!Array.isArray(options.names) || options.names.length !== n) throw new TypeError(`names: expected an array of ${n} strings`);
        names = options.names.map((s, i) => {
          if (typeof s !== 'string') throw new TypeError(`names[${i}]: expected a string, got ${describe(s)}`);
          return s;
        });
      }
      const rest = options.rest === undefined ? null : readLocals(options.rest, 'rest', n);
      const facing = new Float32Array([0, 0, 1, 0, 1, 0]);
      if (options.facing !== undefined) readVec3(options.facing, 'facing', facing, 0);
      if (options.up !== undefined) readVec3(options.up, 'up', facing, 3);
      for (const [name, at] of [['facing', 0], ['up', 3]]) {
        if (facing[at] === 0 && facing[at + 1] === 0 && facing[at + 2] === 0) throw new RangeError(`${name}: must not be zero`);
      }

      const native = created(core.area('rig', 'Rig').Rig.create(), 'parents');
      try {
        checkMemory(native.allocate(n), 'parents');
        const f = new Float32Array(core.heapF32.buffer, native.buffer() >>> 0, 30 * n + 10 + n);
        if (rest !== null) f.set(rest, 20 * n + 10);
        for (let i = 0; i < n; i++) f[30 * n + 10 + i] = parents[i];
        checkMemory(native.init(), 'parents');
        core.check(native.setFacing(facing[0], facing[1], facing[2]));
        core.check(native.setUp(facing[3], facing[4], facing[5]));
      } catch (error) {
        native.delete();
        throw error;
      }
      super('Rig', () => native.delete());
      this.#native = native;
      this.#count = n;
      this.#names = names;
      this.#pointer = native.buffer() >>> 0;
      this.#changedPointer = native.changed() >>> 0;
      // The animated input starts at the rest pose.
      this.#views();
      this.#input.set(this.#rest);
      this.#output.set(this.#rest);
    }

    // A constraint's derived defaults in force (a kind's `inForce`: grounding's,
    // docs/rig/grounding.md), read from WASM.
    #inForce(index, kind, values) {
      this.assertAlive();
      core.check(this.#native.derived(index, core.scratchPointer));
      return KIND_TABLE[kind].inForce(values, core.scratch);
    }

    // Views over the handle's buffer (re-created after WASM memory growth).
    #views() {
      if (stale(this.#floats)) {
        const n = this.#count;
        const buffer = core.heapF32.buffer;
        this.#floats = new Float32Array(buffer, this.#pointer, 30 * n + 10);
        this.#input = this.#floats.subarray(0, 10 * n);
        this.#output = this.#floats.subarray(10 * n, 20 * n);
        this.#root = this.#floats.subarray(20 * n, 20 * n + 10);
        this.#rest = this.#floats.subarray(20 * n + 10, 30 * n + 10);
        this.#changed = new Uint8Array(buffer, this.#changedPointer, n);
        this.#frames = null;
      }
      if (stale(this.#frames) || this.#frames.length !== FRAME_FLOATS * this.#constraints.length) {
        const m = this.#constraints.length;
        const buffer = core.heapF32.buffer;
        this.#frames = new Float32Array(buffer, m === 0 ? 0 : this.#native.frames() >>> 0, FRAME_FLOATS * m);
        this.#results = new Float32Array(buffer, m === 0 ? 0 : this.#native.results() >>> 0, RESULT_FLOATS * m);
        this.#grounds = null;
      }
      if (stale(this.#grounds) || this.#grounds.length !== GROUND_FLOATS * this.#legs) {
        const legs = this.#legs;
        const buffer = core.heapF32.buffer;
        this.#grounds = new Float32Array(buffer, legs === 0 ? 0 : this.#native.grounds() >>> 0, GROUND_FLOATS * legs);
        this.#probes = new Float32Array(buffer, legs === 0 ? 0 : this.#native.probes() >>> 0, PROBE_FLOATS * legs);
      }
      if (stale(this.#targets) || this.#targets.length !== TARGET_FLOATS * this.#targetCount) {
        const m = this.#targetCount;
        this.#targets = new Float32Array(core.heapF32.buffer, m === 0 ? 0 : this.#native.targets() >>> 0, TARGET_FLOATS * m);
      }
    }

    /** Number of joints. */
    get count() { this.assertAlive(); return this.#count; }
    /** Joint names given to the constructor (a copy), or null. */
    get names() { this.assertAlive(); return this.#names === null ? null : this.#names.slice(); }
    /** Index of the joint called `name`, or -1. */
    find(name) {
      this.assertAlive();
      return this.#names === null ? -1 : this.#names.indexOf(name);
    }
    /** Float32Array(10 × count): the animated locals, tx ty tz qx qy qz qw sx sy sz per joint. */
    get input() { this.assertAlive(); this.#views(); return this.#input; }
    /** Float32Array(10 × count): the solved locals after update(). */
    get output() { this.assertAlive(); this.#views(); return this.#output; }
    /** Uint8Array(count): 1 where output differs from input after update(). */
    get changed() { this.assertAlive(); this.#views(); return this.#changed; }
    /** Float32Array(10): the root transform (the skeleton root's parent, world space). */
    get root() { this.assertAlive(); this.#views(); return this.#root; }
    /** Float32Array(12 × constraints): target xyz, pole xyz, effectorOffset xyz, poleSet, 2 reserved. */
    get frames() { this.assertAlive(); this.#views(); return this.#frames; }
    /** Float32Array(4 × constraints): reached, distance, iterations, active. */
    get results() { this.assertAlive(); this.#views(); return this.#results; }
    /** Float32Array(9 × legs): per grounding leg point xyz, normal xyz, hit, plant, edge (world; fill before update()). */
    get grounds() { this.assertAlive(); this.#views(); return this.#grounds; }
    /** Float32Array(6 × legs): per grounding leg the animated sole xyz and hip xyz (world), filled by probe(). */
    get probes() { this.assertAlive(); this.#views(); return this.#probes; }
    /** Float32Array(8 × targets): per tracked target (an avatar's head, left hand, right hand, pelvis, left foot, right foot) position xyz, rotation xyzw, weight (world; fill before update()). */
    get targets() { this.assertAlive(); this.#views(); return this.#targets; }
    /** The constraints in stack order (a copy of the list). */
    get constraints() { this.assertAlive(); return this.#constraints.slice(); }

    /** New rest pose (default: identity locals); re-detects every constraint's axes. */
    setRest(locals) {
      this.assertAlive();
      const n = this.#count;
      const rest = locals === undefined ? null : readLocals(locals, 'rest', n);
      this.#views();
      const saved = this.#rest.slice();
      if (rest === null) for (let j = 0; j < n; j++) this.#rest.set(IDENTITY_LOCAL, FLOATS_PER_JOINT * j);
      else this.#rest.set(rest);
      try {
        core.check(this.#native.setRest());
      } catch (error) {
        this.#views();
        this.#rest.set(saved);
        throw error;
      }
      return this;
    }

    /** Model-space character forward (default [0, 0, 1]); re-detects axes. */
    setFacing(v) {
      this.assertAlive();
      const f = new Float32Array(3);
      readVec3(v, 'facing', f, 0);
      core.check(this.#native.setFacing(f[0], f[1], f[2]));
      return this;
    }

    /** Model-space up (default [0, 1, 0]); re-detects axes. */
    setUp(v) {
      this.assertAlive();
      const f = new Float32Array(3);
      readVec3(v, 'up', f, 0);
      core.check(this.#native.setUp(f[0], f[1], f[2]));
      return this;
    }

    /** Appends a constraint; see RigConstraintOptions. Throws with nothing added on error. */
    add(kind, options) {
      this.assertAlive();
      if (typeof kind !== 'string' || !KINDS.includes(kind)) {
        throw new RangeError(`kind: expected one of ${KINDS.map((k) => `'${k}'`).join(', ')}, got ${typeof kind === 'string' ? `'${kind}'` : describe(kind)}`);
      }
      readOptions(options);
      const index = this.#constraints.length;
      let values;
      try {
        for (const [key, message] of KIND_TABLE[kind].required ?? JOINTS_REQUIRED) if (options[key] === undefined) throw new TypeError(message);
        values = merge(kind, cloneData(DEFAULTS[kind]), options);
        packSettings(kind, values, core.scratch);
        checkMemory(this.#native.add(KIND_INDEX[kind], core.scratchPointer), 'add');
      } catch (error) {
        throw named(error, index, kind);
      }
      const c = new RigConstraint(this, (i, k, current, changes) => applySettings(this.#native, i, k, current, changes), index, kind, values, this.#legs,
        KIND_TABLE[kind].inForce ? (i, v) => this.#inForce(i, kind, v) : null, this.#targetCount);
      this.#legs += KIND_TABLE[kind].legCount?.(values) ?? 0;
      this.#targetCount = this.#native.targetCount();  // the kind's targets, as the C++ kind table counts them
      this.#constraints.push(c);
      this.#frames = null;  // the rig's frames (and grounds, probes, targets) moved
      this.#targets = null;
      return c;
    }

    /**
     * An avatar constraint's scales from one T-pose sample of the user (docs/rig/avatar.md,
     * "Calibration"): `{ head, leftHand, rightHand }` world positions under rig.root. Returns
     * `{ scale, armScale }` and changes no setting (constraint.set() applies them).
     */
    calibrateAvatar(index, sample) {
      this.assertAlive();
      if (!Number.isInteger(index) || index < 0 || index >= this.#constraints.length) {
        throw new RangeError(`index: expected a constraint index in [0, ${this.#constraints.length}), got ${describe(index)}`);
      }
      checkOptionNames(readOptions(sample, 'sample'), SAMPLE_KEYS, 'Rig.calibrateAvatar', 'sample.');
      const s = core.scratch;
      readVec3(sample.head, 'head', s, 0);
      readVec3(sample.leftHand, 'leftHand', s, 3);
      readVec3(sample.rightHand, 'rightHand', s, 6);
      core.check(this.#native.calibrateAvatar(index, core.scratchPointer));
      return { scale: core.scratch[0], armScale: core.scratch[1] };
    }

    /** Fills rig.probes from rig.input and rig.root (one WASM call); throws as update() on bad input. */
    probe() {
      this.assertAlive();
      core.check(this.#native.probe());
      return this;
    }

    /**
     * Every constraint back to its first frame without rebuilding (one WASM call; docs/rig/rig.md,
     * "Clearing the smoothing"): limbs blend in again, look-at offsets and gaze zeroed, grounding
     * offsets and foot locks dropped. Settings, axes and frames are kept.
     */
    clearSmoothing() {
      this.assertAlive();
      this.#native.clearSmoothing();
      return this;
    }

    /** Solves one frame (one WASM call): dt seconds, finite and >= 0. Throws with nothing changed on error. */
    update(dt) {
      this.assertAlive();
      core.check(this.#native.update(readDt(dt)));
      return this;
    }
  }
  Rig.defaults = DEFAULTS;
  Rig.kinds = KINDS;
  /** Every option name each kind takes (`joints` and, for bodyLookAt, `arms`/`legs` included). */
  Rig.options = Object.freeze(Object.fromEntries(KINDS.map((kind) => [kind, Object.freeze(kindOptions(kind))])));

  const RigBatch = createRigBatch(core, { Rig, ConstraintSettings, nativeOf, applySettings, checkMemory });
  return { Rig, RigBatch };
}
