// How a three.js hierarchy becomes a rig's skeleton (docs/rig/rig.md): which
// objects a rig may use, the chain between a helper's bones, and reading an
// object's local transform as the core rig takes it (10 floats).
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
  return [...bones.spine, ...bones.arms.flat(), ...bones.legs.flat()];
}

export function localsOf(object, out) {
  const p = object.position, q = object.quaternion, s = object.scale;
  out[0] = p.x; out[1] = p.y; out[2] = p.z;
  out[3] = q.x; out[4] = q.y; out[5] = q.z; out[6] = q.w;
  out[7] = s.x; out[8] = s.y; out[9] = s.z;
  return out;
}
