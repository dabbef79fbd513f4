// ikpd/three — what the helpers built on a one-constraint IKRig share (web/three/rig/rigHelper.js).
import type { PointLike } from '../common.js';
import type { RigCommonFields } from '../../types/rig/described.js';

/**
 * The smoothing every helper has, as each is a one-constraint `IKRig` (its
 * `rig` and `constraint`): the rig's weight / enabled / settleTime / damping /
 * blendOutTime on the IK offset, with the exact, frame-rate independent PD
 * (docs/rig/rig.md). A setting written as a property is pushed to WASM once.
 */
export interface RigHelperOptions extends Pick<RigCommonFields, 'settleTime' | 'enabled' | 'damping' | 'blendOutTime'> {}

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
