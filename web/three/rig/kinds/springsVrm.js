// IKRig's springs from a three-vrm VRM (docs/rig/springs.md, "From a VRM"):
// `add('springs', { vrm })` takes a `VRM` (or its `springBoneManager`, a
// `VRMSpringBoneManager`) and turns its joints, centers, colliders and
// collider groups into the springs constraint's options: each run of joints
// where one's bone is the last one's child is a chain; each joint's settings
// its jointSettings; its colliders (offsets in the collider node's frame) the
// constraint's colliders, and the collider groups each chain sees its
// chainColliders; the chains of each center and each generation (branches
// below another chain's bones come after it) are one constraint of their own
// ("Several centers, branching chains"). The manager's own update is then taken over: it does
// nothing on that manager (so `vrm.update(dt)` runs everything but the
// springs) and the joints' bones get `matrixAutoUpdate` back.
import { describe, sharedProperty } from '../../readers.js';

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
 * groups), merged with the other options given: one option set per part
 * (`options`, then `more`), and what to do once they are added (take the
 * manager's update over); `vrm` with `chains`, `center`, `colliders`,
 * `jointSettings`, `chainColliders` or `tipLength` is an error. A part is the
 * chains of one center and one generation (docs/rig/springs.md, "Several
 * centers, branching chains"): a chain hanging below another chain's bone
 * (a branch, or a chain's joints below a change of center) goes in a later
 * part, so it starts from that bone's swung pose.
 */
export function expandVrm(options) {
  if (options.vrm === undefined) return { options, added: null };
  for (const key of ['chains', 'center', 'colliders', 'jointSettings', 'chainColliders', 'tipLength']) {
    if (options[key] !== undefined) throw new TypeError(`${key}: not with vrm (the VRM's spring bones give it)`);
  }
  const manager = managerOf(options.vrm);
  const joints = [...manager.joints];
  if (joints.length === 0) throw new RangeError('vrm: its springBoneManager has no joints');
  const { vrm: _, ...rest } = options;
  const parts = groupParts(chainsOf(joints)).map((chains) => partOptions(rest, chains));
  return { options: parts[0], more: parts.slice(1), added: () => takeOver(manager, joints) };
}

// The chains of `joints`: a joint continues the one whose child is its bone.
// Where several joints share a bone (VRM 1.0 springs with one first joint),
// three-vrm's update runs them in the manager's order and the last sets the
// bone's rotation (the others' tails move nothing): that one is kept, and the
// other springs' next joints start chains of their own below it.
function chainsOf(joints) {
  const byBone = new Map(joints.map((j) => [j.bone, j])); // the last joint on each bone
  const live = joints.filter((j) => byBone.get(j.bone) === j);
  const center = (j) => j.center ?? null;
  // The joint that continues j's chain: its child's, in the same center (else that one starts a branch).
  const next = (j) => {
    const n = j.child === null ? undefined : byBone.get(j.child);
    return n !== undefined && center(n) === center(j) ? n : undefined;
  };
  const continued = new Set(live.map(next).filter((n) => n !== undefined));
  const chains = [];
  for (const first of live) {
    if (continued.has(first)) continue;
    const run = [];
    for (let j = first; j !== undefined && !run.includes(j); j = next(j)) run.push(j);
    chains.push(run);
  }
  return chains;
}

// The chains split into parts, in stack order: by generation (a chain below a
// bone of another is a generation after it), then by center (first seen first).
function groupParts(chains) {
  const owner = new Map();
  chains.forEach((run, i) => run.forEach((j) => owner.set(j.bone, i)));
  const generation = new Array(chains.length).fill(-1);
  const generationOf = (i, seen) => {
    if (generation[i] >= 0) return generation[i];
    if (seen.has(i)) throw new RangeError('vrm: its spring chains hang below each other in a circle');
    seen.add(i);
    let g = 0;
    for (let o = chains[i][0].bone.parent; o; o = o.parent) {
      const k = owner.get(o);
      if (k !== undefined && k !== i) g = Math.max(g, generationOf(k, seen) + 1);
    }
    return (generation[i] = g);
  };
  const parts = new Map();
  chains.forEach((run, i) => {
    const key = generationOf(i, new Set());
    const center = run[0].center ?? null;
    const byCenter = parts.get(key) ?? new Map();
    parts.set(key, byCenter);
    if (!byCenter.has(center)) byCenter.set(center, []);
    byCenter.get(center).push(run);
  });
  return [...parts.keys()].sort((a, b) => a - b).flatMap((g) => [...parts.get(g).values()]);
}

// One part's options: its chains (a VRM 1.0 chain ends on its last joint's
// child, a VRM 0.x chain on a 7 cm virtual tail), center, per-joint settings,
// the colliders its chains' groups hold and which each chain meets.
function partOptions(rest, runs) {
  const chains = [], settings = [], groups = [];
  let childless = 0;
  for (const run of runs) {
    const last = run[run.length - 1];
    const bones = run.map((j) => j.bone);
    const jointSettings = run.map((j) => ({ ...j.settings, gravityDir: j.settings.gravityDir.toArray() }));
    if (last.child === null) childless++;
    else bones.push(last.child), jointSettings.push(jointSettings[jointSettings.length - 1]); // the tail only (VRM 1.0)
    chains.push(bones);
    settings.push(...jointSettings);
    groups.push(new Set(run.flatMap((j) => j.colliderGroups)));
  }
  if (childless !== 0 && childless !== chains.length) {
    throw new RangeError(`vrm: ${childless} of ${chains.length} chains end without a child (VRM 0.x's 7 cm tail): all or none must`);
  }
  const colliderList = [...new Set(groups.flatMap((g) => [...g].flatMap((group) => group.colliders)))];
  const colliders = colliderList.map((c, i) => colliderOf(c, `vrm.colliders[${i}]`));
  const index = new Map(colliderList.map((c, i) => [c, i]));
  const chainColliders = groups.map((g) => [...new Set([...g].flatMap((group) => group.colliders.map((c) => index.get(c))))]);
  const out = { ...rest, chains, center: runs[0][0].center ?? null, colliders, jointSettings: settings };
  if (childless !== 0) out.tipLength = 0.07;
  if (colliders.length > 0) out.chainColliders = chainColliders;
  return out;
}

// Takes the manager's update over (docs/rig/springs.md, "From a VRM"): it no
// longer moves the bones (`delete manager.update` gives it back), and the
// bones three-vrm had set to matrixAutoUpdate = false follow their rotations.
function takeOver(manager, joints) {
  manager.update = noUpdate;
  for (const joint of joints) joint.bone.matrixAutoUpdate = true;
  for (const joint of joints) releaseCenter(joint.center);
}

// The released caches' `_shouldUpdateInverse`: always stale (one shared descriptor, sharedProperty).
const PROPERTIES = /* @__PURE__ */ new Map();
const alwaysStale = () => ({ get: () => true, set: () => {}, configurable: true });

// three-vrm wraps each joint center's matrixWorld.elements in a Proxy (its
// inverse cache, marked stale on every write). Once three.js's shared matrix
// code has seen a Proxy there, its element stores box every float, for every
// matrix of the page: the rig's frame 2.5–2.8× as long (docs/rig/springs.md,
// "From a VRM"). With the update taken over only three-vrm's own update, if
// given back, reads the cache, so the plain array goes back and the cache
// computes its inverse on every read instead.
function releaseCenter(center) {
  const cache = center?.userData?.inverseCacheProxy;
  if (!cache || typeof cache.revert !== 'function' || !('_shouldUpdateInverse' in cache)) return;
  cache.revert();
  Object.defineProperty(cache, '_shouldUpdateInverse', sharedProperty(PROPERTIES, '_shouldUpdateInverse', alwaysStale));
}
