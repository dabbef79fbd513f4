// IKConstraint: one constraint of an IKRig (docs/rig/rig.md) as three.js users
// see it: its options are properties, its target and pole three.js objects.
import { Vector3 } from 'three';
import { readAxis, readPoint, sharedProperty } from '../readers.js';
import { KIND_TABLE } from './kinds/index.js';
import { constraintFrame as FRAME } from '../../src/rig/records.js';

const _v = /* @__PURE__ */ new Vector3();
const NONE = /* @__PURE__ */ Object.freeze([]);
const _axis = /* @__PURE__ */ new Vector3();

// Options that are frame inputs (read from three.js objects every update), not settings.
export const FRAME_KEYS = ['target', 'pole'];
// Settings given as three.js axes ('+y', a Vector3, [x, y, z] or 'auto').
export const AXIS_KEYS = /* @__PURE__ */ new Set(['forward', 'bendAxis', 'up', 'hingeAxis']);

// The property descriptor of setting `key`, one per name (sharedProperty).
const SETTING_PROPERTIES = /* @__PURE__ */ new Map();
const settingProperty = (key) => sharedProperty(SETTING_PROPERTIES, key, () => ({
  enumerable: true,
  // A derived default (null: from the rest pose) reads back as the number in force.
  get() { return this._settings[key] === null && this._core && this._kind.derived ? this._core.get(key) : this._settings[key]; },
  set(value) { this._set(key, value); },
}));

/**
 * A constraint of an IKRig. Its options are its properties: a setting written
 * here is checked and pushed to WASM once (the rig's next update uses it);
 * `target` and `pole` are read from their objects on every update.
 */
export class IKConstraint {
  // host: the rig's internal interface (web/three/rig/ikRig.js).
  constructor(rig, host, kind, bones, settings, frame, eyes = []) {
    this.rig = rig;
    this.kind = kind;
    this._host = host;
    this._kind = KIND_TABLE[kind];
    /** The bones, resolved (for bodyLookAt: `{ spine, arms, legs }`). */
    this.bones = bones;
    /** The eye bones the gaze turns (lookAt, bodyLookAt; set at add()), resolved; [] for none. */
    this.eyes = Object.freeze(eyes.slice());
    /** A point to reach or look at: Object3D, Vector3 or [x, y, z]; null: no target (the constraint blends out). */
    this.target = frame.target ?? null;
    /** Where the middle joint bends toward (twoBone, pseudoThreeBone, chain) or the aim's up target; null: none. */
    this.pole = frame.pole ?? null;
    this._measured = new Float64Array(2);
    this._settings = settings;
    this._core = null;
    this._coreEnabled = settings.enabled;
    this._parts = NONE; // the other constraints one add() made (a VRM's springs: docs/rig/springs.md), set alike
    // One getter and setter per setting name, shared by every constraint: constraints of a kind
    // then share one hidden class, so the rig's per-frame loops over them stay fast (own
    // accessors made per instance gave each constraint its own, and those loops went megamorphic).
    for (const key of Object.keys(settings)) Object.defineProperty(this, key, settingProperty(key));
  }

  /** True when the last update reached the target within tolerance. */
  get reached() { return this._measured[0] !== 0; }
  set reached(value) { this._measured[0] = value ? 1 : 0; }
  /** Distance to the target after the last update. */
  get distance() { return this._measured[1]; }
  set distance(value) { this._measured[1] = value; }

  // Checks a setting through the core (which names it in its errors) and keeps it.
  _set(key, value) {
    // Written every frame with the same value costs nothing: only a change is checked and pushed.
    if (value === this._settings[key] && (value === null || typeof value !== 'object')) return;
    const converted = AXIS_KEYS.has(key) ? axisSetting(value, key) : value;
    this._host.checkAlive();
    this._core.set({ [key]: converted });
    this._settings[key] = value;
    if (key === 'enabled') this._coreEnabled = value;
    for (const part of this._parts) part._set(key, value);
  }

  /** Sets several options at once (each checked; none changes on an error). */
  set(options) {
    // A kind's three.js-side options that set() takes (grounding: ground, plant), checked by its checkOwn.
    const kind = this._kind, own = kind.checkOwn === undefined ? NONE : kind.ownKeys;
    for (const key of Object.keys(options)) {
      if (FRAME_KEYS.includes(key) || own.includes(key)) continue;
      if (!Object.hasOwn(this._settings, key)) this._host.unknown(this.kind, key);
    }
    for (const key of own) if (key in options) kind.checkOwn(key, options[key], this);
    const core = {};
    for (const [key, value] of Object.entries(options)) {
      if (!FRAME_KEYS.includes(key) && !own.includes(key)) core[key] = AXIS_KEYS.has(key) ? axisSetting(value, key) : value;
    }
    for (const key of FRAME_KEYS) if (key in options) readFrameInput(options[key], key);
    this._host.checkAlive();
    this._core.set(core);
    if ('enabled' in core) this._coreEnabled = core.enabled;
    for (const [key, value] of Object.entries(options)) {
      if (own.includes(key) || FRAME_KEYS.includes(key)) this[key] = value;
      else this._settings[key] = value;
    }
    for (const part of this._parts) part.set(options);
    return this;
  }
}

// A write of a property a constraint does not have (a misspelt name, a setting
// its kind lacks, e.g. bodyLookAt.settleTime) throws like an unknown option at
// add(); internal fields (a leading '_') pass.
const GUARD = /* @__PURE__ */ Object.freeze({
  set(target, key, value) {
    if (typeof key === 'string' && !(key in target) && !key.startsWith('_')) target._host.unknown(target.kind, key);
    return Reflect.set(target, key, value);
  },
});

/** `constraint` as users hold it: writes of unknown properties throw a TypeError naming them. */
export function guard(constraint) {
  return new Proxy(constraint, GUARD);
}

// A three.js axis option as the core takes it: [x, y, z], or null for 'auto' (the core detects
// forward, bendAxis and up from the rest pose; a hinge axis of null is none).
export function axisSetting(value, name) {
  if (value === null) return null;
  const axis = readAxis(value, name, _axis);
  return axis ? [axis.x, axis.y, axis.z] : null;
}

/** Each constraint's target and pole into `frames` (a constraintFrame record each); pushes `enabled` when a target comes or goes. */
export function writeFrames(list, frames) {
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    const o = FRAME.floats * i + FRAME.target, q = FRAME.floats * i + FRAME.pole;
    // A Vector3 (the common case) read in place; an Object3D or an array through readPoint.
    const t = c.target;
    const hasTarget = t !== null;
    if (hasTarget && t?.isVector3 === true) {
      frames[o] = t.x; frames[o + 1] = t.y; frames[o + 2] = t.z;
    } else if (hasTarget) {
      const target = readPoint(t, 'target', _v);
      frames[o] = target.x; frames[o + 1] = target.y; frames[o + 2] = target.z;
    }
    // Without a target the constraint blends out as if disabled (pushed only when that changes); a targetless kind has none.
    const enabled = c._settings.enabled !== false && (hasTarget || c._kind.targetless === true);
    if (enabled !== c._coreEnabled) {
      c._core.set({ enabled });
      c._coreEnabled = enabled;
    }
    const p = c.pole;
    if (p !== null && p?.isVector3 === true) {
      frames[q] = p.x; frames[q + 1] = p.y; frames[q + 2] = p.z;
    } else if (p !== null) {
      const pole = readPoint(p, 'pole', _v);
      frames[q] = pole.x; frames[q + 1] = pole.y; frames[q + 2] = pole.z;
    }
    frames[FRAME.floats * i + FRAME.poleSet] = p !== null ? 1 : 0;
  }
}

export function readFrameInput(value, name) {
  if (value === null || value === undefined) return null;
  return readPoint(value, name, _v);
}

// The settings as the core takes them (axes as arrays; 'auto' as null, so the core detects).
export function coreSettings(settings) {
  const out = {};
  for (const [key, value] of Object.entries(settings)) {
    const v = AXIS_KEYS.has(key) ? axisSetting(value, key) : value;
    if (v !== undefined) out[key] = v;
  }
  return out;
}

// The core's joint-index options (bones in three.js).
const JOINT_KEYS = /* @__PURE__ */ new Set(['joints', 'arms', 'legs', 'eyes', 'pelvis', 'chest']);

// The settings a kind's constraint has as properties: the core's options less its joint indices.
export function settingNames(ikpd, kind) {
  return ikpd.Rig.options[kind].filter((k) => !JOINT_KEYS.has(k));
}
