// IKRig: one character, an ordered stack of constraints, one WASM call per
// frame (docs/rig/rig.md). The bones' local transforms go in once, the core
// `ikpd.Rig` runs every constraint on the pose the one before left, and only
// the bones it changed are written back.
import { Matrix4, Quaternion, Vector3 } from 'three';
import { checkDescent, checkHelperOptions, describe, optionNames, readAxis, readModule, toArray3 } from '../readers.js';
import { boneFinder, outsideMessage, resolveHumanoid } from './humanoid.js';
import { AXIS_KEYS, FRAME_KEYS, IKConstraint, coreSettings, guard, readFrameInput, settingNames } from './ikConstraint.js';
import { candidatesOf, flatBones, restLocals } from './skeleton.js';
import { EYE_KINDS, resolveEyes } from './eyes.js';
import { warnOnce } from '../../src/dev.js';
import { checkNotMirrored, lastWrites, mirrored, readLocals, readRoot, writeFrames, writeLocals, writerId } from './ikRigPose.js';
import { GROUNDING_BONE_KEYS, GROUNDING_KEYS, attachGround, groundFrame, groundingBones, groundingJoints, restLegLength } from './grounding.js';

const _v = /* @__PURE__ */ new Vector3();
const _s = /* @__PURE__ */ new Vector3();
const _q = /* @__PURE__ */ new Quaternion();
const _m = /* @__PURE__ */ new Matrix4();
const _axis = /* @__PURE__ */ new Vector3();

/** The constraint kinds `IKRig.add` takes, with the bones each needs. */
const KINDS = /* @__PURE__ */ Object.freeze({
  aim: { min: 1, max: 1, shape: 'one bone' },
  twoBone: { min: 3, max: 3, shape: '[root, mid, end]' },
  pseudoThreeBone: { min: 4, max: 4, shape: '[root, mid, end, tip]' },
  chain: { min: 2, max: 256, shape: '[root, ..., tip] (2 to 256 bones)' },
  lookAt: { min: 2, max: 64, shape: '[spine, ..., neck, head]' },  // the core's 2..64 look-at joints (docs/rig/look-at.md)
  bodyLookAt: { min: 2, max: 64, shape: '{ spine, arms, legs }' },
  grounding: { min: 2, max: 4, shape: '{ legs: [[hip, knee, ankle, toe?], …], pelvis, chest? }' },
});

// Humanoid roles used when a constraint gives no bones ('?': skipped when missing).
const HUMANOID_BONES = /* @__PURE__ */ Object.freeze({
  lookAt: ['spine', 'chest', 'upperChest?', 'neck', 'head'],
  bodyLookAt: {
    spine: ['hips', 'spine', 'chest', 'upperChest?', 'neck', 'head'],
    arms: [['leftUpperArm', 'leftLowerArm', 'leftHand'], ['rightUpperArm', 'rightLowerArm', 'rightHand']],
    legs: [['leftUpperLeg', 'leftLowerLeg', 'leftFoot'], ['rightUpperLeg', 'rightLowerLeg', 'rightFoot']],
  },
});

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
    this._joints = [];      // Object3Ds in the core rig, parents before children
    this._index = new Map(); // Object3D → joint index
    this._base = undefined;  // the parent of the topmost joint (its world transform is the rig's root)
    this._core = null;
    this._views = null;
    this._grounding = [];
    this._disposed = false;
    this._writer = writerId(); // this rig, as the writer of a bone (ikRigPose.js)
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
    if (!Object.hasOwn(KINDS, kind)) {
      const names = Object.keys(KINDS);
      const close = names.find((n) => n.toLowerCase() === String(kind).toLowerCase());
      throw new TypeError(`kind: expected one of ${names.map((n) => `'${n}'`).join(', ')}, got ${JSON.stringify(kind)}${close ? ` (did you mean '${close}'?)` : ''}`);
    }
    if (options === null || typeof options !== 'object') throw new TypeError(`options: expected an object, got ${describe(options)}`);
    const defaults = this.ikpd.Rig.defaults[kind];
    const names = settingNames(this.ikpd, kind);
    const extra = kind === 'grounding' ? [...GROUNDING_BONE_KEYS, ...GROUNDING_KEYS] : [kind === 'aim' ? 'bone' : 'bones', ...(EYE_KINDS.has(kind) ? ['eyes'] : [])];
    checkHelperOptions(options, optionNames(names, FRAME_KEYS, extra), `IKRig.${kind}`);
    const bones = this._resolveBones(kind, options);
    const eyes = resolveEyes(this, kind, options, bones);
    const frame = { target: options.target ?? null, pole: options.pole ?? null };
    for (const key of FRAME_KEYS) readFrameInput(frame[key], key);
    const settings = {};
    for (const key of names) settings[key] = options[key] ?? (AXIS_KEYS.has(key) ? 'auto' : defaults[key]);
    const constraint = new IKConstraint(this, kind, bones, settings, frame, eyes);
    if (kind === 'grounding') attachGround(constraint, options);
    this._list.push(constraint);
    try {
      this._build();
    } catch (error) {
      this._list.pop(); // the core rig in use stays as it was (its smoothing state too)
      if (/: out of WASM memory/.test(error.message)) throw new RangeError(`IKRig.add: out of WASM memory (adding a '${kind}' constraint)`);
      throw error;
    }
    const guarded = guard(constraint);
    this.constraints.push(guarded);
    return guarded;
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
    writeFrames(this, v.frames);
    readLocals(this, v.input);
    readRoot(this, v.root);
    if (this._grounding.length > 0) v = groundFrame(this, this._grounding, v, this._upInRoot); // docs/rig/grounding.md
    core.update(dt);
    if (v.output.buffer.byteLength === 0) v = this._viewsNow();
    writeLocals(this, v.output, v.changed);
    const results = v.results;
    const list = this._list;
    for (let i = 0; i < list.length; i++) {
      // Straight into the constraint's Float64Array: a double passed through a setter would be boxed.
      const measured = list[i]._measured;
      measured[0] = results[4 * i];
      measured[1] = results[4 * i + 1];
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
  // (its old buffer is then detached) or the rig was rebuilt.
  _viewsNow() {
    let v = this._views;
    if (v === null || v.input.buffer.byteLength === 0) {
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

  _resolveBones(kind, options) {
    const { min, max, shape } = KINDS[kind];
    if (kind === 'grounding') return groundingBones(this, options);
    if (kind === 'aim') {
      if (options.bone === undefined) throw new TypeError("bone: an 'aim' constraint needs the bone to aim (a bone, a name or a role)");
      return [this._resolveBone(options.bone, 'bone')];
    }
    const given = options.bones ?? (this.humanoid.size > 0 ? HUMANOID_BONES[kind] : undefined);
    if (given === undefined) {
      throw new TypeError(`bones: a '${kind}' constraint needs bones: ${shape} (bones, names or humanoid roles)` +
        (this.humanoid.size === 0 ? `; ${this.humanoid.reason}: pass bones, or humanoid: a role table` : ''));
    }
    if (kind !== 'bodyLookAt') return this._resolveList(given, 'bones', min, max, shape);
    if (given === null || typeof given !== 'object' || Array.isArray(given)) throw new TypeError(`bones: expected ${shape}`);
    const limbs = (key) => (given[key] ?? []).map((limb, i) => this._resolveList(limb, `bones.${key}[${i}]`, 3, 3, '[upper, lower, end]'));
    return { spine: this._resolveList(given.spine, 'bones.spine', min, max, '[hips, ..., head]'), arms: limbs('arms'), legs: limbs('legs') };
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
      handles = this._list.map((c) => core.add(c.kind, { ...coreSettings(c._settings), ...jointsOf(c, ix) }));
    } catch (error) {
      core.dispose();
      throw error;
    }
    this._list.forEach((c, i) => { c._core = handles[i]; c._coreEnabled = c._settings.enabled; });
    this._core?.dispose();
    this._core = core;
    this._views = null;
    this._joints = joints;
    this._index = index;
    this._base = base;
    this._grounding = this._list.filter((c) => c.kind === 'grounding');
    for (const c of this._grounding) c._legLength = restLegLength(this, c);
    this._upInRoot = this._upIn(base);
    this._written = new Float64Array(4 * joints.length).fill(NaN);
    this._animated = new Float32Array(10 * joints.length);
    this._wroteTranslation = new Uint8Array(joints.length);
    this._stale = new Uint8Array(joints.length);
    this._records = lastWrites(joints); // shared with other rigs over these bones, kept across rebuilds
    // The joints a constraint drives (not just ancestors): only there is another rig's output read as
    // the animated pose it came from; a bone this rig only reads keeps the other's output (layered rigs).
    this._driven = new Uint8Array(joints.length);
    for (const c of this._list) for (const bone of [...flatBones(c.bones), ...c.eyes]) this._driven[index.get(bone)] = 1;
    this._rootMatrix = new Float64Array(16).fill(NaN); // the base's world matrix readRoot last decomposed
    this._rootValues = new Float32Array(10);           // and what it gave, as the core reads it
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


// A constraint's joint indices as the core takes them.
function jointsOf(c, ix) {
  if (c.kind === 'grounding') return groundingJoints(c.bones, ix);
  const eyes = EYE_KINDS.has(c.kind) ? { eyes: c.eyes.map(ix) } : {};
  if (c.kind !== 'bodyLookAt') return { joints: c.bones.map(ix), ...eyes };
  return { joints: c.bones.spine.map(ix), arms: c.bones.arms.flat().map(ix), legs: c.bones.legs.flat().map(ix), ...eyes };
}


