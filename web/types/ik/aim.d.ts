// Typings of solveAim: aim with up-vector roll (docs/ik/aim.md).
import type { Quat, Vec3 } from '../common.js';

/** How `solveAim` turns the forward axis toward the target (docs/ik/aim.md). */
export type AimMethod = 'yawPitch' | 'crossProduct' | 'shortestArc';

/** Options of `solveAim` (docs/ik/aim.md). */
export interface AimOptions {
  /** Joint world position. */
  position: Vec3;
  /** Joint world rotation. Default identity. @default [0, 0, 0, 1] */
  rotation?: Quat;
  /** World point the forward axis should point at. At the joint itself: no aim rotation. */
  target: Vec3;
  /** Joint-local axis to aim. Default `[1, 0, 0]` (three.js rigs from Blender: `[0, 1, 0]`). @default [1, 0, 0] */
  forward?: Vec3;
  /**
   * Default `'yawPitch'` (yaw, then pitch; see docs/ik/aim.md). `'crossProduct'` gives the same
   * rotation; `'shortestArc'` gives the same forward axis with no roll correction.
   * @default 'yawPitch'
   */
  method?: AimMethod;
  /** Joint-local axis rolled toward `pole` (docs/ik/aim.md); only used with `pole`. Default `[0, 1, 0]`. @default [0, 1, 0] */
  up?: Vec3;
  /** World "up target": after aiming, roll about forward so `up` points toward it. Default none. */
  pole?: Vec3;
  /** Joint-local axis; when given, the joint only rotates about it (2D use; `method` unused, no `pole`). Default none. */
  hingeAxis?: Vec3;
  /**
   * Joint-local point that aims instead of the joint (the eyes in front of a head joint, a
   * fingertip): the ray from it along `forward` passes through the target (docs/ik/aim.md).
   * A target within the offset's reach gets no aim rotation. Not with `hingeAxis`.
   * @default [0, 0, 0]
   */
  offset?: Vec3;
  /** Blend from the input rotation (0) to the solved one (1). Default 1. @default 1 */
  weight?: number;
}

/** Result of `solveAim`. */
export interface AimResult {
  /** New world rotation `[x, y, z, w]` (unit). */
  rotation: [number, number, number, number];
}
