// ikpd/three — BodyLookAtIK (web/three/rig/bodyLookAt.js; docs/rig/body-look-at.md).
import type { Object3D } from 'three';
import type { Ikpd } from '../../index.js';
import type { PointLike, AxisLike } from '../common.js';
import type { SmoothedRigIK } from './rigHelper.js';

/**
 * Bone names: the spine hips → head (a trailing `'?'` marks a bone that may be
 * missing, e.g. VRM's `'upperChest?'`) and per limb `[upper, lower, end]`.
 * Limbs left out are not solved.
 */
export interface BodyBoneTable {
  spine: readonly string[];
  leftArm?: readonly [string, string, string] | null;
  rightArm?: readonly [string, string, string] | null;
  leftLeg?: readonly [string, string, string] | null;
  rightLeg?: readonly [string, string, string] | null;
}

/** Built-in tables: Mixamo as exported to glTF (`mixamorigHips`, …) and VRM humanoid bone names (`hips`, …). */
export declare const BODY_LOOK_AT_PRESETS: Readonly<{ mixamo: BodyBoneTable; vrm: BodyBoneTable }>;

export interface BodyLookAtIKOptions {
  /** `'mixamo'` (default), `'vrm'` or a name table. */
  bones?: 'mixamo' | 'vrm' | BodyBoneTable;
  /** Finds a bone by name (e.g. VRM: `(n) => vrm.humanoid.getNormalizedBoneNode(n)`). Default: by name below root, also ignoring ':' and other separators. */
  getBone?: (name: string) => Object3D | null | undefined;
  /** What the eyes look at. Default null: every effect blends out as if disabled. @default null */
  target?: PointLike | null;
  /** The direction the character faces, in `root`'s local frame, in the pose at construction; gives the head's look axis. Default `'+z'` (glTF, Mixamo, VRM 1.0). @default '+z' */
  facing?: Exclude<AxisLike, 'auto'>;
  /** The head's look axis in its local frame (overrides `facing`). */
  forward?: Exclude<AxisLike, 'auto'>;
  /** World up. Default `'+y'`. @default '+y' */
  up?: Exclude<AxisLike, 'auto'>;
  /** Head-local point on the look line (the eyes), in the head's local units. Default `[0, 0, 0]` (the head joint). @default [0, 0, 0] */
  offset?: ArrayLike<number>;
  /**
   * Spine look-at. Defaults (standard humanoid): shares of the turn growing as (i + 1)²
   * toward the head; limits 0.35 (hips), 0.45 (torso), 0.9 (neck), 1.2 (head) radians;
   * settle times from 0.6 s (hips) to 0.2 s (head), so the head leads. `settleTime`:
   * seconds, one per joint (hips first), or one number for every joint (the head then no longer leads).
   */
  spine?: {
    weights?: ArrayLike<number>; limits?: ArrayLike<number>; settleTime?: number | ArrayLike<number>; damping?: number;
    /** rad/s cap on the look yaw and each joint's turn (default 8), as `BodyLookAtSpineOptions`. */
    maxSpeed?: number; targetMotion?: 'hold' | 'linear'; ki?: number;
  };
  /** Hips shift against the head's lean and turn: `amount` metres per radian (default 0.05), `limit` metres (0.06), `settleTime` s (0.6). */
  weightShift?: { amount?: number; limit?: number; settleTime?: number; damping?: number };
  /** Upper arms lag the chest: `amount` in [0, 1] (default 0.7), `settleTime` s (0.4), `damping` ratio (0.5). */
  armReaction?: { amount?: number; settleTime?: number; damping?: number };
  /** Keep each foot at its animated position and rotation (two-bone IK on the legs). Default true. @default true */
  footLock?: boolean;
  /** Seconds of the final linear part of turning off (>= 0). Default 0.1. @default 0.1 */
  blendOutTime?: number;
  /** Largest yaw either side of the character's facing, radians in [0, π]. Default 2. @default 2 */
  maxYaw?: number;
  /** Largest pitch above the horizontal, radians in [0, π/2]. Default 1.2. @default 1.2 */
  maxPitchUp?: number;
  /** Largest pitch below the horizontal, radians in [0, π/2]. Default 1.2. @default 1.2 */
  maxPitchDown?: number;
  /** Past `maxYaw`: `'keep'` (default) the side the target left from, `'front'` straight ahead, `'follow'` its side. @default 'keep' */
  behind?: 'keep' | 'front' | 'follow';
  /**
   * `[leftEye, rightEye]` (Object3Ds or bone names below the head) turned by the gaze, VRM lookAt
   * style (docs/rig/look-at.md, "Eyes"), or `'auto'`: the preset's eye bones that exist ('mixamo':
   * mixamorigLeftEye/RightEye, 'vrm': leftEye/rightEye). Default none. @default []
   */
  eyes?: readonly (Object3D | string)[] | 'auto';
  /** The eyes' largest yaw relative to the head, radians in [0, π/2]. Default 0.6. @default 0.6 */
  eyeYaw?: number;
  /** The eyes' largest pitch up relative to the head, radians in [0, π/2]. Default 0.4. @default 0.4 */
  eyePitchUp?: number;
  /** The eyes' largest pitch down relative to the head, radians in [0, π/2]. Default 0.5. @default 0.5 */
  eyePitchDown?: number;
  /** Seconds (> 0) for the gaze to settle: short, so the eyes lead the head. Default 0.05. @default 0.05 */
  eyeSettleTime?: number;
  /** False blends every effect out to exactly the animated pose. Default true. @default true */
  enabled?: boolean;
  /** How much of the effect applies, in [0, 1]: scales the spine's shares and the weight shift (smoothly). Default 1. @default 1 */
  weight?: number;
}

/** The bones a table names, checked: see BodyLookAtIK. `chest` is the spine index the arms hang from (−1 without arms). */
export declare function resolveBodyBones(root: Object3D, table: BodyBoneTable, getBone?: BodyLookAtIKOptions['getBone']): {
  spine: Object3D[]; arms: Object3D[][]; legs: Object3D[][]; chest: number;
};

export interface BodyLookAtIK extends SmoothedRigIK {}
/**
 * Full-body look-at on a humanoid (docs/rig/body-look-at.md): the spine turns
 * with the head leading, the hips shift against the head, the arms lag the
 * chest, and the feet stay planted. Bones are found by name below `root`; the
 * constructor checks they exist (TypeError) and form parent → child chains
 * (RangeError). Any bone axes. Call `update(dt)` every frame after the
 * animation mixer. A module without the rig area (plain `init()`) is an
 * Error naming `init({ rig: true })`, before any bone is looked up. A
 * one-constraint IKRig (a 'bodyLookAt' constraint).
 */
export class BodyLookAtIK {
  constructor(ikpd: Ikpd, root: Object3D, options?: BodyLookAtIKOptions);
  /** The bones found: the spine (hips → head) and each arm and leg (upper, lower, end). */
  readonly bones: { readonly spine: readonly Object3D[]; readonly arms: readonly Object3D[][]; readonly legs: readonly Object3D[][] };
  readonly root: Object3D;
  readonly hips: Object3D;
  /** The eye bones the gaze turns (fixed at construction; empty for none). */
  readonly eyes: readonly Object3D[];
  /** The helper's rig (a one-constraint IKRig over the character). */
  readonly rig: import('./ikRig.js').IKRig;
}
