// A coordinate that is finite as a double but not as a float32 (1e39) is
// named by element, like NaN in the same place: it was reported by group
// ("spine: positions must be finite") once C++ saw it as Infinity.
import { describe, expect, it } from 'vitest';
import { ikpd } from '../support/setup.js';

const joint = (x, y, z) => ({ position: [x, y, z], rotation: [0, 0, 0, 1] });
const spine = () => [joint(0, 1, 0), joint(0, 1.3, 0), joint(0, 1.6, 0.02)];
const limb = (x) => [joint(x, 1.3, 0), joint(x + 0.25, 1.3, 0), joint(x + 0.5, 1.3, 0)];

// [name, the element's path in errors, run(bad) calling the entry point with `bad` as that element]
const CASES = [
  ['BodyLookAt spine', 'spine[1].position[1]', (bad) => {
    const rig = new ikpd.BodyLookAt({ spineJoints: 3 });
    try {
      const s = spine();
      s[1].position[1] = bad;
      rig.update(1 / 60, { spine: s, target: [1, 2, 1] });
    } finally { rig.dispose(); }
  }],
  ['BodyLookAt arms', 'arms[2].position[0]', (bad) => {
    const rig = new ikpd.BodyLookAt({ spineJoints: 3 });
    try {
      const arms = limb(0.2);
      arms[2].position[0] = bad;
      rig.update(1 / 60, { spine: spine(), arms, target: [1, 2, 1] });
    } finally { rig.dispose(); }
  }],
  ['BodyLookAt legs', 'legs[0].position[2]', (bad) => {
    const rig = new ikpd.BodyLookAt({ spineJoints: 3 });
    try {
      const legs = limb(0.1);
      legs[0].position[2] = bad;
      rig.update(1 / 60, { spine: spine(), legs, target: [1, 2, 1] });
    } finally { rig.dispose(); }
  }],
  ['LookAt joints', 'joints[1].position[1]', (bad) => {
    const rig = new ikpd.LookAt({ weights: [0.5, 1] });
    try {
      rig.update(1 / 60, { joints: [joint(0, 0, 0), joint(0, bad, 0)], target: [1, 2, 1] });
    } finally { rig.dispose(); }
  }],
  ['solveChain joints', 'joints[2].position[0]', (bad) => {
    ikpd.solveChain({ joints: [joint(0, 0, 0), joint(0, 1, 0), joint(bad, 2, 0)], target: [1, 1, 0] });
  }],
  ['solveChain joints as Vector3-like objects', 'joints[1].position[2]', (bad) => {
    ikpd.solveChain({ joints: [joint(0, 0, 0), { position: { x: 0, y: 1, z: bad } }, joint(0, 2, 0)], target: [1, 1, 0] });
  }],
  ['solveChain target (Float64Array)', 'target[1]', (bad) => {
    ikpd.solveChain({ joints: [joint(0, 0, 0), joint(0, 1, 0)], target: new Float64Array([0, bad, 0]) });
  }],
  ['solveTwoBone rotation', 'mid.rotation[3]', (bad) => {
    ikpd.solveTwoBone({ root: joint(0, 0, 0), mid: { position: [1, 0, 0], rotation: [0, 0, 0, bad] }, end: joint(2, 0, 0), target: [1, 1, 0] });
  }],
  ['TwoBoneSolver target', 'target[0]', (bad) => {
    const solver = new ikpd.TwoBoneSolver();
    try {
      solver.solve({ root: joint(0, 0, 0), mid: joint(1, 0, 0), end: joint(2, 0, 0), target: [bad, 1, 0] });
    } finally { solver.dispose(); }
  }],
];

const escape = (text) => text.replace(/[[\].]/g, '\\$&');

describe('float32 overflow is named by element', () => {
  it.each(CASES)('%s', (_, path, run) => {
    expect(() => run(0.5)).not.toThrow();
    expect(() => run(NaN)).toThrow(new RegExp(`^${escape(path)}: must be a finite number, got NaN$`));
    for (const bad of [1e39, -1e39, 3.5e38]) {
      expect(() => run(bad)).toThrow(new RegExp(`^${escape(path)}: must be finite as a 32-bit float`));
    }
    expect(() => run(3.4028234663852886e38)).not.toThrow(/32-bit float/); // FLT_MAX itself is a float
  });
});
