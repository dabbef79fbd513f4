// ikpd/three — ChainIK (web/three/ik/chain.js; docs/ik/chains.md).
import type { Object3D } from 'three';
import type { Ikpd } from '../../index.js';
import type { PointLike, HelperOptions, ChainAxesOptions } from '../common.js';
import type { RigHelperOptions, OneConstraintRig } from '../rig/rigHelper.js';

/** A joint limit of `ChainIK`, as `solveChain` takes it (see `JointLimit` in 'ikpd'), on the bone's local rotation. */
export type { JointLimit } from '../../index.js';

export interface ChainIKOptions extends HelperOptions, ChainAxesOptions, RigHelperOptions {
  /** What the tip (the last object) reaches for. Default null (update() does nothing). @default null */
  target?: PointLike | null;
  /** World point the chain's bend turns toward (about the root→tip axis). Default null. @default null */
  pole?: PointLike | null;
  /** `'fabrik'` (default; fewest iterations) or `'ccd'` (like three.js CCDIKSolver, moves the joints near the tip most). The default was `'ccd'` up to 0.1.0. */
  method?: 'ccd' | 'fabrik';
  /** Maximum iterations, integer >= 0. Default 20. @default 20 */
  iterations?: number;
  /** Stop when the tip is within tolerance × chain length of the target. Default 1e-4. @default 1e-4 */
  tolerance?: number;
  /**
   * One limit (or null) per bone, root first, on the bone's local rotation
   * (`bone.quaternion`): `{ type: 'euler', min, max }` clamps `bone.rotation`
   * ('XYZ') like CCDIKSolver's rotationMin/rotationMax; `{ type: 'cone',
   * angle, axis }` keeps the bone's forward axis within `angle` of `axis`
   * (parent bone's local frame; default its rest direction). 'euler' limits
   * need the bones to share one forward axis (every usual rig does).
   * Default null (free). The rig's chain limits on the bones' local rotations
   * (`limitFrames: 'local'`), smoothed like the rest. A setting like the others: checked and sent when
   * assigned, so assign a new array to change them (edits inside the array
   * are not seen); a bad one throws and the chain keeps the limits it had.
   */
  limits?: ReadonlyArray<import('../../index.js').JointLimit | null | undefined> | null;
}

/**
 * N-bone chain IK (tails, tentacles, spines, fingers) by CCD or FABRIK on
 * `[root, ..., tip]` (the tip, often an end bone or an Object3D marker, is
 * what reaches the target and keeps its local rotation). Every option is
 * also a writable property read at each `update()`.
 */
export interface ChainIK extends OneConstraintRig {}
/** A one-constraint IKRig (a 'chain' constraint); see above. */
export class ChainIK {
  /**
   * Checks every option now (TypeError/RangeError naming it), and that each
   * bone is a descendant of the one before (its child, or deeper through twist
   * bones; RangeError otherwise). A Promise for `ikpd` (a forgotten
   * `await init()`) is a TypeError; a module without the rig area
   * (plain `init()`; every helper runs on a Rig) is an Error naming `init({ rig: true })`.
   */
  constructor(ikpd: Ikpd, bones: readonly Object3D[], options?: ChainIKOptions);
  readonly bones: readonly Object3D[];
  target: PointLike | null;
  pole: PointLike | null;
  method?: 'ccd' | 'fabrik';
  iterations?: number;
  tolerance?: number;
  limits: ChainIKOptions['limits'];
  weight: number;
  /** True when the last `update()` got the tip within tolerance. */
  readonly reached: boolean;
  /** Tip-to-target distance after the last `update()`. */
  readonly distance: number;
  /** Iterations the last `update()` ran. */
  readonly iterationsRun: number;
  /** Solves and writes the bones' local quaternions; as `TwoBoneIK.update(dt)`. Returns this. */
  update(dt?: number): this;
  /** Frees the helper's WASM memory (its rig); later `update()` calls throw. Idempotent. */
  dispose(): void;
}
