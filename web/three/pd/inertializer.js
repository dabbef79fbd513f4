// Inertializer: switches an AnimationMixer's clips with a spring instead of a cross-fade
// (docs/pd/inertializer.md, "three.js"), over the core's ikpd.Inertializer.
import { LoopOnce } from 'three';
import { checkHelperOptions, describe, optionNames, readModule } from '../readers.js';
import { readNumber } from '../../src/readers.js';
import { FeetLock, readStanceSpeed } from './inertializerFeet.js';

const OPTIONS = /* @__PURE__ */ optionNames('halfLife', 'feet', 'stanceSpeed');
const TRANSITION_OPTIONS = /* @__PURE__ */ optionNames('halfLife');
const STANCE_SPEED = 0.8; // world units (metres) per second
const JOINT_FLOATS = 7;
const DT_RANGE = Object.freeze({ min: 0 });

// Copies the bones' local positions and rotations into f (7 floats per bone), or back.
function readBones(bones, f) {
  for (let i = 0, o = 0; i < bones.length; i++, o += JOINT_FLOATS) {
    const { position: p, quaternion: q } = bones[i];
    f[o] = p.x; f[o + 1] = p.y; f[o + 2] = p.z;
    f[o + 3] = q.x; f[o + 4] = q.y; f[o + 5] = q.z; f[o + 6] = q.w;
  }
}

function writeBones(bones, f) {
  for (let i = 0, o = 0; i < bones.length; i++, o += JOINT_FLOATS) {
    bones[i].position.set(f[o], f[o + 1], f[o + 2]);
    bones[i].quaternion.set(f[o + 3], f[o + 4], f[o + 5], f[o + 6]);
  }
}

// Reads the bones as animated into f. AnimationMixer writes a property only when its
// value changes, so a bone whose clip holds it still (or that no clip animates) still
// shows what `written` put there: that property is read as `animated`, the pose the
// write came from, never as the output fed back (docs/pd/inertializer.md, "three.js").
function readAnimated(bones, f, written, animated) {
  for (let i = 0, o = 0; i < bones.length; i++, o += JOINT_FLOATS) {
    const { position: p, quaternion: q } = bones[i];
    if (p.x === written[o] && p.y === written[o + 1] && p.z === written[o + 2]) {
      f[o] = animated[o]; f[o + 1] = animated[o + 1]; f[o + 2] = animated[o + 2];
    } else {
      f[o] = p.x; f[o + 1] = p.y; f[o + 2] = p.z;
    }
    if (q.x === written[o + 3] && q.y === written[o + 4] && q.z === written[o + 5] && q.w === written[o + 6]) {
      f[o + 3] = animated[o + 3]; f[o + 4] = animated[o + 4]; f[o + 5] = animated[o + 5]; f[o + 6] = animated[o + 6];
    } else {
      f[o + 3] = q.x; f[o + 4] = q.y; f[o + 5] = q.z; f[o + 6] = q.w;
    }
  }
}

const isMixer = (value) => typeof value?.clipAction === 'function' && typeof value.getRoot === 'function';

// The objects a clip animates: the bones under `root` (or, with none, every object below it).
function animatedObjects(root) {
  const bones = [];
  const all = [];
  root.traverse((o) => {
    if (o.isBone) bones.push(o);
    else if (o !== root) all.push(o);
  });
  return bones.length > 0 ? bones : all;
}

/**
 * Inertialized clip switches on a three.js hierarchy (docs/pd/inertializer.md):
 * `transition(action)` plays `action` alone at once (a cut for the mixer) and the
 * pose shown goes on from where it was, its offset from the new clip decaying by
 * a critically damped spring. Call `update(dt)` every frame after `mixer.update(dt)`
 * (and before an IKRig). Owns WASM memory: call `dispose()` when done.
 */
export class Inertializer {
  /**
   * @param {object} ikpd the loaded library with the rig module (`await init({ rig: true })`)
   * @param {import('three').AnimationMixer | import('three').Object3D} mixerOrRoot the mixer, or the root it animates
   * @param {{ halfLife?: number, feet?: 'auto' | null | Array<Array<object|string>>, stanceSpeed?: number }} [options]
   */
  constructor(ikpd, mixerOrRoot, options = {}) {
    readModule(ikpd, 'Inertializer', 'Inertializer', 'rig'); // its bindings are in the rig module
    checkHelperOptions(options, OPTIONS, 'Inertializer');
    const mixer = isMixer(mixerOrRoot) ? mixerOrRoot : null;
    const root = mixer ? mixer.getRoot() : mixerOrRoot;
    if (!root?.isObject3D) throw new TypeError(`mixerOrRoot: expected an AnimationMixer or an Object3D, got ${describe(mixerOrRoot)}`);
    const bones = animatedObjects(root);
    if (bones.length === 0) throw new RangeError('mixerOrRoot: its root has no bones or children to animate');
    /** The mixer given, or null (then each transition uses its action's mixer). */
    this.mixer = mixer;
    /** The animated objects (the bones under the root), in traversal order. */
    this.bones = Object.freeze(bones);
    const stanceSpeed = options.stanceSpeed === undefined ? STANCE_SPEED : readStanceSpeed(options.stanceSpeed);
    const feet = options.feet ?? null;
    if (feet !== null && feet !== 'auto' && !Array.isArray(feet)) throw new TypeError(`feet: expected 'auto', null or [[upper, lower, foot], …], got ${describe(feet)}`);
    this._inertia = new ikpd.Inertializer(bones.length, { halfLife: options.halfLife });
    try {
      // docs/pd/inertializer.md, "Stance feet": null (the default) leaves the pose to the inertializer alone.
      this._feet = feet === null ? null : new FeetLock(ikpd, root, bones, feet, stanceSpeed);
    } catch (error) {
      this._inertia.dispose();
      throw error;
    }
    this._animated = new Float32Array(JOINT_FLOATS * bones.length); // the pose the last write came from
    this._wrote = false; // whether the bones show a write of this Inertializer
    this._dt = 0; // the last update's dt; 0: no update yet (a transition then starts at rest)
  }

  /** Half-life (seconds) of the transitions that give none; 0: a cut. @default 0.1 */
  get halfLife() { return this._inertia.halfLife; }
  set halfLife(value) { this._inertia.halfLife = value; }

  /** World units per second below which a foot of the new clip is in stance (with `feet`). @default 0.8 */
  get stanceSpeed() { return this._feet === null ? STANCE_SPEED : this._feet.stanceSpeed; }
  set stanceSpeed(value) {
    readStanceSpeed(value);
    if (this._feet !== null) this._feet.stanceSpeed = value;
  }

  /** The legs whose stance feet are held during a transition (`[upper, lower, foot]` bones each); null without `feet`. @default null */
  get feet() { return this._feet === null ? null : this._feet.constraints.map((c) => c.bones); }

  /** Seconds since the last transition. */
  get elapsed() { return this._inertia.elapsed; }

  /**
   * Plays `action` alone from now (every other action of its mixer stops; its own
   * time is kept) and records the offset of the pose shown from it, with their
   * velocities, so nothing jumps. One call instead of `a.crossFadeTo(b, d)`.
   */
  transition(action, options = {}) {
    this._inertia.assertAlive();
    checkHelperOptions(options, TRANSITION_OPTIONS, 'Inertializer.transition');
    const halfLife = options.halfLife === undefined ? this._inertia.halfLife : readNumber(options.halfLife, 'halfLife', { min: 0, max: 1e9 });
    const mixer = typeof action?.getMixer === 'function' ? action.getMixer() : null;
    if (!isMixer(mixer)) throw new TypeError(`action: expected a THREE.AnimationAction, got ${describe(action)}`);
    if (this.mixer !== null && mixer !== this.mixer) throw new RangeError("action: belongs to another mixer than the Inertializer's");
    const { input, output, previous } = this._inertia;
    if (!this._wrote) readBones(this.bones, output); // nothing written yet: the bones are the pose shown
    const time = action.time;
    mixer.stopAllAction();
    action.time = time;
    action.play();
    // The new clip now, and one update's dt earlier (the same step as the shown pose's rate).
    mixer.update(0);
    this._read(input, this._animated);
    const dt = this._dt;
    if (dt > 0) {
      let before = time - dt * action.getEffectiveTimeScale() * mixer.timeScale;
      if (before < 0 && action.loop !== LoopOnce) before += action.getClip().duration;
      action.time = before;
      mixer.update(0);
      this._read(previous, input);
      action.time = time;
    }
    this._inertia.transition({ halfLife, velocity: dt > 0 });
    this._feet?.transition(input, halfLife);
    this._animated.set(input);
    writeBones(this.bones, output); // the pose shown until the next update: the one before the switch
    this._wrote = true;
    return this;
  }

  /** After `mixer.update(dt)`: writes the clip's pose with the decaying offset into the bones. */
  update(dt) {
    this._inertia.assertAlive();
    readNumber(dt, 'dt', DT_RANGE); // before anything changes
    const input = this._inertia.input;
    this._read(input, this._animated);
    this._animated.set(input);
    const output = this._inertia.update(dt);
    writeBones(this.bones, output);
    // The stance feet held (docs/pd/inertializer.md, "Stance feet"); the pose shown, IK included,
    // is then the output a transition starts from and the write `update` recognizes.
    if (this._feet !== null && this._feet.update(dt, input, this.bones)) {
      readBones(this.bones, output);
      writeBones(this.bones, output); // the bones as the floats kept, so `update` knows its write again
    }
    this._wrote = true;
    if (dt > 0) this._dt = dt;
    return this;
  }

  // The bones as animated into f; a property still showing the last write reads as `animated`.
  _read(f, animated) {
    if (this._wrote) readAnimated(this.bones, f, this._inertia.output, animated);
    else readBones(this.bones, f);
  }

  /** Drops the offset: the bones show the clip from the next update on. */
  reset() {
    this._inertia.reset();
    return this;
  }

  /** Frees the WASM memory; later calls throw. */
  dispose() {
    this._inertia.dispose();
    this._feet?.dispose();
  }

  /** True after `dispose()`. */
  get disposed() { return this._inertia.disposed; }
}
