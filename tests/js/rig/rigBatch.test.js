// ikpd.RigBatch (docs/rig/rig-batch.md): every character equals its own Rig
// fed the same inputs, over random rest poses and exporter-style axes; the
// views are joint-major; the typings' @default values are the real ones;
// disabling blends out to exactly the animated pose at 30, 60 and 240 Hz;
// errors name the parameter and change nothing.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';
import { axisAngle, quatMul, quatNormalize } from '../../support/ik-math.js';

const F = 10; // floats per Rig local

// Largest quaternion component difference (q and −q are the same rotation).
function rotationGap(a, b) {
  const s = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0 ? -1 : 1;
  return Math.max(...a.map((v, i) => Math.abs(v - s * b[i])));
}
const unitQuat = fc.tuple(...Array.from({ length: 4 }, () => fc.double({ min: -1, max: 1, noNaN: true })))
  .filter((q) => Math.hypot(...q) > 0.1).map(quatNormalize);

// A body: pelvis 0 → spine 1 → head 2; legs 0 → 3 → 4 → 5 and 0 → 6 → 7 → 8;
// arm 1 → 9 → 10 → 11 → 12 (pseudo three-bone). Bones along random local
// axes (+Y, +Z, −Y or mixed), random rest rotations, a scaled pelvis.
const PARENTS = [-1, 0, 1, 0, 3, 4, 0, 6, 7, 1, 9, 10, 11];
const restCase = fc.record({
  rest: fc.array(unitQuat, { minLength: 13, maxLength: 13 }),
  axes: fc.array(fc.constantFrom([0, 0.4, 0], [0, 0, 0.4], [0, -0.4, 0], [0.25, 0.3, 0]), { minLength: 13, maxLength: 13 }),
  scale: fc.double({ min: 0.5, max: 2, noNaN: true }),
});
function restPose({ rest, axes, scale }) {
  const out = new Float32Array(F * PARENTS.length);
  PARENTS.forEach((_, j) => out.set([...(j === 0 ? [0, 1, 0] : axes[j]), ...rest[j], ...(j === 0 ? [scale, scale, scale] : [1, 1, 1])], F * j));
  return out;
}
// The stack every test uses: pseudo three-bone arm, two legs, a head aim.
function buildRig(rest, settings = {}) {
  const rig = new ikpd.Rig({ parents: PARENTS, rest });
  rig.add('twoBone', { joints: [3, 4, 5], ...settings });
  rig.add('twoBone', { joints: [6, 7, 8], ...settings });
  rig.add('pseudoThreeBone', { joints: [9, 10, 11, 12], ...settings });
  rig.add('aim', { joints: [2], ...settings });
  return rig;
}

// Deterministic per-character inputs: locals near the rest pose, a root, targets, poles, weights.
function fillCharacter(batch, rig, c, t) {
  const n = batch.count, J = rig.count;
  const s = (k) => Math.sin(1.7 * c + 0.37 * k + t);
  for (let j = 0; j < J; j++) {
    const r = quatNormalize(quatMul(Array.from(rig.input.subarray(F * j + 3, F * j + 7)), axisAngle([s(j), s(j + 5), 0.5], 0.4 * s(j + 9))));
    batch.rotations.set(r, 4 * (j * n + c));
  }
  batch.rootPositions.set([s(1), 0.2 * s(2), s(3)], 3 * c);
  batch.rootRotations.set(axisAngle([0, 1, 0], 2 * s(4)), 4 * c);
  batch.rootScales[c] = 1 + 0.3 * s(6);
  batch.constraints.forEach((k, i) => {
    k.targets.set([batch.rootPositions[3 * c] + 0.6 * s(10 + i), 0.6 + 0.5 * s(20 + i), batch.rootPositions[3 * c + 2] + 0.6 * s(30 + i)], 3 * c);
    k.poles.set([s(40 + i), 2, 1 + s(50 + i)], 3 * c);
    k.weights[c] = c % 5 === 0 ? 1 : 0.5 + 0.5 * s(60 + i) ** 2;
  });
}
// Copies character c's inputs into a Rig (weight: the constraint's × the character's).
function feedRig(rig, batch, c, weight) {
  const n = batch.count;
  for (let j = 0; j < rig.count; j++) {
    rig.input.set(batch.translations.subarray(3 * (j * n + c), 3 * (j * n + c) + 3), F * j);
    rig.input.set(batch.rotations.subarray(4 * (j * n + c), 4 * (j * n + c) + 4), F * j + 3);
    rig.input.set(batch.scales.subarray(3 * (j * n + c), 3 * (j * n + c) + 3), F * j + 7);
  }
  const r = batch.rootScales[c];
  rig.root.set([...batch.rootPositions.subarray(3 * c, 3 * c + 3), ...batch.rootRotations.subarray(4 * c, 4 * c + 4), r, r, r]);
  batch.constraints.forEach((k, i) => {
    const rc = rig.constraints[i];
    rig.frames.set(k.targets.subarray(3 * c, 3 * c + 3), rc.frameOffset);
    rig.frames.set(k.poles.subarray(3 * c, 3 * c + 3), rc.frameOffset + 3);
    rig.frames[rc.frameOffset + 9] = batch.poleSet[i];
    if (rc.get('weight') !== weight * k.weights[c]) rc.set({ weight: weight * k.weights[c] });
  });
}
function expectSameAsRigs(batch, rigs, tolerance) {
  const n = batch.count;
  rigs.forEach((rig, c) => {
    for (let j = 0; j < rig.count; j++) {
      const got = Array.from(batch.output.subarray(4 * (j * n + c), 4 * (j * n + c) + 4));
      const want = Array.from(rig.output.subarray(F * j + 3, F * j + 7));
      expect(rotationGap(got, want), `character ${c} joint ${j}`).toBeLessThan(tolerance);
    }
    batch.constraints.forEach((k, i) => {
      expect(k.reached[c]).toBe(rig.results[4 * i]);
      expect(k.distance[c]).toBeCloseTo(rig.results[4 * i + 1], 3);
    });
  });
}

describe('every character is its own Rig', () => {
  it('random rest poses and axes, poles on and off, per-character weights (settleTime 0)', () => {
    fc.assert(fc.property(restCase, fc.integer({ min: 1, max: 19 }), fc.boolean(), (rc, count, poles) => {
      const rig = buildRig(restPose(rc));
      const batch = new ikpd.RigBatch({ rig, count });
      const rigs = Array.from({ length: count }, () => buildRig(restPose(rc)));
      try {
        batch.poleSet.fill(poles ? 1 : 0);
        for (let c = 0; c < count; c++) fillCharacter(batch, rig, c, 0.3);
        batch.update(1 / 60);
        rigs.forEach((r, c) => { feedRig(r, batch, c, 1); r.update(1 / 60); });
        expectSameAsRigs(batch, rigs, 2e-5);
      } finally {
        [rig, batch, ...rigs].forEach((o) => o.dispose());
      }
    }), { numRuns: 40 });
  });

  it('pseudo three-bone stacks without smoothing: each character is its Rig bit for bit (docs/rig/rig-batch.md)', () => {
    fc.assert(fc.property(restCase, fc.integer({ min: 1, max: 19 }), fc.boolean(), (rc, count, poles) => {
      const build = () => {
        const r = new ikpd.Rig({ parents: PARENTS, rest: restPose(rc) });
        r.add('pseudoThreeBone', { joints: [9, 10, 11, 12] });
        r.add('pseudoThreeBone', { joints: [0, 3, 4, 5] });
        r.add('pseudoThreeBone', { joints: [0, 6, 7, 8], blend: 0.3 });
        return r;
      };
      const rig = build();
      const batch = new ikpd.RigBatch({ rig, count });
      const rigs = Array.from({ length: count }, build);
      try {
        batch.poleSet.fill(poles ? 1 : 0);
        for (let c = 0; c < count; c++) fillCharacter(batch, rig, c, 0.7);
        batch.update(1 / 60);
        rigs.forEach((r, c) => { feedRig(r, batch, c, 1); r.update(1 / 60); });
        expectSameAsRigs(batch, rigs, Number.MIN_VALUE); // rotationGap 0: the same floats (up to sign)
      } finally {
        [rig, batch, ...rigs].forEach((o) => o.dispose());
      }
    }), { numRuns: 30 });
  });

  for (const hz of [30, 60, 240]) {
    it(`smoothing and a blend-out at ${hz} Hz track the Rig and end exactly at the animated pose`, () => {
      const rest = restPose({ rest: Array.from({ length: 13 }, (_, j) => axisAngle([1, j % 3, 0.5], 0.3 * j)), axes: Array(13).fill([0, 0.4, 0]), scale: 1 });
      const settings = { settleTime: 0.15, blendOutTime: 0.05 };
      const rig = buildRig(rest, settings);
      const count = 9;
      const batch = new ikpd.RigBatch({ rig, count });
      const rigs = Array.from({ length: count }, () => buildRig(rest, settings));
      try {
        for (let c = 0; c < count; c++) fillCharacter(batch, rig, c, 0.1);
        const frames = Math.round(1.5 * hz);
        for (let f = 0; f < frames; f++) {
          if (f === Math.round(0.5 * hz)) {
            batch.constraints.forEach((k) => k.set({ enabled: false }));
            rigs.forEach((r) => r.constraints.forEach((k) => k.set({ enabled: false })));
          }
          batch.update(1 / hz);
          rigs.forEach((r, c) => { feedRig(r, batch, c, 1); r.update(1 / hz); });
          expectSameAsRigs(batch, rigs, 1e-4);
        }
        expect(Array.from(batch.output)).toEqual(Array.from(batch.rotations));
      } finally {
        [rig, batch, ...rigs].forEach((o) => o.dispose());
      }
    });
  }
});

describe('views and defaults', () => {
  it('views are joint-major and start as the typings say (@default)', () => {
    const rest = restPose({ rest: Array.from({ length: 13 }, (_, j) => axisAngle([0, 1, 0], 0.1 * j)), axes: Array(13).fill([0, 0.4, 0]), scale: 1.5 });
    const rig = buildRig(rest);
    const batch = new ikpd.RigBatch({ rig, count: 3 });
    try {
      expect(batch.jointCount).toBe(13);
      for (let j = 0; j < 13; j++) {
        for (let c = 0; c < 3; c++) {
          expect(Array.from(batch.rotations.subarray(4 * (j * 3 + c), 4 * (j * 3 + c) + 4))).toEqual(Array.from(rig.input.subarray(F * j + 3, F * j + 7)));
          expect(Array.from(batch.translations.subarray(3 * (j * 3 + c), 3 * (j * 3 + c) + 3))).toEqual(Array.from(rig.input.subarray(F * j, F * j + 3)));
          expect(Array.from(batch.scales.subarray(3 * (j * 3 + c), 3 * (j * 3 + c) + 3))).toEqual(Array.from(rig.input.subarray(F * j + 7, F * j + 10)));
        }
      }
      // Every `@default` in rigBatch.d.ts is each character's starting value.
      const source = readFileSync(new URL('../../../web/types/rig/rigBatch.d.ts', import.meta.url), 'utf8');
      const defaults = [...source.matchAll(/@default ([^*\n]+?) \*\/\s*readonly (\w+):/g)].map((m) => [m[2], JSON.parse(m[1])]);
      expect(defaults.map(([name]) => name).sort()).toEqual(['poleSet', 'poles', 'rootPositions', 'rootRotations', 'rootScales', 'targets', 'weights']);
      for (const [name, value] of defaults) {
        const list = [batch, ...batch.constraints].filter((o) => name in o).map((o) => o[name]);
        for (const view of list) {
          const k = Array.isArray(value) ? value.length : 1;
          for (let i = 0; i < view.length; i++) expect(view[i], name).toBe(Array.isArray(value) ? value[i % k] : value);
        }
      }
      expect(batch.output.length).toBe(4 * 13 * 3);
      expect(batch.poleSet.length).toBe(4);
    } finally {
      batch.dispose();
      rig.dispose();
    }
  });

  it('settings are the rig\'s, copied: set() on the batch changes the batch only', () => {
    const rig = buildRig(restPose({ rest: Array(13).fill([0, 0, 0, 1]), axes: Array(13).fill([0, -0.4, 0]), scale: 1 }));
    const batch = new ikpd.RigBatch({ rig, count: 2 });
    try {
      expect(batch.constraints.map((k) => k.kind)).toEqual(['twoBone', 'twoBone', 'pseudoThreeBone', 'aim']);
      batch.constraints[0].set({ weight: 0.25 });
      expect(batch.constraints[0].get('weight')).toBe(0.25);
      expect(rig.constraints[0].get('weight')).toBe(1);
      expect(() => batch.constraints[0].set({ wieght: 1 })).toThrow(/weight/);
      expect(() => batch.constraints[0].set({ weight: 2 })).toThrow(RangeError);
      expect(batch.constraints[0].get('weight')).toBe(0.25);
    } finally {
      batch.dispose();
      rig.dispose();
    }
  });
});

describe('bad input', () => {
  const rest = restPose({ rest: Array(13).fill([0, 0, 0, 1]), axes: Array(13).fill([0, -0.4, 0]), scale: 1 });

  it('options, count and kinds are checked before anything is made', () => {
    const rig = buildRig(rest);
    try {
      expect(() => new ikpd.RigBatch({ rig, count: 0 })).toThrow(RangeError);
      expect(() => new ikpd.RigBatch({ rig, count: 1.5 })).toThrow(/count/);
      expect(() => new ikpd.RigBatch({ rig, count: '3' })).toThrow(TypeError);
      expect(() => new ikpd.RigBatch({ rig: {}, count: 3 })).toThrow(/rig: expected an ikpd Rig/);
      expect(() => new ikpd.RigBatch({ rig, count: 3, cuont: 1 })).toThrow(/count/);
      const look = new ikpd.Rig({ parents: PARENTS, rest });
      look.add('twoBone', { joints: [3, 4, 5] });
      look.add('lookAt', { joints: [0, 1, 2] });
      expect(() => new ikpd.RigBatch({ rig: look, count: 3 })).toThrow(/constraints\[1\].*lookAt/);
      look.dispose();
      expect(() => new ikpd.RigBatch({ rig: look, count: 3 })).toThrow(/dispose/);
    } finally {
      rig.dispose();
    }
  });

  it('a bad frame value names the character and changes nothing', () => {
    const rig = buildRig(rest, { settleTime: 0.1 });
    const batch = new ikpd.RigBatch({ rig, count: 11 });
    const twin = new ikpd.RigBatch({ rig, count: 11 });
    try {
      for (const b of [batch, twin]) for (let c = 0; c < 11; c++) fillCharacter(b, rig, c, 0.2);
      batch.update(1 / 60);
      twin.update(1 / 60);
      const before = batch.output.slice();
      const cases = [
        [() => { batch.rotations.fill(0, 4 * (3 * 11 + 7), 4 * (3 * 11 + 8)); }, /characters\[7\]\.in\[3\]\.rotation/],
        [() => { batch.translations[3 * (5 * 11 + 2)] = NaN; }, /characters\[2\]\.in\[5\]\.translation/],
        [() => { batch.rootScales[4] = 0; }, /characters\[4\]\.root\.scale/],
        [() => { batch.constraints[2].targets[3 * 9 + 1] = Infinity; }, /constraints\[2\]\.targets\[9\]/],
        [() => { batch.constraints[1].weights[6] = 1.5; }, /constraints\[1\]\.weights\[6\]/],
      ];
      for (const [spoil, message] of cases) {
        const saved = [batch.rotations.slice(), batch.translations.slice(), batch.rootScales.slice(), ...batch.constraints.flatMap((k) => [k.targets.slice(), k.weights.slice()])];
        spoil();
        expect(() => batch.update(1 / 60)).toThrow(message);
        expect(Array.from(batch.output)).toEqual(Array.from(before));
        batch.rotations.set(saved[0]); batch.translations.set(saved[1]); batch.rootScales.set(saved[2]);
        batch.constraints.forEach((k, i) => { k.targets.set(saved[3 + 2 * i]); k.weights.set(saved[4 + 2 * i]); });
      }
      expect(() => batch.update(-1)).toThrow(/dt: must be finite and >= 0/);
      expect(() => batch.update('1')).toThrow(TypeError);
      // The smoothing state did not move either: the next frame equals a batch that never saw a bad call.
      batch.update(1 / 60);
      twin.update(1 / 60);
      expect(Array.from(batch.output)).toEqual(Array.from(twin.output));
    } finally {
      [batch, twin, rig].forEach((o) => o.dispose());
    }
  });

  it('dispose frees it; later calls throw', () => {
    const rig = buildRig(rest);
    const batch = new ikpd.RigBatch({ rig, count: 4 });
    rig.dispose(); // the batch holds its own copy
    batch.update(1 / 60);
    const [leg] = batch.constraints;
    batch.dispose();
    expect(() => batch.update(1 / 60)).toThrow(/after dispose/);
    expect(() => batch.output).toThrow(/after dispose/);
    // A constraint kept from before: no views of the freed memory either.
    for (const view of ['targets', 'poles', 'weights', 'reached', 'distance']) expect(() => leg[view]).toThrow(/after dispose/);
    expect(() => leg.set({ weight: 0.5 })).toThrow(/after dispose/);
  });
});
