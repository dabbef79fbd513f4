// How a three.js hierarchy becomes a rig's skeleton (docs/rig/rig.md): which
// objects a rig may use, the chain between a helper's bones, and reading an
// object's local transform as the core rig takes it (10 floats).
import { Matrix4, Quaternion, Vector3 } from 'three';
import { checkDescent, describe } from '../readers.js';

/**
 * The objects a rig may use, from a SkinnedMesh (its skeleton's bones), a
 * Skeleton (its bones) or any Object3D (it and every descendant).
 */
export function candidatesOf(root) {
  if (Array.isArray(root)) return chainOf(root);
  if (root?.isSkinnedMesh) return root.skeleton.bones;
  if (Array.isArray(root?.bones) && Array.isArray(root.boneInverses)) return root.bones; // a Skeleton
  if (root?.isObject3D) {
    const objects = [];
    root.traverse((o) => objects.push(o));
    return objects;
  }
  throw new TypeError(`root: expected a SkinnedMesh, a Skeleton or an Object3D, got ${describe(root)}`);
}

// The bones of `bones` and every object between consecutive ones (twist
// bones), first to last: a rig over just one chain (the helpers' rigs).
export function chainOf(bones) {
  if (bones.length === 0) throw new TypeError('root: expected a non-empty array of bones');
  bones.forEach((bone, i) => {
    if (!bone?.isObject3D) throw new TypeError(`bones[${i}]: expected an Object3D, got ${describe(bone)}`);
  });
  checkDescent(bones);
  const out = [];
  bones.forEach((bone, i) => {
    const between = [];
    if (i > 0) for (let o = bone.parent; o !== bones[i - 1]; o = o.parent) between.push(o);
    out.push(...between.reverse(), bone);
  });
  return out;
}

export function flatBones(bones) {
  if (Array.isArray(bones)) return bones;
  if (bones.pelvis) return [bones.pelvis, ...(bones.chest ? [bones.chest] : []), ...bones.legs.flat()]; // grounding
  if (bones.chains) return [...bones.chains.flat(), ...(bones.center ? [bones.center] : []), ...bones.colliders.map((c) => c.joint)]; // springs
  return [...bones.spine, ...bones.arms.flat(), ...bones.legs.flat()];
}

export function localsOf(object, out) {
  const p = object.position, q = object.quaternion, s = object.scale;
  out[0] = p.x; out[1] = p.y; out[2] = p.z;
  out[3] = q.x; out[4] = q.y; out[5] = q.z; out[6] = q.w;
  out[7] = s.x; out[8] = s.y; out[9] = s.z;
  return out;
}

/**
 * The rest pose of `candidates` (object → 10 locals): a skinned character's
 * bind pose, read from its skeleton's inverse bind matrices, so that what a
 * rig derives from its rest pose (sole heights, axes, facing) does not depend
 * on the frame it was built in (docs/rig/rig.md, "Rest pose"); every other
 * object's locals as they are now. The bind pose is used only when it keeps
 * the bones' lengths within a factor of 2 (a skeleton made before its bones
 * were placed has no usable one).
 */
export function restLocals(root, candidates) {
  const rest = new Map();
  for (const object of candidates) rest.set(object, localsOf(object, new Float32Array(10)));
  const skeleton = root?.isSkinnedMesh ? root.skeleton : Array.isArray(root?.boneInverses) ? root : null;
  if (!skeleton || skeleton.boneInverses.length !== skeleton.bones.length || skeleton.bones.length === 0) return rest;
  const index = new Map(skeleton.bones.map((b, i) => [b, i]));
  const mesh = root.isSkinnedMesh ? root : meshOf(skeleton);
  // bind world now = meshWorld · bindMatrix⁻¹ · boneInverse⁻¹ (the character moved rigidly since binding).
  const moved = new Matrix4();
  if (mesh) {
    mesh.updateWorldMatrix(true, false);
    moved.copy(mesh.matrixWorld).multiply(new Matrix4().copy(mesh.bindMatrix).invert());
  }
  const local = new Matrix4(), t = new Vector3(), q = new Quaternion(), s = new Vector3();
  const bind = new Map();
  for (const bone of candidates) {
    const i = index.get(bone);
    if (i === undefined) continue;
    const p = index.get(bone.parent);
    if (p !== undefined) local.copy(skeleton.boneInverses[p]).multiply(new Matrix4().copy(skeleton.boneInverses[i]).invert());
    else {
      bone.parent?.updateWorldMatrix(true, false);
      local.copy(bone.parent ? bone.parent.matrixWorld : new Matrix4()).invert().multiply(moved).multiply(new Matrix4().copy(skeleton.boneInverses[i]).invert());
    }
    local.decompose(t, q, s);
    const locals = new Float32Array([t.x, t.y, t.z, q.x, q.y, q.z, q.w, s.x, s.y, s.z]);
    if (!locals.every(Number.isFinite)) return rest;
    // A bone below another keeps about its offset's length in any animation (clips that key
    // translations change it by a few per cent): else this is no bind pose.
    if (p !== undefined) {
      const now = bone.position.length(), then = t.length();
      if (Math.abs(now - then) > 0.5 * Math.max(now, then) + 1e-7) return rest;
    }
    bind.set(bone, locals);
  }
  for (const [bone, locals] of bind) rest.set(bone, locals);
  return rest;
}

// The SkinnedMesh bound to `skeleton`, searched from the top of its bones' scene.
function meshOf(skeleton) {
  let top = skeleton.bones[0];
  while (top.parent) top = top.parent;
  let found = null;
  top.traverse((o) => { if (!found && o.isSkinnedMesh && o.skeleton === skeleton) found = o; });
  return found;
}
