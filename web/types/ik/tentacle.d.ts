// Typings of Tentacle2D: the incremental 2D tentacle (docs/ik/tentacle.md).
import type { Disposable } from '../common.js';

/** A 2D point or vector `[x, y]`. */
export type Vec2 = readonly [number, number] | ArrayLike<number>;

/** Options of `new Tentacle2D(...)` (docs/ik/tentacle.md). */
export interface Tentacle2DOptions {
  /** Bone lengths, root to tip (>= 1 bone, each >= 0). */
  lengths: ArrayLike<number>;
  /** Largest turn of one joint per update, radians, in [0, π]. Default 0.05. @default 0.05 */
  step?: number;
  /** Joint limit |angle| <= limit (radians, >= 0), one number for all or one per bone. Default π. @default Math.PI */
  limit?: number | ArrayLike<number>;
  /** Root position. Default `[0, 0]`. @default [0, 0] */
  root?: Vec2;
  /** Direction of the straight (all angles 0) pose, radians from +X. Default 0. @default 0 */
  baseAngle?: number;
  /**
   * Opt-in escape from the plain rule's dead ends (integer >= 0; default 0 = off, the plain
   * rule, which can curl into a knot it never leaves). N > 0: when the tip has not come closer
   * to the target for N updates in a row while it is farther than `step * totalLength` beyond
   * the best gap any pose could have, the tentacle unwinds (every joint one step toward 0 per
   * update until straight) and then follows the plain rule again. At most once per target: the
   * target must move by more than `step * totalLength` first. See docs/ik/tentacle.md.
   * @default 0
   */
  escapeAfter?: number;
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
