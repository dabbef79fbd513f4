// Typings of solvePseudoThreeBone: pseudo three-bone IK (docs/ik/pseudo-three-bone.md).
import type { PseudoThreeBoneFields, PseudoThreeBoneResultFields } from './described.js';

/**
 * Options of `solvePseudoThreeBone` (docs/ik/pseudo-three-bone.md): every two-bone option (pole,
 * forward, bendAxis, bendDirection, minAngle/maxAngle, weight, soften, maxStretch, twist,
 * tolerance) plus the third bone. `effectorOffset` and `endRotation` are set by the solver
 * (passing them throws). `weight` applies once, to the final pose: every joint turns `weight`
 * of its full-weight angle from its input, whatever `blend`.
 */
export interface PseudoThreeBoneOptions extends PseudoThreeBoneFields {}

/** Result of `solvePseudoThreeBone`: world-space joints; root and mid forward axes point at their child. */
export interface PseudoThreeBoneResult extends PseudoThreeBoneResultFields {}
