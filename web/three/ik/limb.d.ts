// ikpd/three — the options the limb helpers share (web/three/ik/limb.js).
import type { Object3D, Vector3 } from 'three';
import type { TwoBoneFields } from '../../types/ik/described.js';
import type { PointLike, AxisLike, HelperOptions, ChainAxesOptions } from '../common.js';
import type { RigHelperOptions } from '../rig/rigHelper.js';

/** The two-bone fields a limb helper sets itself (its bones, target, pole, axes, weight, end) or types its own way. */
type LimbOwned = 'root' | 'mid' | 'end' | 'target' | 'pole' | 'poleDirection' | 'forward' | 'bendAxis' | 'effectorOffset' | 'weight' | 'endRotation' | 'maxStretch';

/**
 * Options of the limb helpers (`TwoBoneIK`, `PseudoThreeBoneIK`); the solver defaults apply when omitted.
 * Every described two-bone option the helper does not set itself is `solveTwoBone`'s (`TwoBoneFields`).
 */
export interface LimbOptions extends HelperOptions, ChainAxesOptions, RigHelperOptions,
  Omit<TwoBoneFields, LimbOwned> {
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
}

/**
 * What a limb helper (`TwoBoneIK`, `PseudoThreeBoneIK`) keeps as properties:
 * its bones, and every option of `LimbOptions` it lets you change between
 * updates (documented there).
 */
export interface LimbProperties extends Omit<TwoBoneFields, LimbOwned> {
  readonly bones: readonly Object3D[];
  target: PointLike | null;
  pole: PointLike | null;
  poleDirection: Vector3 | readonly [number, number, number] | null;
  weight: number;
  maxStretch: number;
}
