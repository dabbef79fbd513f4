// The crowd scene's simulation (demo/scenes/crowd.js; docs/batch/batches.md,
// "A crowd in the demo"): N stick characters walk rings over the sum-of-sines
// ground (terrain.js) and look at one target. Each frame is solved by three
// batches, composed as the crowd frame of bench/run.mjs: an AimBatch of 5N
// look-at joints (pelvis … head, each aimed with its share of the turn), a
// QuatPDBatch of 5N that smooths them (exact PD, real dt), and a TwoBoneBatch
// of 4N limbs (legs: feet on the ground; arms: a swing). Everything per frame
// lives in the batches' views and in arrays made here once: a step allocates
// nothing. No three.js import, so Node can run it too.
import { groundUnder } from './terrain.js';

/**
 * Model space of every character: facing +Z, up +Y, its left +X; every joint's
 * rest rotation is its parent's (identity local), so limbs hang along −Y.
 */
export const SKELETON = /* @__PURE__ */ Object.freeze({
  thigh: 0.42, shin: 0.42, ankle: 0.08, hipX: 0.1, hipDrop: 0.06,
  upperArm: 0.27, forearm: 0.25, shoulderX: 0.18, shoulderUp: 0.16,
  spine: Object.freeze([0.14, 0.18, 0.2, 0.1]), // pelvis → belly → chest → neck → head
});
/** Share of the turn toward the target each look-at joint takes (pelvis … head). */
export const LOOK_SHARE = /* @__PURE__ */ Object.freeze([0.1, 0.25, 0.45, 0.7, 1]);
/** Instances per character of each bone-segment kind (one InstancedMesh per kind). */
export const PER_CHARACTER = /* @__PURE__ */ Object.freeze({
  thigh: 2, shin: 2, foot: 2, upperArm: 2, forearm: 2, pelvis: 1, belly: 1, chest: 1, neck: 1, head: 1,
});
const TORSO = ['pelvis', 'belly', 'chest', 'neck', 'head']; // drawn at look-at joints 0..4
const JOINTS = 5;

// Gait: a cycle of two steps; stance 60 % of it; below MIN_STEP_SPEED the steps
// shrink (stride × speed / MIN_STEP_SPEED) at a constant cadence, so a stance
// foot stays planted at any speed, standing included.
const CYCLE = 1.2;
const STANCE = 0.6;
const LIFT = 0.09;
const MIN_STEP_SPEED = 0.4;
const REACH = 0.93; // the pelvis is lowered until each foot is within this share of the leg's length
const LOOK_YAW = (100 * Math.PI) / 180; // the look target is kept within ±100° of the heading
const LOOK_UP = (50 * Math.PI) / 180;
const LOOK_DOWN = (-40 * Math.PI) / 180;
// Layout: rings around the plaza's centre, alternate rings walking the other way.
const INNER = 4;
const GAP = 1.1;
const SPACING = 0.9;

/** A repeatable value in [0, 1) for item `i` and stream `k` (a sine hash): the same crowd on every load. */
export function hash(i, k = 0) {
  const x = Math.sin(12.9898 * i + 78.233 * k + 0.5) * 43758.5453;
  return x - Math.floor(x);
}

function ringLayout(count, seed) {
  const radius = new Float64Array(count), angle = new Float64Array(count), dir = new Float64Array(count), phase = new Float64Array(count);
  let r = INNER;
  for (let i = 0, ring = 0; i < count; ring++, r += GAP) {
    const n = Math.floor((2 * Math.PI * r) / SPACING);
    const start = hash(ring, seed) * 2 * Math.PI;
    for (let j = 0; j < n && i < count; j++, i++) {
      radius[i] = r + (hash(i, seed + 1) - 0.5) * 0.25;
      angle[i] = start + (2 * Math.PI * j) / n;
      dir[i] = ring % 2 ? -1 : 1;
      phase[i] = hash(i, seed + 2);
    }
  }
  return { radius, angle, dir, phase, outer: r };
}

// Per-frame helpers take arrays and indices, never coordinates: a call V8
// does not inline would box each number it passes (garbage every frame).
const _r = new Float64Array(3); // rotate()'s result
const _v = new Float64Array(3); // a vector computed in the frame, for rotate()

/** `_r` = quaternion q[qo..qo + 3] applied to v[vo..vo + 2]. */
function rotate(q, qo, v, vo) {
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  const vx = v[vo], vy = v[vo + 1], vz = v[vo + 2];
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  _r[0] = vx + w * tx + (y * tz - z * ty);
  _r[1] = vy + w * ty + (z * tx - x * tz);
  _r[2] = vz + w * tz + (x * ty - y * tx);
}

/** dst[o..o + 2] = a[ao..ao + 2] + `_r` (a joint placed at an offset from another). */
function offsetFrom(dst, o, a, ao) {
  dst[o] = a[ao] + _r[0]; dst[o + 1] = a[ao + 1] + _r[1]; dst[o + 2] = a[ao + 2] + _r[2];
}

function put4(dst, o, src, so) {
  dst[o] = src[so]; dst[o + 1] = src[so + 1]; dst[o + 2] = src[so + 2]; dst[o + 3] = src[so + 3];
}

function copy3(dst, o, src, so) {
  dst[o] = src[so]; dst[o + 1] = src[so + 1]; dst[o + 2] = src[so + 2];
}

// Model-space offsets rotate() reads, 3 floats each: the spine bones, the
// hips and shoulders (left, right), a bone's axis (−Y), the elbow poles.
const SPINE_AT = 0, HIP_AT = 12, SHOULDER_AT = 18, DOWN_AT = 24, ELBOW_POLE_AT = 27;
const OFFSETS = /* @__PURE__ */ Float64Array.of(
  ...SKELETON.spine.flatMap((l) => [0, l, 0]),
  SKELETON.hipX, -SKELETON.hipDrop, 0, -SKELETON.hipX, -SKELETON.hipDrop, 0,
  SKELETON.shoulderX, SKELETON.shoulderUp, 0, -SKELETON.shoulderX, SKELETON.shoulderUp, 0,
  0, -1, 0,
  0.25, -0.3, -1, -0.25, -0.3, -1,
);

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
 * A crowd of `count` characters solved by ikpd batches. `settleTime` is the
 * look-at PD's. Call `step(dt, target, matrices)` each frame with the world
 * look target ([x, y, z]) and the kinds' instanceMatrix arrays.
 */
export function createCrowd(ikpd, count, { settleTime = 0.3, seed = 29 } = {}) {
  const layout = ringLayout(count, seed);
  const legs = new ikpd.TwoBoneBatch(4 * count, { poleMode: 'point', soften: 0.05, forward: [0, -1, 0], bendAxis: [1, 0, 0] });
  const aim = new ikpd.AimBatch(JOINTS * count, { poleMode: 'point', forward: [0, 0, 1], up: [0, 1, 0] });
  const pd = new ikpd.QuatPDBatch(JOINTS * count, { settleTime });
  const joints = new Float32Array(3 * JOINTS * count); // world positions of the look-at joints (last frame's)
  const heading = new Float64Array(2 * count); // (x, z) of the walking direction
  const yaw = new Float32Array(4 * count); // heading as a quaternion
  const swing = new Float64Array(2 * count); // each foot's offset ahead of the hip (m)
  const stance = new Uint8Array(2 * count);
  const look = new Float32Array(3 * count); // each character's look target, within its limits
  const normal = new Float64Array(3);
  const leg = SKELETON.thigh + SKELETON.shin;
  const rest = [0]; // the look-at joints' heights above the pelvis at rest
  for (const l of SKELETON.spine) rest.push(rest[rest.length - 1] + l);
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
  const crowd = {
    count,
    /** Radius of the outermost ring (m). */
    radius: layout.outer,
    speed: 0.7,
    walked: 0, // metres along the rings
    gait: 0, // gait cycles
    /** Milliseconds of the last step: the batches' solves and the script around them. */
    times: { limbs: 0, look: 0, script: 0 },
    stance,
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
      crowd.walked = 0;
      crowd.gait = 0;
      walk(0);
      const { value, velocity } = current().pdState;
      velocity.fill(0);
      joints.fill(0);
      for (let i = 0; i < count; i++) {
        for (let j = 0; j < JOINTS; j++) {
          put4(value, 4 * (JOINTS * i + j), yaw, 4 * i);
          joints[3 * (JOINTS * i + j) + 1] = rest[j]; // relative to the pelvis until the first step
        }
      }
    },
    step,
    dispose() {
      legs.dispose();
      aim.dispose();
      pd.dispose();
    },
  };

  /** Heading and yaw of every character after walking `walked` metres. */
  function walk(walked) {
    for (let i = 0; i < count; i++) {
      const theta = layout.angle[i] + (layout.dir[i] * walked) / layout.radius[i];
      const tx = -layout.dir[i] * Math.sin(theta), tz = layout.dir[i] * Math.cos(theta);
      heading[2 * i] = tx;
      heading[2 * i + 1] = tz;
      const half = 0.5 * Math.atan2(tx, tz);
      yaw[4 * i + 1] = Math.sin(half);
      yaw[4 * i + 3] = Math.cos(half);
    }
  }

  /** Feet on the ground, pelvis height, look targets and aim inputs (before the look-at solve). */
  function fillGaitAndAim(target) {
    const k = Math.min(1, crowd.speed / MIN_STEP_SPEED);
    const { legsIn: { target: footTarget, endRotation }, aimIn: { position, rotation, target: aimTarget, pole } } = current();
    for (let i = 0; i < count; i++) {
      const tx = heading[2 * i], tz = heading[2 * i + 1];
      const r = layout.radius[i], dir = layout.dir[i];
      const theta = layout.angle[i] + (dir * crowd.walked) / r;
      const bx = r * Math.cos(theta), bz = r * Math.sin(theta);
      let hip = Infinity;
      for (let f = 0; f < 2; f++) {
        const side = 1 - 2 * f; // left (+X), right
        const p = (layout.phase[i] + crowd.gait + 0.5 * f) % 1;
        let ahead, lift;
        if (p < STANCE) {
          ahead = k * CYCLE * (0.5 * STANCE - p);
          lift = 0;
        } else {
          const u = (p - STANCE) / (1 - STANCE);
          ahead = k * CYCLE * STANCE * (0.5 * (1 - Math.cos(Math.PI * u)) - 0.5);
          lift = k * LIFT * Math.sin(Math.PI * u);
        }
        swing[2 * i + f] = ahead;
        stance[2 * i + f] = p < STANCE ? 1 : 0;
        // The foot on its own ring (left of the heading is outward for dir +1), `ahead` along it.
        const rf = r + dir * side * SKELETON.hipX;
        const tf = theta + (dir * ahead) / r;
        const t = 3 * (4 * i + f);
        footTarget[t] = rf * Math.cos(tf);
        footTarget[t + 2] = rf * Math.sin(tf);
        groundUnder(footTarget, t, normal);
        footTarget[t + 1] += SKELETON.ankle + lift;
        // The foot turned to the slope: the shortest arc from +Y to the normal, times the yaw.
        const ax = normal[2], az = -normal[0], aw = 1 + normal[1];
        const inv = 1 / Math.sqrt(ax * ax + az * az + aw * aw);
        const by = yaw[4 * i + 1], bw = yaw[4 * i + 3], e = 4 * (4 * i + f);
        endRotation[e] = (ax * bw - az * by) * inv;
        endRotation[e + 1] = aw * by * inv;
        endRotation[e + 2] = (az * bw + ax * by) * inv;
        endRotation[e + 3] = aw * bw * inv;
        // The highest hip that keeps this foot within reach.
        const hx = bx + tz * side * SKELETON.hipX - footTarget[t], hz = bz - tx * side * SKELETON.hipX - footTarget[t + 2];
        hip = Math.min(hip, footTarget[t + 1] + Math.sqrt(Math.max(0, (REACH * leg) ** 2 - hx * hx - hz * hz)));
      }
      // Pelvis; the other joints keep last frame's offsets from it.
      const o = 3 * JOINTS * i;
      const py = hip + SKELETON.hipDrop;
      for (let j = JOINTS - 1; j >= 0; j--) {
        joints[o + 3 * j] += bx - joints[o];
        joints[o + 3 * j + 1] += py - joints[o + 1];
        joints[o + 3 * j + 2] += bz - joints[o + 2];
      }
      // The look target, turned within the limits from the heading.
      const headY = py + rest[JOINTS - 1];
      const dx = target[0] - bx, dy = target[1] - headY, dz = target[2] - bz;
      const ahead = dx * tx + dz * tz, left = dx * tz - dz * tx;
      const flat = Math.sqrt(ahead * ahead + left * left), length = Math.sqrt(flat * flat + dy * dy);
      const turn = Math.max(-LOOK_YAW, Math.min(LOOK_YAW, Math.atan2(left, ahead)));
      const pitch = Math.max(LOOK_DOWN, Math.min(LOOK_UP, Math.atan2(dy, flat)));
      const c = length * Math.cos(pitch), sa = Math.sin(turn), ca = Math.cos(turn);
      look[3 * i] = bx + c * (sa * tz + ca * tx);
      look[3 * i + 1] = headY + length * Math.sin(pitch);
      look[3 * i + 2] = bz + c * (-sa * tx + ca * tz);
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
          midPosition[t + c] = rootPosition[t + c] + a * _r[c];
          endPosition[t + c] = rootPosition[t + c] + (a + b) * _r[c];
        }
        put4(rootRotation, 4 * n, R, qo);
        put4(midRotation, 4 * n, R, qo);
        if (arm) {
          put4(endRotation, 4 * n, R, qo);
          // The hand swings against the leg on its side.
          _v[0] = right ? -0.05 : 0.05;
          _v[1] = -0.45;
          _v[2] = Math.max(-0.18, Math.min(0.18, -0.5 * swing[2 * i + right])) + 0.02;
          rotate(R, qo, _v, 0);
          offsetFrom(target, t, rootPosition, t);
          rotate(R, qo, OFFSETS, ELBOW_POLE_AT + 3 * right); // elbows bend back
          offsetFrom(pole, t, rootPosition, t);
        } else {
          // Knees bend toward the walking direction.
          pole[t] = 0.5 * (rootPosition[t] + target[t]) + heading[2 * i];
          pole[t + 1] = 0.5 * (rootPosition[t + 1] + target[t + 1]);
          pole[t + 2] = 0.5 * (rootPosition[t + 2] + target[t + 2]) + heading[2 * i + 1];
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
    crowd.walked += crowd.speed * dt;
    crowd.gait += (dt * Math.max(crowd.speed, MIN_STEP_SPEED)) / CYCLE;
    walk(crowd.walked);
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
