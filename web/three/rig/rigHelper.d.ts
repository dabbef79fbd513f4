// ikpd/three — what the helpers built on a one-constraint IKRig share (web/three/rig/rigHelper.js).
import type { PointLike } from '../common.js';

/**
 * The smoothing every helper has, as each is a one-constraint `IKRig` (its
 * `rig` and `constraint`): the rig's weight / enabled / settleTime / damping /
 * blendOutTime on the IK offset, with the exact, frame-rate independent PD
 * (docs/rig/rig.md). A setting written as a property is pushed to WASM once.
 */
export interface RigHelperOptions {
  /**
   * Seconds the IK offset takes to settle after a change of target, weight or
   * `enabled` (a PD on each bone's offset, exact at any frame rate). Default 0:
   * no smoothing, the solve applies at once. @default 0
   */
  settleTime?: number;
  /** False blends the IK offset out to exactly the animated pose (at once when `settleTime` is 0). Default true. @default true */
  enabled?: boolean;
  /** `'critical'` (1, default) | `'responsive'` | `'over'` | a damping ratio > 0, with `settleTime`. @default 1 */
  damping?: 'critical' | 'responsive' | 'over' | number;
  /** Seconds of the final linear part of blending out (>= 0), with `settleTime`. Default 0.1. @default 0.1 */
  blendOutTime?: number;
}

/** What the helpers built on a one-constraint IKRig share. */
export interface OneConstraintRig {
  /** The helper's rig: an IKRig over just its bones (and any between them). */
  readonly rig: import('./ikRig.js').IKRig;
  /** The rig's one constraint. */
  readonly constraint: import('./ikRig.js').IKConstraint;
  settleTime: number;
  enabled: boolean;
  damping: 'critical' | 'responsive' | 'over' | number;
  blendOutTime: number;
}

/** The members the smoothed rig helpers (`LookAtIK`, `BodyLookAtIK`) share. */
export interface SmoothedRigIK {
  target: PointLike | null;
  enabled: boolean;
  weight: number;
  /** False once disabled (or without a target) and every effect has blended out. */
  readonly active: boolean;
  /** Advances the smoothing by `dt` seconds (>= 0) and writes the bones' local quaternions. Returns this. */
  update(dt: number): this;
  /** Zeroes every effect at once (no blend), e.g. after a camera cut or a teleport. Returns this. */
  clear(): this;
  /** Frees the WASM memory; later calls throw. Idempotent. */
  dispose(): void;
}
