// Typings of the prepared single-item solvers (docs/ik/prepared-solvers.md).
import type { AimOptions, AimResult } from './aim.js';
import type { TwoBoneOptions, TwoBoneResult } from './twoBone.js';
import type { PseudoThreeBoneOptions, PseudoThreeBoneResult } from './pseudoThreeBone.js';
import type { ChainOptions, ChainResult } from './chain.js';

/** Per-frame inputs of `TwoBoneSolver.solve`. */
export type TwoBoneFrame = Pick<TwoBoneOptions, 'root' | 'mid' | 'end' | 'target'>;
/** Options of a `TwoBoneSolver`: every `TwoBoneOptions` field except the per-frame inputs, same defaults. */
export type TwoBoneSolverOptions = Omit<TwoBoneOptions, keyof TwoBoneFrame>;
/** Per-frame inputs of `AimSolver.solve` (`rotation` defaults to identity). */
export type AimFrame = Pick<AimOptions, 'position' | 'rotation' | 'target'>;
/** Options of an `AimSolver`: every `AimOptions` field except the per-frame inputs, same defaults. */
export type AimSolverOptions = Omit<AimOptions, keyof AimFrame>;
/** Per-frame inputs of `PseudoThreeBoneSolver.solve` (`blend` defaults to 0 each frame). */
export type PseudoThreeBoneFrame = Pick<PseudoThreeBoneOptions, 'root' | 'mid' | 'end' | 'target' | 'tip' | 'blend'>;
/** Options of a `PseudoThreeBoneSolver`: every `PseudoThreeBoneOptions` field except the per-frame inputs, same defaults. */
export type PseudoThreeBoneSolverOptions = Omit<PseudoThreeBoneOptions, keyof PseudoThreeBoneFrame>;

/** Per-frame inputs of `ChainSolver.solve` (`pole` and `parentRotation` default to none and identity each frame). */
export type ChainFrame = Pick<ChainOptions, 'joints' | 'target' | 'pole' | 'parentRotation'>;
/**
 * Options of a `ChainSolver`: every `ChainOptions` field except the per-frame inputs, same defaults
 * (method `'fabrik'`, iterations 20, tolerance 1e-4, forward `[1, 0, 0]`, no limits).
 * `limits` has at most `jointCount` entries (`jointCount` − 1 or `jointCount` to set any).
 */
export type ChainSolverOptions = Omit<ChainOptions, keyof ChainFrame>;

/**
 * A single-item solver whose options live in WASM memory: set them once, then
 * `solve()` each frame writes only the per-frame inputs and makes one call.
 * Owns WASM memory: call `dispose()` when done.
 */
export interface PreparedSolver<Options> {
  /**
   * Changes the options given; the others keep their values. `null` clears an
   * optional vector (`pole`, `poleDirection`, `hingeAxis`). Throws a
   * TypeError/RangeError naming the option, and then changes nothing.
   */
  setOptions(options: { [K in keyof Options]?: Options[K] | null }): this;
  /**
   * Float32Array over the per-frame inputs in WASM memory, for callers that pack
   * raw floats (see each solver for the layout); valid until WASM memory grows,
   * so read it again each frame. Then call `run()`.
   */
  readonly input: Float32Array;
  /** Float32Array over the last result (see each solver for the layout); read it again each frame. */
  readonly output: Float32Array;
  /** Solves from the floats in `input`; the result is in `output`. */
  run(): this;
  /** Frees the WASM memory now; later calls throw. Idempotent. */
  dispose(): void;
  /** True after dispose(). */
  readonly disposed: boolean;
}

/**
 * Two-bone IK prepared once (see `solveTwoBone` for the behaviour of every option).
 * `input` layout: root position (3), rotation `[x, y, z, w]` (4), mid (7), end (7), target (3).
 * `output` layout: root (7), mid (7), end (7), reached (1 or 0), distance.
 */
export interface TwoBoneSolver extends PreparedSolver<TwoBoneSolverOptions> {
  /** Solves one frame; returns the same result object every call (its arrays filled in place). */
  solve(frame: TwoBoneFrame): TwoBoneResult;
}

/**
 * Aim prepared once (see `solveAim`). `input` layout: position (3), rotation `[x, y, z, w]` (4),
 * target (3). `output`: the new rotation `[x, y, z, w]`.
 */
export interface AimSolver extends PreparedSolver<AimSolverOptions> {
  /** Solves one frame; returns the same result object every call (its array filled in place). */
  solve(frame: AimFrame): AimResult;
}

/**
 * Pseudo three-bone IK prepared once (see `solvePseudoThreeBone`).
 * `input` layout: root (7: position, rotation `[x, y, z, w]`), mid (7), end (7), target (3), tip (7), blend (1).
 * `output` layout: root (7), mid (7), end (7), tip (7), reached (1 or 0), distance.
 */
export interface PseudoThreeBoneSolver extends PreparedSolver<PseudoThreeBoneSolverOptions> {
  /** Solves one frame; returns the same result object every call (its arrays filled in place). */
  solve(frame: PseudoThreeBoneFrame): PseudoThreeBoneResult;
}

/**
 * Chain IK (CCD or FABRIK, see `solveChain`) prepared once for chains of `jointCount` joints:
 * the options and limits stay in WASM memory. `solve` throws a RangeError naming `joints` unless
 * `frame.joints` has exactly `jointCount` entries.
 * `input` layout (n = jointCount): target (3), pole (x, y, z, then 1 given / 0 none),
 * parentRotation `[x, y, z, w]`, 6 option floats that `run()` ignores, then n joints (7 each:
 * position, rotation `[x, y, z, w]`).
 * `output` layout: n joints (7 each), reached (1 or 0), distance, iterations.
 */
export interface ChainSolver extends PreparedSolver<ChainSolverOptions> {
  /** Joints per chain, fixed at construction. */
  readonly jointCount: number;
  /** Solves one frame; returns the same result object every call (its arrays filled in place). */
  solve(frame: ChainFrame): ChainResult;
}

export interface SolverApi {
  /** Prepared two-bone solver; `TwoBoneSolver.defaults` lists every option's default. */
  TwoBoneSolver: { new (options?: TwoBoneSolverOptions): TwoBoneSolver; readonly defaults: Readonly<TwoBoneSolverOptions> };
  /** Prepared aim solver; `AimSolver.defaults` lists every option's default. */
  AimSolver: { new (options?: AimSolverOptions): AimSolver; readonly defaults: Readonly<AimSolverOptions> };
  /** Prepared pseudo three-bone solver; `PseudoThreeBoneSolver.defaults` lists every option's default. */
  PseudoThreeBoneSolver: {
    new (options?: PseudoThreeBoneSolverOptions): PseudoThreeBoneSolver;
    readonly defaults: Readonly<PseudoThreeBoneSolverOptions>;
  };
  /**
   * Prepared chain solver for `jointCount` joints (integer in [2, 128]);
   * `ChainSolver.defaults` lists every option's default.
   */
  ChainSolver: { new (jointCount: number, options?: ChainSolverOptions): ChainSolver; readonly defaults: Readonly<ChainSolverOptions> };
}
