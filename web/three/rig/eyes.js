// The eye bones of a look-at constraint (docs/rig/look-at.md, "Eyes"): given as
// bones, names or humanoid roles, or found from the humanoid ('auto').
import { describe, isDescendant } from '../readers.js';

/**
 * The eye bones of a look-at constraint whose head is `head`, on `rig` (an
 * IKRig's internal interface, web/three/rig/ikRig.js): `options.eyes`
 * resolved, each checked to hang below the head; 'auto' (the default): the
 * humanoid's leftEye and rightEye that hang below the head (none on a rig
 * without them), as three-vrm's VRM lookAt turns them.
 */
export function resolveEyes(rig, options, head) {
  const given = options.eyes ?? 'auto';
  if (given === 'auto') {
    return ['leftEye', 'rightEye'].map((role) => rig.humanoid.get(role)).filter((eye) => eye && isDescendant(eye, head));
  }
  if (!Array.isArray(given)) {
    throw new TypeError(`eyes: expected [leftEye, rightEye] (bones, bone names or humanoid roles), 'auto' or [], got ${describe(given)}`);
  }
  if (given.length > 2) throw new RangeError(`eyes: expected 0, 1 or 2 eye bones (left, right), got ${given.length}`);
  return checkEyes(given.map((value, i) => rig.resolveBone(value, `eyes[${i}]`)).filter(Boolean), head);
}

/** Throws unless `eyes` are 0, 1 or 2 distinct Object3Ds below `head`; returns them. */
export function checkEyes(eyes, head) {
  if (eyes.length > 2) throw new RangeError(`eyes: expected 0, 1 or 2 eye bones (left, right), got ${eyes.length}`);
  eyes.forEach((eye, i) => {
    if (!eye?.isObject3D) throw new TypeError(`eyes[${i}]: expected an Object3D, got ${describe(eye)}`);
    if (!isDescendant(eye, head)) {
      throw new RangeError(`eyes[${i}]: ${eye.name ? `'${eye.name}'` : 'this bone'} does not hang below the head ${head.name ? `'${head.name}'` : '(the last bone)'}`);
    }
  });
  if (eyes.length === 2 && eyes[0] === eyes[1]) throw new RangeError('eyes[1]: the same bone as eyes[0]');
  return eyes;
}
