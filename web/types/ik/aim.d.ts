// Typings of solveAim: aim with up-vector roll (docs/ik/aim.md).
import type { AimFields, AimResultFields } from './described.js';

/** How `solveAim` turns the forward axis toward the target (docs/ik/aim.md). */
export type AimMethod = 'yawPitch' | 'crossProduct' | 'shortestArc';

/** Options of `solveAim` (docs/ik/aim.md). */
export interface AimOptions extends AimFields {}

/** Result of `solveAim`. */
export interface AimResult extends AimResultFields {}
