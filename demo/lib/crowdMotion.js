// What every crowd character does, whichever solver moves its bones
// (docs/batch/batches.md, "A crowd in the demo"): the stick figure's
// measurements, the ring layout, the gait over the sum-of-sines ground
// (terrain.js), the look target within the neck's limits, and the arm and
// knee inputs. demo/lib/crowd.js (three batches) and demo/lib/crowdRigBatch.js
// (one RigBatch) both fill their solver inputs from here, so both crowds walk
// and look the same. Nothing here allocates per frame. No three.js import.
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
/** Look-at joints per character (pelvis … head). */
export const LOOK_JOINTS = 5;

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
const LEG = SKELETON.thigh + SKELETON.shin;
/** Heights of the look-at joints above the pelvis at rest (pelvis … head). */
export const SPINE_REST = /* @__PURE__ */ SKELETON.spine.reduce((h, l) => [...h, h[h.length - 1] + l], [0]);

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
/** rotate()'s result. */
export const rotated = /* @__PURE__ */ new Float64Array(3);
const _v = /* @__PURE__ */ new Float64Array(3); // a vector computed in the frame, for rotate()

/** `rotated` = quaternion q[qo..qo + 3] applied to v[vo..vo + 2]. */
export function rotate(q, qo, v, vo) {
  const x = q[qo], y = q[qo + 1], z = q[qo + 2], w = q[qo + 3];
  const vx = v[vo], vy = v[vo + 1], vz = v[vo + 2];
  const tx = 2 * (y * vz - z * vy), ty = 2 * (z * vx - x * vz), tz = 2 * (x * vy - y * vx);
  rotated[0] = vx + w * tx + (y * tz - z * ty);
  rotated[1] = vy + w * ty + (z * tx - x * tz);
  rotated[2] = vz + w * tz + (x * ty - y * tx);
}

/** dst[o..o + 2] = a[ao..ao + 2] + `rotated` (a joint placed at an offset from another). */
export function offsetFrom(dst, o, a, ao) {
  dst[o] = a[ao] + rotated[0]; dst[o + 1] = a[ao + 1] + rotated[1]; dst[o + 2] = a[ao + 2] + rotated[2];
}

export function put4(dst, o, src, so) {
  dst[o] = src[so]; dst[o + 1] = src[so + 1]; dst[o + 2] = src[so + 2]; dst[o + 3] = src[so + 3];
}

export function copy3(dst, o, src, so) {
  dst[o] = src[so]; dst[o + 1] = src[so + 1]; dst[o + 2] = src[so + 2];
}

// Model-space offsets rotate() reads, 3 floats each: the spine bones, the
// hips and shoulders (left, right), a bone's axis (−Y), the elbow poles.
export const SPINE_AT = 0, HIP_AT = 12, SHOULDER_AT = 18, DOWN_AT = 24;
const ELBOW_POLE_AT = 27;
export const OFFSETS = /* @__PURE__ */ Float64Array.of(
  ...SKELETON.spine.flatMap((l) => [0, l, 0]),
  SKELETON.hipX, -SKELETON.hipDrop, 0, -SKELETON.hipX, -SKELETON.hipDrop, 0,
  SKELETON.shoulderX, SKELETON.shoulderUp, 0, -SKELETON.shoulderX, SKELETON.shoulderUp, 0,
  0, -1, 0,
  0.25, -0.3, -1, -0.25, -0.3, -1,
);

/**
 * Where `count` characters are and how their feet move: advance(dt) walks
 * them; gait(), lookTarget(), armTarget() and kneePole() fill one
 * character's solver inputs.
 */
export function createCrowdMotion(count, seed) {
  const layout = ringLayout(count, seed);
  const motion = {
    count,
    layout,
    /** Radius of the outermost ring (m). */
    radius: layout.outer,
    speed: 0.7,
    walked: 0, // metres along the rings
    gait: 0, // gait cycles
    stepScale: 1, // the steps' share of a full stride (below MIN_STEP_SPEED)
    heading: new Float64Array(2 * count), // (x, z) of the walking direction
    yaw: new Float32Array(4 * count), // heading as a quaternion
    base: new Float64Array(3 * count), // the point on the ring under the pelvis; [1]: the ring angle
    swing: new Float64Array(2 * count), // each foot's offset ahead of the hip (m)
    stance: new Uint8Array(2 * count),
    hips: new Float64Array(6 * count), // each hip's estimate (yaw only) from the gait
    pelvisY: new Float64Array(count), // the pelvis height the feet allow
    look: new Float32Array(3 * count), // each character's look target, within its limits
    /** Walks `dt` seconds further (dt = 0: where they are now). */
    advance(dt) {
      motion.walked += motion.speed * dt;
      motion.gait += (dt * Math.max(motion.speed, MIN_STEP_SPEED)) / CYCLE;
      motion.stepScale = Math.min(1, motion.speed / MIN_STEP_SPEED);
      walk();
    },
    /** Back to the start of the walk. */
    reset() {
      motion.walked = 0;
      motion.gait = 0;
      motion.advance(0);
    },
  };

  /** Heading, yaw and ring point of every character after walking `motion.walked` metres. */
  function walk() {
    const { heading, yaw, base } = motion;
    for (let i = 0; i < count; i++) {
      const r = layout.radius[i], dir = layout.dir[i];
      const theta = layout.angle[i] + (dir * motion.walked) / r;
      const tx = -dir * Math.sin(theta), tz = dir * Math.cos(theta);
      heading[2 * i] = tx;
      heading[2 * i + 1] = tz;
      const half = 0.5 * Math.atan2(tx, tz);
      yaw[4 * i + 1] = Math.sin(half);
      yaw[4 * i + 3] = Math.cos(half);
      base[3 * i] = r * Math.cos(theta);
      base[3 * i + 1] = theta;
      base[3 * i + 2] = r * Math.sin(theta);
    }
  }

  motion.reset();
  return motion;
}

const _normal = /* @__PURE__ */ new Float64Array(3);

/**
 * Character i's feet on the ground: each ankle target (world) into
 * `left`[l..] and `right`[r..], each foot's rotation (turned to the slope and
 * the heading) into `rotation`[e..e + 7] (left, right), the stance flags, the
 * swing, the hip estimates and the highest pelvis that keeps both feet within
 * reach (`motion.pelvisY[i]`).
 */
export function gait(motion, i, left, l, right, r, rotation, e) {
  const { layout, heading, yaw, base, swing, stance, hips } = motion;
  const k = motion.stepScale;
  const tx = heading[2 * i], tz = heading[2 * i + 1];
  const radius = layout.radius[i], dir = layout.dir[i];
  const bx = base[3 * i], theta = base[3 * i + 1], bz = base[3 * i + 2];
  let hip = Infinity;
  for (let f = 0; f < 2; f++) {
    const target = f === 0 ? left : right, t = f === 0 ? l : r, q = e + 4 * f;
    const side = 1 - 2 * f; // left (+X), right
    const p = (layout.phase[i] + motion.gait + 0.5 * f) % 1;
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
    const rf = radius + dir * side * SKELETON.hipX;
    const tf = theta + (dir * ahead) / radius;
    target[t] = rf * Math.cos(tf);
    target[t + 2] = rf * Math.sin(tf);
    groundUnder(target, t, _normal);
    target[t + 1] += SKELETON.ankle + lift;
    // The foot turned to the slope: the shortest arc from +Y to the normal, times the yaw.
    const ax = _normal[2], az = -_normal[0], aw = 1 + _normal[1];
    const inv = 1 / Math.sqrt(ax * ax + az * az + aw * aw);
    const by = yaw[4 * i + 1], bw = yaw[4 * i + 3];
    rotation[q] = (ax * bw - az * by) * inv;
    rotation[q + 1] = aw * by * inv;
    rotation[q + 2] = (az * bw + ax * by) * inv;
    rotation[q + 3] = aw * bw * inv;
    // The highest hip that keeps this foot within reach.
    const h = 6 * i + 3 * f;
    hips[h] = bx + tz * side * SKELETON.hipX;
    hips[h + 2] = bz - tx * side * SKELETON.hipX;
    const hx = hips[h] - target[t], hz = hips[h + 2] - target[t + 2];
    hip = Math.min(hip, target[t + 1] + Math.sqrt(Math.max(0, (REACH * LEG) ** 2 - hx * hx - hz * hz)));
  }
  hips[6 * i + 1] = hip;
  hips[6 * i + 4] = hip;
  motion.pelvisY[i] = hip + SKELETON.hipDrop;
}

/** Character i's look target (`motion.look`), turned within the limits from its heading; after gait(). */
export function lookTarget(motion, i, target) {
  const { heading, base, look } = motion;
  const tx = heading[2 * i], tz = heading[2 * i + 1], bx = base[3 * i], bz = base[3 * i + 2];
  const headY = motion.pelvisY[i] + SPINE_REST[LOOK_JOINTS - 1];
  const dx = target[0] - bx, dy = target[1] - headY, dz = target[2] - bz;
  const ahead = dx * tx + dz * tz, left = dx * tz - dz * tx;
  const flat = Math.sqrt(ahead * ahead + left * left), length = Math.sqrt(flat * flat + dy * dy);
  const turn = Math.max(-LOOK_YAW, Math.min(LOOK_YAW, Math.atan2(left, ahead)));
  const pitch = Math.max(LOOK_DOWN, Math.min(LOOK_UP, Math.atan2(dy, flat)));
  const c = length * Math.cos(pitch), sa = Math.sin(turn), ca = Math.cos(turn);
  look[3 * i] = bx + c * (sa * tz + ca * tx);
  look[3 * i + 1] = headY + length * Math.sin(pitch);
  look[3 * i + 2] = bz + c * (-sa * tx + ca * tz);
}

/**
 * Character i's hand target and elbow pole (arm `right` 0 or 1): the hand
 * swings against the leg on its side, the elbow bends back; both in the
 * chest's frame `chest`[c..c + 3] (world rotation) from the shoulder
 * `shoulder`[s..s + 2] (world position), into `target`[t..] and `pole`[p..].
 */
export function armTarget(motion, i, right, chest, c, shoulder, s, target, t, pole, p) {
  _v[0] = right ? -0.05 : 0.05;
  _v[1] = -0.45;
  _v[2] = Math.max(-0.18, Math.min(0.18, -0.5 * motion.swing[2 * i + right])) + 0.02;
  rotate(chest, c, _v, 0);
  offsetFrom(target, t, shoulder, s);
  rotate(chest, c, OFFSETS, ELBOW_POLE_AT + 3 * right);
  offsetFrom(pole, p, shoulder, s);
}

/** The knee pole of character i: ahead of the middle of hip `hip`[h..] and ankle target `ankle`[a..], into `pole`[p..]. */
export function kneePole(motion, i, hip, h, ankle, a, pole, p) {
  pole[p] = 0.5 * (hip[h] + ankle[a]) + motion.heading[2 * i];
  pole[p + 1] = 0.5 * (hip[h + 1] + ankle[a + 1]);
  pole[p + 2] = 0.5 * (hip[h + 2] + ankle[a + 2]) + motion.heading[2 * i + 1];
}
