// The grounding scene's course: a loop (two straights joined by half circles)
// over a 20° ramp up to a platform, stairs down, a 15 cm step, a sideways
// slope and a field of bumps. `heightAt` is the exact height of the meshes'
// top faces (the bumps: of the smooth surface their grid samples); the
// meshes are what the grounding raycasts.
import * as THREE from 'three/webgpu';
import { mergeGeometries } from 'three/addons/utils/BufferGeometryUtils.js';

const RAMP = Math.tan(THREE.MathUtils.degToRad(20));
const STEP = 0.15;
const ROLL = Math.tan(THREE.MathUtils.degToRad(12));

/** The loop: straights at z = ±RADIUS from x = −HALF to HALF, half circles at the ends. */
export const LOOP = Object.freeze({ half: 6, radius: 2.5 });

// Features as boxes [x0, x1] × [z0, z1] with a top height function of (x, z).
const platform = 0.6;
const rampStart = -5, rampEnd = rampStart + platform / RAMP; // 20° up to the platform
const stairsStart = -1.2, tread = 0.32, steps = Math.round(platform / STEP);
const FEATURES = [
  { name: 'ramp', x: [rampStart, rampEnd], z: [1.5, 3.5], top: (x) => (x - rampStart) * RAMP },
  { name: 'platform', x: [rampEnd, stairsStart], z: [1.5, 3.5], top: () => platform },
  // Stairs down: treads at 0.45, 0.30 and 0.15, then the floor.
  ...Array.from({ length: steps - 1 }, (_, i) => ({
    name: `stair ${i + 1}`, x: [stairsStart + i * tread, stairsStart + (i + 1) * tread], z: [1.5, 3.5], top: () => platform - (i + 1) * STEP,
  })),
  { name: 'step', x: [2.2, 4.2], z: [1.5, 3.5], top: () => STEP },
  { name: 'side slope', x: [2, 5], z: [-3.5, -1.5], top: (x, z) => (z + 3.5) * ROLL },
  { name: 'bumps', x: [-5, 1], z: [-3.5, -1.5], top: (x, z) => bump(x, z) },
];

function bump(x, z) {
  const u = (x + 5) / 6, v = (z + 3.5) / 2; // 0..1 over the patch
  const edge = Math.sin(Math.PI * u) * Math.sin(Math.PI * v); // 0 at the patch's border
  return edge * (0.07 + 0.05 * Math.sin(5.1 * x + 1.3) * Math.cos(3.7 * z));
}

/** The ground height at (x, z): the highest feature there, else 0. */
export function heightAt(x, z) {
  let h = 0;
  for (const f of FEATURES) {
    if (x >= f.x[0] && x < f.x[1] && z >= f.z[0] && z < f.z[1]) h = Math.max(h, f.top(x, z));
  }
  return h;
}

/** The point of the loop at arc length `s` (metres, wrapping) and its heading (radians about +Y; 0 faces +Z). */
export function loopAt(s, out = { x: 0, z: 0, heading: 0 }) {
  const { half, radius } = LOOP;
  const straight = 2 * half, arc = Math.PI * radius, total = 2 * (straight + arc);
  let t = ((s % total) + total) % total;
  if (t < straight) return Object.assign(out, { x: -half + t, z: radius, heading: Math.PI / 2 });
  t -= straight;
  if (t < arc) {
    const a = t / radius; // around the +x end, clockwise seen from above
    return Object.assign(out, { x: half + radius * Math.sin(a), z: radius * Math.cos(a), heading: Math.PI / 2 + a });
  }
  t -= arc;
  if (t < straight) return Object.assign(out, { x: half - t, z: -radius, heading: -Math.PI / 2 });
  const a = (t - straight) / radius;
  return Object.assign(out, { x: -half - radius * Math.sin(a), z: -radius * Math.cos(a), heading: -Math.PI / 2 + a });
}

/** The loop's length in metres. */
export const loopLength = () => 2 * (2 * LOOP.half + Math.PI * LOOP.radius);

// A feature's solid: its top sampled on a grid (exact for planar tops), its sides down to y = 0.
function featureGeometry(f) {
  const [x0, x1] = f.x, [z0, z1] = f.z;
  const nx = f.name === 'bumps' ? 96 : 1, nz = f.name === 'bumps' ? 32 : 1;
  const top = new THREE.PlaneGeometry(x1 - x0, z1 - z0, nx, nz).rotateX(-Math.PI / 2).translate((x0 + x1) / 2, 0, (z0 + z1) / 2);
  const p = top.attributes.position;
  for (let i = 0; i < p.count; i++) p.setY(i, f.top(Math.min(Math.max(p.getX(i), x0), x1), p.getZ(i)));
  top.computeVertexNormals();
  const parts = [top];
  // Sides: one quad per edge from the top down to the floor.
  const side = (ax, az, bx, bz) => {
    const ha = f.top(ax, az), hb = f.top(bx, bz);
    if (ha <= 1e-6 && hb <= 1e-6) return;
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute([ax, 0, az, bx, 0, bz, bx, hb, bz, ax, 0, az, bx, hb, bz, ax, ha, az], 3));
    g.computeVertexNormals();
    g.setAttribute('uv', new THREE.Float32BufferAttribute(new Array(12).fill(0), 2));
    parts.push(g);
  };
  side(x0, z0, x1, z0); side(x1, z1, x0, z1); side(x1, z0, x1, z1); side(x0, z1, x0, z0);
  return mergeGeometries(parts.map((g) => g.index ? g.toNonIndexed() : g));
}

/**
 * The course's meshes: `floor` (a flat square) and `solids` (one merged mesh
 * of every feature). `meshes` is both, the `ground` the grounding raycasts.
 */
export function createCourse({ size = 30, material } = {}) {
  const floor = new THREE.Mesh(
    new THREE.PlaneGeometry(size, size).rotateX(-Math.PI / 2),
    new THREE.MeshStandardMaterial({ color: 0x2a2d34, roughness: 0.95 }),
  );
  floor.name = 'floor';
  floor.receiveShadow = true;
  const solids = new THREE.Mesh(
    mergeGeometries(FEATURES.map(featureGeometry)),
    material ?? new THREE.MeshStandardMaterial({ color: 0x55606e, roughness: 0.85, flatShading: true }),
  );
  solids.name = 'course';
  solids.castShadow = true;
  solids.receiveShadow = true;
  return { floor, solids, meshes: [floor, solids], features: FEATURES.map((f) => f.name) };
}
