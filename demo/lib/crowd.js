// The crowd scene's simulation (demo/scenes/crowd.js; docs/batch/batches.md,
// "A crowd in the demo"): N stick characters walk rings over the sum-of-sines
// ground (terrain.js) and look at one target. Each frame is solved by three
// batches, composed as the crowd frame of bench/run.mjs: an AimBatch of 5N
// look-at joints (pelvis … head, each aimed with its share of the turn), a
// QuatPDBatch of 5N that smooths them (exact PD, real dt), and a TwoBoneBatch
// of 4N limbs (legs: feet on the ground; arms: a swing). The walk itself (gait,
// look limits, arm swing, knee poles) is crowdMotion.js, shared with the
// RigBatch solver (crowdRigBatch.js). Everything per frame lives in the
// batches' views and in arrays made here once: a step allocates nothing. No
// three.js import, so Node can run it too.
import {
  armTarget, copy3, createCrowdMotion, DOWN_AT, gait, HIP_AT, kneePole, LOOK_JOINTS as JOINTS, LOOK_SHARE, lookTarget,
  offsetFrom, OFFSETS, put4, rotate, rotated, SHOULDER_AT, SKELETON, SPINE_AT, SPINE_REST,
} from './crowdMotion.js';

export { hash, LOOK_SHARE, SKELETON } from './crowdMotion.js';
/** Instances per character of each bone-segment kind (one InstancedMesh per kind). */
export const PER_CHARACTER = /* @__PURE__ */ Object.freeze({
  thigh: 2, shin: 2, foot: 2, upperArm: 2, forearm: 2, pelvis: 1, belly: 1, chest: 1, neck: 1, head: 1,
});
/** The kinds drawn at the look-at joints 0..4. */
export const TORSO = /* @__PURE__ */ Object.freeze(['pelvis', 'belly', 'chest', 'neck', 'head']);

/** A column-major 4×4 (three.js instanceMatrix layout) from a position and a quaternion (need not be unit). */
export function writeMatrix(m, o, p, po, q, qo) {
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  const s = 2 / (x * x + y * y + z * z + w * w);
  const xx = x * x * s, xy = x * y * s, xz = x * z * s, yy = y * y * s, yz = y * z * s, zz = z * z * s;
  const wx = w * x * s, wy = w * y * s, wz = w * z * s;
  m[o] = 1 - (yy + zz); m[o + 1] = xy + wz; m[o + 2] = xz - wy; m[o + 3] = 0;
  m[o + 4] = xy - wz; m[o + 5] = 1 - (xx + zz); m[o + 6] = yz + wx; m[o + 7] = 0;
  m[o + 8] = xz + wy; m[o + 9] = yz - wx; m[o + 10] = 1 - (xx + yy); m[o + 11] = 0;
  m[o + 12] = p[po]; m[o + 13] = p[po + 1]; m[o + 14] = p[po + 2]; m[o + 15] = 1;
}

/**
 * The crowd's common face (demo/scenes/crowd.js drives either solver through
 * it): `motion` (crowdMotion.js), the speed, the step times and a reader of
 * one character's feet and head for the tests.
 */
export function crowdFace(motion, solver, times, methods) {
  return {
    solver,
    count: motion.count,
    /** Radius of the outermost ring (m). */
    radius: motion.radius,
    motion,
    get speed() { return motion.speed; },
    set speed(v) { motion.speed = v; },
    /** Milliseconds of the last step: the solves and the script around them. */
    times,
    ...methods,
  };
}

/**
 * A crowd of `count` characters solved by ikpd batches. `settleTime` is the
 * look-at PD's. Call `step(dt, target, matrices)` each frame with the world
 * look target ([x, y, z]) and the kinds' instanceMatrix arrays.
 */
export function createCrowd(ikpd, count, { settleTime = 0.3, seed = 29 } = {}) {
  const motion = createCrowdMotion(count, seed);
  const legs = new ikpd.TwoBoneBatch(4 * count, { poleMode: 'point', soften: 0.05, forward: [0, -1, 0], bendAxis: [1, 0, 0] });
  const aim = new ikpd.AimBatch(JOINTS * count, { poleMode: 'point', forward: [0, 0, 1], up: [0, 1, 0] });
  const pd = new ikpd.QuatPDBatch(JOINTS * count, { settleTime });
  const joints = new Float32Array(3 * JOINTS * count); // world positions of the look-at joints (last frame's)
  const { yaw, heading, base, look } = motion;
  // The batches' views, read again only once WASM memory has grown (a view
  // over memory that grew since is detached: length 0; docs/batch/batches.md),
  // which saves a getter call per field and frame.
  let views = null;
  const current = () => {
    if (views === null || views.pdState.value.length === 0) {
      views = { legsIn: { ...legs.input }, legsOut: { ...legs.output }, aimIn: { ...aim.input }, aimOut: { ...aim.output }, pdIn: { ...pd.input }, pdState: { ...pd.state } };
    }
    return views;
  };
  const crowd = crowdFace(motion, 'batches', { limbs: 0, look: 0, script: 0 }, {
    joints,
    legs,
    pd,
    /** Look-at on (1) or off (0): the joints' aim weights, blended out through the PD. */
    setLook(on) {
      const weight = current().aimIn.weight;
      for (let i = 0; i < count; i++) for (let j = 0; j < JOINTS; j++) weight[JOINTS * i + j] = on ? LOOK_SHARE[j] : 0;
    },
    setSettleTime(seconds) {
      pd.setOptions({ settleTime: seconds });
    },
    /** Back to the start: every head straight ahead and at rest. */
    reset() {
      motion.reset();
      const { value, velocity } = current().pdState;
      velocity.fill(0);
      joints.fill(0);
      for (let i = 0; i < count; i++) {
        for (let j = 0; j < JOINTS; j++) {
          put4(value, 4 * (JOINTS * i + j), yaw, 4 * i);
          joints[3 * (JOINTS * i + j) + 1] = SPINE_REST[j]; // relative to the pelvis until the first step
        }
      }
    },
    /** Character i's feet (ankles, world) and head (position, world rotation), after a step. */
    character(i) {
      const { endPosition } = legs.output;
      const value = pd.state.value;
      const feet = [0, 1].map((f) => ({ position: Array.from(endPosition.subarray(3 * (4 * i + f), 3 * (4 * i + f) + 3)), stance: motion.stance[2 * i + f] === 1 }));
      const head = { position: Array.from(joints.subarray(3 * (5 * i + 4), 3 * (5 * i + 4) + 3)), rotation: Array.from(value.subarray(4 * (5 * i + 4), 4 * (5 * i + 4) + 4)) };
      return { index: i, feet, head };
    },
    step,
    dispose() {
      legs.dispose();
      aim.dispose();
      pd.dispose();
    },
  });

  /** Feet on the ground, pelvis height, look targets and aim inputs (before the look-at solve). */
  function fillGaitAndAim(target) {
    const { legsIn: { target: footTarget, endRotation }, aimIn: { position, rotation, target: aimTarget, pole } } = current();
    for (let i = 0; i < count; i++) {
      gait(motion, i, footTarget, 3 * 4 * i, footTarget, 3 * (4 * i + 1), endRotation, 4 * 4 * i);
      // Pelvis; the other joints keep last frame's offsets from it.
      const o = 3 * JOINTS * i;
      const bx = base[3 * i], py = motion.pelvisY[i], bz = base[3 * i + 2];
      for (let j = JOINTS - 1; j >= 0; j--) {
        joints[o + 3 * j] += bx - joints[o];
        joints[o + 3 * j + 1] += py - joints[o + 1];
        joints[o + 3 * j + 2] += bz - joints[o + 2];
      }
      lookTarget(motion, i, target);
      for (let j = 0; j < JOINTS; j++) {
        const n = JOINTS * i + j;
        copy3(position, 3 * n, joints, o + 3 * j);
        put4(rotation, 4 * n, yaw, 4 * i);
        copy3(aimTarget, 3 * n, look, 3 * i);
        copy3(pole, 3 * n, joints, o + 3 * j);
        pole[3 * n + 1] += 10; // the heads' up toward a point above them: upright
      }
    }
  }

  /** The look-at chain from the smoothed rotations, then the limbs' inputs. */
  function fillLimbs() {
    const { pdState: { value: R }, legsIn: { rootPosition, rootRotation, midPosition, midRotation, endPosition, endRotation, target, pole } } = current();
    for (let i = 0; i < count; i++) {
      const o = 3 * JOINTS * i, q = 4 * JOINTS * i;
      for (let j = 0; j < JOINTS - 1; j++) {
        rotate(R, q + 4 * j, OFFSETS, SPINE_AT + 3 * j);
        offsetFrom(joints, o + 3 * j + 3, joints, o + 3 * j);
      }
      for (let limb = 0; limb < 4; limb++) {
        const arm = limb >= 2, right = limb % 2, n = 4 * i + limb, t = 3 * n;
        const qo = q + (arm ? 8 : 0); // arms hang from the chest (joint 2), legs from the pelvis (joint 0)
        rotate(R, qo, OFFSETS, (arm ? SHOULDER_AT : HIP_AT) + 3 * right);
        offsetFrom(rootPosition, t, joints, o + (arm ? 6 : 0));
        rotate(R, qo, OFFSETS, DOWN_AT);
        const a = arm ? SKELETON.upperArm : SKELETON.thigh, b = arm ? SKELETON.forearm : SKELETON.shin;
        for (let c = 0; c < 3; c++) {
          midPosition[t + c] = rootPosition[t + c] + a * rotated[c];
          endPosition[t + c] = rootPosition[t + c] + (a + b) * rotated[c];
        }
        put4(rootRotation, 4 * n, R, qo);
        put4(midRotation, 4 * n, R, qo);
        if (arm) {
          put4(endRotation, 4 * n, R, qo);
          armTarget(motion, i, right, R, qo, rootPosition, t, target, t, pole, t);
        } else {
          kneePole(motion, i, rootPosition, t, target, t, pole, t); // knees bend toward the walking direction
        }
      }
    }
  }

  /** Every instance matrix from the solved limbs and the smoothed look-at joints. */
  function writeMatrices(m) {
    const { legsIn: { rootPosition }, legsOut: { rootRotation, midPosition, midRotation, endPosition, endRotation }, pdState: { value: R } } = current();
    for (let i = 0; i < count; i++) {
      for (let limb = 0; limb < 4; limb++) {
        const n = 4 * i + limb, k = 16 * (2 * i + (limb % 2));
        const upper = limb < 2 ? m.thigh : m.upperArm, lower = limb < 2 ? m.shin : m.forearm;
        writeMatrix(upper, k, rootPosition, 3 * n, rootRotation, 4 * n);
        writeMatrix(lower, k, midPosition, 3 * n, midRotation, 4 * n);
        if (limb < 2) writeMatrix(m.foot, k, endPosition, 3 * n, endRotation, 4 * n);
      }
      for (let j = 0; j < JOINTS; j++) writeMatrix(m[TORSO[j]], 16 * i, joints, 3 * (JOINTS * i + j), R, 4 * (JOINTS * i + j));
    }
  }

  function step(dt, target, matrices) {
    const t0 = performance.now();
    motion.advance(dt);
    fillGaitAndAim(target);
    const t1 = performance.now();
    aim.solve();
    const { pdIn, aimOut } = current();
    pdIn.target.set(aimOut.rotation);
    pd.update(dt);
    const t2 = performance.now();
    fillLimbs();
    const t3 = performance.now();
    legs.solve();
    const t4 = performance.now();
    writeMatrices(matrices);
    const t5 = performance.now();
    crowd.times.look = t2 - t1;
    crowd.times.limbs = t4 - t3;
    crowd.times.script = t1 - t0 + (t3 - t2) + (t5 - t4);
  }

  crowd.setLook(true);
  crowd.reset();
  return crowd;
}
