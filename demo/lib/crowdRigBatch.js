// The crowd scene's second solver (docs/batch/batches.md, "RigBatch in the
// crowd"): the same walk and look as demo/lib/crowd.js (crowdMotion.js fills
// the inputs), but every character is the Rig of crowdRig.js and one
// RigBatch.update(dt) per frame solves them all — the five smoothed aims of
// the look-at, then the four two-bone limbs from the turned spine. The roots
// carry each character's ring position and heading, the pelvis local
// translation its height; forward kinematics here turns the solved locals
// into the instance matrices. Nothing per frame allocates. No three.js import.
import { crowdFace, TORSO, writeMatrix } from './crowd.js';
import { armTarget, copy3, createCrowdMotion, gait, kneePole, lookTarget, offsetFrom, put4, rotate } from './crowdMotion.js';
import { CROWD_CONSTRAINTS, CROWD_JOINTS, CROWD_PARENTS, createCrowdRig } from './crowdRig.js';

const J = CROWD_PARENTS.length;
// Per-frame loops index plain numbers (no iterators, no destructuring of arrays).
const LIMBS = /* @__PURE__ */ Object.freeze([...CROWD_CONSTRAINTS.legs, ...CROWD_CONSTRAINTS.arms]);
const LOOK = CROWD_CONSTRAINTS.look;
const [LEG_L, LEG_R] = CROWD_CONSTRAINTS.legs, [ARM_L, ARM_R] = CROWD_CONSTRAINTS.arms;
const SHOULDERS = /* @__PURE__ */ Int32Array.of(CROWD_JOINTS.arms[0][0], CROWD_JOINTS.arms[1][0]);
// Per side (left, right): hip, knee, ankle, shoulder, elbow.
const LIMB_JOINTS = /* @__PURE__ */ Int32Array.of(...CROWD_JOINTS.legs[0], SHOULDERS[0], CROWD_JOINTS.arms[0][1], ...CROWD_JOINTS.legs[1], SHOULDERS[1], CROWD_JOINTS.arms[1][1]);
const UP = 10; // m above the pelvis: the aims' up target, so the spine stays upright

/** dst[o..o + 3] = a[ao..ao + 3] · b[bo..bo + 3] (quaternion product). */
function multiply(dst, o, a, ao, b, bo) {
  const ax = a[ao], ay = a[ao + 1], az = a[ao + 2], aw = a[ao + 3];
  const bx = b[bo], by = b[bo + 1], bz = b[bo + 2], bw = b[bo + 3];
  dst[o] = aw * bx + ax * bw + ay * bz - az * by;
  dst[o + 1] = aw * by - ax * bz + ay * bw + az * bx;
  dst[o + 2] = aw * bz + ax * by - ay * bx + az * bw;
  dst[o + 3] = aw * bw - ax * bx - ay * by - az * bz;
}

/**
 * A crowd of `count` characters solved by one RigBatch (same interface as
 * createCrowd: `step(dt, target, matrices)`, setLook, setSettleTime, reset,
 * character(i), times { solve, script }).
 */
export function createRigBatchCrowd(ikpd, count, { settleTime = 0.3, seed = 29 } = {}) {
  const motion = createCrowdMotion(count, seed);
  const { yaw, base, look } = motion;
  // World transforms of every joint, character-major (the last step's, or the rest pose's after reset).
  const position = new Float32Array(3 * J * count);
  const rotation = new Float32Array(4 * J * count);
  const feet = new Float32Array(8 * count); // each foot's world rotation (turned to the slope)
  const targets = new Array(LIMBS.length + LOOK.length).fill(null); // each constraint's views, gathered once per frame
  const poles = new Array(LIMBS.length + LOOK.length).fill(null);
  const state = { look: true, settleTime };
  let batch = null;
  let constraints = null;

  /** A new batch (smoothing at rest) with the current settings. */
  function rebuild() {
    batch?.dispose();
    batch = null;
    const rig = createCrowdRig(ikpd, { settleTime: state.settleTime });
    try {
      batch = new ikpd.RigBatch({ rig, count });
    } finally {
      rig.dispose();
    }
    constraints = batch.constraints;
    batch.poleSet.fill(1); // limbs: knee and elbow poles; aims: up targets
    crowd.setLook(state.look);
  }

  /** Character i's world transforms from `locals` (the batch's joint-major rotations) and its root (every scale is 1 here). */
  function forwardKinematics(i, locals, translations, rootPositions, rootRotations) {
    for (let j = 0; j < J; j++) {
      const p = CROWD_PARENTS[j], w = J * i + j, l = j * count + i;
      const pp = p < 0 ? rootPositions : position, pr = p < 0 ? rootRotations : rotation;
      const po = p < 0 ? 3 * i : 3 * (J * i + p), ro = p < 0 ? 4 * i : 4 * (J * i + p);
      rotate(pr, ro, translations, 3 * l);
      offsetFrom(position, 3 * w, pp, po);
      multiply(rotation, 4 * w, pr, ro, locals, 4 * l);
    }
  }

  /** Roots and pelvis heights from the motion, then each character's constraint inputs. */
  function fillInputs(target) {
    const { rootPositions, rootRotations, translations } = batch;
    for (let k = 0; k < constraints.length; k++) {
      targets[k] = constraints[k].targets;
      poles[k] = constraints[k].poles;
    }
    for (let i = 0; i < count; i++) {
      const r = 3 * i;
      copy3(rootPositions, r, base, r);
      rootPositions[r + 1] = 0;
      put4(rootRotations, 4 * i, yaw, 4 * i);
      gait(motion, i, targets[LEG_L], r, targets[LEG_R], r, feet, 8 * i);
      translations[3 * CROWD_JOINTS.pelvis * count + r + 1] = motion.pelvisY[i];
      kneePole(motion, i, motion.hips, 6 * i, targets[LEG_L], r, poles[LEG_L], r);
      kneePole(motion, i, motion.hips, 6 * i + 3, targets[LEG_R], r, poles[LEG_R], r);
      // The arms from last frame's chest: a frame late, well within the look-at's smoothing.
      const chest = J * i + CROWD_JOINTS.chest;
      armTarget(motion, i, 0, rotation, 4 * chest, position, 3 * (J * i + SHOULDERS[0]), targets[ARM_L], r, poles[ARM_L], r);
      armTarget(motion, i, 1, rotation, 4 * chest, position, 3 * (J * i + SHOULDERS[1]), targets[ARM_R], r, poles[ARM_R], r);
      lookTarget(motion, i, target);
      for (let a = 0; a < LOOK.length; a++) {
        const k = LOOK[a];
        copy3(targets[k], r, look, r);
        copy3(poles[k], r, base, r);
        poles[k][r + 1] = motion.pelvisY[i] + UP;
      }
    }
  }

  /** Every instance matrix from the world transforms (feet: turned to the slope). */
  function writeMatrices(m) {
    for (let i = 0; i < count; i++) {
      for (let side = 0; side < 2; side++) {
        const k = 16 * (2 * i + side), s = 5 * side;
        const hip = LIMB_JOINTS[s], knee = LIMB_JOINTS[s + 1], ankle = LIMB_JOINTS[s + 2], shoulder = LIMB_JOINTS[s + 3], elbow = LIMB_JOINTS[s + 4];
        writeMatrix(m.thigh, k, position, 3 * (J * i + hip), rotation, 4 * (J * i + hip));
        writeMatrix(m.shin, k, position, 3 * (J * i + knee), rotation, 4 * (J * i + knee));
        writeMatrix(m.foot, k, position, 3 * (J * i + ankle), feet, 8 * i + 4 * side);
        writeMatrix(m.upperArm, k, position, 3 * (J * i + shoulder), rotation, 4 * (J * i + shoulder));
        writeMatrix(m.forearm, k, position, 3 * (J * i + elbow), rotation, 4 * (J * i + elbow));
      }
      for (let j = 0; j < TORSO.length; j++) writeMatrix(m[TORSO[j]], 16 * i, position, 3 * (J * i + j), rotation, 4 * (J * i + j));
    }
  }

  function step(dt, target, matrices) {
    const t0 = performance.now();
    motion.advance(dt);
    fillInputs(target);
    const t1 = performance.now();
    batch.update(dt);
    const t2 = performance.now();
    const { output, translations, rootPositions, rootRotations } = batch;
    for (let i = 0; i < count; i++) forwardKinematics(i, output, translations, rootPositions, rootRotations);
    writeMatrices(matrices);
    const t3 = performance.now();
    crowd.times.solve = t2 - t1;
    crowd.times.script = t1 - t0 + (t3 - t2);
  }

  const crowd = crowdFace(motion, 'rigBatch', { solve: 0, script: 0 }, {
    /** Look-at on or off: every character's aim weights, blended through the aims' smoothing. */
    setLook(on) {
      state.look = on;
      for (const k of LOOK) constraints[k].weights.fill(on ? 1 : 0);
    },
    setSettleTime(seconds) {
      state.settleTime = seconds;
      for (const k of LOOK) constraints[k].set({ settleTime: seconds });
    },
    /** Back to the start: a new batch (no smoothing state), every character in its rest pose. */
    reset() {
      rebuild();
      motion.reset();
      const { rotations, translations, rootPositions, rootRotations } = batch;
      for (let i = 0; i < count; i++) {
        copy3(rootPositions, 3 * i, base, 3 * i);
        rootPositions[3 * i + 1] = 0;
        put4(rootRotations, 4 * i, yaw, 4 * i);
        forwardKinematics(i, rotations, translations, rootPositions, rootRotations);
      }
    },
    /** Character i's feet (ankles, world) and head (position, world rotation), after a step. */
    character(i) {
      const at = (j) => J * i + j;
      const feetOut = CROWD_JOINTS.legs.map(([, , ankle], f) => ({
        position: Array.from(position.subarray(3 * at(ankle), 3 * at(ankle) + 3)), stance: motion.stance[2 * i + f] === 1,
      }));
      const head = at(CROWD_JOINTS.head);
      return { index: i, feet: feetOut, head: { position: Array.from(position.subarray(3 * head, 3 * head + 3)), rotation: Array.from(rotation.subarray(4 * head, 4 * head + 4)) } };
    },
    step,
    dispose() {
      batch.dispose();
    },
  });
  crowd.reset();
  return crowd;
}
