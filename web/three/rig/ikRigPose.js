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
  for (let i = 0; i < rig.constraints.length; i++) {
    const c = rig.constraints[i];
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

// Locals in, each as animated: a bone still holding what the last update
// wrote (nothing animated it since) is read as the pose that update started from.
export function readLocals(rig, input) {
  const joints = rig._joints, written = rig._written, animated = rig._animated;
  for (let j = 0; j < joints.length; j++) {
    const o = joints[j], k = 10 * j, w = 4 * j;
    const p = o.position, q = o.quaternion, s = o.scale;
    const stale = q._x === written[w] && q._y === written[w + 1] && q._z === written[w + 2] && q._w === written[w + 3];
    rig._stale[j] = stale ? 1 : 0;
    if (stale) {
      for (let c = 0; c < 10; c++) input[k + c] = animated[k + c];
      input[k + 7] = s.x; input[k + 8] = s.y; input[k + 9] = s.z;
      if (!rig._wroteTranslation[j]) { input[k] = p.x; input[k + 1] = p.y; input[k + 2] = p.z; }
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
  const base = rig._base;
  if (base === null) {
    root.fill(0); root[6] = 1; root[7] = root[8] = root[9] = 1;
    return;
  }
  base.updateWorldMatrix(true, false);
  const e = base.matrixWorld.elements, seen = rig._rootMatrix, r = rig._rootValues;
  let same = true;
  for (let i = 0; i < 16 && same; i++) same = e[i] === seen[i];
  if (!same) {
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
  const joints = rig._joints, written = rig._written, input = rig._animated;
  for (let j = 0; j < joints.length; j++) {
    const w = 4 * j;
    const o = joints[j], k = 10 * j;
    if (!changed[j]) {
      // Unchanged, but the bone still shows the last output: the animated pose goes back.
      if (rig._stale[j]) o.quaternion.set(input[k + 3], input[k + 4], input[k + 5], input[k + 6]);
      if (rig._stale[j] && rig._wroteTranslation[j]) o.position.set(input[k], input[k + 1], input[k + 2]);
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
  }
}
