// ikpd/three — BodyLookAtIK (web/three/rig/bodyLookAt.js; docs/rig/body-look-at.md).
import type { Object3D } from 'three';
import type { Ikpd } from '../../index.js';
import type { PointLike, AxisLike } from '../common.js';
import type { SmoothedRigIK } from './rigHelper.js';
import type { BodyLookAtFields } from '../../types/rig/described.js';
import type { BodyLookAtArmReactionOptions, BodyLookAtSpineOptions, BodyLookAtWeightShiftOptions } from '../../types/rig/bodyLookAt.js';

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

/**
 * The options of BodyLookAtIK: the body look-at's described settings (`BodyLookAtFields` and its
 * groups' `BodyLookAt…Options`, web/types/rig/bodyLookAt.d.ts) and the helper's own.
 */
export interface BodyLookAtIKOptions extends Pick<BodyLookAtFields,
  'footLock' | 'blendOutTime' | 'maxYaw' | 'maxPitchUp' | 'maxPitchDown' | 'behind' | 'eyeYaw' | 'eyePitchUp' | 'eyePitchDown' | 'eyeSettleTime'> {
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
  spine?: BodyLookAtSpineOptions;
  /** Hips shift against the head's lean and turn. */
  weightShift?: BodyLookAtWeightShiftOptions;
  /** Upper arms lag the chest (the spine bone the arms hang from, found from `bones`). */
  armReaction?: Omit<BodyLookAtArmReactionOptions, 'chest'>;
  /**
   * `[leftEye, rightEye]` (Object3Ds or bone names below the head) turned by the gaze, VRM lookAt
   * style (docs/rig/look-at.md, "Eyes"), or `'auto'`: the preset's eye bones that exist ('mixamo':
   * mixamorigLeftEye/RightEye, 'vrm': leftEye/rightEye). Default none. @default []
   */
  eyes?: readonly (Object3D | string)[] | 'auto';
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
