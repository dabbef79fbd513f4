// Typings of the inertializer (docs/pd/inertializer.md): inertialized transitions over a
// skeleton's locals, in the pd area.
import type { Disposable } from '../common.js';

/** Options of `new ikpd.Inertializer(jointCount, options)`. */
export interface InertializerOptions {
  /**
   * Seconds for an offset released at rest to halve, for the transitions that give none; 0: a cut.
   * @default 0.1
   */
  halfLife?: number;
}

/** Options of `Inertializer.transition`. */
export interface InertializerTransitionOptions {
  /**
   * Seconds for the offset (at rest) to halve; 0: a cut.
   * @default the inertializer's `halfLife`
   */
  halfLife?: number;
  /**
   * Match the first derivative: the rates of `output` (against the output one update
   * earlier) and of the new pose (`input` against `previous`, one update's dt earlier).
   * false, or before the first update: both at rest.
   * @default true
   */
  velocity?: boolean;
}

/**
 * Inertialized transitions over `jointCount` joints' local transforms (7 floats per joint:
 * tx ty tz qx qy qz qw). Fill `input` with the pose to play and call `update(dt)`; at a
 * switch, fill `input` (and `previous`) with the new pose and call `transition()`: the
 * shown `output` continues from where it was and the offset decays by the exact
 * critically damped spring. No allocation per frame.
 */
export interface Inertializer extends Disposable {
  /** Number of joints. */
  readonly jointCount: number;
  /** Float32Array(7 × jointCount): the pose to play now (fill before `update` and `transition`). */
  readonly input: Float32Array;
  /** Float32Array(7 × jointCount): the pose shown, written by `update`; a transition starts from it. */
  readonly output: Float32Array;
  /** Float32Array(7 × jointCount): the new pose one update's dt before `input` (read by a transition with `velocity`). */
  readonly previous: Float32Array;
  /**
   * Half-life (seconds) of the transitions that give none; 0: a cut.
   * @default 0.1
   */
  halfLife: number;
  /** Seconds since the last transition. */
  readonly elapsed: number;
  /** Switches to the pose in `input` (the offset output − input decays from now). Errors change nothing. */
  transition(options?: InertializerTransitionOptions): this;
  /** Advances `dt` seconds: `output` = `input` with the decayed offsets. Returns `output`. */
  update(dt: number): Float32Array;
  /** The offsets of `joint` now: rotation (scaled angle-axis, radians; output = exp(rotation)·input) and translation. */
  offsetAt(joint: number): { rotation: [number, number, number]; translation: [number, number, number] };
  /** Drops every offset. */
  reset(): this;
}

export interface InertializerApi {
  /**
   * `new ikpd.Inertializer(jointCount, { halfLife: 0.15 })` (docs/pd/inertializer.md). Its bindings are in the
   * rig module: load it with `init({ rig: true })` (without it the constructor throws an Error saying so).
   */
  readonly Inertializer: new (jointCount: number, options?: InertializerOptions) => Inertializer;
}
