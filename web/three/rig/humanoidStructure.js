// Humanoid roles from the skeleton's shape in the rest pose, for bones whose
// names say nothing (docs/rig/rig.md, "Humanoid roles"): the hips are the
// joint two legs go down from to the ground, the spine rises from them to the
// head, the arms reach out sideways from it; the front is where the toes (else
// the knees) point, the character's left is up × front. Bone axes are never
// read: only the joints' world positions.
import { Vector3 } from 'three';

// Fractions of the skeleton's height H (lowest to highest joint).
const NEAR_GROUND = 0.1; // a leg ends this close to the lowest joint
const LEG_DROP = 0.3;    // and goes down at least this much
const ANKLE = 0.2;       // of the leg's height: the foot is below it
const ARM_REACH = 0.08;  // an arm's end reaches this far sideways from the spine
const ARM_ABOVE = 0.25;  // and stays this far above the ground (else it is a front leg)
const RISE = 0.7;        // the head is above the hips: the rise over their distance

/**
 * The humanoid roles of `objects` from their rest pose: world positions from
 * `positionOf(object, out)` (IKRig gives its rest pose's), else their world
 * transforms now; `up` the world up (unit). Returns `{ roles }` (a Map
 * role → Object3D) or `{ reason }`: a sentence naming what is missing.
 */
export function humanoidFromStructure(objects, up, positionOf = null) {
  const bones = objects.filter((o) => o.isBone);
  const joints = bones.length > 0 ? bones : objects;
  const set = new Set(joints);
  const kids = (o) => o.children.filter((c) => set.has(c));
  const pos = new Map();
  for (const o of joints) {
    if (positionOf) {
      pos.set(o, positionOf(o, new Vector3()));
      continue;
    }
    o.updateWorldMatrix(true, false);
    pos.set(o, new Vector3().setFromMatrixPosition(o.matrixWorld));
  }
  const h = (o) => pos.get(o).dot(up);
  let ground = Infinity, top = -Infinity;
  for (const o of joints) { ground = Math.min(ground, h(o)); top = Math.max(top, h(o)); }
  const H = top - ground;
  if (!(H > 0)) return { reason: 'no hips: the skeleton has no height along up' };
  const name = (o) => (o.name ? `'${o.name}'` : '(unnamed)');

  // The path down from `o` to its lowest leaf, and up to its highest.
  const pathBy = (o, better) => {
    const path = [o];
    for (let c = kids(o); c.length > 0; c = kids(path[path.length - 1])) path.push(c.reduce((a, b) => (better(b, a) ? b : a)));
    return path;
  };
  const low = new Map(), high = new Map();
  const lowest = (o) => low.get(o) ?? low.set(o, Math.min(h(o), ...kids(o).map(lowest))).get(o);
  const highest = (o) => high.get(o) ?? high.set(o, Math.max(h(o), ...kids(o).map(highest))).get(o);
  // A leg from its first joint: down to the ground; the foot is its first joint
  // low above the ground, then the lower and upper leg above it, the toes below.
  const leg = (o) => {
    const path = pathBy(o, (b, a) => lowest(b) < lowest(a));
    const end = path[path.length - 1];
    if (h(end) - ground > NEAR_GROUND * H || h(o) - h(end) < LEG_DROP * H) return null;
    const f = path.findIndex((j) => h(j) - ground < ANKLE * (h(o) - ground));
    if (f < 2) return null;
    return { upper: path[f - 2], lower: path[f - 1], foot: path[f], toes: path[f + 1] };
  };

  // Hips: the highest joint with two legs.
  const depth = (o) => { let d = 0; for (let p = o.parent; p; p = p.parent) d++; return d; };
  let hips = null, legs = null;
  for (const o of [...joints].sort((a, b) => depth(a) - depth(b))) {
    const found = kids(o).map(leg).filter(Boolean);
    if (found.length < 2) continue;
    found.sort((a, b) => h(a.foot) - h(b.foot));
    hips = o;
    legs = found.slice(0, 2);
    break;
  }
  if (!hips) return { reason: 'no hips: no joint has two legs going down to the ground (chains of upper leg, lower leg and foot ending near the lowest joint)' };

  // The front: where the toes point, else where the knees bend; across up.
  const flat = (v) => v.addScaledVector(up, -v.dot(up));
  const front = new Vector3();
  const legLength = h(legs[0].upper) - ground;
  if (legs.every((l) => l.toes)) for (const l of legs) front.add(flat(pos.get(l.toes).clone().sub(pos.get(l.foot))));
  if (front.length() < 0.02 * legLength) {
    front.set(0, 0, 0);
    for (const l of legs) front.add(flat(pos.get(l.lower).clone().multiplyScalar(2).sub(pos.get(l.upper)).sub(pos.get(l.foot))));
  }
  if (front.length() < 0.02 * legLength) {
    return { reason: `no front: the legs from the hips ${name(hips)} have no toes pointing forward and straight knees` };
  }
  const left = new Vector3().crossVectors(up, front.normalize());
  const side = (o, from) => pos.get(o).clone().sub(pos.get(from)).dot(left);
  legs.sort((a, b) => side(b.upper, hips) - side(a.upper, hips));
  if (side(legs[0].upper, hips) - side(legs[1].upper, hips) < 0.05 * legLength) {
    return { reason: `no left and right: the legs from the hips ${name(hips)} are not side by side` };
  }

  // The spine: from the hips up to the highest joint, which must be above them.
  // Legs hanging from a pelvis joint of their own: the hips are its parent.
  let starts = kids(hips).filter((c) => !leadsTo(c, legs));
  if (starts.length === 0 && set.has(hips.parent)) {
    hips = hips.parent;
    starts = kids(hips).filter((c) => !leadsTo(c, legs));
  }
  if (starts.length === 0) return { reason: `no spine: nothing but the legs hangs from the hips ${name(hips)}` };
  const spine = [hips, ...pathBy(starts.reduce((a, b) => (highest(b) > highest(a) ? b : a)), (b, a) => highest(b) > highest(a))];
  const tip = spine[spine.length - 1];
  const rise = h(tip) - h(hips);
  if (rise < LEG_DROP * H || rise < RISE * pos.get(tip).distanceTo(pos.get(hips))) {
    return { reason: `no spine: nothing rises from the hips ${name(hips)} to a head (their highest joint ${name(tip)} is more ahead of them than above)` };
  }

  // The arms: off the spine, reaching farthest to each side, above the ground.
  const onSpine = new Set(spine);
  const arms = { left: null, right: null };
  for (let i = 1; i < spine.length; i++) {
    for (const c of kids(spine[i])) {
      if (onSpine.has(c)) continue;
      const path = armPath(c, kids, (o) => pos.get(o).distanceTo(pos.get(spine[i])));
      const end = path[path.length - 1];
      const reach = side(end, spine[i]);
      if (path.length < 3 || Math.abs(reach) < ARM_REACH * H || h(end) - ground < ARM_ABOVE * H) continue;
      const key = reach > 0 ? 'left' : 'right';
      if (!arms[key] || Math.abs(reach) > arms[key].reach) arms[key] = { path, from: i, reach: Math.abs(reach) };
    }
  }
  for (const key of ['left', 'right']) {
    if (!arms[key]) return { reason: `no ${key} arm: no chain of 3 or more joints off the spine above the hips ${name(hips)} reaches out to the character's ${key}` };
  }
  const at = Math.max(arms.left.from, arms.right.from);
  const torso = spine.slice(1, at + 1);
  const above = spine.slice(at + 1);
  if (above.length === 0) return { reason: `no head: nothing above ${name(spine[at])}, where the arms hang` };

  const roles = new Map([['hips', hips], ['spine', torso[0]]]);
  if (torso.length >= 2) roles.set('chest', torso[Math.floor((torso.length - 1) / 2) || 1]);
  if (torso.length >= 3) roles.set('upperChest', torso[torso.length - 1]);
  if (above.length >= 2) roles.set('neck', above[0]);
  roles.set('head', above[Math.min(1, above.length - 1)]);
  for (const key of ['left', 'right']) {
    const p = arms[key].path;
    const [shoulder, upper, lower, hand] = p.length === 3 ? [null, ...p] : p.slice(0, 4);
    if (shoulder) roles.set(`${key}Shoulder`, shoulder);
    roles.set(`${key}UpperArm`, upper).set(`${key}LowerArm`, lower).set(`${key}Hand`, hand);
    const l = legs[key === 'left' ? 0 : 1];
    roles.set(`${key}UpperLeg`, l.upper).set(`${key}LowerLeg`, l.lower).set(`${key}Foot`, l.foot);
    if (l.toes) roles.set(`${key}Toes`, l.toes);
  }
  return { roles };
}

// Is `o` a leg's upper joint or above it?
function leadsTo(o, legs) {
  return legs.some((l) => { for (let p = l.upper; p; p = p.parent) if (p === o) return true; return false; });
}

// An arm from its first joint: toward the farthest joint, up to the hand (the
// first joint with two or more chains below it: fingers) or the end.
function armPath(first, kids, distance) {
  const far = new Map();
  const farthest = (o) => far.get(o) ?? far.set(o, Math.max(distance(o), ...kids(o).map(farthest))).get(o);
  const path = [first];
  for (let o = first; ;) {
    const children = kids(o);
    if (children.length === 0 || (path.length >= 3 && children.filter((c) => kids(c).length > 0).length >= 2)) return path;
    o = children.reduce((a, b) => (farthest(b) > farthest(a) ? b : a));
    path.push(o);
  }
}
