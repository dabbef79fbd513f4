// ikpd/three — typings. Helpers that apply ikpd solvers to three.js Bone/Object3D
// hierarchies, whatever the rig's bone axis convention.
import type { Object3D, Quaternion, Vector3 } from 'three';
import type { AimMethod, BendDirection, Ikpd } from '../index.js';
export * from './ikRig.js';
export * from './grounding.js';

/**
 * A world-space point: an Object3D (its world position, read at every
 * `update()`, so it can be moved or dragged), a Vector3, `[x, y, z]` or a
 * `Float32Array`/`Float64Array` of length 3.
 */
export type PointLike = Object3D | Vector3 | readonly [number, number, number] | Float32Array | Float64Array;

/**
 * A bone-local axis: `'+x' | '-x' | '+y' | '-y' | '+z' | '-z'`, a Vector3 or
 * `[x, y, z]` (normalized for you), or `'auto'`.
 */
export type AxisLike = 'auto' | '+x' | '-x' | '+y' | '-y' | '+z' | '-z' | Vector3 | readonly [number, number, number];

/**
 * How a bone's axes are found. Every helper hands the solvers a canonical
 * bone (forward +X, up +Y) through a constant per-bone frame, so any rig
 * convention works: Blender/glTF/Mixamo bones (+Y), +X rigs, or any direction.
 */
export interface BoneAxes {
  /**
   * The bone-local axis that points along the bone. Default `'auto'`: the
   * direction to the next bone of the chain (or to the bone's first child
   * with an offset; an end bone without one takes the previous bone's axis),
   * measured from the pose at construction, in the bone's rotation frame —
   * exact for rigs whose bones do not point along an axis.
   */
  forward?: AxisLike;
  /**
   * A bone-local axis across the bone (made perpendicular to `forward`).
   * Default `'auto'`: +Y, or +Z when forward is (nearly) ±Y. It matters to
   * `AimIK`'s pole (roll) and `'yawPitch'` method and to constraint frames.
   */
  up?: AxisLike;
}

/** Common options of every helper. */
export interface HelperOptions extends BoneAxes {
  /**
   * Blend between the input pose (0) and the solved pose (1), applied to each
   * bone's local rotation (slerp), like Unity Animation Rigging's constraint
   * weight. Default 1.
   */
  weight?: number;
}

/** Per-bone axes for helpers with several bones: one object per bone (overrides `forward`/`up`). */
export interface ChainAxesOptions {
  /** One `{forward, up}` per bone, root first. Default: `forward`/`up` for every bone. */
  axes?: readonly BoneAxes[];
}

/**
 * The smoothing every helper has, as each is a one-constraint `IKRig` (its
 * `rig` and `constraint`): the rig's weight / enabled / settleTime / damping /
 * blendOutTime on the IK offset, with the exact, frame-rate independent PD
 * (docs/rig/rig.md). A setting written as a property is pushed to WASM once.
 */
export interface RigHelperOptions {
  /**
   * Seconds the IK offset takes to settle after a change of target, weight or
   * `enabled` (a PD on each bone's offset, exact at any frame rate). Default 0:
   * no smoothing, the solve applies at once. @default 0
   */
  settleTime?: number;
  /** False blends the IK offset out to exactly the animated pose (at once when `settleTime` is 0). Default true. @default true */
  enabled?: boolean;
  /** `'critical'` (1, default) | `'responsive'` | `'over'` | a damping ratio > 0, with `settleTime`. @default 1 */
  damping?: 'critical' | 'responsive' | 'over' | number;
  /** Seconds of the final linear part of blending out (>= 0), with `settleTime`. Default 0.1. @default 0.1 */
  blendOutTime?: number;
}

/** What the helpers built on a one-constraint IKRig share. */
export interface OneConstraintRig {
  /** The helper's rig: an IKRig over just its bones (and any between them). */
  readonly rig: import('./ikRig.js').IKRig;
  /** The rig's one constraint. */
  readonly constraint: import('./ikRig.js').IKConstraint;
  settleTime: number;
  enabled: boolean;
  damping: 'critical' | 'responsive' | 'over' | number;
  blendOutTime: number;
}

/**
 * Low-level bone-chain access used by every helper: reads world transforms in
 * the solvers' canonical convention and writes solved world rotations back as
 * local quaternions (correct under rotated, translated and uniformly scaled
 * parents; non-uniformly scaled parents shear rotated children, which no
 * rotation can undo, so results there are approximate).
 */
export class BoneChain {
  constructor(bones: readonly Object3D[], axes?: BoneAxes | readonly BoneAxes[]);
  readonly bones: readonly Object3D[];
  readonly count: number;
  /** World positions, filled by `read()`. */
  readonly positions: Vector3[];
  /** World rotations of the bones (rig convention), filled by `read()`. */
  readonly rotations: Quaternion[];
  /** Bone-local frames: canonical +X/+Y → the bone's forward/up axes. */
  readonly frames: Quaternion[];
  readonly inverseFrames: Quaternion[];
  /** Bone-local forward axes (unit). */
  readonly forwards: Vector3[];
  /** Recomputes the frames from the current pose (as the constructor does). */
  setAxes(axes?: BoneAxes | readonly BoneAxes[]): void;
  /** Updates world matrices and reads world positions/rotations and the local rotations (for weight). */
  read(): void;
  /** Bone i as a solver joint in the canonical convention (after `read()`). */
  joint(i: number): { position: [number, number, number]; rotation: [number, number, number, number] };
  /** Writes a canonical-convention world rotation to bone i; write root → end, then call `finish()`. */
  writeSolved(i: number, rotation: Quaternion | readonly number[]): void;
  /** Writes a rig-convention world rotation to bone i; write root → end, then call `finish()`. */
  writeWorldRotation(i: number, rotation: Quaternion): void;
  /**
   * Blends each bone's local rotation from the pose `read()` saw to the
   * written one by `weight` (default 1), then refreshes the world matrices.
   */
  finish(weight?: number): void;
}

/**
 * The bone-local direction from `bone` to `child` (which may be any
 * descendant), in the bone's rotation frame; null when the child sits on the
 * bone. Brings both world matrices up to date first.
 */
export function detectBoneAxis(bone: Object3D, child: Object3D, out?: Vector3): Vector3 | null;

// ---------------------------------------------------------------- AimIK

export interface AimIKOptions extends HelperOptions, RigHelperOptions {
  /** What the forward axis points at. Default null (update() does nothing). @default null */
  target?: PointLike | null;
  /** World "up target": after aiming, roll so the `up` axis points toward it (docs/ik/aim.md). Default null (no roll). @default null */
  pole?: PointLike | null;
  /** Aim method (docs/ik/aim.md). Default `'yawPitch'`. @default 'yawPitch' */
  method?: AimMethod;
  /**
   * Bone-local hinge axis: when set, the bone only turns about it (2D aim;
   * `method` and `pole` unused). Default null.
   */
  hingeAxis?: AxisLike | null;
}

export interface AimIK extends OneConstraintRig {}
/**
 * One-bone aim (docs/ik/aim.md): turns a bone (a head, an eye, a turret) so its
 * forward axis points at a target. For a head whose bone runs up the neck,
 * pass the facing axis, e.g. `forward: '+z'`. A one-constraint IKRig (an
 * 'aim' constraint), which owns WASM memory: call `dispose()` when done.
 */
export class AimIK {
  /**
   * Checks every option now (TypeError/RangeError naming it); a Promise for
   * `ikpd` (a forgotten `await init()`) is a TypeError.
   */
  constructor(ikpd: Ikpd, bone: Object3D, options?: AimIKOptions);
  readonly bone: Object3D;
  readonly chain: BoneChain;
  target: PointLike | null;
  pole: PointLike | null;
  method: AimMethod;
  hingeAxis: AxisLike | null;
  weight: number;
  /**
   * Solves and writes the bone's local quaternion; no-op without a target or
   * at weight 0 (with `settleTime`, the offset blends out). `dt` in seconds
   * (for `settleTime`); none counts as 0, a negative one as 0 (one warning). Returns this.
   */
  update(dt?: number): this;
  /** Frees the helper's WASM memory; later `update()` calls throw. Idempotent. */
  dispose(): void;
}

// ---------------------------------------------------------------- TwoBoneIK

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

export interface TwoBoneIKOptions extends LimbOptions {
  /**
   * The point that must touch the target when it is not the end joint itself
   * (a fingertip, the sole): an Object3D that moves with the end bone. Its
   * world offset from the end joint is taken at every update. Default null.
   */
  effector?: Object3D | null;
  /**
   * The end bone's rotation: `'world'` keeps its world rotation (a planted
   * foot, a hand holding still; default), `'relative'` keeps its rotation
   * relative to the middle bone (follows like FK; the name `solveTwoBone`
   * uses), `'target'` copies the target Object3D's world rotation (a hand
   * gizmo, Unity's target rotation).
   * @default 'world'
   */
  endRotation?: 'world' | 'relative' | 'target';
  /**
   * Maximum bone scale when the target is out of reach, >= 1. Default 1 (no
   * stretch). Stretch scales the middle and end bones' local positions
   * (restored to their construction-time values before each solve).
   */
  maxStretch?: number;
}

export interface TwoBoneIK extends OneConstraintRig {}
/**
 * Two-bone limb IK (docs/ik/two-bone.md) on `[root, mid, end]` bones (shoulder, elbow,
 * wrist / hip, knee, ankle): a one-constraint IKRig (a 'twoBone' constraint
 * over just these bones, same options and results as `solveTwoBone`; it owns
 * WASM memory, so call `dispose()` when done). Every option is also a
 * writable property of the same name; a changed setting is pushed to WASM once.
 */
export class TwoBoneIK {
  /**
   * Checks every option now (TypeError/RangeError naming it), and that each
   * bone is a descendant of the one before (its child, or deeper through twist
   * bones; RangeError otherwise). A Promise for `ikpd` (a forgotten
   * `await init()`) is a TypeError.
   */
  constructor(ikpd: Ikpd, bones: readonly [Object3D, Object3D, Object3D], options?: TwoBoneIKOptions);
  readonly bones: readonly Object3D[];
  target: PointLike | null;
  pole: PointLike | null;
  poleDirection: Vector3 | readonly [number, number, number] | null;
  effector: Object3D | null;
  endRotation: 'world' | 'relative' | 'target';
  weight: number;
  maxStretch: number;
  bendDirection?: BendDirection;
  straightBend?: 'positive' | 'negative';
  minAngle?: number;
  maxAngle?: number;
  soften?: number;
  twist?: number;
  tolerance?: number;
  /** True when the last `update()` reached the target within `tolerance`. */
  readonly reached: boolean;
  /** Distance from the end (or effector) to the target after the last `update()`. */
  readonly distance: number;
  /**
   * Solves and writes the bones' local quaternions; no-op without a target or
   * at weight 0 (with `settleTime`, the offset blends out). `dt` in seconds
   * (for `settleTime`); none counts as 0, a negative one as 0 (one warning). Returns this.
   */
  update(dt?: number): this;
  /** Frees the helper's WASM memory (its rig); later `update()` calls throw. Idempotent. */
  dispose(): void;
}

// ---------------------------------------------------------------- PseudoThreeBoneIK

export interface PseudoThreeBoneIKOptions extends LimbOptions {
  /**
   * The foot's (joint 3's) blend between its rebuilt posture (0) and its
   * input world rotation (1), in [0, 1]; below 1 a second two-bone pass puts
   * the tip back on the target. Default 0.
   */
  blend?: number;
  /** `'relative'` (default): the foot keeps its rotation relative to the shin; `'followMid'`: it follows the shin, keeping its rest turn from it. */
  variant?: 'relative' | 'followMid';
  /** The foot turns at most this far (radians, [0, π]) from its rebuilt posture. Default π (off). @default Math.PI */
  endLimit?: number;
  /** Maximum bone scale when out of reach, >= 1 (scales the mid and end bones' local positions). Default 1. @default 1 */
  maxStretch?: number;
}

/**
 * Pseudo three-bone IK (docs/ik/pseudo-three-bone.md) on `[root, mid, end, tip]` (hip, knee,
 * ankle, toe — quadruped legs, hands with a fingertip): the two-bone solver
 * run twice so the foot follows the leg and the tip lands on the target.
 * The tip (a toe bone or any Object3D that moves with the end bone) keeps its
 * local rotation. Every option is also a writable property.
 */
export interface PseudoThreeBoneIK extends OneConstraintRig {}
/** A one-constraint IKRig (a 'pseudoThreeBone' constraint); see above. */
export class PseudoThreeBoneIK {
  /**
   * Checks every option now (TypeError/RangeError naming it), and that each
   * bone is a descendant of the one before (its child, or deeper through twist
   * bones; RangeError otherwise). A Promise for `ikpd` (a forgotten
   * `await init()`) is a TypeError.
   */
  constructor(ikpd: Ikpd, bones: readonly [Object3D, Object3D, Object3D, Object3D], options?: PseudoThreeBoneIKOptions);
  readonly bones: readonly Object3D[];
  target: PointLike | null;
  pole: PointLike | null;
  poleDirection: Vector3 | readonly [number, number, number] | null;
  blend?: number;
  variant?: 'relative' | 'followMid';
  endLimit?: number;
  weight: number;
  maxStretch: number;
  bendDirection?: BendDirection;
  straightBend?: 'positive' | 'negative';
  minAngle?: number;
  maxAngle?: number;
  soften?: number;
  twist?: number;
  tolerance?: number;
  /** True when the last `update()` got the tip within `tolerance`. */
  readonly reached: boolean;
  /** Tip-to-target distance after the last `update()`. */
  readonly distance: number;
  /** Solves and writes root, mid and end local quaternions; as `TwoBoneIK.update(dt)`. Returns this. */
  update(dt?: number): this;
  /** Frees the helper's WASM memory (its rig); later `update()` calls throw. Idempotent. */
  dispose(): void;
}

// ---------------------------------------------------------------- ChainIK

/** A joint limit of `ChainIK`, as `solveChain` takes it (see `JointLimit` in 'ikpd'), on the bone's local rotation. */
export type { JointLimit } from '../index.js';

export interface ChainIKOptions extends HelperOptions, ChainAxesOptions, RigHelperOptions {
  /** What the tip (the last object) reaches for. Default null (update() does nothing). @default null */
  target?: PointLike | null;
  /** World point the chain's bend turns toward (about the root→tip axis). Default null. @default null */
  pole?: PointLike | null;
  /** `'fabrik'` (default; fewest iterations) or `'ccd'` (like three.js CCDIKSolver, moves the joints near the tip most). The default was `'ccd'` up to 0.1.0. */
  method?: 'ccd' | 'fabrik';
  /** Maximum iterations, integer >= 0. Default 20. @default 20 */
  iterations?: number;
  /** Stop when the tip is within tolerance × chain length of the target. Default 1e-4. @default 1e-4 */
  tolerance?: number;
  /**
   * One limit (or null) per bone, root first, on the bone's local rotation
   * (`bone.quaternion`): `{ type: 'euler', min, max }` clamps `bone.rotation`
   * ('XYZ') like CCDIKSolver's rotationMin/rotationMax; `{ type: 'cone',
   * angle, axis }` keeps the bone's forward axis within `angle` of `axis`
   * (parent bone's local frame; default its rest direction). 'euler' limits
   * need the bones to share one forward axis (every usual rig does).
   * Default null (free). With limits the chain solves on `solveChain` (the
   * rig's chain limits are on its own frames), without the smoothing settings.
   */
  limits?: ReadonlyArray<import('../index.js').JointLimit | null | undefined> | null;
}

/**
 * N-bone chain IK (tails, tentacles, spines, fingers) by CCD or FABRIK on
 * `[root, ..., tip]` (the tip, often an end bone or an Object3D marker, is
 * what reaches the target and keeps its local rotation). Every option is
 * also a writable property read at each `update()`.
 */
export interface ChainIK extends OneConstraintRig {}
/** A one-constraint IKRig (a 'chain' constraint); see above. */
export class ChainIK {
  /**
   * Checks every option now (TypeError/RangeError naming it), and that each
   * bone is a descendant of the one before (its child, or deeper through twist
   * bones; RangeError otherwise). A Promise for `ikpd` (a forgotten
   * `await init()`) is a TypeError.
   */
  constructor(ikpd: Ikpd, bones: readonly Object3D[], options?: ChainIKOptions);
  readonly bones: readonly Object3D[];
  target: PointLike | null;
  pole: PointLike | null;
  method?: 'ccd' | 'fabrik';
  iterations?: number;
  tolerance?: number;
  limits: ChainIKOptions['limits'];
  weight: number;
  /** True when the last `update()` got the tip within tolerance. */
  readonly reached: boolean;
  /** Tip-to-target distance after the last `update()`. */
  readonly distance: number;
  /** Iterations the last `update()` ran. */
  readonly iterationsRun: number;
  /** Solves and writes the bones' local quaternions; as `TwoBoneIK.update(dt)`. Returns this. */
  update(dt?: number): this;
  /** Frees the helper's WASM memory (its rig); later `update()` calls throw. Idempotent. */
  dispose(): void;
}

// ---------------------------------------------------------------- LookAtIK

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
   * head leads; per bone, the helper runs on `ikpd.LookAt`, as the rig's
   * lookAt has one settle time). Default 0.3. @default 0.3
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
   * (docs/rig/look-at.md, "Eyes"); not with a `settleTime` per bone. Default none. @default []
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

/** The members the smoothed rig helpers (`LookAtIK`, `BodyLookAtIK`) share. */
export interface SmoothedRigIK {
  target: PointLike | null;
  enabled: boolean;
  weight: number;
  /** False once disabled (or without a target) and every effect has blended out. */
  readonly active: boolean;
  /** Advances the smoothing by `dt` seconds (>= 0) and writes the bones' local quaternions. Returns this. */
  update(dt: number): this;
  /** Zeroes every effect at once (no blend), e.g. after a camera cut or a teleport. Returns this. */
  clear(): this;
  /** Frees the WASM memory; later calls throw. Idempotent. */
  dispose(): void;
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
/** A one-constraint IKRig (a 'lookAt' constraint); with `settleTime` per bone (an array) on `ikpd.LookAt`. */
export class LookAtIK {
  /**
   * Checks every option now (TypeError/RangeError naming it), and that each
   * bone is a descendant of the one before (its child, or deeper through twist
   * bones; RangeError otherwise). A Promise for `ikpd` (a forgotten
   * `await init()`) is a TypeError.
   */
  constructor(ikpd: Ikpd, bones: readonly Object3D[], options?: LookAtIKOptions);
  readonly bones: readonly Object3D[];
  /** The eye bones the gaze turns (fixed at construction). */
  readonly eyes: readonly Object3D[];
}

// ---------------------------------------------------------------- BodyLookAtIK

/** A world joint as the solver sees it: `rotation` is `[x, y, z, w]`. */
export interface BodyJoint {
  position: [number, number, number];
  rotation: [number, number, number, number];
}

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

/** Settings handed to the solver (the options below, plus the joint count and the head's axis). */
export interface BodyLookAtSettings {
  spineJoints: number;
  /** The head's look axis, head-local. */
  forward: [number, number, number];
  /** World up (the weight shift stays horizontal). */
  up: [number, number, number];
  offset?: ArrayLike<number>;
  spine?: BodyLookAtIKOptions['spine'];
  weightShift?: BodyLookAtIKOptions['weightShift'];
  /** `chest`: the spine index the arms hang from (found from the skeleton). */
  armReaction?: BodyLookAtIKOptions['armReaction'] & { chest?: number };
  footLock: boolean;
  blendOutTime?: number;
}

/** What BodyLookAtIK needs from a solver (the library's `BodyLookAt`). */
export interface BodyLookAtSolver {
  update(dt: number, input: {
    spine: BodyJoint[]; arms: BodyJoint[]; legs: BodyJoint[]; target: [number, number, number]; enabled: boolean;
  }): { spine: readonly BodyJoint[]; arms: readonly BodyJoint[]; legs: readonly BodyJoint[] };
  readonly active: boolean;
  clear(): void;
  dispose(): void;
}

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
   * mixamorigLeftEye/RightEye, 'vrm': leftEye/rightEye). Not with `createSolver`. Default none. @default []
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
  /**
   * Builds a solver from the settings (any object with `BodyLookAt`'s
   * interface); the helper then runs it on the bones' world transforms, and
   * `weight` slerps its result over the animated pose. Default: none, the
   * helper is a one-constraint IKRig (a 'bodyLookAt' constraint).
   */
  createSolver?: (settings: BodyLookAtSettings) => BodyLookAtSolver;
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
 * animation mixer.
 */
export class BodyLookAtIK {
  constructor(ikpd: Ikpd, root: Object3D, options?: BodyLookAtIKOptions);
  /** The bones found: the spine (hips → head) and each arm and leg (upper, lower, end). */
  readonly bones: { readonly spine: readonly Object3D[]; readonly arms: readonly Object3D[][]; readonly legs: readonly Object3D[][] };
  readonly root: Object3D;
  readonly hips: Object3D;
  /** The eye bones the gaze turns (fixed at construction; empty for none); undefined with `createSolver`. */
  readonly eyes?: readonly Object3D[];
  /** The helper's rig (a one-constraint IKRig over the character); undefined with `createSolver`. */
  readonly rig?: import('./ikRig.js').IKRig;
  /** With `createSolver` only: the solver it built. */
  readonly solver?: BodyLookAtSolver;
}

