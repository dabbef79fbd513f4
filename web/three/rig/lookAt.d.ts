// ikpd/three — LookAtIK (web/three/rig/lookAt.js; docs/rig/look-at.md).
import type { Object3D } from 'three';
import type { Ikpd } from '../../index.js';
import type { PointLike, AxisLike } from '../common.js';
import type { OneConstraintRig, SmoothedRigIK } from './rigHelper.js';

export interface LookAtIKOptions {
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
  /** `'critical'` (default) | `'responsive'` | `'over'` | a damping ratio > 0. @default 1 */
  damping?: 'critical' | 'responsive' | 'over' | number;
  /** Seconds of the final linear part of turning off (>= 0). Default 0.1. @default 0.1 */
  blendOutTime?: number;
  /** False turns the look-at off: the offsets blend out to exactly zero. Default true. @default true */
  enabled?: boolean;
  /** How much of the turn each bone takes (scales every bone's share, smoothly), in [0, 1]. Default 1. @default 1 */
  weight?: number;
  /** Largest yaw either side of the character's facing, radians in [0, π]. Default 2. @default 2 */
  maxYaw?: number;
  /** Largest pitch above the horizontal, radians in [0, π/2]. Default 1.2. @default 1.2 */
  maxPitchUp?: number;
  /** Largest pitch below the horizontal, radians in [0, π/2]. Default 1.2. @default 1.2 */
  maxPitchDown?: number;
  /** Past `maxYaw`: `'keep'` (default) the side the target left from, `'front'` straight ahead, `'follow'` its side. @default 'keep' */
  behind?: 'keep' | 'front' | 'follow';
  /** rad/s (> 0; `Infinity`: no cap): the look yaw where `behind` moves it, and each bone's offset. Default 8. @default 8 */
  maxSpeed?: number;
  /** `'linear'`: the aim moves linearly between updates and is fed forward (no lag behind a moving target). @default 'hold' */
  targetMotion?: 'hold' | 'linear';
  /** Integral gain (PID) of every bone's controller, >= 0. Default 0. @default 0 */
  ki?: number;
  /**
   * `[leftEye, rightEye]` (0, 1 or 2 Object3Ds below the head) turned by the gaze, VRM lookAt style
   * (docs/rig/look-at.md, "Eyes"). Default none. @default []
   */
  eyes?: readonly Object3D[];
  /** The eyes' largest yaw relative to the head, radians in [0, π/2]. Default 0.6. @default 0.6 */
  eyeYaw?: number;
  /** The eyes' largest pitch up relative to the head, radians in [0, π/2]. Default 0.4. @default 0.4 */
  eyePitchUp?: number;
  /** The eyes' largest pitch down relative to the head, radians in [0, π/2]. Default 0.5. @default 0.5 */
  eyePitchDown?: number;
  /** Seconds (> 0) for the gaze to settle: short, so the eyes lead the head. Default 0.05. @default 0.05 */
  eyeSettleTime?: number;
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
