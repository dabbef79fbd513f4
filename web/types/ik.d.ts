// Typings for the 'ik' API module: aim with up-vector roll (docs/ik/aim.md), two-bone IK (docs/ik/two-bone.md).
import type { Joint, JointResult, Quat, Vec3 } from './common.js';

/** How `solveAim` turns the forward axis toward the target (docs/ik/aim.md). */
export type AimMethod = 'yawPitch' | 'crossProduct' | 'shortestArc';

/** Options of `solveAim` (docs/ik/aim.md). */
export interface AimOptions {
  /** Joint world position. */
  position: Vec3;
  /** Joint world rotation. Default identity. @default [0, 0, 0, 1] */
  rotation?: Quat;
  /** World point the forward axis should point at. At the joint itself: no aim rotation. */
  target: Vec3;
  /** Joint-local axis to aim. Default `[1, 0, 0]` (three.js rigs from Blender: `[0, 1, 0]`). @default [1, 0, 0] */
  forward?: Vec3;
  /**
   * Default `'yawPitch'` (yaw, then pitch; see docs/ik/aim.md). `'crossProduct'` gives the same
   * rotation; `'shortestArc'` gives the same forward axis with no roll correction.
   * @default 'yawPitch'
   */
  method?: AimMethod;
  /** Joint-local axis rolled toward `pole` (docs/ik/aim.md); only used with `pole`. Default `[0, 1, 0]`. @default [0, 1, 0] */
  up?: Vec3;
  /** World "up target": after aiming, roll about forward so `up` points toward it. Default none. */
  pole?: Vec3;
  /** Joint-local axis; when given, the joint only rotates about it (2D use; `method` unused, no `pole`). Default none. */
  hingeAxis?: Vec3;
  /**
   * Joint-local point that aims instead of the joint (the eyes in front of a head joint, a
   * fingertip): the ray from it along `forward` passes through the target (docs/ik/aim.md).
   * A target within the offset's reach gets no aim rotation. Not with `hingeAxis`.
   * @default [0, 0, 0]
   */
  offset?: Vec3;
  /** Blend from the input rotation (0) to the solved one (1). Default 1. @default 1 */
  weight?: number;
}

/** Result of `solveAim`. */
export interface AimResult {
  /** New world rotation `[x, y, z, w]` (unit). */
  rotation: [number, number, number, number];
}

/** Which way the middle joint bends about `bendAxis` (docs/ik/two-bone.md). */
export type BendDirection = 'auto' | 'positive' | 'negative';

/** Options of `solveTwoBone` (docs/ik/two-bone.md). Bone lengths come from the joint positions. */
export interface TwoBoneOptions {
  /** Root joint (shoulder/hip), world space. Its position stays fixed. */
  root: Joint;
  /** Middle joint (elbow/knee), world space. */
  mid: Joint;
  /** End joint (wrist/ankle), world space. */
  end: Joint;
  /** World point the end joint (plus `effectorOffset`) should reach. */
  target: Vec3;
  /** World point the middle joint bends toward; selects the limb plane. Default: keep the current plane. */
  pole?: Vec3;
  /** World direction the middle joint bends toward (alternative to `pole`, not both). */
  poleDirection?: Vec3;
  /** Joint-local bone axis of root and mid (points at the child). Default `[1, 0, 0]`; three.js rigs `[0, 1, 0]`. @default [1, 0, 0] */
  forward?: Vec3;
  /** Joint-local hinge axis of the middle joint (not parallel to `forward`). Default `[0, 0, 1]`. @default [0, 0, 1] */
  bendAxis?: Vec3;
  /** Default `'auto'`: keep the side the limb is bent to now (straight limb: `straightBend`). @default 'auto' */
  bendDirection?: BendDirection;
  /** Side used by `'auto'` when the limb is perfectly straight. Default `'positive'`. @default 'positive' */
  straightBend?: 'positive' | 'negative';
  /** Minimum interior angle of the middle joint, radians, in [0, maxAngle]. Default 0. @default 0 */
  minAngle?: number;
  /** Maximum interior angle, radians, in [minAngle, π]; 170–175° keeps the limb from snapping straight. Default π. @default Math.PI */
  maxAngle?: number;
  /** World offset from the end joint to the contact point (fingertip, sole) (docs/ik/two-bone.md). Default `[0, 0, 0]`. @default [0, 0, 0] */
  effectorOffset?: Vec3;
  /** Blend from the input pose (0) to the solved pose (1). Default 1. @default 1 */
  weight?: number;
  /** Soft-IK zone near full extension, as a fraction of the reach, in [0, 1]. Default 0 (off). @default 0 */
  soften?: number;
  /** Maximum bone scale when the target is out of reach, >= 1. Default 1 (no stretch). @default 1 */
  maxStretch?: number;
  /** Rotation of the limb plane about the root→target axis, radians. Default 0. @default 0 */
  twist?: number;
  /** End joint rotation: `'world'` keeps its world rotation (default), `'relative'` keeps it relative to the mid. @default 'world' */
  endRotation?: 'world' | 'relative';
  /** `reached` tolerance relative to the limb length (upper + lower), >= 0. Default 1e-4. @default 1e-4 */
  tolerance?: number;
}

/** Result of `solveTwoBone`: world-space joints; root and mid forward axes point at their child. */
export interface TwoBoneResult {
  root: JointResult;
  mid: JointResult;
  end: JointResult;
  /** True when `distance` <= tolerance × limb length. */
  reached: boolean;
  /** Remaining distance from the contact point (end + effectorOffset) to the target. */
  distance: number;
}

export interface IkApi {
  /**
   * One-bone IK with the optional up-vector roll constraint (docs/ik/aim.md).
   * Pass a previous result as `result` to have it filled in place (its `rotation` array is
   * reused) and returned; otherwise a new result is returned.
   */
  solveAim(options: AimOptions, result?: AimResult): AimResult;
  /**
   * Two-bone limb IK by the law of cosines (docs/ik/two-bone.md).
   * Pass a previous result as `result` to have it filled in place (its joints' `position` and
   * `rotation` arrays are reused, nothing is allocated) and returned; otherwise a new result is returned.
   */
  solveTwoBone(options: TwoBoneOptions, result?: TwoBoneResult): TwoBoneResult;
  /**
   * Converts world rotations of a chain (root first) to local ones:
   * local[0] = parentRotation⁻¹·world[0], local[i] = world[i−1]⁻¹·world[i].
   * Accepts joints (`{rotation}`, e.g. `[r.root, r.mid, r.end]`). `parentRotation` defaults to identity.
   */
  toLocalRotations(joints: ReadonlyArray<{ rotation: Quat }>, parentRotation?: Quat): Array<[number, number, number, number]>;
}
