// Typings of Tentacle2D: the incremental 2D tentacle (docs/ik/tentacle.md).
import type { Disposable } from '../common.js';
import type { Tentacle2DFields } from './described.js';

/** A 2D point or vector `[x, y]`. */
export type Vec2 = readonly [number, number] | ArrayLike<number>;

/** Options of `new Tentacle2D(...)` (docs/ik/tentacle.md). */
export interface Tentacle2DOptions extends Omit<Tentacle2DFields, 'limit'> {
  /** Bone lengths, root to tip (>= 1 bone, each >= 0). */
  lengths: ArrayLike<number>;
  /** Joint limit |angle| <= limit (radians, >= 0), one number for all or one per bone. Default π. @default Math.PI */
  limit?: number | ArrayLike<number>;
}

/**
 * The incremental 2D tentacle (docs/ik/tentacle.md). Each `update(target)` turns every joint by
 * +step, −step or not at all (from the tip to the root, moving only the tip, choosing what
 * brings the tip closest to the target; ties keep the joint still; turns past a limit are
 * not candidates), then rebuilds the positions from the root. Starts straight.
 */
export interface Tentacle2D extends Disposable {
  /** One incremental update toward `target` `[x, y]`. Returns this. */
  update(target: Vec2): this;
  /** Sets every joint angle (radians, each within its limit) and rebuilds the positions. Returns this. */
  setAngles(angles: ArrayLike<number>): this;
  /** Number of bones. */
  readonly bones: number;
  /** True while the tentacle unwinds out of a dead end (only with `escapeAfter` > 0). */
  readonly unwinding: boolean;
  /** bones + 1 points `[x, y]`: the root, every joint, the tip. */
  readonly positions: Array<[number, number]>;
  /** The tip `[x, y]`. */
  readonly tip: [number, number];
  /** Relative joint angles, radians (bone i's direction minus bone i−1's; bone 0's from baseAngle). */
  readonly angles: number[];
  /** Bone lengths. */
  readonly lengths: number[];
  /** Per-joint limits, radians. */
  readonly limits: number[];
}
