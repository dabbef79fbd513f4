// ikpd/three — IKRig typings (docs/rig/rig.md).
import type { Object3D, Skeleton, Vector3 } from 'three';
import type { Ikpd } from '../../index.js';
import type { AxisLike, PointLike } from '../common.js';
import type { GroundingConstraintOptions, GroundLike } from './grounding.js';
import type { AvatarFields, SpringsFields, SpringColliderFields, TwistFields } from '../../types/rig/described.js';
import type { AvatarScales, RigSpringJoint } from '../../types/rig/rig.js';

/** A humanoid role: the VRM humanoid bone names. */
export type HumanoidRole =
  | 'hips' | 'spine' | 'chest' | 'upperChest' | 'neck' | 'head' | 'leftEye' | 'rightEye' | 'jaw'
  | 'leftShoulder' | 'leftUpperArm' | 'leftLowerArm' | 'leftHand'
  | 'rightShoulder' | 'rightUpperArm' | 'rightLowerArm' | 'rightHand'
  | 'leftUpperLeg' | 'leftLowerLeg' | 'leftFoot' | 'leftToes'
  | 'rightUpperLeg' | 'rightLowerLeg' | 'rightFoot' | 'rightToes';

/** Every humanoid role, parents before children. */
export const HUMANOID_ROLES: readonly HumanoidRole[];
/**
 * A bone-name convention of `HUMANOID_TABLES` (docs/rig/rig.md, "Humanoid roles"): Mixamo
 * (`mixamorigHips`), BVH/CMU and Mixamo without its prefix (`Hips`, `LeftUpLeg`), VRM role
 * names, VRoid (`J_Bip_C_Hips`), Unreal's mannequin (`pelvis`, `thigh_l`), Blender Rigify's
 * deform bones (`DEF-thigh.L`), Character Creator (`CC_Base_L_Thigh`), 3ds Max Biped
 * (`Bip01 L Thigh`) and DAZ Genesis 8/9 (`lThighBend`).
 */
export type HumanoidConvention = 'mixamo' | 'bvh' | 'vrm' | 'vroid' | 'unreal' | 'rigify' | 'cc' | 'biped' | 'daz';

/**
 * Role → bone-name tables, one per convention. A table name matches a bone whose name is the same,
 * or the same once normalised: namespaces (`mixamorig1:`, `Armature|`), separators, case and
 * the side's spelling (`Left…`, `L_…`, `…_l`, `….L`, `l…`) aside.
 */
export const HUMANOID_TABLES: Readonly<Record<HumanoidConvention, Readonly<Partial<Record<HumanoidRole, string>>>>>;

/**
 * What an IKRig found (`rig.humanoid`): a read-only Map role → bone (`set`, `delete` and `clear`
 * throw a TypeError), empty when the rig has no humanoid.
 */
export interface HumanoidRoles extends ReadonlyMap<HumanoidRole, Object3D> {
  /**
   * Where the roles came from: the convention whose names matched, `'structure'` (the skeleton's
   * shape in the rest pose), `'table'` (a role table given as `humanoid`), `'VRMHumanoid'`, or
   * null when empty.
   */
  readonly convention: HumanoidConvention | 'structure' | 'table' | 'VRMHumanoid' | null;
  /** When empty, why: the names fit no table, and what the structure lacks (e.g. "no spine: …"); else null. */
  readonly reason: string | null;
}

/** A bone as constraints take it: the Object3D, its name, or a humanoid role. */
export type BoneLike = Object3D | HumanoidRole | string;

/**
 * Which humanoid the rig is: `'auto'` (the convention whose names give every required role, else
 * the skeleton's structure in the rest pose; none is fine), `'none'`, a convention by name,
 * `'structure'`, a role → bone (or bone name) table, or a three-vrm `VRMHumanoid` (anything with
 * `getRawBoneNode(role)`). All but `'auto'` and `'none'` must give hips, spine, head and both
 * upper arms and upper legs, else a RangeError names what is missing. A bone given as an Object3D
 * outside the rig's objects (a VRM face mesh's skeleton) is left out: a RangeError naming the role
 * and the bone, at construction for a required role, else when a constraint asks for it.
 */
export type HumanoidOption =
  | 'auto' | 'none' | 'structure' | HumanoidConvention
  | Partial<Record<HumanoidRole, string | Object3D>>
  | { getRawBoneNode(role: string): Object3D | null | undefined };

export interface IKRigOptions {
  /** The humanoid table. @default 'auto' */
  humanoid?: HumanoidOption;
  /**
   * The direction the character faces, in the frame of the skeleton's parent.
   * `'auto'`: from the humanoid's hips (left − right upper leg, across `up`),
   * else its shoulders, else +Z (glTF characters face +Z). @default 'auto'
   */
  facing?: AxisLike;
  /** World up (mapped into the frame of the skeleton's parent at construction). @default '+y' */
  up?: AxisLike;
}

/** What every constraint has: weight, enable and the smoothing of its correction. */
export interface ConstraintOptions {
  /** Blend of the correction, 0 (animation) to 1 (full), smoothed like everything else. @default 1 */
  weight?: number;
  /** False blends the correction out (through the PD, then an exact linear blend-out). @default true */
  enabled?: boolean;
  /** Seconds for a change of weight, enabled, target or pole to settle; a steady target is held exactly under the animation (0: no smoothing). @default 0 */
  settleTime?: number;
  /** Damping ratio of that smoothing (1 critical). @default 1 */
  damping?: number;
  /** Seconds of the final linear part of turning off. @default 0.1 */
  blendOutTime?: number;
  /** The point to reach or look at, read every update; null: none (the constraint blends out). @default null */
  target?: PointLike | null;
}

export interface AimConstraintOptions extends ConstraintOptions {
  /** The bone to aim. */
  bone: BoneLike;
  /** Bone-local axis to aim. `'auto'`: the character's facing in the bone's rest frame. @default 'auto' */
  forward?: AxisLike;
  /** World point the bone's up axis turns toward (roll); null: no roll. @default null */
  pole?: PointLike | null;
  [option: string]: unknown;
}

export interface LimbConstraintOptions extends ConstraintOptions {
  /** `[root, mid, end]` (twoBone) or `[root, mid, end, tip]` (pseudoThreeBone). */
  bones: readonly BoneLike[];
  /** World point the middle joint bends toward; null: keep the current bend plane. @default null */
  pole?: PointLike | null;
  /** Bone-local hinge axis of the middle joint. `'auto'`: from the rest pose's bend. @default 'auto' */
  bendAxis?: AxisLike;
  [option: string]: unknown;
}

export interface ChainConstraintOptions extends ConstraintOptions {
  /** `[root, ..., tip]`, 2 to 256 bones. */
  bones: readonly BoneLike[];
  /** World point the chain bends toward; null: none. @default null */
  pole?: PointLike | null;
  [option: string]: unknown;
}

/**
 * A twist constraint (docs/rig/twist.md): the last bone's twist about the line from the first bone, spread over
 * the bones before it (a forearm and its twist bones, so the forearm's mesh turns with the hand); the last bone
 * keeps its world rotation and position. No target.
 */
export interface TwistConstraintOptions extends Omit<ConstraintOptions, 'target'>, Pick<TwistFields, 'spread'> {
  /** `[first, ..., last]`, 2 to 16 bones in one line of descent (a forearm, its twist bones, the hand). */
  bones: readonly BoneLike[];
  /** One per bone but the last, each in [-1, 1]: the share of the last bone's twist that bone turns with (cumulative); null: by `spread`. @default null */
  amounts?: ArrayLike<number> | null;
  [option: string]: unknown;
}

/** A collider of a springs constraint, on a bone (offsets in its frame, model units; its shape's fields `SpringColliderFields`). */
export interface SpringColliderOptions extends SpringColliderFields {
  /** The bone it moves with: the center or a bone outside the chains. */
  joint: BoneLike;
}

/**
 * A springs constraint (docs/rig/springs.md): chains of spring bones (hair, tails, skirts) with VRM's parameters,
 * VRM's step on a fixed 60 Hz clock, so they move as three-vrm's at 60 Hz and the same at every frame rate. No target.
 */
export interface SpringsConstraintOptions extends Omit<ConstraintOptions, 'target'>, SpringsFields {
  /** `[[root, ..., end], ...]`: chains of bones (or names), each a line of descent; required unless `vrm` gives them. @default undefined */
  chains?: ReadonlyArray<readonly BoneLike[]>;
  /** The bone whose space the motion is simulated in (a teleport of it is not felt); null: the rig's root. @default null */
  center?: BoneLike | null;
  /** Spheres, capsules and planes the tails are kept out of (behind), inside spheres and capsules they are kept in. @default [] */
  colliders?: readonly SpringColliderOptions[];
  /** One entry per chain bone (all chains, in order), overriding the VRM parameters; null: none. @default null */
  jointSettings?: readonly RigSpringJoint[] | null;
  /** Per chain, the indices into `colliders` it meets (VRM's collider groups); null: every chain meets every collider. @default null */
  chainColliders?: readonly (readonly number[])[] | null;
  /**
   * A three-vrm `VRM` (or its `VRMSpringBoneManager`) whose spring bones become this constraint's chains, center,
   * settings, colliders and chainColliders (not with those options); its manager's `update` then does nothing
   * (`vrm.update(dt)` runs the rest) and the joints' bones get `matrixAutoUpdate` back (docs/rig/springs.md,
   * "From a VRM"). Joints with several centers, and chains branching below another chain's bone, make one
   * constraint per center and generation, in stack order; `add()` returns the first, whose `parts` lists them all
   * and whose settings are written to each ("Several centers, branching chains"). @default undefined
   */
  vrm?: { springBoneManager: unknown } | { joints: ReadonlySet<unknown> };
  [option: string]: unknown;
}

/**
 * The eyes of a look-at constraint (docs/rig/look-at.md, "Eyes"): the gaze turns them toward the target,
 * VRM lookAt style: yaw and pitch relative to the head within their own limits, settling faster than
 * the head so the eyes lead. Any eye bone axis works (each eye keeps its rest orientation relative to
 * the head). Blend-shape eyes (VRM expressions lookLeft/…) are not bones: see docs/rig/look-at.md.
 */
export interface EyeConstraintOptions {
  /**
   * `[leftEye, rightEye]` (0, 1 or 2 bones, names or roles, each below the head), or `'auto'`: on a
   * humanoid rig the humanoid's leftEye and rightEye below the head (as three-vrm's lookAt turns
   * them; none on a rig without eye bones). `[]`: leave the eyes to the animation (or to
   * `vrm.lookAt`). Fixed at `add()`. @default 'auto'
   */
  eyes?: readonly BoneLike[] | 'auto';
  /** The eyes' largest yaw relative to the head, radians in [0, π/2]. @default 0.6 */
  eyeYaw?: number;
  /** The eyes' largest pitch up relative to the head, radians in [0, π/2]. @default 0.4 */
  eyePitchUp?: number;
  /** The eyes' largest pitch down relative to the head, radians in [0, π/2]. @default 0.5 */
  eyePitchDown?: number;
  /** Seconds (> 0) for the gaze to settle: short, so the eyes lead the head. @default 0.05 */
  eyeSettleTime?: number;
}

export interface LookAtConstraintOptions extends ConstraintOptions, EyeConstraintOptions {
  /** Seconds (> 0) for each joint's offset to settle; the head leads. @default 0.3 */
  settleTime?: number;
  /** `[spine, ..., neck, head]`. On a humanoid: spine, chest, upperChest (if any), neck, head. */
  bones?: readonly BoneLike[];
  /** The head's look axis, head-local. `'auto'`: the character's facing in the head's rest frame. @default 'auto' */
  forward?: AxisLike;
  [option: string]: unknown;
}

/** bodyLookAt smooths with its groups' settle times (`spine`, `weightShift`, `armReaction`): no settleTime or damping. */
export interface BodyLookAtConstraintOptions extends Omit<ConstraintOptions, 'settleTime' | 'damping'>, EyeConstraintOptions {
  settleTime?: never;
  damping?: never;
  /** On a humanoid: the hips → head spine, both arms and both legs. */
  bones?: { spine: readonly BoneLike[]; arms?: readonly (readonly BoneLike[])[]; legs?: readonly (readonly BoneLike[])[] };
  /** The head's look axis, head-local. `'auto'`: the character's facing in the head's rest frame. @default 'auto' */
  forward?: AxisLike;
  [option: string]: unknown;
}

/**
 * An avatar constraint (docs/rig/avatar.md): a whole body from a head and two hand targets (VR tracking): the
 * pelvis follows the head, the spine bends to it, the shoulders turn toward the hands, each arm and leg a two-bone
 * solve (the feet plant and step, or follow foot trackers). Each target's world position and rotation (the bone's own
 * world rotation to take) are read every update; a null target leaves that part to the animation. No `target`.
 */
export interface AvatarConstraintOptions extends Omit<ConstraintOptions, 'target'>, AvatarFields {
  /** On a humanoid: hips → head (chest, upperChest optional), both arms (shoulders optional), both legs. */
  bones?: { spine: readonly BoneLike[]; arms?: readonly (readonly BoneLike[])[]; legs?: readonly (readonly BoneLike[])[] };
  /** Where the head bone goes: its world position and rotation (the head's own world rotation to take). Null: the head follows the animation. @default null */
  head?: Object3D | null;
  /** Where the left hand bone goes (its world position and rotation). Null: that arm follows the animation. @default null */
  leftHand?: Object3D | null;
  /** Where the right hand bone goes (its world position and rotation). Null: that arm follows the animation. @default null */
  rightHand?: Object3D | null;
  /** How much the head target pulls, in [0, 1], smoothed by `settleTime` (pop-free). @default 1 */
  headWeight?: number;
  /** How much the left hand target pulls, in [0, 1], smoothed. @default 1 */
  leftHandWeight?: number;
  /** How much the right hand target pulls, in [0, 1], smoothed. @default 1 */
  rightHandWeight?: number;
  /** A full-body tracker: where the hips bone goes (world position and rotation); the spine bends so the head still reaches. Null: the pelvis follows the head. @default null */
  pelvis?: Object3D | null;
  /** A full-body tracker: where the left foot bone goes (world position and rotation), instead of planting and stepping. Null: that foot plants and steps. @default null */
  leftFoot?: Object3D | null;
  /** A full-body tracker: where the right foot bone goes (world position and rotation). Null: that foot plants and steps. @default null */
  rightFoot?: Object3D | null;
  /** How much the pelvis tracker pulls, in [0, 1], smoothed by `settleTime` (pop-free). @default 1 */
  pelvisWeight?: number;
  /** How much the left foot tracker pulls, in [0, 1], smoothed. @default 1 */
  leftFootWeight?: number;
  /** How much the right foot tracker pulls, in [0, 1], smoothed. @default 1 */
  rightFootWeight?: number;
  /**
   * Where the steps land (docs/rig/avatar.md, "Uneven ground"): as grounding's `ground` (meshes to
   * raycast, a function, a Plane), one query per foot where it lands; each landing stands the foot
   * as high above the ground as the animation has it above the root. Null: the root's ground plane. @default null
   */
  ground?: GroundLike;
  [option: string]: unknown;
}

export interface ConstraintOptionsByKind {
  aim: AimConstraintOptions;
  twoBone: LimbConstraintOptions;
  pseudoThreeBone: LimbConstraintOptions;
  chain: ChainConstraintOptions;
  lookAt: LookAtConstraintOptions;
  bodyLookAt: BodyLookAtConstraintOptions;
  /** Feet on uneven ground (docs/rig/grounding.md). */
  grounding: GroundingConstraintOptions;
  /** A twist spread over a forearm and its twist bones (docs/rig/twist.md). */
  twist: TwistConstraintOptions;
  /** A whole body from a head and two hand targets (docs/rig/avatar.md). */
  avatar: AvatarConstraintOptions;
  /** Spring bones: hair, tails, skirts (docs/rig/springs.md). */
  springs: SpringsConstraintOptions;
}

/**
 * A constraint of an IKRig: its options are writable properties (a change is
 * checked and pushed to WASM once; the error names the option and nothing
 * changes); `target` and `pole` are read every update.
 */
export type IKConstraint<K extends keyof ConstraintOptionsByKind = keyof ConstraintOptionsByKind> = IKConstraintBase<K> &
  (K extends 'bodyLookAt' ? { readonly settleTime?: never; readonly damping?: never } : {
    /** Seconds for the correction to settle (not on bodyLookAt: its groups have their own). */
    settleTime: number;
    /** Damping ratio of that smoothing (not on bodyLookAt). */
    damping: number;
  }) &
  (K extends 'avatar' ? {
    /**
     * The avatar scaled to the user (docs/rig/avatar.md, "Calibration"): from one T-pose sample (Object3Ds or
     * world points; the constraint's own targets by default) its `scale` and `armScale` are set and returned.
     */
    calibrate(sample?: { head: Object3D | PointLike; leftHand: Object3D | PointLike; rightHand: Object3D | PointLike }): AvatarScales;
  } : unknown);

/**
 * What every IKRig constraint has. Writing a property the constraint does not have (a misspelt
 * name, a setting its kind lacks) throws a TypeError naming it, as an unknown option does at add().
 */
export interface IKConstraintBase<K extends keyof ConstraintOptionsByKind = keyof ConstraintOptionsByKind> {
  readonly rig: IKRig;
  readonly kind: K;
  readonly bones: readonly Object3D[] | { spine: readonly Object3D[]; arms: readonly Object3D[][]; legs: readonly Object3D[][] };
  /** The eye bones the gaze turns (lookAt, bodyLookAt), resolved at `add()`; empty for none. */
  readonly eyes: readonly Object3D[];
  target: PointLike | null;
  pole: PointLike | null;
  weight: number;
  enabled: boolean;
  blendOutTime: number;
  /** True when the last update reached the target within tolerance. */
  readonly reached: boolean;
  /** Distance to the target after the last update. */
  readonly distance: number;
  /** Sets several options at once (all checked first). */
  set(options: Partial<ConstraintOptionsByKind[K]>): this;
  /**
   * The constraints this one's `add()` made, itself first: one, or for `add('springs', { vrm })` one per center
   * and generation of branches (a setting written to the first goes to each). Only on what `add()` returned.
   */
  readonly parts?: readonly IKConstraint<K>[];
  [option: string]: unknown;
}

/**
 * One character: a skeleton and an ordered stack of constraints solved in
 * one WASM call per frame, each on the pose the one before left. Bone axes
 * and the character's facing are detected from the pose at construction.
 */
export class IKRig {
  /**
   * @param ikpd the loaded library with the rig area (`await init({ rig: true })`)
   * @param root a SkinnedMesh (its skeleton), a Skeleton, any Object3D hierarchy,
   *   or an array of bones (parent → child; the bones between them are included)
   */
  constructor(ikpd: Ikpd, root: Object3D | Skeleton | readonly Object3D[], options?: IKRigOptions);
  readonly root: Object3D | Skeleton | readonly Object3D[];
  /**
   * What humanoid was found: role → bone (empty when none), its `convention` (e.g. `'mixamo'`,
   * `'structure'`) and, when empty, the `reason`. docs/rig/rig.md, "Humanoid roles".
   */
  readonly humanoid: HumanoidRoles;
  /** The constraints, in solve order. */
  readonly constraints: readonly IKConstraint[];
  /** The character's facing in the skeleton parent's frame (see `IKRigOptions.facing`). */
  readonly facing: Vector3;
  /** The bone for a role, a name or an Object3D of this rig; null when none. */
  bone(nameOrRole: BoneLike): Object3D | null;
  /** Adds a constraint after the others and returns it. */
  add<K extends keyof ConstraintOptionsByKind>(kind: K, options: ConstraintOptionsByKind[K]): IKConstraint<K>;
  /**
   * Solves every constraint on the current (animated) pose and writes the
   * bones it changed; call after `mixer.update(dt)`. dt in seconds; a
   * negative dt counts as 0 (one development warning).
   */
  update(dt: number): this;
  /** Frees the WASM memory; later calls throw. Idempotent. */
  dispose(): void;
}
