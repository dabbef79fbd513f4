// The ground queries of IKRig's grounding (web/three/rig/grounding.js): per leg,
// a ray from a leg above the hip down through the animated sole to a leg
// below it, against meshes (plain and accelerated by three-mesh-bvh, with
// firstHitOnly), a function, a Plane or the authored ground. Hits are exact
// on planes and slopes; a function that throws, returns NaN or nothing is no
// ground (one development warning); no hit beyond the ray's reach. Where a sole
// crossed a ground edge between two queries, the hit says where (bisection).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BoxGeometry, Group, Mesh, MeshBasicMaterial, Plane, PlaneGeometry, Vector3 } from 'three';
import { acceleratedRaycast, computeBoundsTree } from 'three-mesh-bvh';
import { GROUND_MEMORY, authoredPlane, queryGround, readGround } from '../../../web/three/rig/grounding.js';
import { groundHit } from '../../../web/src/rig/records.js';
import { rng } from '../../support/three-rig.js';

const UP = new Vector3(0, 1, 0);
afterEach(() => vi.restoreAllMocks());

// Probes (sole xyz, hip xyz) for two legs; the hits come back in 18 floats.
function query(ground, probes, { reach = 0.9, up = UP, authored = null } = {}) {
  const grounds = new Float32Array(2 * groundHit.floats).fill(NaN);
  const g = readGround(ground);
  g.reach = reach;
  queryGround(g, Float32Array.from(probes), 0, grounds, 0, 2, up, authored);
  return [0, 1].map((i) => {
    const g = grounds.subarray(groundHit.floats * i, groundHit.floats * (i + 1));
    return { hit: g[6], point: [g[0], g[1], g[2]], normal: [g[3], g[4], g[5]] };
  });
}

// A 20° slope rising along +x through the origin, 20 m square, and a 15 cm step.
function slope(degrees = 20) {
  const mesh = new Mesh(new PlaneGeometry(20, 20, 8, 8).rotateX(-Math.PI / 2).rotateZ((degrees * Math.PI) / 180), new MeshBasicMaterial());
  mesh.updateMatrixWorld(true);
  return mesh;
}

describe('meshes', () => {
  for (const accelerated of [false, true]) {
    it(`a 20° slope${accelerated ? ' (three-mesh-bvh)' : ''}: the hit is on the plane, with its normal, at any x`, () => {
      const mesh = slope();
      if (accelerated) {
        mesh.geometry.computeBoundsTree = computeBoundsTree;
        mesh.geometry.computeBoundsTree();
        mesh.raycast = acceleratedRaycast;
      }
      const t = Math.tan((20 * Math.PI) / 180);
      const random = rng(3);
      for (let k = 0; k < 200; k++) {
        const x = (random() - 0.5) * 6, z = (random() - 0.5) * 6;
        const [a, b] = query([mesh], [x, 0.08 + x * t, z, x, 0.9 + x * t, z, -x, 0.3 - x * t, z, -x, 1.2 - x * t, z]);
        expect(a.hit).toBe(1);
        expect(a.point[0]).toBeCloseTo(x, 5);
        expect(a.point[2]).toBeCloseTo(z, 5);
        expect(a.point[1]).toBeCloseTo(x * t, 4);
        expect(a.normal[0]).toBeCloseTo(-Math.sin((20 * Math.PI) / 180), 5);
        expect(a.normal[1]).toBeCloseTo(Math.cos((20 * Math.PI) / 180), 5);
        expect(b.point[1]).toBeCloseTo(-x * t, 4);
      }
    });
  }

  it('a step: each foot finds its own level; a scaled, turned mesh gives a world normal', () => {
    const step = new Mesh(new BoxGeometry(1, 0.15, 1).translate(0, 0.075, 0), new MeshBasicMaterial());
    const floor = new Mesh(new PlaneGeometry(10, 10).rotateX(-Math.PI / 2), new MeshBasicMaterial());
    const group = new Group();
    group.add(step, floor);
    group.updateMatrixWorld(true);
    const [on, off] = query(group, [0.2, 0.1, 0, 0.2, 0.9, 0, 1.2, 0.1, 0, 1.2, 0.9, 0]);
    expect(on.point[1]).toBeCloseTo(0.15, 6);
    expect(off.point[1]).toBeCloseTo(0, 6);
    expect(on.normal).toEqual([0, 1, 0].map((v) => expect.closeTo(v, 6)));
    // Non-uniform scale and a turn: the normal goes through the normal matrix.
    const tilted = slope(10);
    tilted.scale.set(2, 1, 1);
    tilted.updateMatrixWorld(true);
    const [a] = query([tilted], [1, 0.5, 0, 1, 1.3, 0, 0, 0, 0, 0, 1, 0]);
    const expected = Math.atan(Math.tan((10 * Math.PI) / 180) / 2);
    expect(Math.atan2(-a.normal[0], a.normal[1])).toBeCloseTo(expected, 5);
  });

  it('no hit beyond a leg below the sole, nor above a leg over the hip; a hole is no ground', () => {
    const floor = new Mesh(new PlaneGeometry(10, 10).rotateX(-Math.PI / 2), new MeshBasicMaterial());
    floor.position.y = -1;
    floor.updateMatrixWorld(true);
    const [far, near] = query([floor], [0, 0.2, 0, 0, 1, 0, 0, -0.5, 0, 0, 0.3, 0], { reach: 0.9 });
    expect(far.hit).toBe(0); // 1.2 below the sole, the ray stops at 0.9
    expect(near.hit).toBe(1);
    const [outside] = query([floor], [20, 0, 0, 20, 1, 0, 0, 0, 0, 0, 1, 0]);
    expect(outside.hit).toBe(0);
  });

  it('rejects what is not an Object3D, naming the option', () => {
    expect(() => readGround([slope(), {}])).toThrow(/ground\[1\]: expected an Object3D/);
    expect(() => readGround(42)).toThrow(/ground: expected an Object3D/);
    expect(() => readGround(new Plane(new Vector3(0, 0, 0), 1))).toThrow(/ground: the Plane needs/);
  });
});

describe('a function', () => {
  it('is called at the sole point; height and normal (Vector3, array or none) give the hit', () => {
    const calls = [];
    const fn = (x, y, z) => { calls.push([x, y, z]); return x > 0 ? { height: 0.3, normal: [1, 1, 0] } : { height: -0.2 }; };
    const [a, b] = query(fn, [0.5, 0.1, 0.2, 0.5, 0.9, 0.2, -0.5, 0.1, 0.2, -0.5, 0.9, 0.2]);
    expect(calls.map((c) => c.map((v) => Math.fround(v)))).toEqual([[0.5, 0.1, 0.2], [-0.5, 0.1, 0.2]].map((c) => c.map(Math.fround)));
    expect(a.point).toEqual([0.5, 0.3, 0.2].map((v) => expect.closeTo(v, 6)));
    expect(a.normal).toEqual([Math.SQRT1_2, Math.SQRT1_2, 0].map((v) => expect.closeTo(v, 6)));
    expect(b.point[1]).toBeCloseTo(-0.2, 6);
    expect(b.normal).toEqual([0, 1, 0].map((v) => expect.closeTo(v, 9)));
  });

  it('null is no ground, silently; throwing, NaN or nothing is no ground with one development warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(query(() => null, [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]).map((h) => h.hit)).toEqual([0, 0]);
    expect(warn).not.toHaveBeenCalled();
    const bad = [() => { throw new Error('boom'); }, () => ({ height: NaN }), () => undefined, () => 3, () => ({ height: 0, normal: [NaN, 1, 0] })];
    for (const fn of bad) expect(query(fn, [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]).map((h) => h.hit)).toEqual([0, 0]);
    expect(warn.mock.calls.length).toBeLessThanOrEqual(1); // once per session (it may have been shown already)
  });

  it('a zero normal is up; a downward normal is turned up', () => {
    const [a, b] = query((x) => ({ height: 0, normal: x > 0 ? [0, 0, 0] : [0, -1, 0] }), [1, 0, 0, 1, 1, 0, -1, 0, 0, -1, 1, 0]);
    for (const h of [a, b]) expect(h.normal).toEqual([0, 1, 0].map((v) => expect.closeTo(v, 9)));
  });
});

describe('planes', () => {
  it('a THREE.Plane, and the authored ground of a moved, turned, scaled root', () => {
    const plane = new Plane().setFromNormalAndCoplanarPoint(new Vector3(0, 1, 0.2).normalize(), new Vector3(0, 0.5, 0));
    const [a] = query(plane, [0, 0.3, 1, 0, 1, 1, 0, 0, 0, 0, 1, 0]);
    expect(plane.distanceToPoint(new Vector3(...a.point))).toBeCloseTo(0, 5);
    expect(a.point[0]).toBeCloseTo(0, 6);
    expect(a.point[2]).toBeCloseTo(1, 6);
    // Root at y = 2, scaled 2: the authored ground 0.1 up in its frame is at y = 2.2.
    const root = Float32Array.of(1, 2, 3, 0, 0, 0, 1, 2, 2, 2);
    const authored = authoredPlane(root, new Vector3(0, 1, 0), 0.1, new Plane());
    const [b] = query(null, [1, 2.3, 3, 1, 3.5, 3, 0, 0, 0, 0, 1, 0], { authored });
    expect(b.hit).toBe(1);
    expect(b.point[1]).toBeCloseTo(2.2, 6);
  });
});

describe('edges crossed between two queries', () => {
  // Two queries of one leg (its sole moving from x0 to x1, the hip 0.9 above): the second hit's edge.
  function edges(ground, x0, x1) {
    const g = readGround(ground);
    g.reach = 0.9;
    const memory = new Float64Array(2 * GROUND_MEMORY), grounds = new Float32Array(2 * groundHit.floats);
    const probes = (x) => Float32Array.of(x, 0.2, 0, x, 1.1, 0, 5, 0.2, 0, 5, 1.1, 0);
    queryGround(g, probes(x0), 0, grounds, 0, 2, UP, null, memory);
    expect(grounds[8]).toBe(-1); // nothing remembered yet
    queryGround(g, probes(x1), 0, grounds, 0, 2, UP, null, memory);
    expect(grounds[groundHit.floats + 8]).toBe(-1); // the other leg did not move
    return grounds[8];
  }
  const step = (x) => ({ height: x > 1.03 ? 0.1 : 0 });
  const bend = (x) => (x > 1 ? { height: 0.3 * (x - 1), normal: [-0.3, 1, 0] } : { height: 0, normal: [0, 1, 0] });

  it('a step: where the sole crossed it, within 1/512 of the way; the same hits as without the search', () => {
    expect(edges(step, 0.9, 1.1)).toBeCloseTo(0.65, 2);
    expect(edges(step, 1.1, 0.9)).toBeCloseTo(0.35, 2); // down the step
    const [a] = query(step, [1.1, 0.2, 0, 1.1, 1.1, 0, 5, 0.2, 0, 5, 1.1, 0]);
    expect(a.point[1]).toBeCloseTo(0.1, 6);
  });

  it('flat ground, a slope, a bend between the two (the planes meet on the way): no edge, no extra query', () => {
    let calls = 0;
    const counted = (fn) => (x, y, z) => (calls++, fn(x, y, z));
    expect(edges(counted(() => ({ height: 0 })), 0.9, 1.1)).toBe(-1);
    expect(edges(counted((x) => ({ height: 0.2 * x, normal: [-0.2, 1, 0] })), 0.9, 1.1)).toBe(-1);
    expect(edges(counted(bend), 0.9, 1.1)).toBe(-1);
    expect(calls).toBe(3 * 4); // two legs, two queries each
  });
});
