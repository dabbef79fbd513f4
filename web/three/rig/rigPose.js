// RigPose: an IKRig's joints and their bookkeeping each frame (docs/rig/rig.md):
// the bones' animated locals and the root transform read into the core rig, the
// locals it changed written back, and the one rule that puts a bone still
// showing this rig's output back to the animated pose it came from.
import { Quaternion, Vector3 } from 'three';

const _v = /* @__PURE__ */ new Vector3();
const _s = /* @__PURE__ */ new Vector3();
const _q = /* @__PURE__ */ new Quaternion();

// The last writer of a bone (any rig): what it wrote and the animated pose it read, read in
// place from that writer's per-joint arrays (joint `j` there), so a write costs nothing per
// frame once a rig owns the record: `written` [4j..4j+3] the rotation written (NaN: none now),
// `animated` [10j..10j+6] the animated translation and rotation (a reader takes the scale from
// the bone), `wroteTranslation` [j] 1 when it wrote the translation, `writer` its id. Shared by
// every rig over the bone, so that a rig reads another's output, or its own from before a
// rebuild, as the animated pose it came from (docs/rig/rig.md, "Helpers sharing bones").
const LAST_WRITE = /* @__PURE__ */ new WeakMap();
const NO_WRITE = /* @__PURE__ */ new Float64Array(4).fill(NaN);
class LastWrite {
  constructor() {
    this.written = NO_WRITE;
    this.animated = null;
    this.wroteTranslation = null;
    this.j = 0;
    this.writer = 0;
  }
}
let nextWriter = 1;

/** A number naming a rig as a writer in the shared records. */
export function writerId() {
  return nextWriter++;
}

/** The joints of one build of an IKRig (parents before children) and their per-frame state. */
export class RigPose {
  /**
   * @param {import('three').Object3D[]} joints parents before children
   * @param {Iterable<import('three').Object3D>} driven the bones a constraint turns (not just ancestors)
   * @param {number} writer the rig's writerId()
   * @param {(base: import('three').Object3D|null) => Vector3} upIn the world up in a base's frame
   */
  constructor(joints, driven, writer, upIn) {
    const n = joints.length;
    this.joints = joints;
    /** Object3D → joint index. */
    this.index = new Map(joints.map((o, i) => [o, i]));
    this.writer = writer;
    this._upIn = upIn;
    this.written = new Float64Array(4 * n).fill(NaN); // the rotation the last update wrote, per joint
    this.animated = new Float32Array(10 * n);         // the animated locals that update started from
    this.wroteTranslation = new Uint8Array(n);
    this.writtenTranslation = new Float64Array(3 * n); // the translation written where wroteTranslation is 1
    this.stale = new Uint8Array(n);                   // 1: the bone showed the last output when read
    // Shared with other rigs over these bones, kept across rebuilds.
    this.records = joints.map((o) => {
      let r = LAST_WRITE.get(o);
      if (r === undefined) LAST_WRITE.set(o, r = new LastWrite());
      return r;
    });
    // Only where a constraint drives a joint is another rig's output read as the animated pose it
    // came from; a bone this rig only reads keeps the other's output (layered rigs).
    this.driven = new Uint8Array(n);
    for (const bone of driven) this.driven[this.index.get(bone)] = 1;
    /** The parent of the topmost joint (its world transform is the rig's root). */
    this.base = joints[0].parent ?? null;
    /** The world up in the base's frame. */
    this.upInRoot = upIn(this.base);
    this._rootMatrix = new Float64Array(16).fill(NaN); // the base's world matrix readRoot last decomposed
    this._rootValues = new Float32Array(10);           // and what it gave, as the core reads it
    // Each joint's quaternion callback where it is three.js's own (Object3D's Euler sync), else null.
    this.syncs = joints.map((o) => (isEulerSync(o.quaternion._onChangeCallback) ? o.quaternion._onChangeCallback : null));
  }

  // Locals in, each as animated: a bone still holding what the last update
  // wrote (nothing animated it since) is read as the pose that update started
  // from; one holding what this rig wrote before a rebuild, or what another rig
  // wrote on a bone this one drives too, as the pose that rig started from.
  readLocals(input) {
    // Fields and each bone's values into locals once: the loop runs per joint every frame. Each
    // value goes to the core's input and to `animated` in the same pass.
    const { joints, written, animated, records, stale, driven, wroteTranslation } = this;
    const id = this.writer;
    for (let j = 0; j < joints.length; j++) {
      const o = joints[j], k = 10 * j, w = 4 * j;
      const p = o.position, q = o.quaternion, s = o.scale;
      const sx = s.x, sy = s.y, sz = s.z;
      if (sx * sy * sz < 0) mirrored(o); // docs/rig/rig.md, "Mirrored characters"
      const qx = q._x, qy = q._y, qz = q._z, qw = q._w;
      input[k + 7] = animated[k + 7] = sx; input[k + 8] = animated[k + 8] = sy; input[k + 9] = animated[k + 9] = sz;
      if (qx === written[w] && qy === written[w + 1] && qz === written[w + 2] && qw === written[w + 3]) {
        // Still showing the last write (showsWrite): the animated pose it came from, which the
        // core's input still holds from the last read (every branch leaves input = animated, and
        // only this pass writes the input); an unwritten translation is read again.
        stale[j] = 1;
        if (wroteTranslation[j] === 0) {
          input[k] = animated[k] = p.x; input[k + 1] = animated[k + 1] = p.y; input[k + 2] = animated[k + 2] = p.z;
        }
        continue;
      }
      stale[j] = 0;
      if (wroteTranslation[j] === 1) {
        // Animated again but its translation not (a clip of rotations only): still this rig's write
        // (a moved pelvis, a stretched arm), put back to the animated translation it came from.
        const t = this.writtenTranslation, m = 3 * j;
        if (p.x === t[m] && p.y === t[m + 1] && p.z === t[m + 2]) p.set(animated[k], animated[k + 1], animated[k + 2]);
      }
      const r = records[j], rw = r.written, rj = r.j, rq = 4 * rj;
      if (qx === rw[rq] && qy === rw[rq + 1] && qz === rw[rq + 2] && qw === rw[rq + 3] && (r.writer === id || driven[j] === 1)) {
        // (Another writer's arrays: the record of a bone this rig still shows took the stale branch.)
        const ra = r.animated, rk = 10 * rj, wrote = r.wroteTranslation[rj] === 1;
        for (let c = 0; c < 7; c++) input[k + c] = animated[k + c] = ra[rk + c];
        if (!wrote) { input[k] = animated[k] = p.x; input[k + 1] = animated[k + 1] = p.y; input[k + 2] = animated[k + 2] = p.z; }
        if (r.writer === id) {
          // This rig's own output from before a rebuild: put back like a stale bone.
          stale[j] = 1;
          written[w] = rw[rq]; written[w + 1] = rw[rq + 1]; written[w + 2] = rw[rq + 2]; written[w + 3] = rw[rq + 3];
          wroteTranslation[j] = wrote ? 1 : 0;
        }
        continue;
      }
      input[k] = animated[k] = p.x; input[k + 1] = animated[k + 1] = p.y; input[k + 2] = animated[k + 2] = p.z;
      input[k + 3] = animated[k + 3] = qx; input[k + 4] = animated[k + 4] = qy;
      input[k + 5] = animated[k + 5] = qz; input[k + 6] = animated[k + 6] = qw;
    }
  }

  /**
   * The base's world transform into `root` (identity without one): composed
   * from the ancestors' locals where three.js's matrices are not needed, else
   * decomposed from the base's world matrix when that changed since the last frame.
   */
  readRoot(root) {
    // The topmost joint's parent now: the rig follows reparenting (attach(), add()).
    const base = this.joints[0].parent ?? null;
    if (base !== this.base) {
      // Rare: after a reparenting; the world up in its frame again.
      this.base = base;
      this._rootMatrix.fill(NaN);
      this.upInRoot = this._upIn(base);
    }
    if (base === null) {
      root.fill(0); root[6] = 1; root[7] = root[8] = root[9] = 1;
      return;
    }
    if (composeWorld(base, root)) {
      this._rootMatrix[0] = NaN; // (the matrix path decomposes again when it is next taken)
      return;
    }
    base.updateWorldMatrix(true, false);
    const e = base.matrixWorld.elements, seen = this._rootMatrix, r = this._rootValues;
    let same = true;
    for (let i = 0; i < 16 && same; i++) same = e[i] === seen[i];
    if (!same) {
      if (base.matrixWorld.determinant() < 0) checkNotMirrored(base);
      base.matrixWorld.decompose(_v, _q, _s);
      r[0] = _v.x; r[1] = _v.y; r[2] = _v.z;
      r[3] = _q.x; r[4] = _q.y; r[5] = _q.z; r[6] = _q.w;
      r[7] = _s.x; r[8] = _s.y; r[9] = _s.z;
      seen.set(e);
    }
    root.set(r);
  }

  /**
   * The solved locals the core changed written to the bones (and a bone unchanged
   * now but still showing the last output put back to its animated pose).
   */
  writeLocals(output, changed) {
    const { joints, written, animated: input, wroteTranslation, records, stale } = this;
    for (let j = 0; j < joints.length; j++) {
      if (changed[j] === 0) {
        this._putBack(j, stale[j] === 1);
        continue;
      }
      const w = 4 * j, o = joints[j], k = 10 * j;
      const qx = output[k + 3], qy = output[k + 4], qz = output[k + 5], qw = output[k + 6];
      this._rotate(j, qx, qy, qz, qw);
      written[w] = qx; written[w + 1] = qy; written[w + 2] = qz; written[w + 3] = qw;
      const tx = output[k], ty = output[k + 1], tz = output[k + 2];
      const moved = tx !== input[k] || ty !== input[k + 1] || tz !== input[k + 2];
      if (moved) {
        o.position.set(tx, ty, tz);
        const t = this.writtenTranslation, m = 3 * j;
        t[m] = tx; t[m + 1] = ty; t[m + 2] = tz;
      } else if (wroteTranslation[j] === 1) o.position.set(input[k], input[k + 1], input[k + 2]);
      wroteTranslation[j] = moved ? 1 : 0;
      // The shared record reads these arrays in place (the rotation now on the bone, the
      // animated locals): only a change of writer is written.
      if (records[j].written !== written) this._record(j);
    }
  }

  /** True while joint `j`'s rotation is still what the last update wrote (nothing animated it since). */
  showsWrite(j) {
    const q = this.joints[j].quaternion, written = this.written, w = 4 * j;
    return q._x === written[w] && q._y === written[w + 1] && q._z === written[w + 2] && q._w === written[w + 3];
  }

  /**
   * Puts every bone still holding what the last update wrote back to the pose
   * that update started from (to measure the animated pose before a solve).
   */
  restoreAnimated() {
    for (let j = 0; j < this.joints.length; j++) if (this.showsWrite(j)) this._putBack(j, true);
  }

  /** `object`'s local rotation was set after the update: the next update still starts from the animated pose. */
  claim(object) {
    const j = this.index.get(object), w = 4 * j, q = object.quaternion;
    this.written[w] = q._x; this.written[w + 1] = q._y; this.written[w + 2] = q._z; this.written[w + 3] = q._w;
    this._record(j);
  }

  /** The animated local rotation `object` had at the start of the last update. */
  animatedRotation(object, out) {
    return out.fromArray(this.animated, 10 * this.index.get(object) + 3); // (floats passed to set() would be boxed)
  }

  // Joint j's local rotation set, as `quaternion.set` sets it (and its Euler angles): without
  // three.js's matrix where its callback is three.js's own and the order 'XYZ' (setRotation).
  _rotate(j, x, y, z, w) {
    const o = this.joints[j];
    if (this.syncs[j] === o.quaternion._onChangeCallback && o.rotation._order === 'XYZ') setRotation(o, x, y, z, w);
    else o.quaternion.set(x, y, z, w);
  }

  // The one rule of "back to the animated pose": joint j no longer holds this
  // rig's write; `shows`: it still shows it, so its animated locals go back.
  _putBack(j, shows) {
    const o = this.joints[j], a = this.animated, k = 10 * j;
    if (shows) {
      this._rotate(j, a[k + 3], a[k + 4], a[k + 5], a[k + 6]);
      if (this.wroteTranslation[j]) o.position.set(a[k], a[k + 1], a[k + 2]);
    }
    const r = this.records[j];
    if (r.writer === this.writer) { r.written = NO_WRITE; r.j = 0; } // (this rig's, or its own before a rebuild)
    this.written[4 * j] = NaN;
    this.wroteTranslation[j] = 0;
  }

  // This rig as joint j's last writer, in the shared record: what it wrote (`written`, the
  // rotation now on the bone) and its animated locals, read in place from now on.
  _record(j) {
    const r = this.records[j];
    r.written = this.written; r.animated = this.animated; r.wroteTranslation = this.wroteTranslation;
    r.j = j; r.writer = this.writer;
  }
}

// three.js's Object3D keeps `rotation` in sync with `quaternion` through the quaternion's change
// callback, `function onQuaternionChange() { rotation.setFromQuaternion(quaternion, undefined,
// false); }`, which composes a 4×4 matrix from the quaternion and reads the angles from it. True
// for that callback, in three.js's source or minified (a wrapper or any other callback is not).
const EULER_SYNC = /^function\s*[\w$]*\s*\(\s*\)\s*\{\s*[\w$]+\.setFromQuaternion\(\s*[\w$]+\s*,\s*(?:undefined|void 0)\s*,\s*(?:false|!1)\s*\);?\s*\}$/;
export function isEulerSync(callback) {
  return typeof callback === 'function' && EULER_SYNC.test(Function.prototype.toString.call(callback));
}

// `quaternion.set(x, y, z, w)` on a joint whose callback is three.js's own and whose Euler order
// is 'XYZ': the same fields, and `rotation` the same bits as that callback leaves it
// (Euler.setFromRotationMatrix of Matrix4.makeRotationFromQuaternion, whose unit scale and zero
// translation change no bit), straight from the quaternion without the matrix
// (docs/performance.md, "three.js path"). The Euler's own callback is not called, as there.
export function setRotation(o, x, y, z, w) {
  const q = o.quaternion, e = o.rotation;
  q._x = x; q._y = y; q._z = z; q._w = w;
  const x2 = x + x, y2 = y + y, z2 = z + z;
  const xx = x * x2, xy = x * y2, xz = x * z2, yy = y * y2, yz = y * z2, zz = z * z2;
  const wx = w * x2, wy = w * y2, wz = w * z2;
  const m13 = xz + wy;
  e._y = Math.asin(Math.max(-1, Math.min(1, m13)));
  if (Math.abs(m13) < 0.9999999) {
    e._x = Math.atan2(-(yz - wx), 1 - (xx + yy));
    e._z = Math.atan2(-(xy - wz), 1 - (yy + zz));
  } else {
    e._x = Math.atan2(yz + wx, 1 - (xx + zz));
    e._z = 0;
  }
}

// The world transform of `object` into `out` (position, rotation, scale, as the core reads the
// root) straight from its and its ancestors' locals, as three.js's updateWorldMatrix composes them:
// without the 4×4 products and the decomposition. False, with `out` unchanged, where that takes
// three.js's matrices: a matrix not composed from the locals (matrixAutoUpdate or
// matrixWorldAutoUpdate off, a pivot), a quaternion off unit length, a scale not positive, or one
// not uniform (to 1e-9) above `object` (world scale and rotation then no longer separate).
function composeWorld(object, out) {
  let px = 0, py = 0, pz = 0, qx = 0, qy = 0, qz = 0, qw = 1, sx = 1, sy = 1, sz = 1;
  for (let o = object; o !== null; o = o.parent) {
    if (o.matrixAutoUpdate !== true || o.matrixWorldAutoUpdate !== true || (o.pivot ?? null) !== null) return false;
    const q = o.quaternion, s = o.scale, p = o.position;
    const ax = q._x, ay = q._y, az = q._z, aw = q._w;
    const n = ax * ax + ay * ay + az * az + aw * aw;
    if (!(Math.abs(n - 1) <= 1e-6)) return false;
    const ux = s.x;
    if (o === object) {
      if (!(ux > 0 && s.y > 0 && s.z > 0)) return false;
      px = p.x; py = p.y; pz = p.z; qx = ax; qy = ay; qz = az; qw = aw; sx = ux; sy = s.y; sz = s.z;
      continue;
    }
    // (Uniform to 1e-9: scales read back from a matrix differ in the last bits.)
    const uy = s.y, uz = s.z, slack = 1e-9 * ux;
    if (!(ux > 0) || !(Math.abs(uy - ux) <= slack) || !(Math.abs(uz - ux) <= slack)) return false;
    // The parent's transform applied to what is composed so far: p' = P + Q (S p), q' = Q q, s' = S s.
    const vx = ux * px, vy = uy * py, vz = uz * pz;
    const tx = 2 * (ay * vz - az * vy), ty = 2 * (az * vx - ax * vz), tz = 2 * (ax * vy - ay * vx);
    px = p.x + vx + aw * tx + ay * tz - az * ty;
    py = p.y + vy + aw * ty + az * tx - ax * tz;
    pz = p.z + vz + aw * tz + ax * ty - ay * tx;
    const bx = qx, by = qy, bz = qz, bw = qw;
    qx = aw * bx + ax * bw + ay * bz - az * by;
    qy = aw * by - ax * bz + ay * bw + az * bx;
    qz = aw * bz + ax * by - ay * bx + az * bw;
    qw = aw * bw - ax * bx - ay * by - az * bz;
    sx *= ux; sy *= uy; sz *= uz;
  }
  out[0] = px; out[1] = py; out[2] = pz;
  out[3] = qx; out[4] = qy; out[5] = qz; out[6] = qw;
  out[7] = sx; out[8] = sy; out[9] = sz;
  return true;
}

/**
 * Throws a RangeError naming the mirrored object when `base`'s world transform
 * has a negative determinant (a scale of -1 on an axis): the core's root is a
 * rotation and a positive scale (docs/rig/rig.md, "Mirrored characters").
 */
export function checkNotMirrored(base) {
  if (base === null) return;
  base.updateWorldMatrix(true, false);
  if (base.matrixWorld.determinant() >= 0) return;
  let found = base;
  for (let o = base; o; o = o.parent) {
    if (o.scale.x * o.scale.y * o.scale.z < 0) { found = o; break; }
  }
  mirrored(found);
}

/** Throws the RangeError for a character mirrored by `object`'s negative scale. */
export function mirrored(object) {
  const name = object.name ? `'${object.name}'` : `a ${object.type ?? 'Object3D'} without a name`;
  throw new RangeError(`IKRig: ${name} mirrors the character (a negative scale, e.g. scale.x = -1); the rig cannot solve a mirrored skeleton. Mirror the animation or the bones' rest pose instead, or give the mirror to a parent outside the rig that is rendered only (docs/rig/rig.md)`);
}
