// ikpd/three — the options the limb helpers share (web/three/ik/limb.js).
import type { Object3D, Vector3 } from 'three';
import type { BendDirection } from '../../index.js';
import type { PointLike, AxisLike, HelperOptions, ChainAxesOptions } from '../common.js';
import type { RigHelperOptions } from '../rig/rigHelper.js';

/** Options of the limb helpers (`TwoBoneIK`, `PseudoThreeBoneIK`); the solver defaults apply when omitted. */
export interface LimbOptions extends HelperOptions, ChainAxesOptions, RigHelperOptions {
  /** What the end joint (or `effector`) reaches for. Default null (update() does nothing). @default null */
  target?: PointLike | null;
  /** World point the middle joint bends toward (knee/elbow target, Unity's hint). Default null: keep the current plane. @default null */
  pole?: PointLike | null;
  /** World direction the middle joint bends toward (instead of `pole`). Default null. @default null */
  poleDirection?: Vector3 | readonly [number, number, number] | null;
  /**
   * Bone-local hinge axis of the middle bone. Default `'auto'`: the current
   * bend (upper × lower bone) at construction when the limb is bent, else
   * forward × up of the middle bone. With a straight rest pose (T-pose),
   * pass it or a pole so the limb bends the right way.
   */
  bendAxis?: AxisLike;
  /** Default `'auto'`: keep the side the limb is bent to (straight limb: `straightBend`). @default 'auto' */
  bendDirection?: BendDirection;
  /** Side `'auto'` picks for a perfectly straight limb. Default `'positive'`. @default 'positive' */
  straightBend?: 'positive' | 'negative';
  /** Minimum interior angle of the middle joint, radians. Default 0. @default 0 */
  minAngle?: number;
  /** Maximum interior angle, radians (170–175° avoids snapping straight). Default π. @default Math.PI */
  maxAngle?: number;
  /** Soft-IK zone near full extension, fraction of the reach in [0, 1]. Default 0. @default 0 */
  soften?: number;
  /** Rotation of the limb plane about the root→target axis, radians. Default 0. @default 0 */
  twist?: number;
  /** `reached` tolerance relative to the limb length. Default 1e-4. @default 1e-4 */
  tolerance?: number;
}

/**
 * What a limb helper (`TwoBoneIK`, `PseudoThreeBoneIK`) keeps as properties:
 * its bones, and every option of `LimbOptions` it lets you change between
 * updates (documented there).
 */
export interface LimbProperties {
  readonly bones: readonly Object3D[];
  target: PointLike | null;
  pole: PointLike | null;
  poleDirection: Vector3 | readonly [number, number, number] | null;
  weight: number;
  maxStretch: number;
  bendDirection?: BendDirection;
  straightBend?: 'positive' | 'negative';
  minAngle?: number;
  maxAngle?: number;
  soften?: number;
  twist?: number;
  tolerance?: number;
}
