// Typings of solveChain: N-bone chains, CCD or FABRIK (docs/ik/chains.md).
import type { Joint, JointResult, Quat, Vec3 } from '../common.js';

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
