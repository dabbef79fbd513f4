// Typings for the 'solvers' API module: prepared single-item solvers.
import type { AimOptions, AimResult, TwoBoneOptions, TwoBoneResult } from './ik.js';

/** Per-frame inputs of `TwoBoneSolver.solve`. */
export type TwoBoneFrame = Pick<TwoBoneOptions, 'root' | 'mid' | 'end' | 'target'>;
/** Options of a `TwoBoneSolver`: every `TwoBoneOptions` field except the per-frame inputs, same defaults. */
export type TwoBoneSolverOptions = Omit<TwoBoneOptions, keyof TwoBoneFrame>;
/** Per-frame inputs of `AimSolver.solve` (`rotation` defaults to identity). */
export type AimFrame = Pick<AimOptions, 'position' | 'rotation' | 'target'>;
/** Options of an `AimSolver`: every `AimOptions` field except the per-frame inputs, same defaults. */
export type AimSolverOptions = Omit<AimOptions, keyof AimFrame>;

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

export interface SolverApi {
  /** Prepared two-bone solver; `TwoBoneSolver.defaults` lists every option's default. */
  TwoBoneSolver: { new (options?: TwoBoneSolverOptions): TwoBoneSolver; readonly defaults: Readonly<TwoBoneSolverOptions> };
  /** Prepared aim solver; `AimSolver.defaults` lists every option's default. */
  AimSolver: { new (options?: AimSolverOptions): AimSolver; readonly defaults: Readonly<AimSolverOptions> };
}
