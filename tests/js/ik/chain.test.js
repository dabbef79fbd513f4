import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ikpd } from '../../support/setup.js';

const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const len = (v) => Math.hypot(v[0], v[1], v[2]);
const dist = (a, b) => len(sub(a, b));
// Rotates v by the quaternion q = [x, y, z, w].
function rotate(q, v) {
  const [x, y, z, w] = q;
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + y * tz - z * ty, v[1] + w * ty + z * tx - x * tz, v[2] + w * tz + x * ty - y * tx];
}

const straightChain = (n, step = 1) => Array.from({ length: n }, (_, i) => ({ position: [0, i * step, 0], rotation: [0, 0, 0, 1] }));

describe('solveChain', () => {
  const coord = fc.double({ min: -1, max: 1, noNaN: true });
  const vec = fc.tuple(coord, coord, coord);
  const unit = (v) => {
    const l = len(v);
    return l > 0.1 ? v.map((c) => c / l) : [0, 1, 0];
  };

  function expectWellFormed(joints, result) {
    expect(result.joints).toHaveLength(joints.length);
    for (const j of result.joints) for (const v of [...j.position, ...j.rotation]) expect(Number.isFinite(v)).toBe(true);
    for (let i = 0; i + 1 < joints.length; i++) {
      const bone = sub(result.joints[i + 1].position, result.joints[i].position);
      const l = dist(joints[i + 1].position, joints[i].position);
      expect(len(bone)).toBeCloseTo(l, 4);
      if (l > 1e-3) {
        const axis = rotate(result.joints[i].rotation, [0, 1, 0]);
        expect(axis[0] * bone[0] + axis[1] * bone[1] + axis[2] * bone[2]).toBeGreaterThan(l * (1 - 1e-4));
      }
    }
  }

  it('reaches targets inside the reach from a straight pose with both methods', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.2, max: 1.5, noNaN: true }), { minLength: 2, maxLength: 10 }),
        vec,
        fc.double({ min: 0.2, max: 0.8, noNaN: true }),
        fc.constantFrom('ccd', 'fabrik'),
        (lengths, direction, fraction, method) => {
          const joints = [{ position: [0, 0, 0] }];
          for (const l of lengths) joints.push({ position: [0, joints.at(-1).position[1] + l, 0] });
          const total = lengths.reduce((a, b) => a + b, 0);
          const minReach = Math.max(0, 2 * Math.max(...lengths) - total);
          // Both methods slow down near the edges of the reachable shell: CCD when nearly
          // stretched (~1000 sweeps at 98% of the reach), FABRIK when nearly folded. The middle
          // 60% of the shell is the everyday case. FABRIK also creeps (linearly) when a long
          // last bone must fold back past the root, so it is held to 1e-3 there.
          const target = unit(direction).map((c) => c * (minReach + fraction * (total - minReach)));
          const result = ikpd.solveChain({ joints, target, method, iterations: 1000, forward: [0, 1, 0] });
          expectWellFormed(joints, result);
          if (method === 'ccd') expect(result.reached).toBe(true);
          expect(result.distance).toBeLessThanOrEqual((method === 'ccd' ? 1e-4 : 1e-3) * total);
          expect(dist(result.joints.at(-1).position, target)).toBeCloseTo(result.distance, 5);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps lengths and forward axes from any start pose, and CCD never moves the tip away', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(vec, fc.double({ min: 0, max: 1.5, noNaN: true })), { minLength: 1, maxLength: 10 }),
        vec,
        fc.constantFrom('ccd', 'fabrik'),
        fc.integer({ min: 0, max: 50 }),
        (bones, t, method, iterations) => {
          const joints = [{ position: [0, 0, 0] }];
          for (const [d, l] of bones) {
            const u = unit(d);
            const p = joints.at(-1).position;
            joints.push({ position: [p[0] + u[0] * l, p[1] + u[1] * l, p[2] + u[2] * l] });
          }
          const target = t.map((c) => c * 3);
          const result = ikpd.solveChain({ joints, target, method, iterations, forward: [0, 1, 0] });
          expectWellFormed(joints, result);
          if (method === 'ccd') {
            const total = bones.reduce((a, [, l]) => a + l, 0);
            expect(result.distance).toBeLessThanOrEqual(dist(joints.at(-1).position, target) + 1e-5 * (1 + total));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the default method reaches a target below an L-shaped chain (FABRIK stalled at 0.097)', () => {
    const joints = [{ position: [0, 0, 0] }, { position: [0, 1, 0] }, { position: [-1, 1, 0] }];
    const r = ikpd.solveChain({ joints, target: [0, -0.1, 0] });
    expect(r.reached).toBe(true);
    expect(r.distance).toBeLessThanOrEqual(2e-4);
    expect(r.iterations).toBeLessThanOrEqual(20);
    for (const method of ['ccd', 'fabrik']) expect(ikpd.solveChain({ joints, target: [0, -0.1, 0], method }).reached).toBe(true);
  });

  it('returns the documented shape with defaults (FABRIK, forward +X)', () => {
    const joints = [0, 1, 2, 3].map((i) => ({ position: [i, 0, 0] }));
    const r = ikpd.solveChain({ joints, target: [1.5, 1.5, 0] });
    expect(r).toEqual(ikpd.solveChain({ joints, target: [1.5, 1.5, 0], method: 'fabrik', forward: [1, 0, 0] }));
    expect(r).not.toEqual(ikpd.solveChain({ joints, target: [1.5, 1.5, 0], method: 'ccd' }));
    expect(Object.keys(r).sort()).toEqual(['distance', 'iterations', 'joints', 'reached']);
    expect(r.reached).toBe(true);
    expect(r.iterations).toBeGreaterThan(0);
    expect(r.iterations).toBeLessThanOrEqual(20);
    for (const j of r.joints) {
      expect(j.position).toHaveLength(3);
      expect(j.rotation).toHaveLength(4);
    }
  });

  it('respects cone and euler limits', () => {
    const joints = straightChain(5);
    const cone = ikpd.solveChain({
      joints, target: [3, 0, 0], forward: [0, 1, 0], iterations: 50,
      limits: [null, { type: 'cone', angle: 0.3 }, { type: 'cone', angle: 0.3 }, { type: 'cone', angle: 0.3 }],
    });
    for (let i = 1; i < 4; i++) {
      const parent = rotate(cone.joints[i - 1].rotation, [0, 1, 0]);
      const own = rotate(cone.joints[i].rotation, [0, 1, 0]);
      const angle = Math.acos(Math.min(1, parent[0] * own[0] + parent[1] * own[1] + parent[2] * own[2]));
      expect(angle).toBeLessThanOrEqual(0.3 + 2e-3);
    }
    // Hinges about Z only: the chain stays in the XY plane.
    const hinge = { type: 'euler', min: [0, 0, -1], max: [0, 0, 1] };
    const planar = ikpd.solveChain({ joints, target: [1, 2, 1], forward: [0, 1, 0], method: 'fabrik', limits: [hinge, hinge, hinge, hinge] });
    for (const j of planar.joints) expect(Math.abs(j.position[2])).toBeLessThan(1e-5);
  });

  it('bends toward the pole', () => {
    const joints = straightChain(5).map((j, i) => ({ ...j, position: [0.01 * (i % 2), i, 0] }));
    for (const pole of [[0, 2, 5], [0, 2, -5]]) {
      const r = ikpd.solveChain({ joints, target: [0, 3, 0], pole, forward: [0, 1, 0], method: 'fabrik', iterations: 100 });
      expect(r.reached).toBe(true);
      for (let i = 1; i < 4; i++) expect(Math.sign(r.joints[i].position[2])).toBe(Math.sign(pole[2]));
    }
  });

  it('gives finite output for degenerate input', () => {
    const coincident = [{ position: [0, 0, 0] }, { position: [0, 0, 0] }, { position: [0, 1, 0] }];
    for (const target of [[0, 0, 0], [0, 1, 0], [0, -5, 0]]) {
      for (const method of ['ccd', 'fabrik']) {
        const r = ikpd.solveChain({ joints: coincident, target, method, pole: [0, 3, 0] });
        for (const j of r.joints) for (const v of [...j.position, ...j.rotation]) expect(Number.isFinite(v)).toBe(true);
      }
    }
  });

  it('fills a previous result of any joint count (tests/js/fill-result.test.js has the rest)', () => {
    const options = { joints: straightChain(6, 0.5), target: [0.8, 1.2, 0.4], method: 'fabrik', forward: [0, 1, 0] };
    const fresh = ikpd.solveChain(options);
    const loose = { joints: [null, { position: 'x' }, { position: [1, 2], rotation: [0, 0, 0, 1] }, ...Array(9).fill(null)] };
    expect(ikpd.solveChain(options, loose)).toEqual(fresh);
    expect(ikpd.solveChain({ ...options, joints: straightChain(3, 0.5) }, loose).joints).toHaveLength(3);
  });

  it('throws errors that name the parameter', () => {
    const joints = straightChain(3);
    expect(() => ikpd.solveChain({ joints: [joints[0]], target: [0, 0, 0] })).toThrow(/^joints: needs at least 2 joints/);
    expect(() => ikpd.solveChain({ joints, target: [0, NaN, 0] })).toThrow(/^target\[1\]/);
    expect(() => ikpd.solveChain({ joints, target: [0, 0, 0], method: 'jacobian' })).toThrow(/^method: expected one of 'ccd', 'fabrik'/);
    expect(() => ikpd.solveChain({ joints, target: [0, 0, 0], iterations: -1 })).toThrow(/^iterations: must be in \[0, 10000\]/);
    expect(() => ikpd.solveChain({ joints, target: [0, 0, 0], iterations: 1.5 })).toThrow(/^iterations: must be an integer/);
    expect(() => ikpd.solveChain({ joints, target: [0, 0, 0], tolerance: -1 })).toThrow(RangeError);
    expect(() => ikpd.solveChain({ joints, target: [0, 0, 0], limits: [{ type: 'cone', angle: 4 }, null] })).toThrow(/^limits: cone angle must be in \[0, pi\]/);
    expect(() => ikpd.solveChain({ joints, target: [0, 0, 0], limits: [{ type: 'box' }] })).toThrow(/^limits\[0\]\.type/);
    expect(() => ikpd.solveChain({ joints, target: [0, 0, 0], limits: [null] })).toThrow(/^limits: needs one entry per joint/);
    expect(() => ikpd.solveChain({ joints: [joints[0], { position: [0, 1, 0], rotation: [0, 0, 0, 0] }], target: [0, 0, 0] })).toThrow(/^joints\[1\]\.rotation: quaternion must not be zero/);
    expect(() => ikpd.solveChain({ joints, target: [0, 0, 0], forward: [0, 0, 0] })).toThrow(/^forward: must be a finite non-zero vector/);
    expect(() => ikpd.solveChain({ joints: Array.from({ length: 129 }, () => joints[0]), target: [0, 0, 0] })).toThrow(/^joints: at most 128/);
    expect(() => ikpd.solveChain(null)).toThrow(TypeError);
  });
});
