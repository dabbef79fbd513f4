// Typings of RigBatch: N characters that share one Rig's skeleton and
// constraint stack, solved side by side in SIMD lanes (docs/rig/rig-batch.md).
import type { Disposable } from '../common.js';
import type { Rig, RigConstraintKind, RigConstraintOptionsByKind } from './rig.js';

/** The kinds a rig batch solves; a rig with another kind is a RangeError naming the constraint. */
export type RigBatchConstraintKind = Extract<RigConstraintKind, 'aim' | 'twoBone' | 'pseudoThreeBone' | 'springs'>;

/** Options of `new ikpd.RigBatch(options)`. */
export interface RigBatchOptions {
  /** The rig every character shares: its skeleton, rest pose, facing and constraints are copied (later changes to it do not reach the batch). */
  rig: Rig;
  /** Number of characters, an integer in [1, 1048576]. */
  count: number;
}

/** One constraint of a rig batch: its settings (shared by every character) and its per-character views. */
export interface RigBatchConstraint<K extends RigBatchConstraintKind = RigBatchConstraintKind> {
  readonly index: number;
  readonly kind: K;
  /** The joint indices (a copy). */
  readonly joints: number[];
  /** 0 (grounding only has legs). */
  readonly legCount: number;
  /** Every current setting (a frozen copy). */
  readonly options: Readonly<Required<RigConstraintOptionsByKind[K]>>;
  /** One current setting; an unknown name throws a TypeError suggesting the nearest. */
  get<N extends keyof RigConstraintOptionsByKind[K]>(name: N): Required<RigConstraintOptionsByKind[K]>[N];
  /** Changes the settings of every character (as `RigConstraint.set`); smoothing is kept unless the joints change. */
  set(changes: RigConstraintOptionsByKind[K]): this;
  /** Float32Array(3 × count): each character's target, world space. @default 0 */
  readonly targets: Float32Array;
  /** Float32Array(3 × count): each character's pole (aim: world up target), read when `batch.poleSet[index]` is 1. @default 0 */
  readonly poles: Float32Array;
  /** Float32Array(count): each character's weight in [0, 1], multiplied by the constraint's `weight`. @default 1 */
  readonly weights: Float32Array;
  /** Float32Array(count): 1 where the character's full-weight solve reached its target, after `update`. */
  readonly reached: Float32Array;
  /** Float32Array(count): the character's distance to its target after `update` (world units; aim: radians). */
  readonly distance: Float32Array;
}

/**
 * N characters sharing one rig. Every view is joint-major: character `c` of joint `j`
 * starts at `(j × count + c) × k` for a field of k floats. Views are re-read after
 * WASM memory growth (read them through the getters each frame, or keep them and
 * re-read after creating other objects).
 */
export interface RigBatch extends Disposable {
  /** Number of characters. */
  readonly count: number;
  /** Joints per character (the rig's `count`). */
  readonly jointCount: number;
  /** The constraints in stack order (a frozen list, the same array every call: read it per frame freely). */
  readonly constraints: readonly RigBatchConstraint[];
  /** Float32Array(3 × joints × count): animated local translations. Starts at the rig's rest pose. */
  readonly translations: Float32Array;
  /** Float32Array(4 × joints × count): animated local rotations [x, y, z, w]. Starts at the rig's rest pose. */
  readonly rotations: Float32Array;
  /** Float32Array(3 × joints × count): animated local scales. Starts at the rig's rest pose. */
  readonly scales: Float32Array;
  /** Float32Array(4 × joints × count): the solved local rotations after `update` (a rig batch writes rotations only). */
  readonly output: Float32Array;
  /** Float32Array(3 × count): each character's root position (world). @default [0, 0, 0] */
  readonly rootPositions: Float32Array;
  /** Float32Array(4 × count): each character's root rotation [x, y, z, w]. @default [0, 0, 0, 1] */
  readonly rootRotations: Float32Array;
  /** Float32Array(count): each character's uniform root scale, > 0. @default 1 */
  readonly rootScales: Float32Array;
  /** Uint8Array(constraints): 1 where that constraint's poles are read this frame (all characters). @default 0 */
  readonly poleSet: Uint8Array;
  /**
   * One frame for every character, one WASM call: `dt` seconds, finite and >= 0. A bad value throws a
   * RangeError naming it (`characters[17].in[3].rotation: …`, `constraints[1].targets[17]: …`) with nothing changed;
   * with `init({ threads })` and 256 characters or more, only the bad value's part is unchanged (the others are solved).
   */
  update(dt: number): this;
  /**
   * Characters [first, first + count) back to their first frame, as `Rig.clearSmoothing` for each: every
   * constraint's smoothing at rest, a springs constraint's tails restarted from the next frame's pose
   * (a teleported character). The others keep theirs. A range outside [0, count) is a RangeError, nothing changed.
   * @param first @default 0
   * @param count @default count - first (every character from `first`)
   */
  clearSmoothing(first?: number, count?: number): this;
}

/** In the module `init({ batch: true })` loads; elsewhere `new RigBatch()` throws an Error naming that option. */
export interface RigBatchApi {
  /** N characters that share one rig, solved side by side: see docs/rig/rig-batch.md. */
  RigBatch: {
    new (options: RigBatchOptions): RigBatch;
    /** Most characters one batch holds (1048576). */
    readonly maxCount: number;
  };
}
