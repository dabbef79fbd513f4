// BoneChain, the bones every ikpd/three helper solves: reading world transforms
// from three.js objects, detecting a bone's axis convention, and writing solved
// world rotations back as local quaternions.
//
// Every solver sees a *canonical* bone: forward +X, up +Y (the ikpd
// defaults). Each bone gets a constant bone-local "frame" quaternion A that
// maps +X to the rig's forward axis and +Y to its up axis; the solver works
// on world rotations q·A and the result is written back as q'·A⁻¹. That makes
// every rig convention (+X, +Y, −Z, or any direction) look the same to ikpd.

import { Matrix4, Quaternion, Vector3 } from 'three';
import { defaultUpAxis, describe, detectBoneAxis, isDescendant, readAxis } from './readers.js';

const _m = /* @__PURE__ */ new Matrix4();
const _v = /* @__PURE__ */ new Vector3();
const _s = /* @__PURE__ */ new Vector3();
const _q = /* @__PURE__ */ new Quaternion();

/** Decomposes `object.matrixWorld` (assumed up to date) into position and rotation. */
export function decomposeWorld(object, position, rotation) {
  object.matrixWorld.decompose(position, rotation, _s);
}

/**
 * The constant bone-local frame quaternion mapping +X → `forward` and
 * +Y → `up` (made orthogonal to forward; `up` parallel to forward falls back
 * to the default up axis).
 */
export function axisFrame(forward, up, out = new Quaternion()) {
  const f = forward.clone().normalize();
  let u = up.clone().addScaledVector(f, -up.dot(f));
  if (u.lengthSq() < 1e-10) u = defaultUpAxis(f).addScaledVector(f, -defaultUpAxis(f).dot(f));
  u.normalize();
  const z = new Vector3().crossVectors(f, u);
  _m.makeBasis(f, u, z);
  return out.setFromRotationMatrix(_m);
}

/**
 * A chain of Object3Ds (usually Bones) from root to end, each with its
 * detected or given axis frame. Reads world transforms in the solver's
 * canonical convention and writes solved world rotations back as local
 * quaternions, correct under rotated, translated and uniformly scaled
 * parents.
 */
export class BoneChain {
  /**
   * @param {import('three').Object3D[]} bones root → end
   * @param {object} axes `{ forward, up }` options ('auto' or an axis), or
   *   an array of such objects, one per bone.
   * @param {string} name the option name used in errors ('bones')
   */
  constructor(bones, axes, name = 'bones') {
    if (!Array.isArray(bones) || bones.length === 0) throw new TypeError(`${name}: expected an array of Object3Ds`);
    bones.forEach((bone, i) => {
      if (!bone?.isObject3D) throw new TypeError(`${name}[${i}]: expected an Object3D, got ${describe(bone)}`);
    });
    this.bones = bones;
    this.count = bones.length;
    /** World positions (read by read()). */
    this.positions = bones.map(() => new Vector3());
    /** World rotations of the bones themselves (read by read()). */
    this.rotations = bones.map(() => new Quaternion());
    /** Bone-local frame quaternions (canonical +X/+Y → rig axes). */
    this.frames = bones.map(() => new Quaternion());
    this.inverseFrames = bones.map(() => new Quaternion());
    /** Bone-local forward axes (unit). */
    this.forwards = bones.map(() => new Vector3());
    this._localBefore = bones.map(() => new Quaternion());
    // What finish() wrote, and the input pose it was solved from (see read()).
    this._written = bones.map(() => new Quaternion());
    this._hasWritten = false;
    this.setAxes(axes, name);
  }

  /**
   * (Re)computes the axis frames from the current pose: each bone's forward
   * axis is the given one or, for 'auto', the direction to the next bone in
   * the chain (the last bone uses its first child with an offset, else the
   * previous bone's axis).
   */
  setAxes(axes, name = 'bones') {
    const perBone = Array.isArray(axes) ? axes : null;
    this.updateWorld();
    const up = new Vector3();
    for (let i = 0; i < this.count; i++) {
      const options = (perBone ? perBone[i] : axes) ?? {};
      const label = perBone ? `${name === 'bones' ? 'axes' : name}[${i}]` : '';
      const forward = this.forwards[i];
      let found = readAxis(options.forward, `${label ? `${label}.` : ''}forward`, forward);
      if (!found) found = this._detect(i, forward);
      if (!found) {
        throw new RangeError(`forward: cannot detect the axis of ${this._label(i)} (it has no child with an offset); pass forward: '+y' (or another axis)`);
      }
      if (!readAxis(options.up, `${label ? `${label}.` : ''}up`, up)) defaultUpAxis(forward, up);
      axisFrame(forward, up, this.frames[i]);
      this.inverseFrames[i].copy(this.frames[i]).invert();
    }
  }

  /**
   * Hands the solvers the rig's own rotations (identity frames), for solvers
   * whose joint limits are defined on the bones' local rotations. Returns the
   * shared forward axis, or null (and no change) when the forward axes of
   * the bones that have a child in the chain differ.
   */
  useRigFrames() {
    const shared = this.forwards[0];
    for (let i = 1; i < this.count - 1; i++) if (this.forwards[i].distanceToSquared(shared) > 1e-8) return null;
    for (let i = 0; i < this.count; i++) {
      this.frames[i].identity();
      this.inverseFrames[i].identity();
    }
    return shared;
  }

  _label(i) {
    const bone = this.bones[i];
    return bone.name ? `bone '${bone.name}'` : `bone ${i}`;
  }

  _detect(i, out) {
    const bone = this.bones[i];
    if (i + 1 < this.count && detectBoneAxis(bone, this.bones[i + 1], out)) return out;
    for (const child of bone.children) {
      if (detectBoneAxis(bone, child, out)) return out;
    }
    if (i > 0) {
      // No child to point at (an end bone): take the previous bone's axis.
      return out.copy(this.forwards[i - 1]);
    }
    return null;
  }

  /** Brings the world matrices of every bone (and their ancestors) up to date. */
  updateWorld() {
    // Updating each bone's ancestors covers chains whose bones are not all in
    // one line of descent (e.g. a look-at rig given as separate bones).
    let last = null;
    for (const bone of this.bones) {
      if (last && bone.parent === last) bone.updateWorldMatrix(false, false);
      else bone.updateWorldMatrix(true, false);
      last = bone;
    }
  }

  /**
   * Reads world positions/rotations and remembers the local rotations (the
   * input pose, for weight blending). A bone whose local rotation is still
   * exactly what the last finish() wrote (no animation touched it since) is
   * first put back to the input pose of that solve, so every update solves
   * from the animated (or rest) pose, never from its own previous output:
   * the same result with or without an AnimationMixer.
   */
  read() {
    if (this._hasWritten) {
      for (let i = 0; i < this.count; i++) {
        const local = this.bones[i].quaternion;
        if (local.equals(this._written[i])) local.copy(this._localBefore[i]);
      }
    }
    this.updateWorld();
    for (let i = 0; i < this.count; i++) {
      decomposeWorld(this.bones[i], this.positions[i], this.rotations[i]);
      this._localBefore[i].copy(this.bones[i].quaternion);
    }
  }

  /** The solver-convention joint `{position, rotation}` of bone i (after read()). */
  joint(i) {
    const p = this.positions[i];
    _q.copy(this.rotations[i]).multiply(this.frames[i]);
    return { position: [p.x, p.y, p.z], rotation: [_q.x, _q.y, _q.z, _q.w] };
  }

  /** Writes joint(i) into `joint`'s position and rotation arrays (no allocation). */
  jointInto(i, joint) {
    const p = this.positions[i];
    _q.copy(this.rotations[i]).multiply(this.frames[i]);
    p.toArray(joint.position);
    _q.toArray(joint.rotation);
    return joint;
  }

  /**
   * Writes bone i's world rotation from a solver-convention world rotation
   * `[x, y, z, w]` (or a Quaternion). Bones must be written root → end: each
   * write refreshes that bone's world matrix for the bones below it. Call
   * finish(weight) after the last write.
   */
  writeSolved(i, rotation) {
    const target = _q;
    if (rotation.isQuaternion) target.copy(rotation);
    else target.fromArray(rotation);
    target.multiply(this.inverseFrames[i]);
    this.writeWorldRotation(i, target);
  }

  /** Writes bone i's world rotation (rig convention, a Quaternion); see writeSolved(). */
  writeWorldRotation(i, worldRotation) {
    const bone = this.bones[i];
    const local = bone.quaternion;
    if (bone.parent) {
      // The parent is fresh when it is the bone written just before.
      if (i === 0 || bone.parent !== this.bones[i - 1]) bone.parent.updateWorldMatrix(true, false);
      bone.parent.matrixWorld.decompose(_v, local, _s);
      local.invert().multiply(worldRotation);
    } else {
      local.copy(worldRotation);
    }
    local.normalize();
    bone.updateWorldMatrix(false, false);
  }

  /**
   * Blends every bone's local rotation from the pose read by read() to the
   * written one by `weight` (slerp; 1 keeps the solve), then refreshes the
   * world matrices below the chain's root.
   */
  finish(weight = 1) {
    if (weight < 1) {
      for (let i = 0; i < this.count; i++) {
        const local = this.bones[i].quaternion;
        // slerpQuaternions(a, b) copies a first, so b must not be `local` itself.
        local.slerpQuaternions(this._localBefore[i], _q.copy(local), weight);
      }
    }
    for (let i = 0; i < this.count; i++) this._written[i].copy(this.bones[i].quaternion);
    this._hasWritten = true;
    this.bones[0].updateWorldMatrix(false, true);
    // Bones outside the root's subtree (a chain given as separate bones).
    for (let i = 1; i < this.count; i++) {
      if (!isDescendant(this.bones[i], this.bones[0])) this.bones[i].updateWorldMatrix(false, true);
    }
  }
}
