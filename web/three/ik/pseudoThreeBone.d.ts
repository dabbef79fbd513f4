// ikpd/three — PseudoThreeBoneIK (web/three/ik/pseudoThreeBone.js; docs/ik/pseudo-three-bone.md).
import type { Object3D } from 'three';
import type { Ikpd } from '../../index.js';
import type { OneConstraintRig } from '../rig/rigHelper.js';
import type { LimbOptions, LimbProperties } from './limb.js';

export interface PseudoThreeBoneIKOptions extends LimbOptions {
  /**
   * The foot's (joint 3's) blend between its rebuilt posture (0) and its
   * input world rotation (1), in [0, 1]; below 1 a second two-bone pass puts
   * the tip back on the target. Default 0.
   */
  blend?: number;
  /** `'relative'` (default): the foot keeps its rotation relative to the shin; `'followMid'`: it follows the shin, keeping its rest turn from it. */
  variant?: 'relative' | 'followMid';
  /** The foot turns at most this far (radians, [0, π]) from its rebuilt posture. Default π (off). @default Math.PI */
  endLimit?: number;
  /** Maximum bone scale when out of reach, >= 1 (scales the mid and end bones' local positions). Default 1. @default 1 */
  maxStretch?: number;
}

/**
 * Pseudo three-bone IK (docs/ik/pseudo-three-bone.md) on `[root, mid, end, tip]` (hip, knee,
 * ankle, toe — quadruped legs, hands with a fingertip): the two-bone solver
 * run twice so the foot follows the leg and the tip lands on the target.
 * The tip (a toe bone or any Object3D that moves with the end bone) keeps its
 * local rotation. Every option is also a writable property.
 */
export interface PseudoThreeBoneIK extends OneConstraintRig, LimbProperties {}
/** A one-constraint IKRig (a 'pseudoThreeBone' constraint); see above. */
export class PseudoThreeBoneIK {
  /**
   * Checks every option now (TypeError/RangeError naming it), and that each
   * bone is a descendant of the one before (its child, or deeper through twist
   * bones; RangeError otherwise). A Promise for `ikpd` (a forgotten
   * `await init()`) is a TypeError; a module without the rig area
   * (plain `init()`; every helper runs on a Rig) is an Error naming `init({ rig: true })`.
   */
  constructor(ikpd: Ikpd, bones: readonly [Object3D, Object3D, Object3D, Object3D], options?: PseudoThreeBoneIKOptions);
  blend?: number;
  variant?: 'relative' | 'followMid';
  endLimit?: number;
  /** True when the last `update()` got the tip within `tolerance`. */
  readonly reached: boolean;
  /** Tip-to-target distance after the last `update()`. */
  readonly distance: number;
  /** Solves and writes root, mid and end local quaternions; as `TwoBoneIK.update(dt)`. Returns this. */
  update(dt?: number): this;
  /** Frees the helper's WASM memory (its rig); later `update()` calls throw. Idempotent. */
  dispose(): void;
}
