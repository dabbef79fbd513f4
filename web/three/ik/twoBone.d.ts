// ikpd/three — TwoBoneIK (web/three/ik/twoBone.js; docs/ik/two-bone.md).
import type { Object3D } from 'three';
import type { Ikpd } from '../../index.js';
import type { OneConstraintRig } from '../rig/rigHelper.js';
import type { LimbOptions, LimbProperties } from './limb.js';

export interface TwoBoneIKOptions extends LimbOptions {
  /**
   * The point that must touch the target when it is not the end joint itself
   * (a fingertip, the sole): an Object3D that moves with the end bone. Its
   * world offset from the end joint is taken at every update. Default null.
   */
  effector?: Object3D | null;
  /**
   * The end bone's rotation: `'world'` keeps its world rotation (a planted
   * foot, a hand holding still; default), `'relative'` keeps its rotation
   * relative to the middle bone (follows like FK; the name `solveTwoBone`
   * uses), `'target'` copies the target Object3D's world rotation (a hand
   * gizmo, Unity's target rotation).
   * @default 'world'
   */
  endRotation?: 'world' | 'relative' | 'target';
  /**
   * Maximum bone scale when the target is out of reach, >= 1. Default 1 (no
   * stretch). Stretch scales the middle and end bones' local positions
   * (restored to their construction-time values before each solve).
   */
  maxStretch?: number;
}

export interface TwoBoneIK extends OneConstraintRig, LimbProperties {}
/**
 * Two-bone limb IK (docs/ik/two-bone.md) on `[root, mid, end]` bones (shoulder, elbow,
 * wrist / hip, knee, ankle): a one-constraint IKRig (a 'twoBone' constraint
 * over just these bones, same options and results as `solveTwoBone`; it owns
 * WASM memory, so call `dispose()` when done). Every option is also a
 * writable property of the same name; a changed setting is pushed to WASM once.
 */
export class TwoBoneIK {
  /**
   * Checks every option now (TypeError/RangeError naming it), and that each
   * bone is a descendant of the one before (its child, or deeper through twist
   * bones; RangeError otherwise). A Promise for `ikpd` (a forgotten
   * `await init()`) is a TypeError; a module without the rig area
   * (plain `init()`; every helper runs on a Rig) is an Error naming `init({ rig: true })`.
   */
  constructor(ikpd: Ikpd, bones: readonly [Object3D, Object3D, Object3D], options?: TwoBoneIKOptions);
  effector: Object3D | null;
  endRotation: 'world' | 'relative' | 'target';
  /** True when the last `update()` reached the target within `tolerance`. */
  readonly reached: boolean;
  /** Distance from the end (or effector) to the target after the last `update()`. */
  readonly distance: number;
  /**
   * Solves and writes the bones' local quaternions; no-op without a target or
   * at weight 0 (with `settleTime`, the offset blends out). `dt` in seconds
   * (for `settleTime`); none counts as 0, a negative one as 0 (one warning). Returns this.
   */
  update(dt?: number): this;
  /** Frees the helper's WASM memory (its rig); later `update()` calls throw. Idempotent. */
  dispose(): void;
}
