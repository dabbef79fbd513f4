// Typings of BodyLookAt: the full-body look-at (docs/rig/body-look-at.md).
import type { Disposable, Joint, JointResult, Vec3 } from '../common.js';
import type { BodyLookAtArmReactionFields, BodyLookAtFields, BodyLookAtSpineFields, BodyLookAtWeightShiftFields } from './described.js';
import type { Gaze } from './lookAt.js';

/** The spine's look-at: joints pelvis → … → head. Arrays have one entry per spine joint. */
export interface BodyLookAtSpineOptions extends Omit<BodyLookAtSpineFields, 'headSettleTime' | 'pelvisSettleTime'> {
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
}

/** The pelvis translating against the head's lean and turn. */
export interface BodyLookAtWeightShiftOptions extends BodyLookAtWeightShiftFields {}

/** Upper arms lagging the chest's rotation and springing back. */
export interface BodyLookAtArmReactionOptions extends BodyLookAtArmReactionFields {}

/** Settings of `BodyLookAt`; every default is made for a standard humanoid. */
export interface BodyLookAtOptions extends BodyLookAtFields {
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
