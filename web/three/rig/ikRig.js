// IKRig: one character, an ordered stack of constraints, one WASM call per
// frame (docs/rig/rig.md). The bones' local transforms go in once, the core
// `ikpd.Rig` runs every constraint on the pose the one before left, and only
// the bones it changed are written back.
import { Matrix4, Quaternion, Vector3 } from 'three';
import { checkDescent, checkHelperOptions, describe, optionNames, readAxis, readModule, toArray3 } from '../readers.js';
import { boneFinder, outsideMessage, resolveHumanoid } from './humanoid.js';
import { AXIS_KEYS, FRAME_KEYS, IKConstraint, coreSettings, guard, readFrameInput, settingNames, writeFrames } from './ikConstraint.js';
import { candidatesOf, flatBones, restLocals } from './skeleton.js';
import { resolveEyes } from './eyes.js';
import { warnOnce } from '../../src/dev.js';
import { RigPose, checkNotMirrored, mirrored, writerId } from './rigPose.js';
import { groundFrame } from './grounding.js';
import { KIND_TABLE } from './kinds/index.js';
import { registerInternal } from './internal.js';
import { constraintResult as RESULT } from '../../src/rig/records.js';

const _v = /* @__PURE__ */ new Vector3();
const _s = /* @__PURE__ */ new Vector3();
const _q = /* @__PURE__ */ new Quaternion();
const _m = /* @__PURE__ */ new Matrix4();
const _axis = /* @__PURE__ */ new Vector3();

const RIG_OPTIONS = /* @__PURE__ */ optionNames('humanoid', 'facing', 'up');

/**
 * One character: its skeleton and an ordered stack of constraints solved in
 * one WASM call per frame. See the typings and docs/rig/rig.md.
 */
export class IKRig {
  /**
   * @param {object} ikpd the loaded library with the rig area (`await init({ rig: true })`)
   * @param {import('three').Object3D|import('three').Skeleton} root a SkinnedMesh, its Skeleton or any Object3D hierarchy
   * @param {object} [options] `{ humanoid, facing, up }`
   */
  constructor(ikpd, root, options = {}) {
    this.ikpd = readModule(ikpd, 'IKRig', 'Rig', 'rig');
    checkHelperOptions(options, RIG_OPTIONS, 'IKRig');
    this.root = root;
    this._candidates = candidatesOf(root);
    this._candidateSet = new Set(this._candidates);
    this._find = boneFinder(this._candidates);
    this._up = readAxis(options.up ?? '+y', 'up', new Vector3());
    if (!this._up) throw new RangeError("up: cannot be 'auto'; pass the world up axis, e.g. '+y'");
    // The rest pose (axes, facing, sole heights, the humanoid's shape): a skinned character's bind pose, else the locals now.
    this._rest = restLocals(root, this._candidates);
    /** What humanoid was found: a read-only Map role → bone, its `convention`, and `reason` when empty. */
    this.humanoid = resolveHumanoid(options.humanoid ?? 'auto', this._candidates, {
      up: this._up,
      positionOf: (o, out) => this._restWorldPosition(o, out),
    });
    this._facingOption = options.facing ?? 'auto';
    if (this._facingOption !== 'auto') readAxis(this._facingOption, 'facing', _axis);
    /** The constraints, in solve order (as users hold them: a write of an unknown property throws). */
    this.constraints = [];
    this._list = [];         // the same constraints unguarded, for the per-frame path
    this._pose = null;       // the joints of the core rig and their per-frame state (rigPose.js)
    this._core = null;
    this._views = null;
    this._grounding = [];
    this._targeted = [];
    this._disposed = false;
    this._writer = writerId(); // this rig, as the writer of a bone (rigPose.js)
    this._internal = new RigInternal(this);
    registerInternal(this, this._internal);
  }

  /** The bone for a humanoid role, a bone name or an Object3D of this rig (null when none). */
  bone(nameOrRole) {
    if (nameOrRole?.isObject3D) return this._candidateSet.has(nameOrRole) ? nameOrRole : null;
    if (typeof nameOrRole !== 'string') return null;
    return this.humanoid.get(nameOrRole) ?? this._find(nameOrRole);
  }

  /** The character's facing in the rig root's frame: the option, else from the humanoid's hips (or shoulders), else +Z. */
  get facing() {
    const out = new Vector3();
    if (this._facingOption !== 'auto') return readAxis(this._facingOption, 'facing', out);
    const pairs = [['leftUpperLeg', 'rightUpperLeg'], ['leftUpperArm', 'rightUpperArm']];
    for (const [l, r] of pairs) {
      const left = this.humanoid.get(l), right = this.humanoid.get(r);
      if (!left || !right) continue;
      // Left − right, across the up axis, gives the forward (glTF: +X × +Y = +Z).
      const across = this._restModelPosition(left, new Vector3()).sub(this._restModelPosition(right, _s));
      out.crossVectors(across, this._upIn(this._topParent(left)));
      if (out.lengthSq() > 1e-12) return out.normalize();
    }
    return out.set(0, 0, 1);
  }

  /**
   * Adds a constraint, solved after those added before it, and returns it.
   * @param {'aim'|'twoBone'|'pseudoThreeBone'|'chain'|'lookAt'|'bodyLookAt'|'grounding'} kind
   * @param {object} options `bones` (or `bone` for aim), `target`, `pole` and the kind's settings
   */
  add(kind, options = {}) {
    this._checkAlive();
    if (!Object.hasOwn(KIND_TABLE, kind)) {
      const names = Object.keys(KIND_TABLE);
      const close = names.find((n) => n.toLowerCase() === String(kind).toLowerCase());
      throw new TypeError(`kind: expected one of ${names.map((n) => `'${n}'`).join(', ')}, got ${JSON.stringify(kind)}${close ? ` (did you mean '${close}'?)` : ''}`);
    }
    if (options === null || typeof options !== 'object') throw new TypeError(`options: expected an object, got ${describe(options)}`);
    const type = KIND_TABLE[kind];
    // A kind's shorthand for its options (springs' `vrm`: one option set per part), and what it does once added.
    const expanded = type.expand ? type.expand(options) : { options, added: null };
    const made = [expanded.options, ...(expanded.more ?? [])].map((o) => this._make(kind, type, o));
    this._list.push(...made);
    try {
      this._build();
    } catch (error) {
      this._list.length -= made.length; // the core rig in use stays as it was (its smoothing state too)
      if (/: out of WASM memory/.test(error.message)) throw new RangeError(`IKRig.add: out of WASM memory (adding a '${kind}' constraint)`);
      throw error;
    }
    expanded.added?.();
    const guarded = made.map(guard);
    // Several parts (a VRM's centers and branches): the first stands for all; a setting written to it goes to each.
    if (made.length > 1) made[0]._parts = made.slice(1);
    Object.defineProperty(made[0], 'parts', { value: Object.freeze(guarded), enumerable: false });
    this.constraints.push(...guarded);
    return guarded[0];
  }

  // One constraint of `kind` from its options (checked), not yet in the stack.
  _make(kind, type, options) {
    const defaults = this.ikpd.Rig.defaults[kind];
    const names = settingNames(this.ikpd, kind);
    const extra = [...type.boneKeys, ...(type.ownKeys ?? []), ...(type.eyes ? ['eyes'] : [])];
    checkHelperOptions(options, optionNames(names, FRAME_KEYS, extra), `IKRig.${kind}`);
    const bones = type.resolve(this._internal, options);
    const eyes = type.eyes ? resolveEyes(this._internal, options, type.head(bones)) : [];
    const frame = { target: options.target ?? null, pole: options.pole ?? null };
    for (const key of FRAME_KEYS) readFrameInput(frame[key], key);
    const settings = {};
    for (const key of names) settings[key] = options[key] ?? (AXIS_KEYS.has(key) ? 'auto' : defaults[key]);
    const constraint = new IKConstraint(this, this._internal, kind, bones, settings, frame, eyes);
    type.attach?.(constraint, options);
    return constraint;
  }

  /**
   * Runs every constraint once on the current (animated) pose and writes the
   * bones it changed. Call it after `mixer.update(dt)`. `dt` in seconds; a
   * negative dt (a first frame of `THREE.Timer`) counts as 0, with one
   * development warning.
   */
  update(dt) {
    this._checkAlive();
    if (typeof dt === 'number' && dt < 0) {
      warnOnce('IKRig negative dt', `ikpd: IKRig.update(dt = ${dt}): a negative dt counts as 0 (THREE.Timer gives one on a first frame). Shown once, in development builds only.`);
      dt = 0;
    }
    const core = this._core;
    if (core === null) return this;
    let v = this._viewsNow();
    const pose = this._pose;
    writeFrames(this._list, v.frames);
    for (const c of this._targeted) c._kind.writeTargets(c, core.targets); // docs/rig/avatar.md
    pose.readLocals(v.input);
    pose.readRoot(v.root);
    if (this._grounding.length > 0) v = groundFrame(this._internal, this._grounding, v, pose.upInRoot); // docs/rig/grounding.md
    core.update(dt);
    if (v.output.length === 0) v = this._viewsNow();
    pose.writeLocals(v.output, v.changed);
    const results = v.results;
    const list = this._list;
    for (let i = 0; i < list.length; i++) {
      // Straight into the constraint's Float64Array: a double passed through a setter would be boxed.
      const measured = list[i]._measured;
      measured[0] = results[RESULT.floats * i + RESULT.reached];
      measured[1] = results[RESULT.floats * i + RESULT.distance];
    }
    return this;
  }

  /** Frees the WASM memory; later calls throw. Idempotent. */
  dispose() {
    if (this._disposed) return;
    this._disposed = true;
    this._core?.dispose();
    this._core = null;
  }

  // The core rig's views, fetched once and again only after WASM memory grew
  // (its old buffer is then detached: a view of it reads length 0, where the
  // locals' views never do; cheaper per frame than `.buffer.byteLength`) or
  // the rig was rebuilt.
  _viewsNow() {
    let v = this._views;
    if (v === null || v.input.length === 0) {
      const core = this._core;
      v = this._views = { frames: core.frames, input: core.input, root: core.root, output: core.output, changed: core.changed, results: core.results };
      if (this._grounding.length > 0) { v.probes = core.probes; v.grounds = core.grounds; }
    }
    return v;
  }

  _checkAlive() {
    if (this._disposed) throw new Error('IKRig: this rig was disposed');
  }

  _unknown(kind, key) {
    checkHelperOptions({ [key]: true }, optionNames(settingNames(this.ikpd, kind), FRAME_KEYS), `IKRig.${kind}`);
    throw new TypeError(`${key}: not an option of a '${kind}' constraint`);
  }

  _resolveBone(value, name) {
    if (value?.isObject3D) {
      if (!this._candidateSet.has(value)) throw new RangeError(`${name}: ${value.name ? `'${value.name}'` : 'this Object3D'} is not a bone of this rig`);
      return value;
    }
    if (typeof value !== 'string') throw new TypeError(`${name}: expected a bone, a bone name or a humanoid role, got ${describe(value)}`);
    const optional = value.endsWith('?');
    const key = optional ? value.slice(0, -1) : value;
    const bone = this.bone(key);
    if (bone || optional) return bone;
    const outside = this.humanoid._outside.get(key);
    if (outside) throw new RangeError(outsideMessage(name, key, outside));
    throw new RangeError(`${name}: no bone or humanoid role named '${key}'${this.humanoid.size === 0 ? ` (${this.humanoid.reason}: pass humanoid: 'mixamo', 'unreal', a role table…, or bones)` : ''}`);
  }

  _resolveList(list, name, min, max, shape) {
    if (!Array.isArray(list)) throw new TypeError(`${name}: expected ${shape}`);
    const bones = list.map((b, i) => this._resolveBone(b, `${name}[${i}]`)).filter(Boolean);
    if (bones.length < min || bones.length > max) throw new RangeError(`${name}: expected ${shape}, got ${bones.length} bone(s)`);
    checkDescent(bones, name);
    return bones;
  }

  // (Re)creates the core rig over the bones every constraint needs (and their ancestors).
  _build() {
    const needed = new Set();
    for (const c of this._list) {
      for (const bone of [...flatBones(c.bones), ...c.eyes]) {
        for (let o = bone; o && this._candidateSet.has(o) && !needed.has(o); o = o.parent) needed.add(o);
      }
    }
    const joints = this._candidates.filter((o) => needed.has(o));
    // Parents before children: order by depth, stable.
    const depth = (o) => { let d = 0; for (let p = o.parent; p; p = p.parent) d++; return d; };
    joints.sort((a, b) => depth(a) - depth(b));
    const index = new Map(joints.map((o, i) => [o, i]));
    const tops = joints.filter((o) => !index.has(o.parent));
    const base = tops[0].parent ?? null;
    if (tops.some((o) => (o.parent ?? null) !== base)) {
      throw new RangeError('bones: the constraints\' bones hang from different parents; give bones of one skeleton');
    }
    checkNotMirrored(base);
    for (const o of joints) if (o.scale.x * o.scale.y * o.scale.z < 0) mirrored(o);
    const rest = new Float32Array(10 * joints.length);
    joints.forEach((o, i) => rest.set(this._rest.get(o), 10 * i));
    const core = new this.ikpd.Rig({
      parents: joints.map((o) => index.get(o.parent) ?? -1),
      names: joints.map((o) => o.name),
      rest,
      up: toArray3(this._upIn(base)),
    });
    let handles;
    try {
      const facing = this.facing;
      core.setFacing([facing.x, facing.y, facing.z]);
      const ix = (b) => index.get(b);
      handles = this._list.map((c) => core.add(c.kind, { ...coreSettings(c._settings), ...c._kind.joints(c, ix) }));
    } catch (error) {
      core.dispose();
      throw error;
    }
    this._list.forEach((c, i) => { c._core = handles[i]; c._coreEnabled = c._settings.enabled; });
    this._core?.dispose();
    this._core = core;
    this._views = null;
    this._grounding = this._list.filter((c) => c._kind.grounds === true);
    this._targeted = this._list.filter((c) => c._kind.writeTargets !== undefined);
    // The joints a constraint drives (not just ancestors): only there is another rig's output read as
    // the animated pose it came from (RigPose).
    const driven = this._list.flatMap((c) => [...flatBones(c.bones), ...c.eyes]);
    this._pose = new RigPose(joints, driven, this._writer, (b) => this._upIn(b));
    for (const c of this._list) c._kind.built?.(this._internal, c);
  }

  // The world up option in the frame of `base` (the skeleton's parent; null: the world).
  _upIn(base) {
    const up = new Vector3().copy(this._up);
    if (!base) return up;
    base.updateWorldMatrix(true, false);
    base.matrixWorld.decompose(_v, _q, _s);
    return up.applyQuaternion(_q.invert());
  }

  // The parent of the topmost rig object above `object` (the frame its model space is in).
  _topParent(object) {
    let o = object;
    while (o.parent && this._candidateSet.has(o.parent)) o = o.parent;
    return o.parent ?? null;
  }

  // World position of `object` in the rest pose (its topmost rig ancestor's parent as it is now).
  _restWorldPosition(object, out) {
    this._restModelPosition(object, out);
    const top = this._topParent(object);
    if (top) {
      top.updateWorldMatrix(true, false);
      out.applyMatrix4(top.matrixWorld);
    }
    return out;
  }

  // Model (base-space) position of `object` in the rest pose.
  _restModelPosition(object, out) {
    _m.identity();
    const chain = [];
    for (let o = object; o && this._candidateSet.has(o); o = o.parent) chain.push(o);
    const t = new Vector3(), q = new Quaternion(), s = new Vector3(), m = new Matrix4();
    for (let i = chain.length - 1; i >= 0; i--) {
      const r = this._rest.get(chain[i]);
      m.compose(t.fromArray(r, 0), q.fromArray(r, 3), s.fromArray(r, 7));
      _m.multiply(m);
    }
    return out.setFromMatrixPosition(_m);
  }
}

/**
 * An IKRig's internal interface (registered in web/three/rig/internal.js):
 * what the helpers, the kinds and grounding use of the rig, none of its
 * private fields read outside this file.
 */
class RigInternal {
  #rig;

  constructor(rig) { this.#rig = rig; }

  /** The core rig's views (fetched again after WASM memory grew or a rebuild). */
  views() { return this.#rig._viewsNow(); }
  /** The joints and their per-frame state of the current build (RigPose). */
  get pose() { return this.#rig._pose; }
  /** The world up (unit). */
  get up() { return this.#rig._up; }
  /** The humanoid found (IKRig.humanoid). */
  get humanoid() { return this.#rig.humanoid; }
  /** Constraint `i` unguarded, for per-frame reads. */
  constraint(i) { return this.#rig._list[i]; }
  /** Fills the core rig's probes from its input and root. */
  probe() { this.#rig._core.probe(); }
  /** An avatar's scales from a sample under the root's world transform now (ikpd.Rig.calibrateAvatar; docs/rig/avatar.md). */
  calibrateAvatar(index, sample) {
    this.#rig._pose.readRoot(this.#rig._viewsNow().root);
    return this.#rig._core.calibrateAvatar(index, sample);
  }
  /** Zeroes every constraint's smoothing at once (the core rig's clearSmoothing; docs/rig/rig.md). */
  clearSmoothing() { this.#rig._core?.clearSmoothing(); }
  checkAlive() { this.#rig._checkAlive(); }
  /** Throws the TypeError for `key`, not an option of a `kind` constraint. */
  unknown(kind, key) { this.#rig._unknown(kind, key); }
  /** A bone, a bone name or a humanoid role as a bone of this rig (null: an optional one missing). */
  resolveBone(value, name) { return this.#rig._resolveBone(value, name); }
  /** A list of bones, checked to be `min` to `max` bones in one line of descent. */
  resolveList(list, name, min, max, shape) { return this.#rig._resolveList(list, name, min, max, shape); }
  /** Model (base-space) position of `object` in the rest pose. */
  restModelPosition(object, out) { return this.#rig._restModelPosition(object, out); }
}
