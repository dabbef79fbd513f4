// Typings of the character rig: a character rig (docs/rig/rig.md), one object
// that owns a skeleton and an ordered stack of constraints, solved in one
// WebAssembly call per frame from animated locals to solved locals.
import type { JointLimit } from '../ik/chain.js';
import type { BodyLookAtArmReactionOptions, BodyLookAtSpineOptions, BodyLookAtWeightShiftOptions } from './bodyLookAt.js';
import type { Disposable, Vec3 } from '../common.js';
import type { AimFields, ChainFields, PseudoThreeBoneFields, TwoBoneFields } from '../ik/described.js';
import type { GroundingFields, LookAtFields, BodyLookAtFields, RigCommonFields, TwistFields, AvatarFields, SpringsFields, SpringColliderFields } from './described.js';

/** The constraint kinds, in the order they are solved when added in this order. */
export type RigConstraintKind = 'aim' | 'twoBone' | 'pseudoThreeBone' | 'chain' | 'lookAt' | 'bodyLookAt' | 'grounding' | 'twist' | 'avatar' | 'springs';

/** Options of `new ikpd.Rig(options)`. */
export interface RigOptions {
  /** Parent index per joint, -1 for a root; every parent comes before its children (1 to 1024 joints). */
  parents: ArrayLike<number>;
  /** Optional joint names (one per joint), for `rig.find(name)`. */
  names?: ReadonlyArray<string>;
  /** Rest pose: 10 floats per joint (tx ty tz qx qy qz qw sx sy sz); axes are detected from it. Default: identity locals. */
  rest?: ArrayLike<number>;
  /** Model-space character forward (glTF convention). @default [0, 0, 1] */
  facing?: Vec3;
  /** Model-space up. @default [0, 1, 0] */
  up?: Vec3;
}

/** Settings every constraint has. */
export interface RigBaseOptions extends Pick<RigCommonFields, 'weight' | 'enabled' | 'blendOutTime'> {
  /** Joint indices (see each kind); each joint a descendant of the previous. */
  joints?: ArrayLike<number>;
}

/** The smoothing of aim, twoBone, pseudoThreeBone and chain: scalar PDs on the effective weight and on the target and pole (docs/rig/rig.md). */
export interface RigCommonOptions extends RigBaseOptions, Pick<RigCommonFields, 'settleTime' | 'damping'> {}

/** `aim`: joints `[joint]`; turns its look axis toward the frame's target, rolling its up axis toward the pole when poleSet. */
export interface RigAimOptions extends RigCommonOptions, Pick<AimFields, 'method' | 'offset'> {
  /** Joint-local look axis. Default: detected, the rig's `facing` in the joint's rest frame. */
  forward?: Vec3 | null;
  /** Joint-local roll axis. Default: detected, the rig's `up` in the joint's rest frame. */
  up?: Vec3 | null;
  /** As `AimOptions.hingeAxis` (joint-local). Default none. */
  hingeAxis?: Vec3 | null;
}

/** Two-bone limb options the rig takes from `TwoBoneOptions` (forward and bendAxis are detected unless given). */
export interface RigLimbOptions extends RigCommonOptions,
  Omit<TwoBoneFields, 'root' | 'mid' | 'end' | 'target' | 'pole' | 'poleDirection' | 'forward' | 'bendAxis' | 'effectorOffset' | 'weight' | 'endRotation' | 'maxStretch'> {
  /** Joint-local bone axis shared by the joints. Default: detected from the rest pose (each joint toward the next). */
  forward?: Vec3 | null;
  /** Joint-local hinge axis. Default: detected, the rest bend axis (upper × lower), else facing × bone. */
  bendAxis?: Vec3 | null;
  /** As `TwoBoneOptions.poleDirection` (world). Default none. */
  poleDirection?: Vec3 | null;
  /** Must be 1: a rig writes rotations only and does not stretch bones. @default 1 */
  maxStretch?: number;
}

/** `twoBone`: joints `[root, mid, end]`. */
export interface RigTwoBoneOptions extends RigLimbOptions, Pick<TwoBoneFields, 'endRotation'> {}

/** `pseudoThreeBone`: joints `[root, mid, end, tip]`. */
export interface RigPseudoThreeBoneOptions extends RigLimbOptions, Pick<PseudoThreeBoneFields, 'blend' | 'variant' | 'endLimit'> {}

/** `chain`: 2 to 256 joints, root first. */
export interface RigChainOptions extends RigCommonOptions, Pick<ChainFields, 'method' | 'iterations' | 'tolerance'> {
  /** Joint-local bone axis. Default: detected from the rest pose. */
  forward?: Vec3 | null;
  /** As `ChainOptions.limits` (empty, one per bone or one per joint), in the frames `limitFrames` says. @default [] */
  limits?: ReadonlyArray<JointLimit | null | undefined>;
  /**
   * Where `limits` apply: `'canonical'`, the detected frames (the root's relative to its rest);
   * `'local'`, the joints' own local rotations, as three.js CCDIKSolver's ('euler' limits then need
   * joints that share one bone axis). docs/rig/rig.md, "Chain limits". @default 'canonical'
   */
  limitFrames?: 'canonical' | 'local';
}

/**
 * The eyes of a look-at (docs/rig/look-at.md, "Eyes"): 0, 1 or 2 eye joints turned by the gaze, VRM
 * `lookAt` style (yaw and pitch relative to the head, within their own limits, settling faster so
 * they lead the head). No eye bone axis is assumed: each eye keeps its rest orientation relative
 * to the head and turns about the head's up and left.
 */
export interface RigEyeOptions extends Pick<LookAtFields, 'eyeYaw' | 'eyePitchUp' | 'eyePitchDown' | 'eyeSettleTime'> {
  /** [left, right] eye joints (0, 1 or 2), each a descendant of the head joint. @default [] */
  eyes?: ArrayLike<number>;
}

/** `lookAt`: 2 to 64 joints, spine … neck, head last. */
export interface RigLookAtOptions extends RigBaseOptions, RigEyeOptions,
  Pick<LookAtFields, 'damping' | 'offset' | 'maxYaw' | 'maxPitchUp' | 'maxPitchDown' | 'behind' | 'maxSpeed' | 'targetMotion' | 'ki'> {
  /** Seconds (> 0) for each joint's offset to settle: one for all, or one per joint (a faster head leads). @default 0.3 */
  settleTime?: number | ArrayLike<number>;
  /** The head's look axis (head-local). Default: detected, the rig's `facing` in the head's rest frame. */
  forward?: Vec3 | null;
  /** As `LookAtOptions.weights` (one per joint). Default 1/n, 1/(n−1), …, 1. */
  weights?: ArrayLike<number>;
  /** As `LookAtOptions.limits`. Default none. */
  limits?: ArrayLike<number>;
}

/** `bodyLookAt`: joints pelvis … head (2 to 64), `arms`/`legs` 0, 3 or 6 joints. Smooths with its groups' settle times. */
export interface RigBodyLookAtOptions extends RigBaseOptions, RigEyeOptions,
  Pick<BodyLookAtFields, 'offset' | 'footLock' | 'maxYaw' | 'maxPitchUp' | 'maxPitchDown' | 'behind' | 'blendOutTime'> {
  /** The head's look axis (head-local). Default: detected, the rig's `facing` in the head's rest frame. */
  forward?: Vec3 | null;
  /** [upper arm, forearm, hand] per arm. @default [] */
  arms?: ArrayLike<number>;
  /** [hip, knee, ankle] per leg. @default [] */
  legs?: ArrayLike<number>;
  spine?: BodyLookAtSpineOptions;
  weightShift?: BodyLookAtWeightShiftOptions;
  armReaction?: BodyLookAtArmReactionOptions;
}

/**
 * `grounding` (docs/rig/grounding.md): feet on uneven ground for 2 or 4 legs. Per frame fill `rig.grounds`
 * (9 floats per leg: point xyz, normal xyz, hit, plant, edge; world space) before `rig.update(dt)`, from
 * queries at `rig.probes` (filled by `rig.probe()`). Lengths are in the character's model units.
 */
export interface RigGroundingOptions extends RigBaseOptions, GroundingFields {
  /** The joint whose translation moves (a humanoid's hips). Required. */
  pelvis?: number;
  /** Four legs: the joint the front legs (2–3) hang under; pelvis and chest pitch to the slope together. @default null */
  chest?: number | null;
  /** 2 or 4 legs, each `[hip, knee, ankle]` or `[hip, knee, ankle, toe]` (all alike), below the pelvis; four legs: 0–1 hind, 2–3 front. Required. */
  legs?: ReadonlyArray<ArrayLike<number>>;
  /** Per leg the ankle's (or toe's) height above its sole; null (or a null entry): its rest height above the authored ground. @default null */
  soleOffsets?: ReadonlyArray<number | null> | null;
  /** Seconds (>= 0) for each offset (foot heights, rotations, plant slides, pelvis) to settle; 0: no smoothing. @default 0.1 */
  settleTime?: number;
  /** Damping ratio > 0 or `'critical'` | `'responsive'` | `'over'`. @default 1 */
  damping?: 'critical' | 'responsive' | 'over' | number;
}

/**
 * `twist` (docs/rig/twist.md): joints `[first, ..., last]` (2 to 16, a chain): the last joint's twist about the line
 * from the first, spread over the joints before it (a forearm and its twist bones); the last joint keeps its model
 * rotation and position. No target.
 */
export interface RigTwistOptions extends RigCommonOptions, TwistFields {
  /** One per joint but the last, each in [-1, 1]: the share of the last joint's twist that joint turns with (cumulative); null: by `spread`. @default null */
  amounts?: ArrayLike<number> | null;
}

/**
 * `avatar` (docs/rig/avatar.md): a whole body from a head and two hand targets (VR tracking). joints
 * `[pelvis, spine (1 to 3), neck (when `neck`), head]`; per frame fill its three targets in `rig.targets` from
 * its `targetOffset` (head, left hand, right hand: position xyz, rotation xyzw, weight; world space, the rotation
 * the joint's own world rotation to take, weight 0: the animation) before `rig.update(dt)`.
 */
export interface RigAvatarOptions extends RigCommonOptions, AvatarFields {
  /** 0, 6 or 8 joints: `[shoulder?, upper arm, forearm, hand]` left then right (both with a shoulder, or neither). @default [] */
  arms?: ArrayLike<number>;
  /** 0 or 6 joints: `[upper leg, lower leg, foot]` left then right; the feet stay where the animation puts them. @default [] */
  legs?: ArrayLike<number>;
  /** Seconds (>= 0) for the weight and each target's weight to settle; 0: no smoothing. @default 0.2 */
  settleTime?: number;
}

/**
 * A collider of a `springs` constraint (offsets in its joint's frame, model units): its shape's fields are
 * described in C++ (`SpringColliderFields`: sphere, capsule, plane, insideSphere, insideCapsule).
 */
export interface RigSpringCollider extends SpringColliderFields {
  /** The joint it moves with: the center or any joint outside the chains. */
  joint: number;
}

/** One chain joint's own VRM parameters (`springs.jointSettings`); a missing one takes the constraint's. */
export type RigSpringJoint = Pick<SpringsFields, 'stiffness' | 'dragForce' | 'gravityPower' | 'gravityDir' | 'hitRadius'>;

/**
 * `springs` (docs/rig/springs.md): spring bones (hair, tails, skirts) with VRM's parameters, VRM's step on a fixed
 * 60 Hz clock (the same motion at every frame rate). No `joints`: `chains` of joint indices. No target.
 */
export interface RigSpringsOptions extends RigCommonOptions, SpringsFields {
  /** Chains of joint indices, each a line of descendants; each joint's tail is the next joint. */
  chains: ReadonlyArray<ArrayLike<number>>;
  /** The joint whose space the motion is simulated in (a teleport of it is not felt); null: the rig's root. @default null */
  center?: number | null;
  /** Spheres, capsules and planes the tails are kept out of (behind), inside spheres and capsules they are kept in. @default [] */
  colliders?: ReadonlyArray<RigSpringCollider>;
  /** One entry per chain joint (all chains, in order), overriding the constraint's VRM parameters; null: none. @default null */
  jointSettings?: ReadonlyArray<RigSpringJoint> | null;
  /** Per chain, the indices into `colliders` it meets (VRM's collider groups; at most 64 colliders); null: every chain meets every collider. @default null */
  chainColliders?: ReadonlyArray<ReadonlyArray<number>> | null;
}

/** Options by kind. */
/** One sample of a user for `Rig.calibrateAvatar`: world positions, `[x, y, z]` or `{ x, y, z }`. */
export interface AvatarSample {
  head: ArrayLike<number> | { x: number; y: number; z: number };
  leftHand: ArrayLike<number> | { x: number; y: number; z: number };
  rightHand: ArrayLike<number> | { x: number; y: number; z: number };
}

/** An avatar's scales from a sample: its `scale` and `armScale` settings. */
export interface AvatarScales {
  /** The avatar's rest head height over the user's. */
  scale: number;
  /** The avatar's arm span (its arms laid straight) over the user's hand span. */
  armScale: number;
}

export interface RigConstraintOptionsByKind {
  aim: RigAimOptions;
  twoBone: RigTwoBoneOptions;
  pseudoThreeBone: RigPseudoThreeBoneOptions;
  chain: RigChainOptions;
  lookAt: RigLookAtOptions;
  bodyLookAt: RigBodyLookAtOptions;
  grounding: RigGroundingOptions;
  twist: RigTwistOptions;
  avatar: RigAvatarOptions;
  springs: RigSpringsOptions;
}

/** One constraint of a rig (returned by `rig.add`). */
export interface RigConstraint<K extends RigConstraintKind = RigConstraintKind> {
  readonly index: number;
  readonly kind: K;
  /** The joint indices (a copy; grounding: [pelvis] or [pelvis, chest]). */
  readonly joints: number[];
  /** Grounding: its number of legs (2 or 4); an avatar with legs: 2 (each foot probes where it lands: docs/rig/avatar.md, "Uneven ground"); 0 for the other kinds. */
  readonly legCount: number;
  /** Index of its first float in `rig.grounds` (9 per leg). */
  readonly groundOffset: number;
  /** Index of its first float in `rig.probes` (6 per leg). */
  readonly probeOffset: number;
  /** Index of its first float in `rig.targets` (8 per target; an avatar has three: head, left hand, right hand). */
  readonly targetOffset: number;
  /** Index of its first float in `rig.frames` (12 × index). */
  readonly frameOffset: number;
  /** Index of its first float in `rig.results` (4 × index). */
  readonly resultOffset: number;
  /** Every current setting (a frozen copy). */
  readonly options: Readonly<Required<RigConstraintOptionsByKind[K]>>;
  /** One current setting; an unknown name throws a TypeError suggesting the nearest. */
  get<N extends keyof RigConstraintOptionsByKind[K]>(name: N): Required<RigConstraintOptionsByKind[K]>[N];
  /**
   * Changes the settings given (validated, pushed to WASM in one call). Unknown keys throw a TypeError
   * naming the nearest valid name; bad values a TypeError/RangeError naming the option, both as
   * `constraints[i].option: …` (docs/rig/rig.md, "Errors"); WASM memory full: `set: out of WASM memory`; nothing changes
   * on error. Smoothing state is kept unless the joints change.
   */
  set(changes: RigConstraintOptionsByKind[K]): this;
}

/** A character rig: see docs/rig/rig.md. */
export interface Rig extends Disposable {
  /** Number of joints. */
  readonly count: number;
  /** The names given, or null. */
  readonly names: string[] | null;
  /** Index of the joint called `name`, or -1. */
  find(name: string): number;
  /** Float32Array(10 × count) view of the animated locals (tx ty tz qx qy qz qw sx sy sz); re-read after memory growth. */
  readonly input: Float32Array;
  /** Float32Array(10 × count) view of the solved locals. */
  readonly output: Float32Array;
  /** Uint8Array(count): 1 where `output` differs from `input` after `update`. */
  readonly changed: Uint8Array;
  /** Float32Array(10): the root transform (the skeleton root's parent, world space). Default identity. */
  readonly root: Float32Array;
  /** Float32Array(12 × constraints): per constraint target xyz, pole xyz, effectorOffset xyz, poleSet, 2 reserved (world space). */
  readonly frames: Float32Array;
  /** Float32Array(4 × constraints): per constraint reached (0/1), distance, iterations, active (0/1). */
  readonly results: Float32Array;
  /**
   * Float32Array(9 × grounding legs): per leg point xyz, normal xyz, hit (0: no ground), plant (−1 auto, 0 free,
   * 1 planted), edge (where in this update's step, a fraction in [0, 1], the ground under the sole changed from the
   * previous hit's plane to this one, found by extra queries between the previous probe and this one; −1, the
   * core's default: not known, taken at mid-step); world space; fill before `update`.
   */
  readonly grounds: Float32Array;
  /** Float32Array(6 × grounding legs): per leg the sole xyz (the animated sole moved to where the update will stand the foot: its lock, its glide) and hip xyz (world), filled by `probe()`. */
  readonly probes: Float32Array;
  /**
   * Float32Array(8 × targets): per tracked target (an avatar's head, left hand, right hand) position xyz,
   * rotation xyzw (the joint's own world rotation to take), weight in [0, 1] (0: the animation); world space;
   * fill before `update`.
   */
  readonly targets: Float32Array;
  /** The constraints in stack order. */
  readonly constraints: RigConstraint[];
  /** New rest pose (10 × count floats; default identity locals); re-detects every constraint's axes. */
  setRest(locals?: ArrayLike<number>): this;
  /** Model-space character forward; re-detects axes. */
  setFacing(facing: Vec3): this;
  /** Model-space up; re-detects axes. */
  setUp(up: Vec3): this;
  /** Appends a grounding constraint (docs/rig/grounding.md). Throws with nothing added on error. */
  add(kind: 'grounding', options: RigGroundingOptions & { pelvis: number; legs: ReadonlyArray<ArrayLike<number>> }): RigConstraint<'grounding'>;
  /**
   * Appends a constraint (solved after the earlier ones). Throws with nothing added on error: a bad option as
   * `constraints[i].option: …` (i: the index it would get), WASM memory full as `add: out of WASM memory`.
   */
  add(kind: 'springs', options: RigSpringsOptions): RigConstraint<'springs'>;
  add<K extends Exclude<RigConstraintKind, 'grounding' | 'springs'>>(kind: K, options: RigConstraintOptionsByKind[K] & { joints: ArrayLike<number> }): RigConstraint<K>;
  /** Fills `probes` from `input` and `root` (one WASM call); throws as `update` does on bad input. */
  probe(): this;
  /**
   * An avatar constraint's scales from one T-pose sample of the user (docs/rig/avatar.md, "Calibration"):
   * the head and hand positions (world, under `root`: the user's floor) against the avatar's rest head
   * height and arm span. Changes no setting: apply them with `constraint.set(scales)`. Throws a named
   * error ("head: must be above the root", "index: must name an avatar constraint").
   */
  calibrateAvatar(index: number, sample: AvatarSample): AvatarScales;
  /**
   * Every constraint back to its first frame without rebuilding (one WASM call; docs/rig/rig.md,
   * "Clearing the smoothing"): limbs blend in again from the animated pose, look-at and body look-at
   * offsets and gaze are zeroed, grounding drops its offsets and foot locks. Settings, axes and
   * `frames` are kept. For a teleport or a cut.
   */
  clearSmoothing(): this;
  /** One frame, one WASM call: `dt` seconds, finite and >= 0 (RangeError otherwise, nothing changed). */
  update(dt: number): this;
}

/** In the module `init({ rig: true })` loads; elsewhere `new Rig()` throws an Error naming that option. */
export interface RigApi {
  /** A character rig over a skeleton: see docs/rig/rig.md. */
  Rig: {
    new (options: RigOptions): Rig;
    /** Every kind's default settings. */
    readonly defaults: { readonly [K in RigConstraintKind]: Readonly<Required<Omit<RigConstraintOptionsByKind[K], 'joints' | 'forward' | 'bendAxis' | 'up' | 'hingeAxis' | 'poleDirection' | 'weights' | 'limits' | (K extends 'grounding' ? 'pelvis' | 'legs' : never)>>> };
    readonly kinds: readonly RigConstraintKind[];
  };
}
