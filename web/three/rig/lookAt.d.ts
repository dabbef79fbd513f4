// ikpd/three — LookAtIK (web/three/rig/lookAt.js; docs/rig/look-at.md).
import type { Object3D } from 'three';
import type { Ikpd } from '../../index.js';
import type { PointLike, AxisLike } from '../common.js';
import type { OneConstraintRig, SmoothedRigIK } from './rigHelper.js';
import type { LookAtFields } from '../../types/rig/described.js';

/** The options of LookAtIK: the look-at's described settings (`LookAtFields`) and the helper's own. */
export interface LookAtIKOptions extends Pick<LookAtFields,
  'damping' | 'blendOutTime' | 'maxYaw' | 'maxPitchUp' | 'maxPitchDown' | 'behind' | 'maxSpeed' | 'targetMotion' | 'ki' | 'eyeYaw' | 'eyePitchUp' | 'eyePitchDown' | 'eyeSettleTime'> {
  /** What the head looks at. Default null: the offsets blend out as if disabled. @default null */
  target?: PointLike | null;
  /**
   * The head's (last bone's) look axis in its local frame. Default `'auto'`:
   * the character's facing, as an IKRig lookAt finds it (the humanoid's, when
   * the bones hang in one, else +Z of the first bone's parent). Up to 0.1.0 the
   * default was `'+z'` in the head's own frame, which looks far off on rigs
   * whose bones have rest rotations. @default 'auto'
   */
  forward?: AxisLike;
  /**
   * Fraction of the remaining turn each bone takes, in [0, 1], root first,
   * one per bone. Default `1/n, 1/(n−1), …, 1/2, 1`: an equal share each,
   * the head finishing the turn.
   */
  weights?: ArrayLike<number>;
  /** Maximum turn of each bone's offset, radians in [0, π], one per bone. Default π (none). @default Math.PI */
  limits?: ArrayLike<number>;
  /**
   * PD settle time in seconds (> 0), one for all or one per bone (a faster
   * head leads; the rig's lookAt takes either). Default 0.3. @default 0.3
   */
  settleTime?: number | ArrayLike<number>;
  /** False turns the look-at off: the offsets blend out to exactly zero. Default true. @default true */
  enabled?: boolean;
  /** How much of the turn each bone takes (scales every bone's share, smoothly), in [0, 1]. Default 1. @default 1 */
  weight?: number;
  /**
   * `[leftEye, rightEye]` (0, 1 or 2 Object3Ds below the head) turned by the gaze, VRM lookAt style
   * (docs/rig/look-at.md, "Eyes"). Default none. @default []
   */
  eyes?: readonly Object3D[];
}

export interface LookAtIK extends SmoothedRigIK {}
/**
 * Look-at IK (docs/rig/look-at.md) on `[pelvis/spine, …, neck, head]` through
 * `ikpd.LookAt`: the head leads and the body follows by per-bone weights
 * and limits; each bone's offset (in its own frame, so it rides on the
 * animation) is smoothed by a quaternion PD controller with the exact,
 * frame-rate independent integrator, and `enabled = false` blends it out.
 * Owns WASM memory: call `dispose()`.
 */
export interface LookAtIK extends OneConstraintRig {}
/** A one-constraint IKRig (a 'lookAt' constraint). */
export class LookAtIK {
  /**
   * Checks every option now (TypeError/RangeError naming it), and that each
   * bone is a descendant of the one before (its child, or deeper through twist
   * bones; RangeError otherwise). A Promise for `ikpd` (a forgotten
   * `await init()`) is a TypeError; a module without the rig area
   * (plain `init()`; every helper runs on a Rig) is an Error naming `init({ rig: true })`.
   */
  constructor(ikpd: Ikpd, bones: readonly Object3D[], options?: LookAtIKOptions);
  readonly bones: readonly Object3D[];
  /** The eye bones the gaze turns (fixed at construction). */
  readonly eyes: readonly Object3D[];
}
