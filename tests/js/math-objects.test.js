// The core API takes three.js math objects (duck-typed {x, y, z} and
// {x, y, z, w}) wherever it takes vectors and quaternions, with the same
// results as arrays, and rejects unknown option names (TypeError naming the nearest valid one).
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Quaternion, Vector3 } from 'three';
import { ikpd } from '../support/setup.js';

const v3 = ([x, y, z]) => new Vector3(x, y, z);
const plain3 = ([x, y, z]) => ({ x, y, z });
const q4 = ([x, y, z, w]) => new Quaternion(x, y, z, w);
const coord = fc.double({ min: -3, max: 3, noNaN: true });
const vec = fc.tuple(coord, coord, coord);
const quat = fc.tuple(coord, coord, coord, coord).filter((q) => Math.hypot(...q) > 0.1);

afterEach(() => vi.restoreAllMocks());

describe('three.js math objects in the core API', () => {
  it('solveTwoBone gives identical results for arrays, Vector3/Quaternion and {x, y, z}', () => {
    fc.assert(fc.property(vec, vec, quat, vec, (mid, target, rotation, pole) => {
      const arrays = {
        root: { position: [0, 0, 0], rotation },
        mid: { position: mid, rotation },
        end: { position: [mid[0] + 1, mid[1], mid[2]], rotation },
        target, pole,
      };
      const objects = {
        root: { position: v3([0, 0, 0]), rotation: q4(rotation) },
        mid: { position: plain3(mid), rotation: q4(rotation) },
        end: { position: v3([mid[0] + 1, mid[1], mid[2]]), rotation: q4(rotation) },
        target: v3(target), pole: plain3(pole),
      };
      let expected;
      try {
        expected = ikpd.solveTwoBone(arrays);
      } catch (error) {
        expect(() => ikpd.solveTwoBone(objects)).toThrow(error.message);
        return;
      }
      expect(ikpd.solveTwoBone(objects)).toEqual(expected);
    }), { numRuns: 2000 });
  });

  it('solveAim and the prepared solvers take Vector3/Quaternion', () => {
    const arrays = { position: [1, 2, 3], rotation: [0, 0, 0.6, 0.8], target: [4, -1, 2], pole: [0, 5, 0] };
    const objects = { position: v3(arrays.position), rotation: q4(arrays.rotation), target: v3(arrays.target), pole: v3(arrays.pole) };
    expect(ikpd.solveAim(objects)).toEqual(ikpd.solveAim(arrays));
    const solver = new ikpd.AimSolver({ pole: new Vector3(0, 5, 0) });
    const a = [...solver.solve({ position: [1, 2, 3], rotation: [0, 0, 0.6, 0.8], target: [4, -1, 2] }).rotation];
    expect(solver.solve({ position: v3([1, 2, 3]), rotation: q4([0, 0, 0.6, 0.8]), target: v3([4, -1, 2]) }).rotation).toEqual(a);
    solver.dispose();
  });

  it('rejects objects with missing or non-finite fields, naming the parameter', () => {
    const base = { root: { position: [0, 0, 0] }, mid: { position: [1, 0, 0] }, end: { position: [2, 0, 0] } };
    expect(() => ikpd.solveTwoBone({ ...base, target: { x: 1, y: 2 } })).toThrow(/target: expected an array of 3 numbers, or \{x, y, z\}/);
    expect(() => ikpd.solveTwoBone({ ...base, target: { x: 1, y: NaN, z: 0 } })).toThrow(/target\[1\]: must be a finite number/);
    expect(() => ikpd.solveTwoBone({ ...base, target: [0, 1] })).toThrow(TypeError);
    const rotated = { ...base, root: { position: [0, 0, 0], rotation: { x: 0, y: 0, z: 0 } }, target: [1, 1, 0] };
    expect(() => ikpd.solveTwoBone(rotated)).toThrow(/root.rotation: expected an array of 4 numbers, or \{x, y, z, w\}/);
    const zero = { ...base, root: { position: [0, 0, 0], rotation: new Quaternion(0, 0, 0, 0) }, target: [1, 1, 0] };
    expect(() => ikpd.solveTwoBone(zero)).toThrow(/root.rotation: quaternion must not be zero/);
  });

  it('rejects an unknown option name on every call, in production too, with the likely one', () => {
    const options = { root: { position: [0, 0, 0] }, mid: { position: [1, 0, 0] }, end: { position: [2, 0, 0] }, target: [1, 1, 0] };
    for (let i = 0; i < 100; i++) {
      expect(() => ikpd.solveTwoBone({ ...options, poll: [0, 0, 1] })).toThrow(/^poll: unknown option of solveTwoBone \(did you mean 'pole'\?\)/);
    }
    expect(ikpd.solveTwoBone(options).reached).toBe(true);
  });
});
