// Typings of LookAt: look-at IK with PD smoothing (docs/rig/look-at.md).
import type { Disposable, Joint, JointResult, Vec3 } from '../common.js';

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
  /**
   * Advances `dt` seconds (>= 0) and returns the world-space pose: animation plus smoothed offsets.
   * The same array (and joints) every call, overwritten by the next update: copy what you keep.
   */
  update(dt: number, frame: LookAtFrame): JointResult[] & { eyes?: JointResult[] };
  /** The gaze after the last update (radians; VRM `lookAt` yaw/pitch, which are in degrees); the same object every update. */
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
