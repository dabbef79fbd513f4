// ikpd/three — AvatarIK (web/three/rig/avatarIK.js; docs/rig/avatar.md, "three.js: AvatarIK").
import type { Object3D, Skeleton } from 'three';
import type { Ikpd } from '../../index.js';
import type { AxisLike } from '../common.js';
import type { OneConstraintRig } from './rigHelper.js';
import type { AvatarConstraintOptions, HumanoidOption, HumanoidRoles } from './ikRig.js';
import type { AvatarFields } from '../../types/rig/described.js';

/**
 * The options of AvatarIK: the avatar constraint's described settings (`AvatarFields`; any
 * setting the rig's avatar constraint has passes through), its targets and their weights, and the
 * rig's humanoid, facing and up.
 */
export interface AvatarIKOptions
  extends AvatarFields, Pick<AvatarConstraintOptions, 'head' | 'leftHand' | 'rightHand' | 'headWeight' | 'leftHandWeight' | 'rightHandWeight' |
    'pelvis' | 'leftFoot' | 'rightFoot' | 'pelvisWeight' | 'leftFootWeight' | 'rightFootWeight' | 'ground'> {
  /**
   * The humanoid: `'auto'` finds it by bone names (Mixamo with or without its prefix, VRM, VRoid,
   * Unreal, …) or the skeleton's shape; a three-vrm `VRMHumanoid` (its raw bones); a role → bone
   * (name) table; or a convention's name. @default 'auto'
   */
  humanoid?: HumanoidOption;
  /** The avatar's bones, when not the humanoid's: `{ spine, arms, legs }` as IKRig's avatar constraint takes them. */
  bones?: AvatarConstraintOptions['bones'];
  /** The direction the character faces, in the frame of the skeleton's parent. `'auto'`: from the humanoid. @default 'auto' */
  facing?: AxisLike;
  /** World up. @default '+y' */
  up?: AxisLike;
  /** Blend of the whole effect, 0 (animation) to 1, smoothed. @default 1 */
  weight?: number;
  /** False blends every part out, through the PD, to exactly the animated pose. @default true */
  enabled?: boolean;
  /** Seconds for a change of a weight, `enabled` or a target coming or going to settle (0: none). @default 0.2 */
  settleTime?: number;
  /** Damping ratio of that smoothing (1 critical). @default 1 */
  damping?: number;
  /** Seconds of the final linear part of turning off. @default 0.1 */
  blendOutTime?: number;
}

export interface AvatarIK extends OneConstraintRig {}
/**
 * A whole humanoid from a head and two hand targets (VR tracking; docs/rig/avatar.md): the pelvis
 * follows the head, the spine bends to reach it, the shoulders turn toward the hands, each arm and
 * leg is a two-bone solve. A one-constraint IKRig (an 'avatar' constraint). Every option is a
 * property (a change is checked and pushed to WASM once). Call `update(dt)` every frame after the
 * animation mixer; `dispose()` when done.
 */
export class AvatarIK {
  /**
   * Checks every option now (a TypeError or RangeError naming it; an unknown one with the nearest
   * name). No humanoid found and no `bones`: a RangeError naming `humanoid`. A Promise for `ikpd`
   * (a forgotten `await init()`) is a TypeError; a module without the rig area is an Error naming
   * `init({ rig: true })`.
   */
  constructor(ikpd: Ikpd, root: Object3D | Skeleton, options?: AvatarIKOptions);
  /** The character as given. */
  readonly root: Object3D | Skeleton;
  /** The humanoid the rig found: role → bone, with its `convention`. */
  readonly humanoid: HumanoidRoles;
  /** The bones the avatar drives. */
  readonly bones: { spine: readonly Object3D[]; arms: readonly Object3D[][]; legs: readonly Object3D[][] };
  head: Object3D | null;
  leftHand: Object3D | null;
  rightHand: Object3D | null;
  headWeight: number;
  leftHandWeight: number;
  rightHandWeight: number;
  /** Full-body trackers (docs/rig/avatar.md, "Full-body trackers"); null: that part follows the head or the steps. */
  pelvis: Object3D | null;
  leftFoot: Object3D | null;
  rightFoot: Object3D | null;
  pelvisWeight: number;
  leftFootWeight: number;
  rightFootWeight: number;
  /** Where the steps land (docs/rig/avatar.md, "Uneven ground"); null: the root's ground plane. */
  ground: AvatarConstraintOptions['ground'] | null;
  weight: number;
  neck: boolean;
  pelvisFollow: number;
  pelvisTurn: number;
  crouchBack: number;
  neckStiffness: number;
  shoulderWeight: number;
  shoulderYawLimit: number;
  shoulderPitchLimit: number;
  /** True when the last update put every weighted target's bone on it (within 0.1 mm). */
  readonly reached: boolean;
  /** The largest distance of a weighted target from its bone after the last update. */
  readonly distance: number;
  /** False once disabled (or every target gone) and every effect has blended out. */
  readonly active: boolean;
  /** Reads the targets, advances the smoothing by `dt` seconds (>= 0) and writes the bones. Returns this. */
  update(dt: number): this;
  /** Zeroes every smoothed weight at once (no blend), e.g. after a teleport or a cut. Returns this. */
  clear(): this;
  /** Frees the WASM memory; later calls throw. Idempotent. */
  dispose(): void;
}
