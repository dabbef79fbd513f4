// Typings for the 'batch' API module: N solves per call over structure-of-arrays
// buffers in WASM memory (docs/architecture.md), exposed as Float32Array views (no copies).
import type { Disposable, Vec3 } from '../common.js';
import type { AimMethod } from '../ik/aim.js';
import type { TwoBoneFields } from '../ik/described.js';
import type { PdControllerOptions, QuatPDOptions } from '../pd/pd.js';

/**
 * What the per-item `pole` field holds: `'none'` (not read; no pole), `'point'` (a world
 * point, like `pole` of the single call) or `'direction'` (like `poleDirection`; two-bone only).
 */
export type PoleMode = 'none' | 'point' | 'direction';

/**
 * Common shape of every batch. Each field is one Float32Array with the item's components
 * adjacent: vectors `[x0, y0, z0, x1, ...]` (three.js: `v.toArray(field, 3 * i)`),
 * quaternions `[x0, y0, z0, w0, x1, ...]` (`q.toArray(field, 4 * i)`), scalars one per item.
 *
 * The views live in WASM memory. They are re-derived whenever WASM memory grows, so read
 * `batch.input.x` / `batch.output.x` again after creating other ikpd objects instead of
 * keeping a view in a variable across such calls (a view of the old memory is detached and empty).
 */
export interface SoaBatch<In, Out> extends Disposable {
  /** Number of items (fixed at construction, 1 ≤ count ≤ 2^24). */
  readonly count: number;
  /** Input fields, filled by the caller. Initial values: positions 0, rotations identity, weights 1. */
  readonly input: Readonly<In>;
  /** Output fields, written by `solve()`. */
  readonly output: Readonly<Out>;
  /**
   * Solves items `[0, count)` (default: all), each exactly like the single call with the same
   * input. Every item is validated first: on an invalid item, throws
   * `RangeError("items[i].parameter: reason")` (the first such item, e.g. `items[12].weight: must be in [0, 1]`) and writes no output.
   * (A solve that fails after validation, possible only for inputs near the float32 range, throws the
   * same way with the outputs of the items before it already written.)
   */
  solve(count?: number): this;
}

/** Settings shared by every item of a TwoBoneBatch; defaults as in `solveTwoBone`. */
export interface TwoBoneBatchOptions extends Omit<TwoBoneFields, 'root' | 'mid' | 'end' | 'target' | 'pole' | 'poleDirection' | 'effectorOffset' | 'weight'> {
  /** Default `'none'`. @default 'none' */
  poleMode?: PoleMode;
}

/** Per-item inputs of a TwoBoneBatch (names as in `solveTwoBone`). */
export interface TwoBoneBatchInput {
  /** 3 per item. */ rootPosition: Float32Array;
  /** 4 per item. */ rootRotation: Float32Array;
  /** 3 per item. */ midPosition: Float32Array;
  /** 4 per item. */ midRotation: Float32Array;
  /** 3 per item. */ endPosition: Float32Array;
  /** 4 per item. */ endRotation: Float32Array;
  /** 3 per item. */ target: Float32Array;
  /** 3 per item: a point or a direction per `poleMode`; not read with `'none'`. */ pole: Float32Array;
  /** 3 per item. Initially 0. */ effectorOffset: Float32Array;
  /** 1 per item, in [0, 1]. Initially 1. */ weight: Float32Array;
}

/** Per-item outputs of a TwoBoneBatch. The root position never changes, so it has no output. */
export interface TwoBoneBatchOutput {
  /** 4 per item. */ rootRotation: Float32Array;
  /** 3 per item. */ midPosition: Float32Array;
  /** 4 per item. */ midRotation: Float32Array;
  /** 3 per item. */ endPosition: Float32Array;
  /** 4 per item. */ endRotation: Float32Array;
  /** 1 per item: 1 when reached, else 0. */ reached: Float32Array;
  /** 1 per item. */ distance: Float32Array;
}

/** Two-bone IK (docs/ik/two-bone.md) for many limbs per call. */
export interface TwoBoneBatch extends SoaBatch<TwoBoneBatchInput, TwoBoneBatchOutput> {
  /** Replaces the shared settings (validated now; RangeError naming the option). */
  setOptions(options: TwoBoneBatchOptions): void;
}

/** Settings shared by every item of a PseudoThreeBoneBatch; defaults as in `solvePseudoThreeBone`. */
export interface PseudoThreeBoneBatchOptions extends Omit<TwoBoneBatchOptions, 'endRotation'> {
  /** Default `'relative'`. @default 'relative' */
  variant?: 'relative' | 'followMid';
  /** Radians in [0, π]. Default π (off). @default Math.PI */
  endLimit?: number;
}

/** Per-item inputs of a PseudoThreeBoneBatch (names as in `solvePseudoThreeBone`). */
export interface PseudoThreeBoneBatchInput extends Omit<TwoBoneBatchInput, 'effectorOffset'> {
  /** 3 per item: the tip of the end joint (toe, fingertip). */ tipPosition: Float32Array;
  /** 4 per item. */ tipRotation: Float32Array;
  /** 1 per item, in [0, 1]. Initially 0. */ blend: Float32Array;
}

/** Per-item outputs of a PseudoThreeBoneBatch. */
export interface PseudoThreeBoneBatchOutput extends TwoBoneBatchOutput {
  /** 3 per item. */ tipPosition: Float32Array;
  /** 4 per item. */ tipRotation: Float32Array;
}

/** Pseudo three-bone IK (docs/ik/pseudo-three-bone.md) for many legs or arms per call. */
export interface PseudoThreeBoneBatch extends SoaBatch<PseudoThreeBoneBatchInput, PseudoThreeBoneBatchOutput> {
  setOptions(options: PseudoThreeBoneBatchOptions): void;
}

/** Settings shared by every item of an AimBatch; defaults as in `solveAim`. */
export interface AimBatchOptions {
  /** `'none'` (default) or `'point'`: per-item `pole` is the up target (docs/ik/aim.md). */
  poleMode?: 'none' | 'point';
  /** Default `[1, 0, 0]`. @default [1, 0, 0] */
  forward?: Vec3;
  /** Default `'yawPitch'`. @default 'yawPitch' */
  method?: AimMethod;
  /** Default `[0, 1, 0]`. @default [0, 1, 0] */
  up?: Vec3;
  /** Default none. */
  hingeAxis?: Vec3;
  /** Joint-local point that aims instead of the joint (see `AimOptions.offset`). Default `[0, 0, 0]`. */
  offset?: Vec3;
}

/** Per-item inputs of an AimBatch. */
export interface AimBatchInput {
  /** 3 per item. */ position: Float32Array;
  /** 4 per item. */ rotation: Float32Array;
  /** 3 per item. */ target: Float32Array;
  /** 3 per item, read when `poleMode` is `'point'`. */ pole: Float32Array;
  /** 1 per item, in [0, 1]. Initially 1. */ weight: Float32Array;
}

/** Per-item outputs of an AimBatch. */
export interface AimBatchOutput {
  /** 4 per item (unit). */ rotation: Float32Array;
}

/** One-bone aim (docs/ik/aim.md) for many joints per call. */
export interface AimBatch extends SoaBatch<AimBatchInput, AimBatchOutput> {
  setOptions(options: AimBatchOptions): void;
}

/** Options of a PDBatch: the PD options a batch can honour (it keeps no integral or previous target). */
export type PDBatchOptions = Pick<PdControllerOptions, 'settleTime' | 'damping' | 'kp' | 'kd' | 'integrator' | 'dtMax' | 'maxVelocity'> & {
  /** Wrap like AnglePD (radians, short way across ±π, value in (−π, π]). Default false. @default false */
  angle?: boolean;
};

/** Options of a QuatPDBatch: as PDBatchOptions plus `maxAngle`; `method` must be `'log'` (default). */
export type QuatPDBatchOptions = Pick<QuatPDOptions, 'settleTime' | 'damping' | 'kp' | 'kd' | 'integrator' | 'dtMax' | 'maxVelocity' | 'maxAngle'> & {
  method?: 'log';
};

/**
 * Common shape of the PD batches: `state` holds each controller's value and velocity (updated in
 * place), `input.target` its target. Each item gives the result of the single controller reset to
 * that state and updated with the same dt and target.
 */
export interface ControllerBatch<State, In> extends Disposable {
  readonly count: number;
  /** Per-item state, read and written by `update` (initially value 0 / identity, velocity 0). */
  readonly state: Readonly<State>;
  readonly input: Readonly<In>;
  /**
   * Advances items `[0, count)` (default: all) by `dt` >= 0 seconds. Items are validated first:
   * the first invalid one throws `RangeError("items[i].parameter: reason")` and nothing is written.
   */
  update(dt: number, count?: number): this;
}

/** Scalar PD controllers (docs/pd/pd.md). */
export interface PDBatch extends ControllerBatch<{ /** 1 per item. */ value: Float32Array; /** 1 per item. */ velocity: Float32Array }, { /** 1 per item. */ target: Float32Array }> {
  /** Replaces the shared settings; keeps the state. */
  setOptions(options: PDBatchOptions): void;
}

/** Quaternion PD controllers (docs/pd/pd.md, like QuatPD). */
export interface QuatPDBatch extends ControllerBatch<{ /** 4 per item [x, y, z, w]. */ value: Float32Array; /** 3 per item: world angular velocity, rad/s. */ velocity: Float32Array }, { /** 4 per item [x, y, z, w]; need not be unit. */ target: Float32Array }> {
  setOptions(options: QuatPDBatchOptions): void;
}

/** In the module `init({ batch: true })` loads; elsewhere the constructors throw an Error naming that option. */
export interface BatchApi {
  /** `new ikpd.PDBatch(count, options?)`: `count` scalar (or angle) PD controllers advanced per `update(dt)`. */
  PDBatch: new (count: number, options?: PDBatchOptions) => PDBatch;
  /** `new ikpd.QuatPDBatch(count, options?)`: `count` quaternion PD controllers advanced per `update(dt)`. */
  QuatPDBatch: new (count: number, options?: QuatPDBatchOptions) => QuatPDBatch;
  /** `new ikpd.TwoBoneBatch(count, options?)`: `count` two-bone problems solved per `solve()`. */
  TwoBoneBatch: new (count: number, options?: TwoBoneBatchOptions) => TwoBoneBatch;
  /** `new ikpd.AimBatch(count, options?)`: `count` aim problems solved per `solve()`. */
  AimBatch: new (count: number, options?: AimBatchOptions) => AimBatch;
  /** `new ikpd.PseudoThreeBoneBatch(count, options?)`: `count` pseudo three-bone problems solved per `solve()`. */
  PseudoThreeBoneBatch: new (count: number, options?: PseudoThreeBoneBatchOptions) => PseudoThreeBoneBatch;
}
