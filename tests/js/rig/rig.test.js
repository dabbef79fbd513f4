// ikpd.Rig (docs/rig/rig.md): one constraint equals the single call, smoothing is
// pop-free at any rate, errors name their option and change nothing, views
// survive WASM memory growth, and update() allocates nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';
import { add, axisAngle, conj, distance, quatMul, quatNormalize, rotate } from '../../support/ik-math.js';

const F = 10; // floats per local

// World transforms of every joint from packed locals (doubles; parents first).
function fk(parents, locals, root = [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]) {
  const world = [];
  const top = { position: root.slice(0, 3), rotation: quatNormalize(root.slice(3, 7)), scale: root.slice(7, 10) };
  for (let j = 0; j < parents.length; j++) {
    const p = parents[j] >= 0 ? world[parents[j]] : top;
    const l = Array.from(locals.slice(F * j, F * j + F));
    const t = [p.scale[0] * l[0], p.scale[1] * l[1], p.scale[2] * l[2]];
    world.push({
      position: add(p.position, rotate(p.rotation, t)),
      rotation: quatNormalize(quatMul(p.rotation, quatNormalize(l.slice(3, 7)))),
      scale: [p.scale[0] * l[7], p.scale[1] * l[8], p.scale[2] * l[9]],
    });
  }
  return world;
}

// Largest quaternion component difference (q and −q are the same rotation).
function rotationGap(a, b) {
  const s = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0 ? -1 : 1;
  return Math.max(...a.map((v, i) => Math.abs(v - s * b[i])));
}
const unitQuat = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }),
  fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter((q) => Math.hypot(...q) > 0.1).map(quatNormalize);
const vec = (s) => fc.tuple(fc.double({ min: -s, max: s, noNaN: true }), fc.double({ min: -s, max: s, noNaN: true }), fc.double({ min: -s, max: s, noNaN: true }));

// A chain 0 → 1 → … → n−1: bones along each parent's +X (the `forward` the
// single calls are given) of random length, random rest and pose rotations.
const chainCase = (n) => fc.record({
  bones: fc.array(fc.double({ min: 0.3, max: 1.5, noNaN: true }).map((l) => [l, 0, 0]), { minLength: n, maxLength: n }),
  rest: fc.array(unitQuat, { minLength: n, maxLength: n }),
  pose: fc.array(unitQuat, { minLength: n, maxLength: n }),
  target: vec(3),
});
const packed = (bones, rotations) => {
  const out = new Float32Array(F * bones.length);
  bones.forEach((b, j) => out.set([...b, ...rotations[j], 1, 1, 1], F * j));
  return out;
};
const parentsOf = (n) => Array.from({ length: n }, (_, j) => j - 1);

describe('one constraint equals the single call', () => {
  it('twoBone: the rig\'s locals give solveTwoBone\'s world pose (random poses and rest rotations)', () => {
    fc.assert(fc.property(chainCase(5), ({ bones, rest, pose, target }) => {
      const parents = parentsOf(5);
      const rig = new ikpd.Rig({ parents, rest: packed(bones, rest) });
      try {
        // Joint-local axes given (+X bone, +Z hinge): the canonical frames are the identity.
        const c = rig.add('twoBone', { joints: [1, 2, 3], forward: [1, 0, 0], bendAxis: [0, 0, 1] });
        rig.input.set(packed(bones, pose));
        rig.frames.set(target, c.frameOffset);
        rig.update(1 / 60);
        const before = fk(parents, rig.input);
        const after = fk(parents, rig.output);
        const joint = (w) => ({ position: w.position, rotation: w.rotation });
        const solved = ikpd.solveTwoBone({ root: joint(before[1]), mid: joint(before[2]), end: joint(before[3]), target });
        ['root', 'mid', 'end'].forEach((name, k) => {
          expect(rotationGap(after[1 + k].rotation, solved[name].rotation)).toBeLessThan(2e-5);
          expect(distance(after[1 + k].position, solved[name].position)).toBeLessThan(1e-4);
        });
        expect(rig.results[c.resultOffset + 1]).toBeCloseTo(solved.distance, 4);
      } finally {
        rig.dispose();
      }
    }), { numRuns: 200 });
  });

  it('aim: equals solveAim with the same axis', () => {
    fc.assert(fc.property(chainCase(3), ({ bones, rest, pose, target }) => {
      const parents = parentsOf(3);
      const rig = new ikpd.Rig({ parents, rest: packed(bones, rest) });
      try {
        const c = rig.add('aim', { joints: [2], forward: [1, 0, 0], method: 'shortestArc' });
        rig.input.set(packed(bones, pose));
        rig.frames.set(target, c.frameOffset);
        rig.update(0);
        const before = fk(parents, rig.input);
        const after = fk(parents, rig.output);
        // Away from the degenerate target behind the joint (a half turn about an axis picked by rounding).
        const look = rotate(before[2].rotation, [1, 0, 0]);
        const to = [target[0] - before[2].position[0], target[1] - before[2].position[1], target[2] - before[2].position[2]];
        fc.pre(look[0] * to[0] + look[1] * to[1] + look[2] * to[2] > -0.99 * Math.hypot(...to));
        const solved = ikpd.solveAim({ position: before[2].position, rotation: before[2].rotation, target, forward: [1, 0, 0], method: 'shortestArc' });
        expect(rotationGap(after[2].rotation, solved.rotation)).toBeLessThan(2e-5);
      } finally {
        rig.dispose();
      }
    }), { numRuns: 200 });
  });

  it('pseudoThreeBone and chain: equal solvePseudoThreeBone and solveChain', () => {
    fc.assert(fc.property(chainCase(6), fc.double({ min: 0, max: 1, noNaN: true }), ({ bones, rest, pose, target }, blend) => {
      const parents = parentsOf(6);
      const rig = new ikpd.Rig({ parents, rest: packed(bones, rest) });
      try {
        const p3 = rig.add('pseudoThreeBone', { joints: [1, 2, 3, 4], forward: [1, 0, 0], bendAxis: [0, 0, 1], blend });
        rig.input.set(packed(bones, pose));
        rig.frames.set(target, p3.frameOffset);
        rig.update(0);
        const before = fk(parents, rig.input);
        const after = fk(parents, rig.output);
        const joint = (w) => ({ position: w.position, rotation: w.rotation });
        const solved = ikpd.solvePseudoThreeBone({
          root: joint(before[1]), mid: joint(before[2]), end: joint(before[3]), tip: joint(before[4]), target, blend,
        });
        ['root', 'mid', 'end', 'tip'].forEach((name, k) => {
          expect(rotationGap(after[1 + k].rotation, solved[name].rotation)).toBeLessThan(2e-5);
        });
      } finally {
        rig.dispose();
      }
      const chainRig = new ikpd.Rig({ parents, rest: packed(bones, rest) });
      try {
        const c = chainRig.add('chain', { joints: [1, 2, 3, 4, 5], forward: [1, 0, 0], iterations: 60 });
        chainRig.input.set(packed(bones, pose));
        chainRig.frames.set(target, c.frameOffset);
        chainRig.update(0);
        const before = fk(parents, chainRig.input);
        const after = fk(parents, chainRig.output);
        const solved = ikpd.solveChain({
          joints: before.slice(1).map((w) => ({ position: w.position, rotation: w.rotation })), target, forward: [1, 0, 0], iterations: 60,
        });
        // An iterative solve amplifies the float rounding of its inputs (the rig's float
        // forward kinematics against these doubles), and where FABRIK stalls both finish
        // with CCD sweeps that may settle in another pose: both tips end as close to
        // the target, and either both reach it or neither.
        const tip = distance(after[5].position, target);
        expect(Math.abs(tip - solved.distance)).toBeLessThan(1e-3);
        expect(tip <= 1e-3 || !solved.reached).toBe(true);
        expect(chainRig.results[c.resultOffset + 2]).toBeLessThanOrEqual(60);  // iterations run
      } finally {
        chainRig.dispose();
      }
    }), { numRuns: 100 });
  });

  it('twoBone with detected axes reaches the target on a +Y-boned, bent rig under a moved root', () => {
    const parents = [-1, 0, 1, 2];
    const rest = new Float32Array(F * 4);
    rest.set([0, 1, 0, 0, 0, 0, 1, 1, 1, 1], 0);
    rest.set([0.1, 0, 0, ...axisAngle([0, 0, 1], Math.PI), 1, 1, 1], F);  // the thigh points down
    rest.set([0, 0.45, 0, ...axisAngle([1, 0, 0], 0.2), 1, 1, 1], 2 * F);  // a slightly bent knee
    rest.set([0, 0.42, 0, 0, 0, 0, 1, 1, 1, 1], 3 * F);
    const rig = new ikpd.Rig({ parents, rest });
    const c = rig.add('twoBone', { joints: [1, 2, 3] });
    rig.root.set([2, 0, -1, ...axisAngle([0, 1, 0], 0.7), 2, 2, 2]);
    const world = fk(parents, rig.input, Array.from(rig.root));
    const target = add(world[1].position, [0.3, -1.2, 0.5]);
    rig.frames.set(target, c.frameOffset);
    rig.update(1 / 60);
    const after = fk(parents, rig.output, Array.from(rig.root));
    expect(distance(after[3].position, target)).toBeLessThan(1e-4 * 2 * 0.87);
    expect(rig.results[c.resultOffset]).toBe(1);
    expect(Array.from(rig.changed)).toEqual([0, 1, 1, 1]);
    rig.dispose();
  });
});

describe('smoothing', () => {
  // Runs 2 s at `hz`, toggling enabled at 0.5 s and 1.5 s; returns the largest per-frame
  // change of any local rotation (radians) and the pose every 1/30 s.
  function run(hz, settleTime) {
    const parents = [-1, 0, 1, 2];
    const rest = packed([[0, 0, 0], [0, 1, 0], [0, 1, 0], [0, 1, 0]], [[0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 0, 1]]);
    const rig = new ikpd.Rig({ parents, rest });
    const c = rig.add('twoBone', { joints: [1, 2, 3], settleTime });
    rig.frames.set([1.2, 0.5, 0.4], c.frameOffset);
    let previous = Array.from(rig.input);
    let largest = 0;
    const samples = [];
    for (let f = 0; f < 2 * hz; f++) {
      if (f * 30 % hz === 0) {
        const tick = f * 30 / hz;
        if (tick === 15) c.set({ enabled: false });
        if (tick === 45) c.set({ enabled: true, weight: 0.5 });
      }
      rig.update(1 / hz);
      const out = rig.output;
      for (let j = 0; j < 4; j++) {
        const a = previous.slice(F * j + 3, F * j + 7), b = Array.from(out.slice(F * j + 3, F * j + 7));
        largest = Math.max(largest, 2 * Math.acos(Math.min(1, Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]))));
      }
      previous = Array.from(out);
      if ((f + 1) * 30 % hz === 0) samples.push(previous);
    }
    rig.dispose();
    return { largest, samples };
  }

  it('enable toggling is pop-free and frame-rate independent at 30, 60 and 240 Hz', () => {
    const at30 = run(30, 0.25), at60 = run(60, 0.25), at240 = run(240, 0.25);
    let gap = 0;
    at30.samples.forEach((s, i) => {
      for (let j = 0; j < 4; j++) {
        const q = s.slice(F * j + 3, F * j + 7);
        for (const other of [at60, at240]) gap = Math.max(gap, rotationGap(q, other.samples[i].slice(F * j + 3, F * j + 7)));
      }
    });
    expect(gap).toBeLessThan(1e-3);
    expect(at240.largest).toBeLessThan(0.3 * at60.largest);
    expect(at60.largest).toBeLessThan(0.75 * at30.largest);
    expect(run(240, 0).largest).toBeGreaterThan(0.3);  // unsmoothed, the toggle pops: the test can tell
  });
});

describe('errors', () => {
  const make = () => {
    const rig = new ikpd.Rig({ parents: [-1, 0, 1, 2], names: ['hips', 'upper', 'lower', 'hand'] });
    rig.input.set([0, 1, 0], F);
    rig.input.set([0, 1, 0], 2 * F);
    rig.input.set([0, 1, 0], 3 * F);
    rig.setRest(rig.input.slice());
    const c = rig.add('twoBone', { joints: [1, 2, 3], settleTime: 0.2 });
    rig.frames.set([0.5, 1, 0.5], c.frameOffset);
    return [rig, c];
  };

  it('name the option, and a failed call changes nothing (a twin rig agrees afterwards)', () => {
    const [rig, c] = make();
    const [twin] = make();
    for (let f = 0; f < 5; f++) {
      rig.update(1 / 60);
      twin.update(1 / 60);
      const output = Array.from(rig.output);
      expect(() => rig.add('fourBone', { joints: [0] })).toThrow(new RangeError("kind: expected one of 'aim', 'twoBone', 'pseudoThreeBone', 'chain', 'lookAt', 'bodyLookAt', 'grounding', 'twist', 'avatar', 'springs', got 'fourBone'"));
      expect(() => rig.add('twoBone', { joints: [1, 3, 2] })).toThrow(/^constraints\[1\]\.joints\[2\]: must be a descendant/);
      expect(() => rig.add('twoBone', { joints: [1, 2, 9] })).toThrow(/^constraints\[1\]\.joints\[2\]: must be a joint index/);
      expect(() => rig.add('twoBone', { joints: [1, 2] })).toThrow(/^constraints\[1\]\.joints: needs 3 to 3 joints/);
      expect(() => rig.add('twoBone', {})).toThrow(TypeError);
      expect(() => c.set({ poleMod: 'point' })).toThrow(/^constraints\[0\]\.poleMod: unknown option of Rig\.twoBone; expected one of /);
      expect(() => c.set({ wieght: 0.5 })).toThrow(/^constraints\[0\]\.wieght: unknown option of Rig\.twoBone \(did you mean 'weight'\?\)/);
      expect(() => c.set({ weight: 2 })).toThrow(new RangeError('constraints[0].weight: must be in [0, 1], got 2'));
      expect(() => c.set({ bendDirection: 'up' })).toThrow(/^constraints\[0\]\.bendDirection: expected one of/);
      expect(() => c.set({ maxStretch: 1.5 })).toThrow(/^constraints\[0\]\.maxStretch:/);
      expect(() => rig.update(-1)).toThrow(new RangeError('dt: must be finite and >= 0, got -1'));
      expect(() => rig.update(NaN)).toThrow(/^dt:/);
      expect(() => rig.update('1')).toThrow(TypeError);
      rig.input[F + 3] = NaN;
      expect(() => rig.update(1 / 60)).toThrow(/^in\[1\]\.rotation:/);
      rig.input[F + 3] = 0;
      expect(Array.from(rig.output)).toEqual(output);
      expect(rig.constraints.length).toBe(1);
      expect(c.get('weight')).toBe(1);
      expect(c.options.settleTime).toBe(0.2);
    }
    rig.update(1 / 60);
    twin.update(1 / 60);
    expect(Array.from(rig.output)).toEqual(Array.from(twin.output));
    expect(Array.from(rig.results)).toEqual(Array.from(twin.results));
    rig.dispose();
    twin.dispose();
  });

  it('a disposed rig and its constraints throw a clear error; dispose is idempotent', () => {
    const [rig, c] = make();
    rig.dispose();
    rig.dispose();
    expect(() => rig.update(0)).toThrow(new Error('Rig: used after dispose()'));
    expect(() => rig.output).toThrow(new Error('Rig: used after dispose()'));
    expect(() => c.set({ weight: 0.5 })).toThrow(new Error('Rig: used after dispose()'));
  });

  it('bad constructor options name themselves', () => {
    expect(() => new ikpd.Rig({ parents: [-1, 0, 3] })).toThrow(new RangeError('parents[2]: must be -1 or the index of an earlier joint, got 3'));
    expect(() => new ikpd.Rig({ parents: [] })).toThrow(/^parents: needs 1 to 1024/);
    expect(() => new ikpd.Rig({ parents: [-1, 0], rest: new Float32Array(5) })).toThrow(/^rest:/);
    expect(() => new ikpd.Rig({ parents: [-1, 0], names: ['a'] })).toThrow(/^names:/);
    expect(() => new ikpd.Rig({ parents: [-1], facing: [0, 0, 0] })).toThrow(/^facing:/);
  });
});

describe('memory', () => {
  it('views survive WASM memory growth (re-created by the getters)', () => {
    const rig = new ikpd.Rig({ parents: [-1, 0, 1] });
    const c = rig.add('aim', { joints: [2] });
    const input = rig.input;
    input[F] = 0.5;
    rig.frames.set([1, 2, 3], c.frameOffset);
    const before = ikpd.memoryStats().heapBytes;
    const big = [];
    while (ikpd.memoryStats().heapBytes === before) big.push(ikpd.hdr.createBuffer(1 << 20, 4));
    expect(input.length).toBe(0);  // the old view was detached by the growth
    expect(rig.input.length).toBe(30);
    expect(rig.input[F]).toBe(0.5);
    expect(Array.from(rig.frames.slice(0, 3))).toEqual([1, 2, 3]);
    rig.update(1 / 60);
    expect(rig.results[c.resultOffset + 3]).toBe(1);
    for (const b of big) b.dispose();
    rig.dispose();
  });

  it('update() allocates nothing', () => {
    const rig = new ikpd.Rig({ parents: [-1, 0, 1, 2, 3, 4] });
    for (let j = 1; j < 6; j++) rig.input.set([0, 0.3, 0], F * j);
    rig.setRest(rig.input.slice());
    rig.add('chain', { joints: [1, 2, 3, 4], settleTime: 0.1 });
    rig.add('lookAt', { joints: [2, 3, 4, 5] });
    rig.frames.set([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1]);
    rig.update(1 / 60);
    const before = ikpd.memoryStats().usedBytes;
    for (let f = 0; f < 1000; f++) rig.update(1 / 60);
    expect(ikpd.memoryStats().usedBytes).toBe(before);
    rig.dispose();
  });
});

describe("chain limitFrames (docs/rig/rig.md, 'Chain limits')", () => {
  it("'local' limits the joints' own local rotations; a bad value or euler limits on mixed axes are named and change nothing", () => {
    // +Y bones with rest rotations: a hinge about local Z (euler x, y in [0, 0]) keeps every local rotation a Z turn.
    const rest = [[0, 0, 0, 0, 0, 0, 1, 1, 1, 1]];
    for (let j = 1; j < 5; j++) rest.push([0, 0.4, 0, ...quatNormalize([0.1 * j, 0.3, -0.2, 1]), 1, 1, 1]);
    const rig = new ikpd.Rig({ parents: parentsOf(5), rest: rest.flat() });
    expect(ikpd.Rig.defaults.chain.limitFrames).toBe('canonical');
    const hinge = { type: 'euler', min: [0, 0, -3], max: [0, 0, 3] };
    const c = rig.add('chain', { joints: [0, 1, 2, 3, 4], limits: [hinge, hinge, hinge, hinge, hinge], limitFrames: 'local', iterations: 40, method: 'ccd' });
    expect(c.options.limitFrames).toBe('local');
    rig.input.set(rest.flat());
    rig.frames.set([0.5, 0.6, 0.3], c.frameOffset);
    rig.update(0);
    for (let j = 0; j < 4; j++) {
      const [x, y] = rig.output.slice(F * j + 3, F * j + 5);
      expect(Math.hypot(x, y), `joint ${j}`).toBeLessThan(1e-5); // a turn about local Z only
    }
    expect(() => c.set({ limitFrames: 'world' })).toThrow(/limitFrames: expected one of 'canonical', 'local'/);
    expect(c.options.limitFrames).toBe('local');
    // Mixed bone axes: euler limits on local rotations are an error naming limits; cones are fine.
    const mixed = new ikpd.Rig({ parents: parentsOf(4), rest: [[0, 0, 0], [0.4, 0, 0], [0, 0.4, 0], [0, 0, 0.4]].flatMap((t) => [...t, 0, 0, 0, 1, 1, 1, 1]) });
    expect(() => mixed.add('chain', { joints: [0, 1, 2, 3], limits: [hinge, hinge, hinge, hinge], limitFrames: 'local' }))
      .toThrow(/limits: 'euler' limits on local rotations need joints that share one bone axis/);
    expect(mixed.constraints).toHaveLength(0);
    mixed.add('chain', { joints: [0, 1, 2, 3], limits: [hinge, hinge, hinge, hinge] }); // on the canonical frames: fine
    mixed.add('chain', { joints: [0, 1, 2, 3], limits: [0, 1, 2, 3].map(() => ({ type: 'cone', angle: 0.5 })), limitFrames: 'local' });
    mixed.dispose();
    rig.dispose();
  });
});

describe('clearSmoothing', () => {
  it('gives the first frame again: the next update equals a fresh rig\'s first (smoothed limb and look-at)', () => {
    const n = 5;
    const bones = Array.from({ length: n }, () => [0.5, 0, 0]);
    const rest = Array.from({ length: n }, () => [0, 0, 0, 1]);
    const pose = Array.from({ length: n }, (_, j) => quatNormalize([0.1 * j, 0, 0.05, 1]));
    const make = () => {
      const rig = new ikpd.Rig({ parents: parentsOf(n), rest: packed(bones, rest) });
      const limb = rig.add('twoBone', { joints: [1, 2, 3], settleTime: 0.2 });
      const look = rig.add('lookAt', { joints: [0, 4] });
      rig.input.set(packed(bones, pose));
      return { rig, limb, look };
    };
    const frame = ({ rig, limb, look }, t) => {
      rig.frames.set([0.6, 0.4 + t, 0.2], limb.frameOffset);
      rig.frames.set([1, 2, 3 - t], look.frameOffset);
      rig.update(1 / 60);
      return Array.from(rig.output);
    };
    const used = make();
    const fresh = make();
    try {
      for (let i = 0; i < 20; i++) frame(used, 0.02 * i);
      expect(frame(used, 0)).not.toEqual(frame(fresh, 0)); // smoothing state differs before clearing
      const again = make();
      try {
        expect(used.rig.clearSmoothing()).toBe(used.rig);
        expect(frame(used, 0)).toEqual(frame(again, 0));
        expect(Array.from(used.rig.results)).toEqual(Array.from(again.rig.results));
      } finally {
        again.rig.dispose();
      }
    } finally {
      used.rig.dispose();
      fresh.rig.dispose();
    }
  });

  it('throws on a disposed rig', () => {
    const rig = new ikpd.Rig({ parents: [-1, 0] });
    rig.dispose();
    expect(() => rig.clearSmoothing()).toThrow();
  });
});
