import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';
import {
  add, allFinite, angleBetween, axisAngle, cross, distance, dot, interiorAngle, length, makeLimb, normalize,
  quatMul, rotate, sameRotation, scale, sub,
} from '../../support/ik-math.js';

const X = [1, 0, 0], Y = [0, 1, 0], Z = [0, 0, 1];
const flat = (r) => [r.root.position, r.root.rotation, r.mid.position, r.mid.rotation, r.end.position, r.end.rotation, r.distance];

// Straight rig along +X, bending about +Z, a = b = 1.
const basic = (bend = 0.8) => makeLimb({ rootPos: [0, 0, 0], rootRot: [0, 0, 0, 1], a: 1, b: 1, bend, f: X, h: Z });

const unitQuat = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter((q) => Math.hypot(...q) > 0.1).map((q) => q.map((v) => v / Math.hypot(...q)));
const direction = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true })).filter((v) => length(v) > 0.1).map(normalize);
const point = (r) => fc.tuple(fc.double({ min: -r, max: r, noNaN: true }), fc.double({ min: -r, max: r, noNaN: true }),
  fc.double({ min: -r, max: r, noNaN: true }));

describe('solveTwoBone properties', () => {
  it('reaches 10,000 random reachable targets with lengths, plane, pole side and limits kept', () => {
    const axes = [[X, Z], [Y, X], [[0, 0, -1], Y]];
    const pose = fc.record({
      rootPos: point(5), rootRot: unitQuat, endRot: unitQuat,
      a: fc.double({ min: 0.2, max: 2, noNaN: true }), b: fc.double({ min: 0.2, max: 2, noNaN: true }),
      bend: fc.double({ min: -3, max: 3, noNaN: true }), axes: fc.integer({ min: 0, max: 2 }),
      dir: direction, reach: fc.double({ min: 0.001, max: 0.999, noNaN: true }),
      bendDirection: fc.constantFrom('auto', 'positive', 'negative'),
      minAngle: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true })),
      maxAngle: fc.oneof(fc.constant(Math.PI), fc.double({ min: 2, max: Math.PI, noNaN: true })),
      pole: fc.option(point(3), { nil: undefined }),
    });
    let worst = { reach: 0, length: 0, plane: 0, limit: 0 };
    fc.assert(fc.property(pose, (p) => {
      const [f, h] = axes[p.axes];
      const limb = makeLimb({ ...p, f, h });
      const { a, b } = p;
      const cMin = Math.sqrt(Math.max(0, a * a + b * b - 2 * a * b * Math.cos(Math.fround(p.minAngle))));
      const cMax = Math.sqrt(a * a + b * b - 2 * a * b * Math.cos(Math.fround(p.maxAngle)));
      const target = add(p.rootPos, scale(p.dir, cMin + (cMax - cMin) * p.reach));
      const pole = p.pole && add(p.rootPos, p.pole);
      const r = ikpd.solveTwoBone({ ...limb, target, pole, forward: f, bendAxis: h, bendDirection: p.bendDirection,
        minAngle: p.minAngle, maxAngle: p.maxAngle });
      expect(allFinite(flat(r))).toBe(true);
      expect(r.reached).toBe(true);
      const l = a + b;
      worst.reach = Math.max(worst.reach, distance(r.end.position, target) / l);
      worst.length = Math.max(worst.length, Math.abs(distance(r.mid.position, r.root.position) - a) / a,
        Math.abs(distance(r.end.position, r.mid.position) - b) / b);
      const angle = interiorAngle(r);
      worst.limit = Math.max(worst.limit, Math.fround(p.minAngle) - angle, angle - Math.fround(p.maxAngle));
      expect(angleBetween(rotate(r.root.rotation, f), sub(r.mid.position, r.root.position))).toBeLessThan(1e-4);
      expect(angleBetween(rotate(r.mid.rotation, f), sub(r.end.position, r.mid.position))).toBeLessThan(1e-4);
      if (p.bendDirection !== 'auto') {
        const side = dot(rotate(r.mid.rotation, h), cross(sub(r.mid.position, r.root.position), sub(r.end.position, r.mid.position)));
        expect(Math.sign(side)).toBe(p.bendDirection === 'positive' ? 1 : -1);
      }
      const toPole = pole && sub(pole, p.rootPos);
      const dirT = normalize(sub(target, p.rootPos));
      const polePerp = pole && sub(toPole, scale(dirT, dot(toPole, dirT)));
      if (pole && length(polePerp) > 1e-3) {
        const n = normalize(cross(sub(r.mid.position, r.root.position), dirT));
        worst.plane = Math.max(worst.plane, Math.abs(dot(n, toPole)) / length(toPole));
        expect(dot(sub(r.mid.position, r.root.position), polePerp)).toBeGreaterThan(0);
      }
    }), { numRuns: 10_000, seed: 20261121, endOnFailure: true });
    expect(worst.reach).toBeLessThan(1e-4);
    expect(worst.length).toBeLessThan(1e-5);
    expect(worst.plane).toBeLessThan(1e-4);
    expect(worst.limit).toBeLessThan(1e-4);
  });
});

describe('solveTwoBone edge cases', () => {
  it('solves a reference triangle exactly (a = b = 1, c = 1: C = 60°, B = 60°)', () => {
    const r = ikpd.solveTwoBone({ ...basic(), target: [1, 0, 0], bendDirection: 'positive' });
    // positive: root turns by −B about +Z, mid by +(π − C)
    expect(distance(r.mid.position, [0.5, -Math.sqrt(3) / 2, 0])).toBeLessThan(1e-6);
    expect(distance(r.end.position, [1, 0, 0])).toBeLessThan(1e-6);
    expect(sameRotation(r.root.rotation, axisAngle(Z, -Math.PI / 3))).toBeCloseTo(1, 6);
    expect(sameRotation(r.mid.rotation, axisAngle(Z, Math.PI / 3))).toBeCloseTo(1, 6);
    const n = ikpd.solveTwoBone({ ...basic(), target: [1, 0, 0], bendDirection: 'negative' });
    expect(distance(n.mid.position, [0.5, Math.sqrt(3) / 2, 0])).toBeLessThan(1e-6);
    // without a pole the hinge (plane) is kept and the mid flips to the other side
    expect(sameRotation(n.root.rotation, axisAngle(Z, Math.PI / 3))).toBeCloseTo(1, 6);
    expect(sameRotation(n.mid.rotation, axisAngle(Z, -Math.PI / 3))).toBeCloseTo(1, 6);
    // with a pole the mid goes to the pole's side and the hinge flips for 'negative'
    const p = ikpd.solveTwoBone({ ...basic(), target: [1, 0, 0], bendDirection: 'negative', pole: [0.5, -3, 0] });
    expect(distance(p.mid.position, [0.5, -Math.sqrt(3) / 2, 0])).toBeLessThan(1e-6);
    expect(sameRotation(p.mid.rotation, quatMul(axisAngle(Z, Math.PI / 3), axisAngle(X, Math.PI)))).toBeCloseTo(1, 6);
  });

  it('goes straight toward an unreachable target and reports the distance', () => {
    const r = ikpd.solveTwoBone({ ...basic(), target: [0, 5, 0] });
    expect(r.reached).toBe(false);
    expect(r.distance).toBeCloseTo(3, 5);
    expect(distance(r.end.position, [0, 2, 0])).toBeLessThan(1e-6);
  });

  it('folds fully for a target closer than |a − b|', () => {
    const limb = makeLimb({ rootPos: [0, 0, 0], rootRot: [0, 0, 0, 1], a: 2, b: 1, bend: 0.5, f: X, h: Z });
    const r = ikpd.solveTwoBone({ ...limb, target: [0.2, 0, 0] });
    expect(interiorAngle(r)).toBeLessThan(1e-3);
    expect(distance(r.end.position, [1, 0, 0])).toBeLessThan(1e-5);
    expect(r.reached).toBe(false);
  });

  it('gives a defined result for a target at the root', () => {
    const r = ikpd.solveTwoBone({ ...basic(), target: [0, 0, 0] });
    expect(allFinite(flat(r))).toBe(true);
    expect(distance(r.end.position, [0, 0, 0])).toBeLessThan(1e-6); // a = b folds onto the root
  });

  it('handles zero-length bones with a straight limb toward the target', () => {
    for (const [a, b] of [[0, 1], [1, 0], [0, 0]]) {
      const limb = makeLimb({ rootPos: [1, 2, 3], rootRot: [0, 0, 0, 1], a, b, bend: 0.3, f: X, h: Z });
      const r = ikpd.solveTwoBone({ ...limb, target: [1, 5, 3] });
      expect(allFinite(flat(r))).toBe(true);
      expect(distance(r.end.position, [1, 2 + a + b, 3])).toBeLessThan(1e-6);
      expect(r.distance).toBeCloseTo(3 - a - b, 5);
    }
  });

  it('ignores a pole on the root→target line (keeps the current plane)', () => {
    const withPole = ikpd.solveTwoBone({ ...basic(), target: [1.5, 0, 0], pole: [3, 0, 0] });
    const without = ikpd.solveTwoBone({ ...basic(), target: [1.5, 0, 0] });
    expect(allFinite(flat(withPole))).toBe(true);
    expect(withPole).toEqual(without);
  });

  it('auto keeps the current bend side and breaks a straight-limb tie as configured', () => {
    for (const bend of [0.7, -0.7]) {
      const r = ikpd.solveTwoBone({ ...basic(bend), target: [1.2, 0.3, 0] });
      const side = dot(rotate(r.mid.rotation, Z), cross(sub(r.mid.position, r.root.position), sub(r.end.position, r.mid.position)));
      expect(Math.sign(side)).toBe(Math.sign(bend));
    }
    for (const [straightBend, sign] of [['positive', 1], ['negative', -1]]) {
      const r = ikpd.solveTwoBone({ ...basic(0), target: [1.2, 0, 0], straightBend });
      expect(Math.sign(r.mid.position[1])).toBe(-sign); // positive bend puts the mid on −(N × dirT) = −Y
    }
  });

  it('pole and poleDirection select the same plane', () => {
    const a = ikpd.solveTwoBone({ ...basic(), target: [1, 0.5, 0.5], pole: [0, 0, 3] });
    const b = ikpd.solveTwoBone({ ...basic(), target: [1, 0.5, 0.5], poleDirection: [0, 0, 1] });
    expect(distance(a.mid.position, b.mid.position)).toBeLessThan(1e-6);
    expect(a.mid.position[2]).toBeGreaterThan(0);
  });

  it('clamps the middle angle to [minAngle, maxAngle]', () => {
    const far = ikpd.solveTwoBone({ ...basic(), target: [1.999, 0, 0], maxAngle: (170 * Math.PI) / 180 });
    expect(interiorAngle(far)).toBeCloseTo((170 * Math.PI) / 180, 4);
    const near = ikpd.solveTwoBone({ ...basic(), target: [0.1, 0, 0], minAngle: Math.PI / 6 });
    expect(interiorAngle(near)).toBeCloseTo(Math.PI / 6, 4);
  });

  it('effectorOffset lands the contact point on the target', () => {
    const offset = [0.1, 0.2, 0];
    const r = ikpd.solveTwoBone({ ...basic(), target: [1, 1, 0], effectorOffset: offset });
    expect(distance(add(r.end.position, offset), [1, 1, 0])).toBeLessThan(1e-5);
    expect(r.reached).toBe(true);
    expect(r.distance).toBeLessThan(1e-5);
  });

  it('weight 0 returns the input; weight blends the rotations', () => {
    const limb = basic();
    const r0 = ikpd.solveTwoBone({ ...limb, target: [0, 1.5, 0], weight: 0 });
    expect(distance(r0.end.position, limb.end.position)).toBeLessThan(1e-6);
    const r1 = ikpd.solveTwoBone({ ...limb, target: [0, 1.5, 0], weight: 1 });
    const rh = ikpd.solveTwoBone({ ...limb, target: [0, 1.5, 0], weight: 0.5 });
    const mid = (p, q) => angleBetween(rotate(p, X), rotate(q, X));
    expect(mid(rh.root.rotation, limb.root.rotation)).toBeCloseTo(mid(r1.root.rotation, limb.root.rotation) / 2, 4);
    expect(rh.reached).toBe(false);
  });

  it('soften eases toward full extension continuously and never reaches it', () => {
    let previous = 1.5;
    for (let c = 1.5; c <= 3; c += 0.01) {
      const r = ikpd.solveTwoBone({ ...basic(), target: [c, 0, 0], soften: 0.2 });
      const reach = length(r.end.position);
      expect(reach).toBeGreaterThanOrEqual(previous - 1e-6);
      expect(reach).toBeLessThan(2);
      expect(reach - previous).toBeLessThan(0.011);
      previous = reach;
    }
    // Below the soft zone (c < 0.8 × 2) it reaches exactly.
    expect(ikpd.solveTwoBone({ ...basic(), target: [1.5, 0, 0], soften: 0.2 }).reached).toBe(true);
  });

  it('stretches both bones up to maxStretch', () => {
    const r = ikpd.solveTwoBone({ ...basic(), target: [0, 2.4, 0], maxStretch: 1.5 });
    expect(r.reached).toBe(true);
    expect(distance(r.mid.position, r.root.position)).toBeCloseTo(1.2, 5);
    const capped = ikpd.solveTwoBone({ ...basic(), target: [0, 4, 0], maxStretch: 1.5 });
    expect(capped.distance).toBeCloseTo(1, 5);
  });

  it('twist rotates the limb plane about root→target', () => {
    const base = ikpd.solveTwoBone({ ...basic(), target: [1.5, 0, 0] });
    const t = ikpd.solveTwoBone({ ...basic(), target: [1.5, 0, 0], twist: Math.PI / 2 });
    expect(distance(t.mid.position, rotate(axisAngle(X, Math.PI / 2), base.mid.position))).toBeLessThan(1e-5);
  });

  it('endRotation: world keeps the end rotation, relative follows the mid', () => {
    const limb = { ...basic(), end: { position: basic().end.position, rotation: axisAngle(Y, 0.4) } };
    const w = ikpd.solveTwoBone({ ...limb, target: [0, 1.5, 0] });
    expect(sameRotation(w.end.rotation, axisAngle(Y, 0.4))).toBeCloseTo(1, 6);
    const rel = ikpd.solveTwoBone({ ...limb, target: [0, 1.5, 0], endRotation: 'relative' });
    const localBefore = quatMul([-limb.mid.rotation[0], -limb.mid.rotation[1], -limb.mid.rotation[2], limb.mid.rotation[3]], limb.end.rotation);
    const localAfter = ikpd.toLocalRotations([rel.mid, rel.end])[1];
    expect(sameRotation(localBefore, localAfter)).toBeCloseTo(1, 5);
  });

  it('supports three.js rigs (+Y forward)', () => {
    const limb = makeLimb({ rootPos: [0, 1, 0], rootRot: axisAngle(Z, Math.PI), a: 0.45, b: 0.42, bend: 0.3, f: Y, h: X });
    const r = ikpd.solveTwoBone({ ...limb, target: [0.1, 0.3, 0.2], forward: Y, bendAxis: X, pole: [0, 0.6, 1] });
    expect(r.reached).toBe(true);
    expect(angleBetween(rotate(r.mid.rotation, Y), sub(r.end.position, r.mid.position))).toBeLessThan(1e-5);
    expect(r.mid.position[2]).toBeGreaterThan(0); // knee toward the pole
  });

  it('normalizes non-unit rotations', () => {
    const limb = basic();
    const scaled = { ...limb, root: { ...limb.root, rotation: [0, 0, 0, 3] }, mid: { ...limb.mid, rotation: limb.mid.rotation.map((v) => v * 2) } };
    const a = ikpd.solveTwoBone({ ...limb, target: [1, 1, 0] });
    const b = ikpd.solveTwoBone({ ...scaled, target: [1, 1, 0] });
    expect(distance(a.mid.position, b.mid.position)).toBeLessThan(1e-6);
    expect(Math.hypot(...b.root.rotation)).toBeCloseTo(1, 6);
  });

  it('rejects invalid input with errors naming the parameter', () => {
    const ok = { ...basic(), target: [1, 1, 0] };
    const cases = [
      [{ target: [1, 1] }, TypeError, /^target:/],
      [{ target: [1, NaN, 0] }, RangeError, /^target\[1\]:/],
      [{ root: { position: [0, 0, Infinity] } }, RangeError, /^root\.position\[2\]:/],
      [{ mid: { position: [1, 0, 0], rotation: [0, 0, 0, 0] } }, RangeError, /^mid\.rotation:/],
      [{ end: null }, TypeError, /^end:/],
      [{ weight: -0.1 }, RangeError, /^weight:/],
      [{ weight: 'x' }, TypeError, /^weight:/],
      [{ soften: 2 }, RangeError, /^soften:/],
      [{ maxStretch: 0.5 }, RangeError, /^maxStretch:/],
      [{ minAngle: 2, maxAngle: 1 }, RangeError, /^minAngle:/],
      [{ maxAngle: 4 }, RangeError, /^maxAngle:/],
      [{ bendDirection: 'up' }, RangeError, /^bendDirection:/],
      [{ straightBend: 'auto' }, RangeError, /^straightBend:/],
      [{ endRotation: 'local' }, RangeError, /^endRotation:/],
      [{ bendAxis: [2, 0, 0] }, RangeError, /^bendAxis:/],
      [{ forward: [0, 0, 0] }, RangeError, /^forward:/],
      [{ pole: [0, 1, 0], poleDirection: [0, 1, 0] }, RangeError, /^poleDirection:/],
      [{ tolerance: -1 }, RangeError, /^tolerance:/],
    ];
    for (const [patch, type, message] of cases) {
      expect(() => ikpd.solveTwoBone({ ...ok, ...patch })).toThrow(type);
      expect(() => ikpd.solveTwoBone({ ...ok, ...patch })).toThrow(message);
    }
    expect(() => ikpd.solveTwoBone(null)).toThrow(TypeError);
  });

  it('stays finite for huge and tiny coordinates', () => {
    for (const s of [1e-30, 1e-6, 1e6, 1e30]) {
      const limb = makeLimb({ rootPos: [s, -s, s], rootRot: [0, 0, 0, 1], a: s, b: 2 * s, bend: 0.4, f: X, h: Z });
      const r = ikpd.solveTwoBone({ ...limb, target: [2 * s, s, s] });
      expect(allFinite(flat(r))).toBe(true);
      expect(r.reached).toBe(true);
    }
  });
});

describe('toLocalRotations', () => {
  it('composes back to the world rotations', () => {
    const p = axisAngle([1, 2, 3], 0.7);
    const world = [axisAngle(X, 0.3), axisAngle(Y, 1.1), axisAngle(Z, -0.4)];
    const local = ikpd.toLocalRotations(world.map((rotation) => ({ rotation })), p);
    let acc = p;
    for (let i = 0; i < 3; i++) {
      acc = quatMul(acc, local[i]);
      expect(sameRotation(acc, world[i])).toBeCloseTo(1, 12);
    }
    expect(() => ikpd.toLocalRotations([{ rotation: [0, 0, 0, 0] }])).toThrow(/^joints\[0\]\.rotation:/);
    expect(() => ikpd.toLocalRotations('x')).toThrow(TypeError);
  });
});
