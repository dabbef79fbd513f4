// Typings of LookAt: look-at IK with PD smoothing (docs/rig/look-at.md).
import type { Disposable, Joint, JointResult, Vec3 } from '../common.js';
import type { LookAtFields } from './described.js';

/** Options of `new LookAt(...)` (docs/rig/look-at.md). Arrays have one entry per joint, root first. */
export interface LookAtOptions extends Omit<LookAtFields, 'settleTime'> {
  /**
   * Fraction of the remaining turn each joint takes, in [0, 1], root (pelvis) first, head last.
   * `[1/5, 1/4, 1/3, 1/2, 1]` shares a turn equally; the head usually has 1 so it finishes the turn.
   */
  weights: ArrayLike<number>;
  /** Maximum rotation angle of each joint's offset, radians in [0, π]. Default π (no limit). @default Math.PI */
  limits?: ArrayLike<number>;
  /** PD settle time in seconds (> 0), one for all joints or one per joint (head fastest to lead). Default 0.3. @default 0.3 */
  settleTime?: number | ArrayLike<number>;
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
