// Typings of solvePseudoThreeBone: pseudo three-bone IK (docs/ik/pseudo-three-bone.md).
import type { Joint, JointResult } from '../common.js';
import type { TwoBoneOptions } from './twoBone.js';

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
