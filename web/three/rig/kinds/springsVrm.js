// IKRig's springs from a three-vrm VRM (docs/rig/springs.md, "From a VRM"):
// `add('springs', { vrm })` takes a `VRM` (or its `springBoneManager`, a
// `VRMSpringBoneManager`) and turns its joints, centers, colliders and
// collider groups into the springs constraint's options: each run of joints
// where one's bone is the last one's child is a chain; each joint's settings
// its jointSettings; its colliders (offsets in the collider node's frame) the
// constraint's colliders, and the collider groups each chain sees its
// chainColliders. The manager's own update is then taken over: it does
// nothing on that manager (so `vrm.update(dt)` runs everything but the
// springs) and the joints' bones get `matrixAutoUpdate` back.
import { describe } from '../../readers.js';

const SHAPE_KEYS = Object.freeze({ sphere: 'sphere', capsule: 'capsule', plane: 'plane' });
const noUpdate = () => {};

/** The VRMSpringBoneManager of `vrm` (a VRM or a manager), or a TypeError naming it. */
function managerOf(vrm) {
  const manager = vrm?.springBoneManager ?? vrm;
  if (manager === null || typeof manager !== 'object' || !(manager.joints instanceof Set)) {
    throw new TypeError(`vrm: expected a three-vrm VRM with a springBoneManager, or a VRMSpringBoneManager, got ${describe(vrm)}`);
  }
  return manager;
}

// A collider as the constraint takes it: its node, its shape's fields in the node's frame.
function colliderOf(collider, name) {
  const shape = collider?.shape;
  const type = SHAPE_KEYS[shape?.type];
  if (type === undefined) throw new TypeError(`${name}.shape: expected a sphere, capsule or plane VRMSpringBoneColliderShape, got ${describe(shape?.type ?? shape)}`);
  const joint = collider.parent;
  if (joint === null) throw new RangeError(`${name}: the collider is attached to no node`);
  // The collider object's own place under its node (identity as three-vrm's loader adds it).
  const local = (v) => v.clone().applyQuaternion(collider.quaternion).add(collider.position).toArray();
  const out = { joint, shape: shape.inside ? (type === 'sphere' ? 'insideSphere' : 'insideCapsule') : type, offset: local(shape.offset) };
  if (type === 'capsule') out.tail = local(shape.tail);
  if (type === 'plane') out.normal = shape.normal.clone().applyQuaternion(collider.quaternion).toArray();
  else out.radius = shape.radius;
  return out;
}

/**
 * The springs options `vrm` stands for (its manager's joints, colliders and
 * groups), merged with the other options given, and what to do once the
 * constraint is added (take the manager's update over); `vrm` with `chains`,
 * `center`, `colliders`, `jointSettings` or `chainColliders` is an error.
 */
export function expandVrm(options) {
  if (options.vrm === undefined) return { options, added: null };
  for (const key of ['chains', 'center', 'colliders', 'jointSettings', 'chainColliders', 'tipLength']) {
    if (options[key] !== undefined) throw new TypeError(`${key}: not with vrm (the VRM's spring bones give it)`);
  }
  const manager = managerOf(options.vrm);
  const joints = [...manager.joints];
  if (joints.length === 0) throw new RangeError('vrm: its springBoneManager has no joints');
  // Chains: a joint continues the one whose child is its bone.
  const byBone = new Map(joints.map((j) => [j.bone, j]));
  const continued = new Set(joints.filter((j) => j.child !== null && byBone.has(j.child)).map((j) => byBone.get(j.child)));
  const chains = [], settings = [], groups = [], centers = [];
  let childless = 0;
  for (const first of joints) {
    if (continued.has(first)) continue;
    const run = [];
    for (let j = first; j !== undefined && !run.includes(j); j = j.child === null ? undefined : byBone.get(j.child)) run.push(j);
    const last = run[run.length - 1];
    const bones = run.map((j) => j.bone);
    const jointSettings = run.map((j) => ({ ...j.settings, gravityDir: j.settings.gravityDir.toArray() }));
    if (last.child === null) childless++;
    else bones.push(last.child), jointSettings.push(jointSettings[jointSettings.length - 1]); // the tail only (VRM 1.0)
    chains.push(bones);
    settings.push(...jointSettings);
    groups.push(new Set(run.flatMap((j) => j.colliderGroups)));
    centers.push(...run.map((j) => j.center ?? null));
  }
  if (childless !== 0 && childless !== chains.length) {
    throw new RangeError(`vrm: ${childless} of ${chains.length} chains end without a child (VRM 0.x's 7 cm tail): all or none must`);
  }
  const center = centers[0];
  if (centers.some((c) => c !== center)) throw new RangeError('vrm: its joints have different centers: one springs constraint takes one center');
  const colliderList = [...new Set(groups.flatMap((g) => [...g].flatMap((group) => group.colliders)))];
  const colliders = colliderList.map((c, i) => colliderOf(c, `vrm.colliders[${i}]`));
  const index = new Map(colliderList.map((c, i) => [c, i]));
  const chainColliders = groups.map((g) => [...new Set([...g].flatMap((group) => group.colliders.map((c) => index.get(c))))]);
  const { vrm: _, ...rest } = options;
  const out = { ...rest, chains, center, colliders, jointSettings: settings };
  if (childless !== 0) out.tipLength = 0.07;
  if (colliders.length > 0) out.chainColliders = chainColliders;
  return { options: out, added: () => takeOver(manager, joints.map((j) => j.bone)) };
}

// Takes the manager's update over (docs/rig/springs.md, "From a VRM"): it no
// longer moves the bones (`delete manager.update` gives it back), and the
// bones three-vrm had set to matrixAutoUpdate = false follow their rotations.
function takeOver(manager, bones) {
  manager.update = noUpdate;
  for (const bone of bones) bone.matrixAutoUpdate = true;
}
