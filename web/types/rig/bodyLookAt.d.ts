// Typings of BodyLookAt: the full-body look-at (docs/rig/body-look-at.md).
import type { Disposable, Joint, JointResult, Vec3 } from '../common.js';
import type { Gaze } from './lookAt.js';

/** The spine's look-at: joints pelvis → … → head. Arrays have one entry per spine joint. */
export interface BodyLookAtSpineOptions {
  /**
   * Fraction of the remaining turn each joint takes, in [0, 1], pelvis first, head last.
   * Default: each joint's share grows as (i + 1)², the head finishing the turn (1).
   */
  weights?: ArrayLike<number>;
  /** Largest offset angle per joint, radians in [0, π]. Default: pelvis 0.35, torso 0.45, neck 0.9, head 1.2. */
  limits?: ArrayLike<number>;
  /**
   * PD settle time in seconds (> 0): a number for every joint, or one per joint. Default: linear
   * from 0.6 (pelvis) to 0.2 (head), so the head leads.
   */
  settleTime?: number | ArrayLike<number>;
  /** `'critical'` | `'responsive'` | `'over'` | a damping ratio > 0. @default 1 */
  damping?: 'critical' | 'responsive' | 'over' | number;
  /** rad/s (> 0; `Infinity`: no cap): the look yaw where `behind` moves it, and each joint's offset (the head's too), as `LookAtOptions.maxSpeed`. @default 8 */
  maxSpeed?: number;
  /** `'linear'`: the aim moves linearly between updates and is fed forward (no lag behind a moving target). @default 'hold' */
  targetMotion?: 'hold' | 'linear';
  /** Integral gain (PID) of every joint's controller, >= 0. @default 0 */
  ki?: number;
}

/** The pelvis translating against the head's lean and turn. */
export interface BodyLookAtWeightShiftOptions {
  /** Metres of pelvis shift per radian of head lean or turn (finite, >= 0; 0: off). @default 0.05 */
  amount?: number;
  /** Largest shift in metres (finite, >= 0): keeps the feet in reach. @default 0.06 */
  limit?: number;
  /** Seconds (> 0). @default 0.6 */
  settleTime?: number;
  /** `'critical'` | `'responsive'` | `'over'` | a damping ratio > 0. @default 1 */
  damping?: 'critical' | 'responsive' | 'over' | number;
}

/** Upper arms lagging the chest's rotation and springing back. */
export interface BodyLookAtArmReactionOptions {
  /** In [0, 1]: 0 keeps the arms glued to the chest, 1 gives the full lag. @default 0.7 */
  amount?: number;
  /** Seconds (> 0). @default 0.4 */
  settleTime?: number;
  /** Damping ratio > 0 (< 1: the arm swings past and springs back) or a preset name. @default 0.5 */
  damping?: 'critical' | 'responsive' | 'over' | number;
  /** Spine index the arms hang from; -1: spineJoints − 3 (at least 0). @default -1 */
  chest?: number;
}

/** Settings of `BodyLookAt`; every default is made for a standard humanoid. */
export interface BodyLookAtOptions {
  /** Spine joints, pelvis to head (>= 2, at most 64). @default 6 */
  spineJoints?: number;
  /** The head's look axis, head-local. @default [0, 0, 1] */
  forward?: Vec3;
  /** World up: the weight shift stays in the plane normal to it. @default [0, 1, 0] */
  up?: Vec3;
  /** Head-local point that must lie on the look line (the eyes), as `AimOptions.offset`. @default [0, 0, 0] */
  offset?: Vec3;
  /** Keep each ankle at its animated world position and rotation (two-bone IK on the legs). @default true */
  footLock?: boolean;
  /** Seconds (>= 0) of the final linear part of turning off, for every effect. @default 0.1 */
  blendOutTime?: number;
  /** Largest yaw either side of the character's facing (the animated head's, horizontal), radians in [0, π]. @default 2 */
  maxYaw?: number;
  /** Largest pitch above the horizontal, radians in [0, π/2]. @default 1.2 */
  maxPitchUp?: number;
  /** Largest pitch below the horizontal, radians in [0, π/2]. @default 1.2 */
  maxPitchDown?: number;
  /** A target past `maxYaw`: `'keep'` the side it left from, `'front'` straight ahead, `'follow'` its side. @default 'keep' */
  behind?: 'keep' | 'front' | 'follow';
  /** The eyes' largest yaw relative to the head, radians in [0, π/2]. @default 0.6 */
  eyeYaw?: number;
  /** The eyes' largest pitch up relative to the head, radians in [0, π/2]. @default 0.4 */
  eyePitchUp?: number;
  /** The eyes' largest pitch down relative to the head, radians in [0, π/2]. @default 0.5 */
  eyePitchDown?: number;
  /** Settle time of the gaze in seconds (> 0): short, so the eyes lead the head. @default 0.05 */
  eyeSettleTime?: number;
  spine?: BodyLookAtSpineOptions;
  weightShift?: BodyLookAtWeightShiftOptions;
  armReaction?: BodyLookAtArmReactionOptions;
}

/** One frame of the animated pose, world space. */
export interface BodyLookAtFrame {
  /** `spineJoints` joints, pelvis first, head last. */
  spine: ReadonlyArray<Joint>;
  /** 0, 3 or 6 joints: [upper, lower, hand] per arm. Default none. */
  arms?: ReadonlyArray<Joint>;
  /** 0, 3 or 6 joints: [hip, knee, ankle] per leg. Default none. */
  legs?: ReadonlyArray<Joint>;
  /** World point to look at. */
  target: Vec3;
  /** `false` blends every effect out to exactly the animated pose. @default true */
  enabled?: boolean;
  /** 0, 1 or 2 eye joints (left, right): carried by the head and turned by the gaze. Default none. */
  eyes?: ReadonlyArray<Joint>;
}

/** The solved pose: the same joints as the frame, world space. */
export interface BodyLookAtResult {
  spine: JointResult[];
  arms: JointResult[];
  legs: JointResult[];
  eyes: JointResult[];
  /** The eyes' yaw and pitch relative to the head (radians), also without eye joints: feed blend-shape eyes (VRM expressions) from it. */
  gaze: Gaze;
}

/**
 * Full-body look-at (docs/rig/body-look-at.md): the spine turns toward the target with the head
 * leading, the pelvis shifts against the head, the upper arms lag the chest and spring back, and
 * two-bone IK keeps the feet where the animation has them. Every effect is smoothed by a PD
 * controller with the exact integrator (frame-rate independent).
 */
export interface BodyLookAt extends Disposable {
  /**
   * Advances `dt` seconds (>= 0) from the animated pose and returns the solved pose. The returned
   * object and its joints are reused by the next update (no garbage per frame): copy what you keep.
   * Errors name the input (`dt`, `target`, `spine[2].position`, …) and change nothing.
   */
  update(dt: number, frame: BodyLookAtFrame): BodyLookAtResult;
  /** False once every effect is exactly zero (e.g. disabled and blended out). */
  readonly active: boolean;
  /** Number of spine joints. */
  readonly spineJoints: number;
  /** Zeroes every effect at once (no blend), e.g. after a camera cut. Returns this. */
  clear(): this;
}
