// Typings for the 'chain' API module: N-bone chains (CCD, FABRIK), the 2D
// tentacle (docs/ik/tentacle.md), pseudo three-bone IK (docs/ik/pseudo-three-bone.md) and look-at (docs/rig/look-at.md).
import type { Disposable, Joint, JointResult, Quat, Vec3 } from './common.js';
import type { TwoBoneOptions } from './ik.js';

/** A 2D point or vector `[x, y]`. */
export type Vec2 = readonly [number, number] | ArrayLike<number>;

/**
 * A rotation limit on one chain joint, on its local rotation L = parent⁻¹·joint
 * (world rotations; the root's parent is `parentRotation`).
 * - `{ type: 'cone', angle, axis }`: the bone direction L·forward stays within
 *   `angle` radians (in [0, π]) of `axis` (parent frame; default: `forward`).
 * - `{ type: 'euler', min, max }`: L's three.js 'XYZ' Euler angles are clamped to
 *   [min, max] per axis, like three.js CCDIKSolver's rotationMin/rotationMax
 *   (a hinge: min = max = 0 on two axes). Defaults ±π.
 */
export type JointLimit =
  | { type: 'cone'; angle: number; axis?: Vec3 }
  | { type: 'euler'; min?: Vec3; max?: Vec3 };

/** Options of `solveChain`. Bone lengths come from the joint positions and are kept. */
export interface ChainOptions {
  /** World-space joints, root first; the last is the tip (end effector). 2 to 128 joints. */
  joints: ReadonlyArray<Joint>;
  /** World point the tip should reach. */
  target: Vec3;
  /** `'fabrik'` (default; fewest iterations) or `'ccd'` (like three.js CCDIKSolver, moves the joints near the tip most). The default was `'ccd'` up to 0.1.0. @default 'fabrik' */
  method?: 'ccd' | 'fabrik';
  /** Maximum iterations (CCD sweeps / FABRIK back-and-forth passes), integer >= 0. Default 20. @default 20 */
  iterations?: number;
  /** Stop when |tip − target| <= tolerance × chain length (sum of bone lengths); >= 0. Default 1e-4. @default 1e-4 */
  tolerance?: number;
  /** One limit per joint (or per bone: joints.length − 1 entries); `null` = free. Default: none. */
  limits?: ReadonlyArray<JointLimit | null | undefined>;
  /**
   * World point the chain bends toward: the solved chain is turned about the root→tip axis
   * (the tip does not move) so its bend faces the pole. That turn ignores the root's limit. Default none.
   */
  pole?: Vec3;
  /** Joint-local bone axis (points at the child). Default `[1, 0, 0]`; three.js rigs `[0, 1, 0]`. @default [1, 0, 0] */
  forward?: Vec3;
  /** World rotation of the root's parent (reference of the root's limit). Default identity. @default [0, 0, 0, 1] */
  parentRotation?: Quat;
}

/** Result of `solveChain`. */
export interface ChainResult {
  /**
   * Solved world-space joints. Each rotation is the input one turned by the smallest rotation
   * that points `forward` at the child; the tip keeps its rotation relative to its parent.
   */
  joints: JointResult[];
  /** True when `distance` <= tolerance × chain length. */
  reached: boolean;
  /** Remaining distance from the tip to the target. */
  distance: number;
  /** Iterations run. */
  iterations: number;
}

/** Options of `new Tentacle2D(...)` (docs/ik/tentacle.md). */
export interface Tentacle2DOptions {
  /** Bone lengths, root to tip (>= 1 bone, each >= 0). */
  lengths: ArrayLike<number>;
  /** Largest turn of one joint per update, radians, in [0, π]. Default 0.05. @default 0.05 */
  step?: number;
  /** Joint limit |angle| <= limit (radians, >= 0), one number for all or one per bone. Default π. @default Math.PI */
  limit?: number | ArrayLike<number>;
  /** Root position. Default `[0, 0]`. @default [0, 0] */
  root?: Vec2;
  /** Direction of the straight (all angles 0) pose, radians from +X. Default 0. @default 0 */
  baseAngle?: number;
  /**
   * Opt-in escape from the plain rule's dead ends (integer >= 0; default 0 = off, the plain
   * rule, which can curl into a knot it never leaves). N > 0: when the tip has not come closer
   * to the target for N updates in a row while it is farther than `step * totalLength` beyond
   * the best gap any pose could have, the tentacle unwinds (every joint one step toward 0 per
   * update until straight) and then follows the plain rule again. At most once per target: the
   * target must move by more than `step * totalLength` first. See docs/ik/tentacle.md.
   * @default 0
   */
  escapeAfter?: number;
}

/**
 * The incremental 2D tentacle (docs/ik/tentacle.md). Each `update(target)` turns every joint by
 * +step, −step or not at all (from the tip to the root, moving only the tip, choosing what
 * brings the tip closest to the target; ties keep the joint still; turns past a limit are
 * not candidates), then rebuilds the positions from the root. Starts straight.
 */
export interface Tentacle2D extends Disposable {
  /** One incremental update toward `target` `[x, y]`. Returns this. */
  update(target: Vec2): this;
  /** Sets every joint angle (radians, each within its limit) and rebuilds the positions. Returns this. */
  setAngles(angles: ArrayLike<number>): this;
  /** Number of bones. */
  readonly bones: number;
  /** True while the tentacle unwinds out of a dead end (only with `escapeAfter` > 0). */
  readonly unwinding: boolean;
  /** bones + 1 points `[x, y]`: the root, every joint, the tip. */
  readonly positions: Array<[number, number]>;
  /** The tip `[x, y]`. */
  readonly tip: [number, number];
  /** Relative joint angles, radians (bone i's direction minus bone i−1's; bone 0's from baseAngle). */
  readonly angles: number[];
  /** Bone lengths. */
  readonly lengths: number[];
  /** Per-joint limits, radians. */
  readonly limits: number[];
}

/**
 * Options of `solvePseudoThreeBone` (docs/ik/pseudo-three-bone.md): every two-bone option (pole,
 * forward, bendAxis, bendDirection, minAngle/maxAngle, weight, soften, maxStretch, twist,
 * tolerance) plus the third bone. `effectorOffset` and `endRotation` are set by the solver
 * (passing them throws). `weight` applies once, to the final pose: every joint turns `weight`
 * of its full-weight angle from its input, whatever `blend`.
 */
export interface PseudoThreeBoneOptions extends Omit<TwoBoneOptions, 'effectorOffset' | 'endRotation'> {
  /** World-space tip of the end joint (toe, fingertip); it moves rigidly with `end` and is what reaches `target`. */
  tip: Joint;
  /**
   * Joint 3's blend between its rebuilt posture (0) and its input world rotation (1), in [0, 1].
   * 1: a plain two-bone solve with the effector's rotation fixed. Below 1 a second two-bone pass
   * puts the tip back on the target. Default 0.
   * @default 0
   */
  blend?: number;
  /**
   * How joint 3 is rebuilt after the first pass: `'relative'` (default) keeps its input rotation
   * relative to joint 2; `'followMid'` gives it joint 2's rotation.
   * @default 'relative'
   */
  variant?: 'relative' | 'followMid';
  /**
   * Optional limit, radians in [0, π]: joint 3 may turn at most this far from its input rotation
   * relative to joint 2; forces the second pass (which may break the limit slightly). Default π (off).
   * @default Math.PI
   */
  endLimit?: number;
}

/** Result of `solvePseudoThreeBone`: world-space joints; root and mid forward axes point at their child. */
export interface PseudoThreeBoneResult {
  root: JointResult;
  mid: JointResult;
  end: JointResult;
  /** The tip, moved rigidly with `end`. */
  tip: JointResult;
  /** True when `distance` <= tolerance × (upper + lower length). */
  reached: boolean;
  /** Remaining distance from the tip to the target. */
  distance: number;
}

/** Options of `new LookAt(...)` (docs/rig/look-at.md). Arrays have one entry per joint, root first. */
export interface LookAtOptions {
  /**
   * Fraction of the remaining turn each joint takes, in [0, 1], root (pelvis) first, head last.
   * `[1/5, 1/4, 1/3, 1/2, 1]` shares a turn equally; the head usually has 1 so it finishes the turn.
   */
  weights: ArrayLike<number>;
  /** Maximum rotation angle of each joint's offset, radians in [0, π]. Default π (no limit). @default Math.PI */
  limits?: ArrayLike<number>;
  /** PD settle time in seconds (> 0), one for all joints or one per joint (head fastest to lead). Default 0.3. @default 0.3 */
  settleTime?: number | ArrayLike<number>;
  /** `'critical'` (default) | `'responsive'` | `'over'` | a damping ratio > 0. @default 'critical' */
  damping?: 'critical' | 'responsive' | 'over' | number;
  /** Seconds of the final linear part of turning off (>= 0). Default 0.1. @default 0.1 */
  blendOutTime?: number;
  /** The head's look axis in its local frame. Default `[0, 0, 1]` (three.js `Object3D.lookAt` convention). @default [0, 0, 1] */
  forward?: Vec3;
  /**
   * Head-local point that must lie on the look line (the eyes in front of the head joint), as
   * `AimOptions.offset`: the ray from it along `forward` passes through the target once settled.
   * @default [0, 0, 0]
   */
  offset?: Vec3;
  /** World up: the character's frame measures yaw about it and pitch from the plane normal to it. @default [0, 1, 0] */
  up?: Vec3;
  /**
   * Largest yaw of the look direction either side of the character's facing (the animated head's
   * look axis made horizontal), radians in [0, π]. Past it, `behind` decides. @default 2
   */
  maxYaw?: number;
  /** Largest pitch above the horizontal, radians in [0, π/2]. @default 1.2 */
  maxPitchUp?: number;
  /** Largest pitch below the horizontal, radians in [0, π/2]. @default 1.2 */
  maxPitchDown?: number;
  /**
   * A target past `maxYaw`: `'keep'` holds the limit on the side the target left from (it
   * crosses behind without the head sweeping through the front), `'front'` looks straight
   * ahead, `'follow'` holds the limit on the target's current side. @default 'keep'
   */
  behind?: LookBehind;
  /**
   * rad/s (> 0; `Infinity`: no cap): the look direction's yaw moves at most this fast where the
   * `behind` policy moves it (a target coming back in front on the other side), and each joint's
   * offset turns at most this fast. @default 8
   */
  maxSpeed?: number;
  /**
   * `'hold'`: each update's aim is a new target; `'linear'`: it moves linearly from the last one
   * and its velocity is fed forward, so a moving target is followed without lag. @default 'hold'
   */
  targetMotion?: 'hold' | 'linear';
  /** Integral gain (PID) of every joint's controller, >= 0. @default 0 */
  ki?: number;
  /** The eyes' largest yaw relative to the head, radians in [0, π/2]. @default 0.6 */
  eyeYaw?: number;
  /** The eyes' largest pitch up relative to the head, radians in [0, π/2]. @default 0.4 */
  eyePitchUp?: number;
  /** The eyes' largest pitch down relative to the head, radians in [0, π/2]. @default 0.5 */
  eyePitchDown?: number;
  /** Settle time of the gaze in seconds (> 0): short, so the eyes lead the head. @default 0.05 */
  eyeSettleTime?: number;
}

/** What the head does once the target is past `maxYaw` (docs/rig/look-at.md). */
export type LookBehind = 'keep' | 'front' | 'follow';

/** The gaze: the eyes' smoothed yaw (toward the head's left, +) and pitch (up, +) relative to the head, radians. */
export interface Gaze {
  yaw: number;
  pitch: number;
}

/** One frame of input for `LookAt.update`. */
export interface LookAtFrame {
  /** The animated world-space pose, root first, one joint per weight. */
  joints: ReadonlyArray<Joint>;
  /** World point to look at. */
  target: Vec3;
  /** `false` blends every offset out to exactly zero (smoothly, then linearly). Default true. @default true */
  enabled?: boolean;
  /** 0, 1 or 2 eye joints (left, right), animated world pose: carried by the head and turned by the gaze. */
  eyes?: ReadonlyArray<Joint>;
}

/**
 * Look-at IK (docs/rig/look-at.md): from the root to the head each joint turns by its weight of the rotation
 * that would point the head's `forward` at the target (clamped to its limit); each joint's offset
 * (in its own frame, so it moves with the animation) is smoothed by a quaternion PD controller with
 * the exact integrator (frame-rate independent); turning off blends the offsets out.
 */
export interface LookAt extends Disposable {
  /** Advances `dt` seconds (>= 0) and returns the world-space pose: animation plus smoothed offsets. */
  update(dt: number, frame: LookAtFrame): JointResult[] & { eyes?: JointResult[] };
  /** The gaze after the last update (radians; VRM `lookAt` yaw/pitch, which are in degrees). */
  readonly gaze: Gaze;
  /** The smoothed joint-local offsets `[x, y, z, w]`, root first. */
  readonly offsets: Array<[number, number, number, number]>;
  /** False when every offset is exactly identity (e.g. once disabled and blended out). */
  readonly active: boolean;
  /** Number of joints. */
  readonly size: number;
  /** Zeroes every offset and velocity at once (no blend). Returns this. */
  clear(): this;
}

export interface ChainApi {
  /** Look-at IK with per-joint weights, limits and PD smoothing (docs/rig/look-at.md). Free it with `dispose()`. */
  LookAt: new (options: LookAtOptions) => LookAt;
  /**
   * Pseudo three-bone IK (docs/ik/pseudo-three-bone.md): the two-bone solver run twice so a third bone (foot, hand)
   * follows the limb; for quadruped legs, hands and feet.
   * Pass a previous result as `result` to have it filled in place (its joints' arrays are
   * reused, nothing is allocated) and returned; otherwise a new result is returned.
   */
  solvePseudoThreeBone(options: PseudoThreeBoneOptions, result?: PseudoThreeBoneResult): PseudoThreeBoneResult;
  /**
   * N-bone chain IK in 3D by CCD or FABRIK, with per-joint limits and an optional pole.
   * Pass a previous result as `result` to have it filled in place (its `joints` arrays are
   * reused, nothing is allocated) and returned; otherwise a new result is returned.
   */
  solveChain(options: ChainOptions, result?: ChainResult): ChainResult;
  /** The incremental 2D tentacle (docs/ik/tentacle.md). Free it with `dispose()`. */
  Tentacle2D: new (options: Tentacle2DOptions) => Tentacle2D;
}
