// The crowd character as one ikpd.Rig (docs/rig/rig-batch.md): the stick
// figure of crowd.js (SKELETON) with its stack — a five-joint look-at as one
// smoothed aim per spine joint (pelvis … head), each taking LOOK_SHARE of the
// turn, then four two-bone limbs (legs, then arms) that start from the turned
// spine, so the feet end where their targets are. A RigBatch copies it
// for every character (the crowd scene's "RigBatch" solver and the crowd
// frame of bench/run.mjs). No three.js import, so Node can run it too.
import { LOOK_SHARE, SKELETON } from './crowd.js';

/** Joint indices of the crowd character. */
export const CROWD_JOINTS = /* @__PURE__ */ Object.freeze({
  pelvis: 0, belly: 1, chest: 2, neck: 3, head: 4,
  legs: Object.freeze([Object.freeze([5, 6, 7]), Object.freeze([8, 9, 10])]),
  arms: Object.freeze([Object.freeze([11, 12, 13]), Object.freeze([14, 15, 16])]),
});
/** Each joint's parent (−1: the root). */
export const CROWD_PARENTS = /* @__PURE__ */ Object.freeze([-1, 0, 1, 2, 3, 0, 5, 6, 0, 8, 9, 2, 11, 12, 2, 14, 15]);
/** Constraint indices in the stack: the aims (pelvis … head), the legs and the arms (left, right). */
export const CROWD_CONSTRAINTS = /* @__PURE__ */ Object.freeze({
  look: Object.freeze([0, 1, 2, 3, 4]), legs: Object.freeze([5, 6]), arms: Object.freeze([7, 8]),
});
const HIP_HEIGHT = SKELETON.thigh + SKELETON.shin + SKELETON.ankle + SKELETON.hipDrop;

/** Rest locals (10 floats per joint): identity rotations, limbs hanging along −Y, facing +Z. */
export function crowdRest() {
  const s = SKELETON;
  const offsets = [
    [0, HIP_HEIGHT, 0], [0, s.spine[0], 0], [0, s.spine[1], 0], [0, s.spine[2], 0], [0, s.spine[3], 0],
    [s.hipX, -s.hipDrop, 0], [0, -s.thigh, 0], [0, -s.shin, 0],
    [-s.hipX, -s.hipDrop, 0], [0, -s.thigh, 0], [0, -s.shin, 0],
    [s.shoulderX, s.shoulderUp, 0], [0, -s.upperArm, 0], [0, -s.forearm, 0],
    [-s.shoulderX, s.shoulderUp, 0], [0, -s.upperArm, 0], [0, -s.forearm, 0],
  ];
  const rest = new Float32Array(10 * offsets.length);
  offsets.forEach((t, j) => rest.set([...t, 0, 0, 0, 1, 1, 1, 1], 10 * j));
  return rest;
}

/**
 * The crowd character's Rig (constraints in CROWD_CONSTRAINTS order): the
 * look-at as aims with `settleTime` smoothing (their poles, when set, are up
 * targets), then legs and arms as two-bone constraints (knees and elbows bend
 * toward their poles: `batch.poleSet`). Dispose it once a RigBatch has copied it.
 */
export function createCrowdRig(ikpd, { settleTime = 0.3 } = {}) {
  const rig = new ikpd.Rig({ parents: CROWD_PARENTS, rest: crowdRest() });
  const spine = [CROWD_JOINTS.pelvis, CROWD_JOINTS.belly, CROWD_JOINTS.chest, CROWD_JOINTS.neck, CROWD_JOINTS.head];
  spine.forEach((joint, k) => rig.add('aim', { joints: [joint], weight: LOOK_SHARE[k], settleTime }));
  for (const joints of [...CROWD_JOINTS.legs, ...CROWD_JOINTS.arms]) rig.add('twoBone', { joints, soften: 0.05 });
  return rig;
}
