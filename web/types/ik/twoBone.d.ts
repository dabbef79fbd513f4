// Typings of solveTwoBone: two-bone IK (docs/ik/two-bone.md).
import type { TwoBoneFields, TwoBoneResultFields } from './described.js';

/** Which way the middle joint bends about `bendAxis` (docs/ik/two-bone.md). */
export type BendDirection = 'auto' | 'positive' | 'negative';

/** Options of `solveTwoBone` (docs/ik/two-bone.md). Bone lengths come from the joint positions. */
export interface TwoBoneOptions extends TwoBoneFields {}

/** Result of `solveTwoBone`: world-space joints; root and mid forward axes point at their child. */
export interface TwoBoneResult extends TwoBoneResultFields {}
