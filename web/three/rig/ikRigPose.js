// IKRig's pose transfer each frame (docs/rig/rig.md): the constraints' targets and
// poles into the core rig's frames, the bones' animated locals and the root
// transform in, and the locals the core changed written back to the bones.
import { Quaternion, Vector3 } from 'three';
import { readPoint } from '../readers.js';

const _v = /* @__PURE__ */ new Vector3();
const _s = /* @__PURE__ */ new Vector3();
const _q = /* @__PURE__ */ new Quaternion();

/** Each constraint's target and pole into `frames` (12 floats each); pushes `enabled` when a target comes or goes. */
export function writeFrames(rig, frames) {
  const list = rig._list;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    const o = 12 * i;
    const target = c.target === null ? null : readPoint(c.target, 'target', _v);
    if (target) {
      frames[o] = target.x; frames[o + 1] = target.y; frames[o + 2] = target.z;
    }
    // Without a target the constraint blends out as if disabled (pushed only when that changes); grounding has none.
    const enabled = c._settings.enabled !== false && (target !== null || c.kind === 'grounding');
    if (enabled !== c._coreEnabled) {
      c._core.set({ enabled });
      c._coreEnabled = enabled;
    }
    const pole = c.pole === null ? null : readPoint(c.pole, 'pole', _v);
    if (pole) {
      frames[o + 3] = pole.x; frames[o + 4] = pole.y; frames[o + 5] = pole.z;
    }
    frames[o + 9] = pole ? 1 : 0;
  }
}

// What the last writer of a bone (any rig) wrote and the animated pose it read:
// [0..3] the rotation written, [4..13] the animated locals, [14] 1 when it wrote
// the translation, [15] the writer's id. Shared by every rig over the bone, so
// that a rig reads another's output, or its own from before a rebuild, as the
// animated pose it came from (docs/rig/rig.md, "Helpers sharing bones").
const LAST_WRITE = /* @__PURE__ */ new WeakMap();
let nextWriter = 1;

/** The shared last-write record of each joint (made once per build). */
export function lastWrites(joints) {
  return joints.map((o) => {
    let r = LAST_WRITE.get(o);
    if (r === undefined) LAST_WRITE.set(o, r = new Float64Array(16).fill(NaN));
    return r;
  });
}

/** A number naming a rig as a writer in the shared records. */
export function writerId() {
  return nextWriter++;
}

// Locals in, each as animated: a bone still holding what the last update
// wrote (nothing animated it since) is read as the pose that update started
// from; one holding what this rig wrote before a rebuild, or what another rig
// wrote on a bone this one drives too, as the pose that rig started from.
export function readLocals(rig, input) {
  const joints = rig._joints, written = rig._written, animated = rig._animated, records = rig._records, id = rig._writer;
  for (let j = 0; j < joints.length; j++) {
    const o = joints[j], k = 10 * j, w = 4 * j;
    const p = o.position, q = o.quaternion, s = o.scale;
    if (s.x * s.y * s.z < 0) mirrored(o); // docs/rig/rig.md, "Mirrored characters"
    const stale = q._x === written[w] && q._y === written[w + 1] && q._z === written[w + 2] && q._w === written[w + 3];
    rig._stale[j] = stale ? 1 : 0;
    if (stale) {
      for (let c = 0; c < 10; c++) input[k + c] = animated[k + c];
      input[k + 7] = s.x; input[k + 8] = s.y; input[k + 9] = s.z;
      if (!rig._wroteTranslation[j]) { input[k] = p.x; input[k + 1] = p.y; input[k + 2] = p.z; }
      continue;
    }
    const r = records[j];
    if (q._x === r[0] && q._y === r[1] && q._z === r[2] && q._w === r[3] && (r[15] === id || rig._driven[j] === 1)) {
      for (let c = 0; c < 10; c++) input[k + c] = r[4 + c];
      input[k + 7] = s.x; input[k + 8] = s.y; input[k + 9] = s.z;
      if (r[14] !== 1) { input[k] = p.x; input[k + 1] = p.y; input[k + 2] = p.z; }
      if (r[15] === id) {
        // This rig's own output from before a rebuild: put back like a stale bone.
        rig._stale[j] = 1;
        written[w] = r[0]; written[w + 1] = r[1]; written[w + 2] = r[2]; written[w + 3] = r[3];
        rig._wroteTranslation[j] = r[14] === 1 ? 1 : 0;
      }
      continue;
    }
    input[k] = p.x; input[k + 1] = p.y; input[k + 2] = p.z;
    input[k + 3] = q._x; input[k + 4] = q._y; input[k + 5] = q._z; input[k + 6] = q._w;
    input[k + 7] = s.x; input[k + 8] = s.y; input[k + 9] = s.z;
  }
  animated.set(input);
}

/**
 * The rig base's world transform into `root` (identity without one), decomposed
 * only when the base's world matrix changed since the last frame.
 */
export function readRoot(rig, root) {
  // The topmost joint's parent now: the rig follows reparenting (attach(), add()).
  const base = rig._joints[0].parent ?? null;
  if (base !== rig._base) rebase(rig, base);
  if (base === null) {
    root.fill(0); root[6] = 1; root[7] = root[8] = root[9] = 1;
    return;
  }
  base.updateWorldMatrix(true, false);
  const e = base.matrixWorld.elements, seen = rig._rootMatrix, r = rig._rootValues;
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
export function writeLocals(rig, output, changed) {
  const joints = rig._joints, written = rig._written, input = rig._animated, records = rig._records, id = rig._writer;
  for (let j = 0; j < joints.length; j++) {
    const w = 4 * j;
    const o = joints[j], k = 10 * j, r = records[j];
    if (!changed[j]) {
      // Unchanged, but the bone still shows the last output: the animated pose goes back.
      if (rig._stale[j]) o.quaternion.set(input[k + 3], input[k + 4], input[k + 5], input[k + 6]);
      if (rig._stale[j] && rig._wroteTranslation[j]) o.position.set(input[k], input[k + 1], input[k + 2]);
      if (r[15] === id) r[0] = NaN;
      written[w] = NaN;
      rig._wroteTranslation[j] = 0;
      continue;
    }
    o.quaternion.set(output[k + 3], output[k + 4], output[k + 5], output[k + 6]);
    written[w] = output[k + 3]; written[w + 1] = output[k + 4]; written[w + 2] = output[k + 5]; written[w + 3] = output[k + 6];
    const moved = output[k] !== input[k] || output[k + 1] !== input[k + 1] || output[k + 2] !== input[k + 2];
    if (moved) o.position.set(output[k], output[k + 1], output[k + 2]);
    else if (rig._wroteTranslation[j]) o.position.set(input[k], input[k + 1], input[k + 2]);
    rig._wroteTranslation[j] = moved ? 1 : 0;
    recordWrite(rig, j);
  }
}

/** Joint `j`'s rotation now (and its animated locals) as this rig's last write, in the shared record. */
export function recordWrite(rig, j) {
  const r = rig._records[j], q = rig._joints[j].quaternion, a = rig._animated, k = 10 * j;
  r[0] = q._x; r[1] = q._y; r[2] = q._z; r[3] = q._w;
  for (let c = 0; c < 10; c++) r[4 + c] = a[k + c];
  r[14] = rig._wroteTranslation[j];
  r[15] = rig._writer;
}

// The rig's root is now `base` (rare: after a reparenting); the world up in its frame again.
function rebase(rig, base) {
  rig._base = base;
  rig._rootMatrix.fill(NaN);
  rig._upInRoot = rig._upIn(base);
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
