// Every JS entry point, with one valid call each, for the robustness tests
// (tests/js/robustness-api.test.js). `path` is the member of the ikpd object
// ('hdr.filmic' reaches ikpd.hdr.filmic); `args` builds fresh valid arguments.
// The lists name exactly the API (tests/js/api-inventory.test.js checks it
// against the loaded module and the package's exports). `runs` overrides the number
// of random cases per property (default RUNS); `result(value)` maps a result
// to plain data (and disposes what owns WASM memory) before it is checked;
// `name` labels a second entry for the same path; `fillsResult` marks calls
// whose last argument is a previous result, filled in place and returned.
import { ikpd } from './setup.js';

const joint = (x, y, z) => ({ position: [x, y, z], rotation: [0, 0, 0, 1] });
const aimOptions = () => ({
  position: [0.5, 1, -1], rotation: [0.1, 0.2, 0.3, 0.9], target: [2, 3, 1], forward: [0, 1, 0], up: [0, 0, 1], pole: [0, 1, 3], weight: 0.8,
});
const twoBoneOptions = () => ({
  root: joint(0, 0, 0), mid: joint(1, 0.2, 0), end: joint(2, 0, 0), target: [1.2, 0.8, 0.3],
  pole: [1, 2, 0], forward: [1, 0, 0], bendAxis: [0, 0, 1], minAngle: 0.1, maxAngle: 3,
  effectorOffset: [0.05, 0, 0], weight: 0.9, soften: 0.1, maxStretch: 1.2, twist: 0.2,
});
const pseudoThreeBoneOptions = () => ({
  root: joint(0, 0, 0), mid: joint(1, -0.2, 0), end: joint(2, 0, 0), tip: joint(2.3, -0.1, 0), target: [1.8, 0.6, 0.2],
  blend: 0.4, variant: 'followMid', endLimit: 0.8, pole: [1, 2, 0], forward: [1, 0, 0], bendAxis: [0, 0, 1],
  minAngle: 0.1, maxAngle: 3, weight: 0.9, soften: 0.1, maxStretch: 1.2, twist: 0.2, tolerance: 1e-3,
});
// A previous result to fill: arrays to reuse, a joint without rotation, a null joint and an extra key.
const previousJoints = () => [joint(9, 9, 9), { position: [1, 2, 3] }, null, { position: 'x', rotation: [1, 2] }];
// The rig RigBatch's entry copies (made once, kept for the whole run).
let template = null;
const batchTemplate = () => {
  if (template === null) {
    template = new ikpd.Rig({ parents: [-1, 0, 1, 2], rest: rigRest() });
    template.add('twoBone', { joints: [1, 2, 3], settleTime: 0.2 });
    template.add('aim', { joints: [3], weight: 0.5 });
  }
  return template;
};
// A rest pose for a 4-joint rig: bones along +Y, the second one bent by `bend` radians.
const rigRest = (bend = 0.2) => ([
  0, 1, 0, 0, 0, 0, 1, 1, 1, 1,
  0, 0.1, 0, 0, 0, 0, 1, 1, 1, 1,
  0, 0.4, 0, Math.sin(bend / 2), 0, 0, Math.cos(bend / 2), 1, 1, 1,
  0, 0.4, 0, 0, 0, 0, 1, 1, 1, 1,
]);
// Only the documented fields of a filled result: other keys of the caller's objects are left as they were.
const jointData = (j) => ({ position: j.position, rotation: j.rotation });

export const FUNCTIONS = [
  { path: 'solveAim', args: () => [aimOptions()] },
  {
    path: 'solveAim',
    name: 'solveAim(options, result)',
    fillsResult: true,
    args: () => [aimOptions(), { rotation: [1, 2, 3, 4], note: 'kept' }],
    result: ({ rotation }) => ({ rotation }),
  },
  { path: 'solveTwoBone', args: () => [twoBoneOptions()] },
  {
    path: 'solveTwoBone',
    name: 'solveTwoBone(options, result)',
    fillsResult: true,
    args: () => {
      const [root, mid, end] = previousJoints();
      return [twoBoneOptions(), { root, mid, end, reached: true, distance: 5, note: 'kept' }];
    },
    result: ({ root, mid, end, reached, distance }) => ({ root: jointData(root), mid: jointData(mid), end: jointData(end), reached, distance }),
  },
  {
    path: 'toLocalRotations',
    args: () => [[{ rotation: [0, 0, 0.3826834, 0.9238795] }, { rotation: [0, 0.2, 0, 1] }], [0, 0, 0, 1]],
  },
  { path: 'solvePseudoThreeBone', args: () => [pseudoThreeBoneOptions()] },
  {
    path: 'solvePseudoThreeBone',
    name: 'solvePseudoThreeBone(options, result)',
    fillsResult: true,
    args: () => {
      const [root, mid, end, tip] = previousJoints();
      return [pseudoThreeBoneOptions(), { root, mid, end, tip, reached: true, distance: 5 }];
    },
    result: ({ root, mid, end, tip, reached, distance }) => ({
      root: jointData(root), mid: jointData(mid), end: jointData(end), tip: jointData(tip), reached, distance,
    }),
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
  {
    // The same call filling a previous result in place (so it modifies its second argument).
    path: 'solveChain',
    name: 'solveChain(options, result)',
    fillsResult: true,
    args: () => [
      { joints: [joint(0, 0, 0), joint(0, 1, 0), joint(0.2, 2, 0)], target: [1, 1.5, 0.5], method: 'ccd', iterations: 8, limits: [{ type: 'cone', angle: 1 }, null] },
      { joints: [joint(9, 9, 9), { position: [1, 2, 3] }, null], reached: true, distance: 5, iterations: 1 },
    ],
    result: ({ joints, reached, distance, iterations }) => ({ joints: joints.map(jointData), reached, distance, iterations }),
  },
  { path: 'checkStability', args: () => [{ kp: 400, kd: 10, dt: 1 / 30, integrator: 'explicit' }], mayBeInfinite: true },
  { path: 'hdr.gammaEncode', args: () => [[0.2, 0.6, 1]] },
  { path: 'hdr.srgbDecode', args: () => [0.4] },
  { path: 'hdr.hdrFilmicCoefficients', args: () => [4] },
  { path: 'gainsFromSettleTime', args: () => [0.8, 'responsive'] },
  { path: 'gainsFromSmoothTime', args: () => [0.3] },
  { path: 'gainsFromHalfLife', args: () => [0.2] },
  { path: 'gainsFromSpring', args: () => [{ stiffness: 170, damping: 26, mass: 1.5 }] },
  { path: 'hdr.filmic', args: () => [0.7, { a: 3, b: 0.03, c: 2.43, d: 0.59, e: 0.14 }] },
  { path: 'hdr.hdrCurve', args: () => [[0.5, 2, 8], 4] },
  { path: 'hdr.toneMapHDR', args: () => [[0.2, 0.6, 1], 4] },
  { path: 'hdr.gammaDecode', args: () => [[0.2, 0.6, 1]] },
  { path: 'hdr.srgbEncode', args: () => [0.4] },
  { path: 'hdr.rec709ToRec2020', args: () => [[0.5, 0.2, 0.1]] },
  { path: 'hdr.rec2020ToRec709', args: () => [[0.5, 0.2, 0.1]] },
  { path: 'hdr.expandGamut', args: () => [[0.5, 0.2, 0.1], 0.5] },
  { path: 'hdr.normalizePaperWhite', args: () => [[0.5, 0.2, 4], 250] },
  { path: 'hdr.linearToPQ', args: () => [0.01] },
  { path: 'hdr.pqToLinear', args: () => [[0.1, 0.5, 0.9]] },
  {
    path: 'hdr.outputTransform',
    args: () => [[0.5, 0.2, 0.1], { paperWhite: 200, peak: 1000, saturation: 0.3, input: 'scene', encoding: 'pq' }],
  },
  {
    // Owns WASM memory: `result` turns the buffer into plain data and frees it.
    path: 'hdr.createBuffer',
    args: () => [64, 3],
    result: (buffer) => {
      const out = { pixelCount: buffer.pixelCount, channels: buffer.channels, length: buffer.data.length, zeroed: buffer.data.every((v) => v === 0) };
      buffer.dispose();
      return out;
    },
  },
  { path: 'memoryStats', args: () => [] },
  { path: 'hdr.sampleToneCurves', args: () => [{ paperWhite: 250, peak: 1000, count: 16, maxInput: 8 }] },
  // runs: a malformed size falls back to the default image (or a 4096² one): slow, so fewer cases.
  { path: 'hdr.calibrationImage', runs: 40, args: () => [{ width: 32, height: 16, paperWhite: 250, peak: 1000, encoding: 'extended' }] },
];

// Every class that owns WASM memory, with a valid constructor call and valid
// method calls (`observe` lists the getters that make up its state;
// `mayBeInfinite` the methods whose results may hold documented ±Infinity
// sentinels; `init(object)` prepares a new instance).
const pdOptions = { settleTime: 0.4, damping: 'responsive', maxVelocity: 50, ki: 0.5, blendOutTime: 0.2 };
export const CLASSES = [
  {
    name: 'PD',
    args: () => [{ ...pdOptions, value: 0.5 }],
    observe: ['value', 'velocity', 'target', 'blendPhase', 'kp', 'kd'],
    mayBeInfinite: ['timeToSettle', 'checkStability'],
    calls: {
      update: () => [1 / 60, 2, 0.5],
      reset: () => [1, -0.5],
      configure: () => [{ settleTime: 0.3, integrator: 'stable' }],
      stateAt: () => [0.25],
      timeToSettle: () => [0.01],
      checkStability: () => [1 / 30],
      blendOut: () => [1 / 60, 0],
      trackOffset: () => [1 / 60, 0.2, 0.7],
    },
  },
  {
    name: 'AnglePD',
    args: () => [{ ...pdOptions, value: 3 }],
    observe: ['value', 'velocity', 'target', 'blendPhase'],
    calls: { update: () => [1 / 60, -3], reset: () => [2.5, 1], blendOut: () => [1 / 60, 0], trackOffset: () => [1 / 60, 3, -3] },
  },
  {
    name: 'Vec3PD',
    args: () => [{ ...pdOptions, method: 'componentwise', value: [1, 0, 0] }],
    observe: ['value', 'velocity', 'target', 'blendPhase'],
    calls: {
      update: () => [1 / 60, [0, 1, 0.2], [0, 0, 0.5]],
      reset: () => [[0, 0, 2], [0.1, 0, 0]],
      blendOut: () => [1 / 60, [1, 0, 0]],
      stateAt: () => [-0.1],
    },
  },
  {
    name: 'QuatPD',
    args: () => [{ ...pdOptions, maxAngle: 1.2, value: [0, 0, 0.2, 1] }],
    observe: ['value', 'velocity', 'target', 'blendPhase'],
    calls: {
      update: () => [1 / 60, [0.3, 0.1, 0, 0.9], [0, 1, 0]],
      reset: () => [[0, 0.5, 0, 1], [0, 0, 1]],
      blendOut: () => [1 / 60],
      trackOffset: () => [1 / 60, [0, 0, 0, 1], [0, 0.2, 0, 1]],
    },
  },
  {
    name: 'Tentacle2D',
    args: () => [{ lengths: [1, 0.8, 0.6], step: 0.1, limit: 1.2 }],
    observe: ['positions', 'angles'],
    calls: { update: () => [[1, 1.5]] },
  },
  {
    name: 'PDBatch',
    args: () => [3, { settleTime: 0.3, maxVelocity: 20 }],
    init: (b) => b.input.target.set([1, -2, 0.5]),
    observe: ['state'],
    calls: { update: () => [1 / 60, 2], setOptions: () => [{ kp: 30, kd: 5, integrator: 'explicit' }] },
  },
  {
    name: 'Inertializer',
    args: () => [2, { halfLife: 0.2 }],
    observe: ['halfLife', 'elapsed'],
    calls: { update: () => [1 / 60], transition: () => [{ halfLife: 0.1, velocity: true }], offsetAt: () => [1], reset: () => [] },
  },
  {
    name: 'QuatPDBatch',
    args: () => [2, { maxAngle: 1.5 }],
    init: (b) => {
      b.input.target.set([0, 0.3, 0, 1, 0.2, 0, 0, 1]);
      b.state.value.set([0, 0, 0, 1, 0, 0, 0, 1]);
    },
    observe: ['state'],
    calls: { update: () => [1 / 30], setOptions: () => [{ settleTime: 0.2, damping: 'critical' }] },
  },
  {
    name: 'TwoBoneBatch',
    args: () => [4, { poleMode: 'point', minAngle: 0.1, maxStretch: 1.1 }],
    observe: [],
    calls: { solve: () => [4], setOptions: () => [{ soften: 0.1, bendDirection: 'negative' }] },
  },
  {
    name: 'PseudoThreeBoneBatch',
    args: () => [3, { poleMode: 'point', variant: 'followMid', endLimit: 0.8, minAngle: 0.1, maxStretch: 1.1 }],
    init: (b) => {
      const { input } = b;
      input.midPosition.set([1, -0.2, 0, 0, 1, 0.1, 0.5, 0.5, 0]);
      input.endPosition.set([2, 0, 0, 0.1, 2, 0, 1, 1, 0.2]);
      input.tipPosition.set([2.3, -0.1, 0, 0.3, 2.2, 0, 1.2, 1.1, 0.2]);
      input.target.set([1.8, 0.6, 0.2, 1, 1.5, 0.5, 3, 3, 3]);
      input.pole.set([1, 2, 0, 0, 1, 2, 1, -1, 0]);
      input.blend.set([0.4, 0, 1]);
    },
    observe: ['output'],
    calls: { solve: () => [3], setOptions: () => [{ soften: 0.1, bendDirection: 'negative', variant: 'relative', endLimit: 0.5 }] },
  },
  {
    name: 'LookAt',
    args: () => [{ weights: [0.25, 0.5, 1], limits: [0.3, 0.5, 1], settleTime: [0.4, 0.3, 0.2], damping: 'responsive', blendOutTime: 0.2, forward: [0, 0, 1] }],
    observe: ['offsets', 'active', 'size'],
    calls: {
      update: () => [1 / 60, { joints: [joint(0, 0, 0), joint(0, 1, 0), { position: [0, 2, 0.1], rotation: [0, 0.2, 0, 1] }], target: [1, 2, 1], enabled: true }],
      clear: () => [],
    },
  },
  {
    name: 'BodyLookAt',
    args: () => [{
      spineJoints: 3, forward: [0, 0, 1], up: [0, 1, 0], offset: [0, 0.05, 0.1], footLock: true, blendOutTime: 0.1,
      spine: { weights: [0.3, 0.5, 1], limits: [0.3, 0.5, 1], settleTime: [0.5, 0.3, 0.2], damping: 'critical' },
      weightShift: { amount: 0.1, limit: 0.05, settleTime: 0.5, damping: 1 },
      armReaction: { amount: 0.5, settleTime: 0.3, damping: 0.5, chest: 1 },
    }],
    observe: ['active', 'spineJoints'],
    calls: {
      update: () => [1 / 60, {
        spine: [joint(0, 1, 0), joint(0, 1.3, 0), { position: [0, 1.6, 0.02], rotation: [0, 0.1, 0, 1] }],
        arms: [joint(0.2, 1.3, 0), joint(0.45, 1.3, 0), joint(0.7, 1.3, 0)],
        legs: [joint(0.1, 0.95, 0), joint(0.1, 0.5, 0.05), joint(0.1, 0.1, 0)],
        target: [1, 2, 1],
        enabled: true,
      }],
      clear: () => [],
    },
  },
  {
    // The character rig (web/src/rig/rig.js): a limb along +Y under a hips joint, two constraints.
    name: 'Rig',
    args: () => [{ parents: [-1, 0, 1, 2], names: ['hips', 'upper', 'lower', 'hand'], rest: rigRest(), facing: [0, 0, 1], up: [0, 1, 0] }],
    init: (rig) => {
      const arm = rig.add('twoBone', { joints: [1, 2, 3], settleTime: 0.2, bendDirection: 'negative' });
      rig.frames.set([0.4, 0.8, 0.3, 0, 1, 1, 0, 0, 0, 1], arm.frameOffset);
      rig.add('lookAt', { joints: [0, 1, 2], weights: [0.3, 0.5, 1], damping: 'responsive' });
    },
    observe: ['output', 'changed', 'results', 'count'],
    calls: {
      update: () => [1 / 60],
      add: () => ['aim', { joints: [3], settleTime: 0.1, method: 'shortestArc', weight: 0.5 }],
      setRest: () => [rigRest(0.1)],
      setFacing: () => [[1, 0, 0.5]],
      setUp: () => [[0, 1, 0.1]],
    },
  },
  {
    // N characters sharing one rig (web/src/rig/rigBatch.js): the Rig above's limb, three characters.
    name: 'RigBatch',
    args: () => [{ rig: batchTemplate(), count: 3 }],
    init: (batch) => {
      batch.constraints[0].targets.set([0.4, 0.8, 0.3, -0.3, 0.9, 0.2, 0.2, 1.4, -0.1]);
      batch.rootPositions.set([0, 0, 0, 2, 0, 0, -2, 0, 1]);
    },
    observe: ['output', 'count', 'jointCount'],
    calls: { update: () => [1 / 60] },
  },
  {
    name: 'AimBatch',
    args: () => [4, { method: 'shortestArc' }],
    observe: [],
    calls: { solve: () => [2], setOptions: () => [{ forward: [0, 1, 0], up: [0, 0, 1] }] },
  },
  {
    name: 'TwoBoneSolver',
    args: () => [{ pole: [1, 2, 0], soften: 0.1, maxStretch: 1.2, weight: 0.9 }],
    observe: ['output'],
    calls: {
      solve: () => [{ root: joint(0, 0, 0), mid: joint(1, 0.2, 0), end: joint(2, 0, 0), target: [1.2, 0.8, 0.3] }],
      setOptions: () => [{ minAngle: 0.1, bendDirection: 'negative' }],
      run: () => [],
    },
  },
  {
    name: 'AimSolver',
    args: () => [{ forward: [0, 1, 0], up: [0, 0, 1], method: 'crossProduct' }],
    observe: ['output'],
    calls: {
      solve: () => [{ position: [0.5, 1, -1], rotation: [0.1, 0.2, 0.3, 0.9], target: [2, 3, 1] }],
      setOptions: () => [{ weight: 0.5, pole: [0, 1, 3] }],
      run: () => [],
    },
  },
  {
    name: 'PseudoThreeBoneSolver',
    args: () => [{ variant: 'followMid', endLimit: 0.8, pole: [1, 2, 0] }],
    observe: ['output'],
    calls: {
      solve: () => [{ root: joint(0, 0, 0), mid: joint(1, -0.2, 0), end: joint(2, 0, 0), tip: joint(2.3, -0.1, 0), target: [1.8, 0.6, 0.2], blend: 0.4 }],
      setOptions: () => [{ soften: 0.1, variant: 'relative' }],
      run: () => [],
    },
  },
  {
    name: 'ChainSolver',
    args: () => [3, { method: 'ccd', iterations: 8, limits: [{ type: 'cone', angle: 1 }, null] }],
    observe: ['output', 'jointCount'],
    calls: {
      solve: () => [{ joints: [joint(0, 0, 0), joint(0, 1, 0), joint(0.2, 2, 0)], target: [1, 1.5, 0.5] }],
      setOptions: () => [{ method: 'fabrik', tolerance: 1e-3 }],
      run: () => [],
    },
  },
];

// Every export of 'ikpd' (web/index.js) and of 'ikpd/three' (web/three/index.js),
// and where each is exercised.
export const CORE_EXPORTS = ['default', 'init']; // tests/js/core.test.js
export const THREE_EXPORTS = [
  // tests/js/{ik,rig}/*IK.test.js (detectBoneAxis: tests/js/ik/twoBoneIK.test.js, with AimIK), tests/js/unknown-options.test.js
  'AimIK', 'TwoBoneIK', 'PseudoThreeBoneIK', 'ChainIK', 'LookAtIK', 'BodyLookAtIK', 'AvatarIK', 'detectBoneAxis',
  'BODY_LOOK_AT_PRESETS', 'resolveBodyBones',
  // tests/js/rig/ikRig.test.js, tests/browser/character.test.js
  'IKRig', 'IKConstraint', 'HUMANOID_ROLES', 'HUMANOID_TABLES',
  // tests/js/pd/inertializerFox.test.js
  'Inertializer',
];
// Every export of 'ikpd/three/hdr' (web/three/hdr/hdr.js).
export const THREE_HDR_EXPORTS = [
  // tests/js/hdr/hdrNodes.test.js, tests/browser/hdr-agreement.test.js
  'filmicNode', 'hdrCurveNode', 'toneMapHDRLinearNode', 'toneMapHDRNode', 'gammaEncodeNode', 'gammaDecodeNode',
  'srgbEncodeNode', 'srgbDecodeNode', 'rec709ToRec2020Node', 'rec2020ToRec709Node', 'expandGamutNode',
  'normalizePaperWhiteNode', 'linearToPQNode', 'pqToLinearNode', 'outputTransformNode', 'createHDRUniforms',
  'hdrToneMapping', 'isExtendedOutput', 'applyHDRToneMapping',
];
// Members of the loaded module that are data, not entry points.
export const CONSTANTS = ['version', 'threads', 'areas', 'hdr', 'hdr.SDR_FILMIC', 'hdr.HDR_DEFAULTS'];
