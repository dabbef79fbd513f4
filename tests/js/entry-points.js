// Every JS entry point, with one valid call each, for the robustness tests
// (tests/js/robustness-api.test.js). `path` is the member of the ikpd object
// ('hdr.filmic' reaches ikpd.hdr.filmic); `args` builds fresh valid arguments.
// Entries whose function is not on the ikpd object yet are skipped, so the
// list can name the whole planned API (SPEC §9).
const joint = (x, y, z) => ({ position: [x, y, z], rotation: [0, 0, 0, 1] });

export const FUNCTIONS = [
  {
    path: 'solveAim',
    args: () => [{ position: [0.5, 1, -1], rotation: [0.1, 0.2, 0.3, 0.9], target: [2, 3, 1], forward: [0, 1, 0], up: [0, 0, 1], pole: [0, 1, 3], weight: 0.8 }],
  },
  {
    path: 'solveTwoBone',
    args: () => [{
      root: joint(0, 0, 0), mid: joint(1, 0.2, 0), end: joint(2, 0, 0), target: [1.2, 0.8, 0.3],
      pole: [1, 2, 0], forward: [1, 0, 0], bendAxis: [0, 0, 1], minAngle: 0.1, maxAngle: 3,
      effectorOffset: [0.05, 0, 0], weight: 0.9, soften: 0.1, maxStretch: 1.2, twist: 0.2,
    }],
  },
  {
    path: 'toLocalRotations',
    args: () => [[{ rotation: [0, 0, 0.3826834, 0.9238795] }, { rotation: [0, 0.2, 0, 1] }], [0, 0, 0, 1]],
  },
  {
    path: 'solveChain',
    args: () => [{
      joints: [joint(0, 0, 0), joint(0, 1, 0), joint(0.2, 2, 0), joint(0, 3, 0.1)], target: [1, 2, 0.5],
      method: 'fabrik', iterations: 10, tolerance: 1e-3, pole: [0, 1.5, 2], forward: [0, 1, 0],
      parentRotation: [0, 0, 0, 1],
      limits: [{ type: 'cone', angle: 1, axis: [0, 1, 0] }, { type: 'euler', min: [-1, -0.5, -1], max: [1, 0.5, 1] }, null],
    }],
  },
];
