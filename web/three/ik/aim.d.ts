// ikpd/three — AimIK (web/three/ik/aim.js; docs/ik/aim.md).
import type { Object3D } from 'three';
import type { AimMethod, Ikpd } from '../../index.js';
import type { PointLike, AxisLike, HelperOptions } from '../common.js';
import type { RigHelperOptions, OneConstraintRig } from '../rig/rigHelper.js';

export interface AimIKOptions extends HelperOptions, RigHelperOptions {
  /** What the forward axis points at. Default null (update() does nothing). @default null */
  target?: PointLike | null;
  /** World "up target": after aiming, roll so the `up` axis points toward it (docs/ik/aim.md). Default null (no roll). @default null */
  pole?: PointLike | null;
  /** Aim method (docs/ik/aim.md). Default `'yawPitch'`. @default 'yawPitch' */
  method?: AimMethod;
  /**
   * Bone-local hinge axis: when set, the bone only turns about it (2D aim;
   * `method` and `pole` unused). Default null.
   */
  hingeAxis?: AxisLike | null;
}

export interface AimIK extends OneConstraintRig {}
/**
 * One-bone aim (docs/ik/aim.md): turns a bone (a head, an eye, a turret) so its
 * forward axis points at a target. For a head whose bone runs up the neck,
 * pass the facing axis, e.g. `forward: '+z'`. A one-constraint IKRig (an
 * 'aim' constraint), which owns WASM memory: call `dispose()` when done.
 */
export class AimIK {
  /**
   * Checks every option now (TypeError/RangeError naming it); a Promise for
   * `ikpd` (a forgotten `await init()`) is a TypeError; a module without the rig area
   * (plain `init()`; every helper runs on a Rig) is an Error naming `init({ rig: true })`.
   */
  constructor(ikpd: Ikpd, bone: Object3D, options?: AimIKOptions);
  readonly bone: Object3D;
  target: PointLike | null;
  pole: PointLike | null;
  method: AimMethod;
  hingeAxis: AxisLike | null;
  weight: number;
  /**
   * Solves and writes the bone's local quaternion; no-op without a target or
   * at weight 0 (with `settleTime`, the offset blends out). `dt` in seconds
   * (for `settleTime`); none counts as 0, a negative one as 0 (one warning). Returns this.
   */
  update(dt?: number): this;
  /** Frees the helper's WASM memory; later `update()` calls throw. Idempotent. */
  dispose(): void;
}
