// Every single-call solver takes an optional previous result as its last
// argument and fills it in place (no allocation per frame): the same values as
// a fresh call, the same arrays, the same object returned.
import { describe, expect, it } from 'vitest';
import { ikpd } from '../support/setup.js';

const joint = (x, y, z) => ({ position: [x, y, z], rotation: [0, 0, 0, 1] });
const jointArrays = (j) => [j.position, j.rotation];

// [solver, options, other options (a different pose for the previous result), the arrays a result owns, a bad option]
const SOLVERS = [
  [
    'solveAim',
    { position: [0, 1, 0], target: [2, 1, 1], forward: [0, 0, 1], pole: [0, 3, 0] },
    { position: [0, 1, 0], target: [-1, 0, 2] },
    (r) => [r.rotation],
    { weight: 2 },
  ],
  [
    'solveTwoBone',
    { root: joint(0, 0, 0), mid: joint(1, 0.1, 0), end: joint(2, 0, 0), target: [1.2, 0.9, 0.2], pole: [1, 2, 0], weight: 0.7 },
    { root: joint(0, 0, 0), mid: joint(1, 0.1, 0), end: joint(2, 0, 0), target: [0.5, -1, 0] },
    (r) => [r.root, r.mid, r.end].flatMap(jointArrays),
    { soften: -1 },
  ],
  [
    'solvePseudoThreeBone',
    { root: joint(0, 0, 0), mid: joint(1, -0.2, 0), end: joint(2, 0, 0), tip: joint(2.3, -0.1, 0), target: [1.8, 0.6, 0.2], blend: 0.4 },
    { root: joint(0, 0, 0), mid: joint(1, -0.2, 0), end: joint(2, 0, 0), tip: joint(2.3, -0.1, 0), target: [0, 2, 0] },
    (r) => [r.root, r.mid, r.end, r.tip].flatMap(jointArrays),
    { blend: 3 },
  ],
  [
    'solveChain',
    { joints: [joint(0, 0, 0), joint(0, 0.5, 0), joint(0, 1, 0), joint(0, 1.5, 0)], target: [0.8, 1.2, 0.4], method: 'fabrik', forward: [0, 1, 0] },
    { joints: [joint(0, 0, 0), joint(0, 0.5, 0), joint(0, 1, 0), joint(0, 1.5, 0)], target: [-1, 0.5, 0], forward: [0, 1, 0] },
    (r) => r.joints.flatMap(jointArrays),
    { iterations: -1 },
  ],
];

describe.each(SOLVERS)('%s(options, result)', (name, options, otherOptions, arraysOf, badOption) => {
  const solve = (...args) => ikpd[name](...args);

  it('fills the previous result in place and returns it', () => {
    const fresh = solve(options);
    const previous = solve(otherOptions);
    expect(previous).not.toEqual(fresh);
    const arrays = arraysOf(previous);
    const filled = solve(options, previous);
    expect(filled).toBe(previous);
    expect(filled).toEqual(fresh);
    arraysOf(filled).forEach((array, i) => expect(array).toBe(arrays[i]));
  });

  it('fills typed arrays in place and replaces missing or malformed parts', () => {
    const fresh = solve(options);
    const typed = mapNumberArrays(solve(otherOptions), (a) => (a.length === 3 ? Float32Array : Float64Array).from(a));
    const arrays = arraysOf(typed);
    const filled = solve(options, typed);
    arraysOf(filled).forEach((array, i) => {
      expect(array).toBe(arrays[i]);
      expect(Array.from(array)).toEqual(arraysOf(fresh)[i]);
    });
    expect(solve(options, {})).toEqual(fresh);
    expect(solve(options, mapNumberArrays(solve(otherOptions), (a) => a.slice(1)))).toEqual(fresh);
  });

  it('rejects a result that is not an object and leaves it untouched on an error', () => {
    expect(() => solve(options, null)).toThrow(/^result: expected an object/);
    expect(() => solve(options, [])).toThrow(TypeError);
    const previous = solve(otherOptions);
    const copy = structuredClone(previous);
    expect(() => solve({ ...options, ...badOption }, previous)).toThrow(RangeError);
    expect(previous).toEqual(copy);
  });
});

// `value` with every array of numbers in it replaced by map(array).
function mapNumberArrays(value, map) {
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (Array.isArray(v) && typeof v[0] === 'number') value[key] = map(v);
    else if (v !== null && typeof v === 'object') mapNumberArrays(v, map);
  }
  return value;
}
