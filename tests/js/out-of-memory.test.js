// Allocations WASM memory cannot hold are errors naming the parameter, and the
// module keeps working after them (they trapped with "memory access out of
// bounds" and every later call trapped too). This file runs in its own module
// instance (Vitest isolates files), so filling its memory touches no other test.
import { describe, expect, it } from 'vitest';
import { ikpd } from '../support/setup.js';

// The module still works: memory statistics, a small batch that solves, a single call.
function expectWorkingModule() {
  const stats = ikpd.memoryStats();
  expect(stats.usedBytes).toBeGreaterThan(0);
  expect(stats.heapBytes).toBeGreaterThanOrEqual(stats.usedBytes);
  const batch = new ikpd.TwoBoneBatch(4);
  batch.input.target.set([1, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0]);
  batch.input.midPosition.set([1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0]);
  batch.input.endPosition.set([2, 0, 0, 2, 0, 0, 2, 0, 0, 2, 0, 0]);
  batch.solve();
  expect(Array.from(batch.output.reached)).toEqual([1, 1, 1, 1]);
  batch.dispose();
  const joint = (x) => ({ position: [x, 0, 0] });
  expect(ikpd.solveTwoBone({ root: joint(0), mid: joint(1), end: joint(2), target: [1, 1, 0] }).reached).toBe(true);
}

describe('allocations beyond WASM memory', () => {
  it('a batch too large for memory is a RangeError naming count', () => {
    const before = ikpd.memoryStats().usedBytes;
    expect(() => new ikpd.TwoBoneBatch(12_000_000)).toThrow(new RangeError('count: out of WASM memory for 12000000 items'));
    expect(() => new ikpd.PseudoThreeBoneBatch(1 << 24)).toThrow(/^count: out of WASM memory/);
    expect(ikpd.memoryStats().usedBytes).toBe(before); // nothing kept
    expectWorkingModule();
  });

  it('a smaller batch once the heap is full is a RangeError too', () => {
    const big = new ikpd.TwoBoneBatch(8e6);
    expect(() => new ikpd.TwoBoneBatch(3e6)).toThrow(/^count: out of WASM memory for 3000000 items$/);
    expect(() => new ikpd.QuatPDBatch(1 << 24)).toThrow(/^count: out of WASM memory/);
    expectWorkingModule();
    big.input.target[0] = 1; // the big batch is intact
    expect(big.count).toBe(8e6);
    big.dispose();
    expectWorkingModule();
  });

  it('with WASM memory full, every object that allocates throws a RangeError naming its parameter; calls that do not allocate still work', () => {
    // Fill the heap: pixel buffers of halving sizes until not even one float fits.
    const held = [];
    for (let pixels = 1 << 26; pixels >= 1; pixels = Math.floor(pixels / 2)) {
      for (;;) {
        try {
          held.push(ikpd.hdr.createBuffer(pixels, 1));
        } catch (error) {
          expect(error.message).toMatch(/^pixelCount: out of WASM memory/);
          break;
        }
      }
    }
    const outOf = (name) => new RegExp(`^${name}: out of (WASM )?memory`);
    const joint = (x) => ({ position: [x, 0, 0] });
    const cases = [
      [() => new ikpd.PD(), 'options'],
      [() => new ikpd.QuatPD(), 'options'],
      [() => new ikpd.TwoBoneBatch(1), 'count'],
      [() => new ikpd.PDBatch(1), 'count'],
      [() => new ikpd.TwoBoneSolver(), 'options'],
      [() => new ikpd.ChainSolver(4), 'jointCount'],
      [() => new ikpd.LookAt({ weights: [0.5, 1] }), 'weights'],
      [() => new ikpd.BodyLookAt({ spineJoints: 3 }), '(options|spineJoints)'],
      [() => new ikpd.Tentacle2D({ lengths: [1, 1] }), 'lengths'],
      [() => ikpd.hdr.createBuffer(1, 1), 'pixelCount'],
      [() => ikpd.hdr.calibrationImage({ width: 16, height: 16 }), 'width'],
    ];
    for (const [make, name] of cases) expect(make).toThrow(outOf(name));
    // Single calls allocate nothing: they work with the heap full.
    expect(ikpd.solveTwoBone({ root: joint(0), mid: joint(1), end: joint(2), target: [1, 1, 0] }).reached).toBe(true);
    expect(ikpd.solveChain({ joints: [joint(0), joint(1), joint(2)], target: [1, 1, 0] }).reached).toBe(true);
    for (const buffer of held) buffer.dispose();
    expectWorkingModule();
    for (const [make] of cases) {
      const made = make();
      if (typeof made?.dispose === 'function') made.dispose();
    }
  });

  it('hdr.createBuffer beyond memory (2^28 RGBA pixels wrapped to 0 bytes) is a RangeError naming pixelCount', () => {
    expect(() => ikpd.hdr.createBuffer(2 ** 28, 4)).toThrow(new RangeError(`pixelCount: out of WASM memory for ${2 ** 28} pixels`));
    expect(() => ikpd.hdr.createBuffer(2 ** 28, 3)).toThrow(/^pixelCount: out of WASM memory/);
    const buffer = ikpd.hdr.createBuffer(8, 4);
    expect(buffer.data.length).toBe(32);
    buffer.dispose();
    expectWorkingModule();
  });
});
