// The ground under a grounding constraint's feet (docs/rig/grounding.md,
// "three.js"): the `ground` option read once, and each frame one query per
// foot from the rig's probes (the animated sole and hip, world space) into
// the rig's ground hits, with the point of the step where the foot crossed a
// ground edge (extra queries between its last probe and this one, only where the
// two hits' planes disagree at both ends). Meshes are raycast with one reusable Raycaster and
// `firstHitOnly` (what three-mesh-bvh's accelerated raycast reads; ikpd does
// not import it); a function is called with the sole point; a Plane is
// intersected; without a ground the feet stand on the flat ground the
// animation was authored on. Nothing here allocates per frame (three.js's
// own raycast makes one object per hit).
import { Matrix3, Plane, Quaternion, Raycaster, Vector3 } from 'three';
import { describe, sharedProperty } from '../readers.js';
import { warnOnce } from '../../src/dev.js';
import { groundHit as HIT, groundProbe as PROBE, localTransform as LOCAL } from '../../src/rig/records.js';

// Per leg, what the edge search remembers of the last query: the sole xyz, the hit's point xyz and normal xyz, hit.
export const GROUND_MEMORY = 10;
// Bisection steps of the edge search: the edge's place within 1/512 of the step.
const EDGE_STEPS = 8;

const _origin = /* @__PURE__ */ new Vector3();
const _down = /* @__PURE__ */ new Vector3();
const _sole = /* @__PURE__ */ new Vector3();
const _hip = /* @__PURE__ */ new Vector3();
const _point = /* @__PURE__ */ new Vector3();
const _normal = /* @__PURE__ */ new Vector3();
const _q = /* @__PURE__ */ new Quaternion();
const _n3 = /* @__PURE__ */ new Matrix3();
const _from = /* @__PURE__ */ new Vector3();
const _to = /* @__PURE__ */ new Vector3();
const _above = /* @__PURE__ */ new Vector3();
const _oldPoint = /* @__PURE__ */ new Vector3();
const _oldNormal = /* @__PURE__ */ new Vector3();
const _newPoint = /* @__PURE__ */ new Vector3();
const _newNormal = /* @__PURE__ */ new Vector3();
// The ray's length, handed to the query functions through memory: a double passed as an argument
// to a function V8 does not inline is boxed (garbage every frame).
const _far = /* @__PURE__ */ new Float64Array(1);

/**
 * Gives a constraint that queries the ground (grounding, the avatar's steps)
 * its `ground` property, read again when set, and the frame's probe, hit and
 * query-memory arrays for `legs` legs (staged in JS: a ground function may grow
 * WASM memory).
 */
export function attachGroundQuery(constraint, options, legs) {
  const value = options.ground ?? null;
  constraint._ground = readGround(value);
  constraint._groundGiven = value;
  Object.defineProperty(constraint, 'ground', sharedProperty(PROPERTIES, 'ground', groundProperty));
  constraint._probes = new Float32Array(PROBE.floats * legs);
  constraint._hits = new Float32Array(HIT.floats * legs);
  // Each leg's last ground query, for the edge search between it and the next.
  constraint._groundMemory = new Float64Array(GROUND_MEMORY * legs);
}

// `ground` as given (null for none), checked and read again when set; its descriptor is made once
// and shared by every constraint (sharedProperty: one hidden class a kind).
const PROPERTIES = /* @__PURE__ */ new Map();
const groundProperty = () => ({
  enumerable: true,
  get() { return this._groundGiven; },
  set(v) { this._ground = readGround(v); this._groundGiven = v ?? null; },
});

/**
 * The `ground` option, checked: undefined/null (the authored ground), a
 * THREE.Plane (world), an Object3D or an array of them (raycast, with their
 * descendants), or a function `(x, y, z) → { height, normal? } | null`.
 * Returns what `queryGround` takes.
 */
export function readGround(value, name = 'ground') {
  // `reach` (a leg's world length, the ray's margin) is written every frame; 0.5 makes it a double field.
  if (value === undefined || value === null) return { source: 'authored', value: null, reach: 0.5 };
  if (typeof value === 'function') return { source: 'function', value, reach: 0.5 };
  if (value.isPlane) {
    if (!Number.isFinite(value.constant) || !(value.normal.lengthSq() > 1e-12)) throw new RangeError(`${name}: the Plane needs a finite constant and a non-zero normal`);
    return { source: 'plane', value, reach: 0.5 };
  }
  const list = Array.isArray(value) ? value : [value];
  list.forEach((o, i) => {
    if (!o?.isObject3D) throw new TypeError(`${Array.isArray(value) ? `${name}[${i}]` : name}: expected an Object3D (a mesh to raycast), an array of them, a function (x, y, z) → { height, normal } | null or a THREE.Plane, got ${describe(o)}`);
  });
  return { source: 'meshes', value: list, raycaster: null, hits: [], reach: 0.5 };
}

/**
 * Fills `legs` ground hits for one constraint: for leg i, its probe at
 * `probes[probeOffset + PROBE.floats·i]` and its hit at
 * `grounds[groundOffset + HIT.floats·i]` (the records of
 * web/src/rig/records.js; the plant flag is left to the caller). `up` is the world up
 * (unit), `ground.reach` the ray's margin (a leg's world length), `authored`
 * the authored ground plane in world space (for the default ground).
 * With `memory` (Float64Array(GROUND_MEMORY × legs), zeros at first) each
 * leg's last query is kept there and the hit's `edge` says where
 * between the last probe and this one the foot crossed a ground edge (−1: none).
 */
export function queryGround(ground, probes, probeOffset, grounds, groundOffset, legs, up, authored, memory = null) {
  for (let i = 0; i < legs; i++) {
    const p = probeOffset + PROBE.floats * i, g = groundOffset + HIT.floats * i;
    const sole = p + PROBE.sole, hip = p + PROBE.hip;
    _sole.set(probes[sole], probes[sole + 1], probes[sole + 2]);
    _hip.set(probes[hip], probes[hip + 1], probes[hip + 2]);
    _above.copy(_hip);
    const hit = queryAt(ground, up, authored);
    grounds[g + HIT.hit] = hit ? 1 : 0;
    grounds[g + HIT.edge] = -1;
    if (hit) {
      const point = g + HIT.point, normal = g + HIT.normal;
      grounds[point] = _point.x; grounds[point + 1] = _point.y; grounds[point + 2] = _point.z;
      grounds[normal] = _normal.x; grounds[normal + 1] = _normal.y; grounds[normal + 2] = _normal.z;
    }
    if (memory === null) continue;
    const m = GROUND_MEMORY * i;
    _to.set(probes[sole], probes[sole + 1], probes[sole + 2]);
    if (hit && memory[m + 9] !== 0) {
      // How far the new hit's plane lies above the last one along up at the last sole (a) and
      // at this one (b), in plain arithmetic (a double returned by a call that V8 does not
      // inline is garbage): the same sign at both ends is an edge crossed between them.
      const nu0 = memory[m + 6] * up.x + memory[m + 7] * up.y + memory[m + 8] * up.z;
      const nu1 = _normal.x * up.x + _normal.y * up.y + _normal.z * up.z;
      const d0 = (memory[m + 6] * memory[m + 3] + memory[m + 7] * memory[m + 4] + memory[m + 8] * memory[m + 5]) / nu0;
      const d1 = (_normal.x * _point.x + _normal.y * _point.y + _normal.z * _point.z) / nu1;
      const at0 = (memory[m + 6] * memory[m] + memory[m + 7] * memory[m + 1] + memory[m + 8] * memory[m + 2]);
      const at1 = (memory[m + 6] * _to.x + memory[m + 7] * _to.y + memory[m + 8] * _to.z);
      const a = d1 - (_normal.x * memory[m] + _normal.y * memory[m + 1] + _normal.z * memory[m + 2]) / nu1 - d0 + at0 / nu0;
      const b = d1 - (_normal.x * _to.x + _normal.y * _to.y + _normal.z * _to.z) / nu1 - d0 + at1 / nu0;
      const tolerance = 1e-3 * ground.reach;
      if (Math.abs(nu0) >= 0.1 && Math.abs(nu1) >= 0.1 && a * b > 0 && Math.abs(a) > tolerance && Math.abs(b) > tolerance) {
        _newPoint.copy(_point); _newNormal.copy(_normal);
        _from.set(memory[m], memory[m + 1], memory[m + 2]);
        _oldPoint.set(memory[m + 3], memory[m + 4], memory[m + 5]);
        _oldNormal.set(memory[m + 6], memory[m + 7], memory[m + 8]);
        edgeAlong(ground, up, authored, grounds, g + HIT.edge);
        _point.copy(_newPoint); _normal.copy(_newNormal);
      }
    }
    memory[m] = _to.x; memory[m + 1] = _to.y; memory[m + 2] = _to.z;
    memory[m + 3] = _point.x; memory[m + 4] = _point.y; memory[m + 5] = _point.z;
    memory[m + 6] = _normal.x; memory[m + 7] = _normal.y; memory[m + 8] = _normal.z;
    memory[m + 9] = hit ? 1 : 0;
  }
}

// The ground under _sole, the ray cast from a leg above the higher of _sole and _above (the
// hip) to a leg below the sole: the hit in _point and _normal. Changes _above.
function queryAt(ground, up, authored) {
  const reach = ground.reach;
  const above = Math.max(0, _above.sub(_sole).dot(up)) + reach;
  _origin.copy(_sole).addScaledVector(up, above);
  _down.copy(up).negate();
  _far[0] = above + reach;
  switch (ground.source) {
    case 'meshes': return raycast(ground);
    case 'function': return callGround(ground.value, up);
    case 'plane': return planeHit(ground.value, up);
    default: return planeHit(authored, up);
  }
}

// The edge search's numbers, in memory: a double returned by a function V8 does not inline is
// boxed (garbage every frame).
const _heights = /* @__PURE__ */ new Float64Array(2);

// Into _heights[k]: the height along `up` from x to the plane through `point` with `normal` (NaN for a wall).
function planeAbove(point, normal, x, up, k) {
  const nu = normal.dot(up);
  _heights[k] = Math.abs(nu) < 0.1 ? NaN : (normal.x * (point.x - x.x) + normal.y * (point.y - x.y) + normal.z * (point.z - x.z)) / nu;
}

// Where along the way from the last sole (_from) to this one (_to) the ground changed from the
// last hit's plane (_old…) to this one's (_new…), whose planes disagree at both ends with the
// same sign (queryGround checks: a bend or a curve, whose planes meet on the way, has no
// edge): found by bisection, each query counted on the side of the plane it is nearer
// (docs/rig/grounding.md, "Smoothing"). Writes it to out[at].
function edgeAlong(ground, up, authored, out, at) {
  let low = 0, high = 1;
  for (let k = 0; k < EDGE_STEPS; k++) {
    const s = 0.5 * (low + high);
    _sole.lerpVectors(_from, _to, s);
    _above.copy(_hip); // the ray from above this leg's hip, as the probe's
    if (!queryAt(ground, up, authored)) { high = s; continue; } // no ground there: past the edge
    const here = _point.dot(up) - _sole.dot(up);
    planeAbove(_oldPoint, _oldNormal, _sole, up, 0);
    planeAbove(_newPoint, _newNormal, _sole, up, 1);
    if (Math.abs(here - _heights[0]) <= Math.abs(here - _heights[1])) low = s; else high = s;
  }
  out[at] = 0.5 * (low + high);
}

// The first hit of the ray on the meshes, in _point and _normal (world, facing up).
function raycast(ground) {
  const raycaster = ground.raycaster ??= new Raycaster();
  raycaster.ray.origin.copy(_origin);
  raycaster.ray.direction.copy(_down);
  raycaster.near = 0;
  raycaster.far = _far[0];
  raycaster.firstHitOnly = true; // three-mesh-bvh: stop at the first hit
  const hits = ground.hits;
  hits.length = 0;
  raycaster.intersectObjects(ground.value, true, hits);
  const first = hits[0];
  hits.length = 0;
  if (!first) return false;
  _point.copy(first.point);
  if (first.face && first.object) {
    _normal.copy(first.face.normal).applyMatrix3(_n3.getNormalMatrix(first.object.matrixWorld)).normalize();
  } else {
    _normal.copy(_down).negate();
  }
  if (_normal.dot(_down) > 0) _normal.negate(); // a back face hit: the ground faces up
  return true;
}

// The ray's hit on a plane, in plain arithmetic (three's Ray.intersectPlane returns a boxed double).
function planeHit(plane, up) {
  const n = plane.normal;
  const length = Math.sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
  const along = (n.x * _down.x + n.y * _down.y + n.z * _down.z) / length;
  if (Math.abs(along) < 1e-9) return false; // the ray runs along the plane
  const t = -((n.x * _origin.x + n.y * _origin.y + n.z * _origin.z) / length + plane.constant / length) / along;
  if (!(t >= 0 && t <= _far[0])) return false;
  _point.set(_origin.x + t * _down.x, _origin.y + t * _down.y, _origin.z + t * _down.z);
  _normal.set(n.x / length, n.y / length, n.z / length);
  if (_normal.x * up.x + _normal.y * up.y + _normal.z * up.z < 0) _normal.negate();
  return true;
}

// The user's function at the sole: its height along `up` above the sole's
// foot on the world origin's level, and its normal (default: up).
function callGround(fn, up) {
  let r;
  try {
    r = fn(_sole.x, _sole.y, _sole.z);
  } catch (error) {
    return badGround(`threw ${error?.message ?? error}`);
  }
  if (r === null) return false; // no ground here (a hole): the foot keeps its animated pose
  if (r === undefined || typeof r !== 'object') return badGround(`returned ${describe(r)}, not { height, normal } or null`);
  const height = r.height;
  if (typeof height !== 'number' || !Number.isFinite(height)) return badGround(`returned height ${describe(height)}`);
  _point.copy(_sole).addScaledVector(up, height - _sole.dot(up));
  // The core takes 32-bit floats: a height past their range is no ground, like NaN.
  if (!Number.isFinite(Math.fround(_point.x)) || !Number.isFinite(Math.fround(_point.y)) || !Number.isFinite(Math.fround(_point.z))) {
    return badGround(`returned height ${height}, out of the 32-bit float range`);
  }
  const n = r.normal;
  if (n === undefined || n === null) {
    _normal.copy(up);
  } else {
    // Each component read (Vector3.set would keep a missing z from the previous call).
    const list = Array.isArray(n) || ArrayBuffer.isView(n);
    const x = list ? n[0] : n.x, y = list ? n[1] : n.y, z = list ? n[2] : n.z;
    if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') return badGround(`returned normal ${describe(n)}, not 3 numbers`);
    _normal.x = x; _normal.y = y; _normal.z = z;
    if (!Number.isFinite(Math.fround(x)) || !Number.isFinite(Math.fround(y)) || !Number.isFinite(Math.fround(z))) return badGround(`returned normal ${describe(n)}`);
    if (_normal.lengthSq() < 1e-12) _normal.copy(up);
    else _normal.normalize();
    if (_normal.dot(up) < 0) _normal.negate();
  }
  return true;
}

function badGround(what) {
  warnOnce('IKRig ground function', `ikpd: IKRig grounding: the ground function ${what}; that foot counts as over no ground (it keeps its animated pose). Shown once, in development builds only.`);
  return false;
}

/**
 * The authored ground (the plane y = `height` along the rig's up in the
 * root's frame) in world space, from the root's local transform record and the up axis in
 * the root's frame; into `out` (a Plane), reusing no garbage.
 */
export function authoredPlane(root, upInRoot, height, out) {
  const t = LOCAL.translation, r = LOCAL.rotation, s = LOCAL.scale;
  _q.set(root[r], root[r + 1], root[r + 2], root[r + 3]);
  const n = out.normal.copy(upInRoot).applyQuaternion(_q).normalize();
  // A point on it: the root's origin moved `height` along its (scaled) up.
  _point.copy(upInRoot).multiply(_origin.set(root[s], root[s + 1], root[s + 2])).applyQuaternion(_q).multiplyScalar(height);
  out.constant = -(n.x * (_point.x + root[t]) + n.y * (_point.y + root[t + 1]) + n.z * (_point.z + root[t + 2]));
  return out;
}

/**
 * One frame's ground for every grounding constraint of `rig` (the rig's
 * internal interface, web/three/rig/ikRig.js): probes the
 * animated pose (the locals and root already in the core's views), queries
 * the ground under each foot and fills the core's hits. Returns the views
 * (fetched again when WASM memory grew).
 */
export function groundFrame(rig, grounding, v, upInRoot) {
  // An avatar without a ground lands on the root's plane: no hit, and no probe when none needs one.
  let probed = false;
  for (let i = 0; i < grounding.length; i++) {
    const c = grounding[i];
    if (c._kind.groundOptional !== true || c._ground.source !== 'authored') probed = true;
  }
  if (!probed) {
    for (let i = 0; i < grounding.length; i++) {
      const c = grounding[i];
      if (c._grounded !== true) continue;
      c._hits.fill(0);
      v.grounds.set(c._hits, c._core.groundOffset);
      c._grounded = false;
    }
    return v;
  }
  rig.probe();
  if (v.input.length === 0) v = rig.views();
  const root = v.root, up = rig.up;
  const scale = Math.abs(root[LOCAL.scale]);
  // Probes and the authored planes read before any query: a ground function may grow WASM
  // memory (detaching the views), so the hits are staged and written after every query.
  for (let i = 0; i < grounding.length; i++) {
    const c = grounding[i], h = c._core;
    for (let k = 0; k < c._probes.length; k++) c._probes[k] = v.probes[h.probeOffset + k];
    if (c._ground.source === 'authored') authoredPlane(root, upInRoot, c._settings.groundHeight ?? 0, c._plane);
  }
  for (let i = 0; i < grounding.length; i++) {
    const c = grounding[i];
    const ground = c._ground;
    if (c._kind.groundOptional === true) {
      c._grounded = ground.source !== 'authored';
      if (!c._grounded) { c._hits.fill(0); continue; }  // the avatar's feet on the root's plane
    }
    ground.reach = c._legLength * scale; // a double field: written in place
    queryGround(ground, c._probes, 0, c._hits, 0, c._core.legCount, up, c._plane, c._groundMemory);
    const plant = c._plant; // grounding's (web/three/rig/kinds/grounding.js); the avatar has none
    if (plant !== undefined) for (let leg = 0; leg < plant.length; leg++) c._hits[HIT.floats * leg + HIT.plant] = plant[leg];
  }
  if (v.input.length === 0) v = rig.views();
  for (let i = 0; i < grounding.length; i++) v.grounds.set(grounding[i]._hits, grounding[i]._core.groundOffset);
  return v;
}
