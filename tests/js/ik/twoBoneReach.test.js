// solveTwoBone's `reached` and `distance` describe the contact point (end plus
// effectorOffset, turned with the end under endRotation 'relative') as it
// lands in the returned, weighted pose.
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';

// q·v for a quaternion [x, y, z, w].
function rotate([x, y, z, w], [vx, vy, vz]) {
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  return [vx + w * tx + (y * tz - z * ty), vy + w * ty + (z * tx - x * tz), vz + w * tz + (x * ty - y * tx)];
}
const conjugate = ([x, y, z, w]) => [-x, -y, -z, w];
function multiply([ax, ay, az, aw], [bx, by, bz, bw]) {
  return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
}
const normalize = (q) => { const n = Math.hypot(...q); return q.map((c) => c / n); };
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

// Where the contact point lands in result r.
function contact(options, r) {
  const turn = multiply(r.end.rotation, conjugate(normalize(options.end.rotation ?? [0, 0, 0, 1])));
  const offset = rotate(turn, options.effectorOffset ?? [0, 0, 0]);
  return r.end.position.map((p, k) => p + offset[k]);
}

// An elbow bent 60° about +Z; the hand keeps the forearm's rotation.
const s = Math.sin(Math.PI / 6), c = Math.cos(Math.PI / 6);
const arm = {
  root: { position: [0, 0, 0] },
  mid: { position: [1, 0, 0], rotation: [0, 0, s, c] },
  end: { position: [1 + Math.cos(Math.PI / 3), Math.sin(Math.PI / 3), 0], rotation: [0, 0, s, c] },
  target: [1.2, 0.9, 0.3],
  effectorOffset: [0.3, 0, 0],
};

describe('solveTwoBone reached/distance', () => {
  it('reports where the fingertip lands under endRotation "relative"', () => {
    const options = { ...arm, endRotation: 'relative' };
    const r = ikpd.solveTwoBone(options);
    const miss = dist(contact(options, r), options.target);
    expect(miss).toBeGreaterThan(0.05);
    expect(r.distance).toBeCloseTo(miss, 5);
    expect(r.reached).toBe(false);
    const world = ikpd.solveTwoBone({ ...arm, endRotation: 'world' });
    expect(world.distance).toBeLessThan(1e-5);
    expect(world.reached).toBe(true);
  });

  it('describes the weighted pose for every weight and rotation mode', () => {
    for (const endRotation of ['world', 'relative']) {
      for (const weight of [0, 0.2, 0.4, 0.7, 1]) {
        const options = { ...arm, endRotation, weight };
        const r = ikpd.solveTwoBone(options);
        const miss = dist(contact(options, r), options.target);
        expect(r.distance, `${endRotation} weight ${weight}`).toBeCloseTo(miss, 5);
        expect(r.reached, `${endRotation} weight ${weight}`).toBe(miss <= 1e-4 * 2);
      }
    }
  });
});
