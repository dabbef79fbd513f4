// What several of IKRig's constraint kinds share (docs/rig/rig.md): their
// bones as a list ([root, ..., end]; bones, names or humanoid roles) and the
// core's joint options of a list and of the eyes.

/**
 * The kind's bone list from `options.bones` (or, on a humanoid rig, the
 * kind's `humanoid` roles), resolved on `rig` (the rig's internal interface,
 * web/three/rig/ikRig.js) and checked to be `min` to `max` bones in one line
 * of descent.
 */
export function resolveBoneList(rig, name, kind, options) {
  const { min, max, shape } = kind.bones;
  const given = options.bones ?? (rig.humanoid.size > 0 ? kind.humanoid : undefined);
  if (given === undefined) throw missingBones(rig, name, shape);
  return rig.resolveList(given, 'bones', min, max, shape);
}

/** The TypeError for a constraint given no bones on a rig whose humanoid cannot supply them. */
export function missingBones(rig, name, shape) {
  return new TypeError(`bones: a '${name}' constraint needs bones: ${shape} (bones, names or humanoid roles)` +
    (rig.humanoid.size === 0 ? `; ${rig.humanoid.reason}: pass bones, or humanoid: a role table` : ''));
}

/** The core's joints of a constraint over a bone list (`ix`: bone → joint index). */
export const listJoints = (c, ix) => ({ joints: c.bones.map(ix) });
