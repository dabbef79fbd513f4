// Typings of solveChain: N-bone chains, CCD or FABRIK (docs/ik/chains.md).
import type { Joint, JointResult, Vec3 } from '../common.js';
import type { ChainFields, ChainResultFields } from './described.js';

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
export interface ChainOptions extends ChainFields {
  /** World-space joints, root first; the last is the tip (end effector). 2 to 128 joints. */
  joints: ReadonlyArray<Joint>;
  /** One limit per joint (or per bone: joints.length − 1 entries); `null` = free. Default: none. */
  limits?: ReadonlyArray<JointLimit | null | undefined>;
}

/** Result of `solveChain`. */
export interface ChainResult extends ChainResultFields {
  /**
   * Solved world-space joints. Each rotation is the input one turned by the smallest rotation
   * that points `forward` at the child; the tip keeps its rotation relative to its parent.
   */
  joints: JointResult[];
}
