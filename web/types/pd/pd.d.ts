// Typings for the 'pd' API module: PD-controller interpolation (docs/pd/pd.md).
import type { Disposable, Quat, Vec3 } from '../common.js';
import type { PdFields } from './described.js';

/**
 * How a controller advances over a step.
 * - `'exact'`: closed-form damped-spring solution — frame-rate independent, never unstable.
 * - `'stable'`: Stable PD (Tan, Liu & Turk 2011) in velocity-then-position order (docs/pd/pd.md);
 *   stable only while 3·kp·dt² < 4 + 2·kd·dt (the published kd/kp > dt is not enough).
 * - `'explicit'`: the plain update (v += dt·F; x += dt·v); stable while kd·dt > 0 and kp·dt² + 2·kd·dt < 4.
 * - `'substep'`: the explicit update on sub-steps no longer than `dtMax`.
 */
export type PdIntegrator = 'exact' | 'stable' | 'explicit' | 'substep';

/**
 * Damping: `'critical'` (ζ = 1, kd = 2√kp, no overshoot), `'responsive'` (ζ = 1/√2,
 * kd = √(2kp), ≈ 4.3 % overshoot), `'over'` (ζ = 1.5, slower, no overshoot), or a
 * damping ratio ζ >= 0 (kd = 2ζ√kp).
 */
export type PdDamping = 'critical' | 'responsive' | 'over' | number;

/** Blend-out progress: not blending, springing toward rest, final linear blend, done (exactly at rest). */
export type PdBlendPhase = 'none' | 'spring' | 'linear' | 'done';

/**
 * Options shared by every controller (their types, docs and defaults: `PdFields`, generated from
 * the C++ description). Give either `settleTime` (+ `damping`) or `kp` (+ `kd` or `damping`).
 */
export interface PdControllerOptions extends Omit<PdFields, 'method' | 'maxAngle'> {}

/** Stability of an integrator's fixed-target update (see `checkStability`). */
export interface PdStability {
  /** Both eigenvalues of the per-step update strictly inside the unit circle. */
  stable: boolean;
  /** Largest stable (sub-)step for these gains (exclusive); Infinity for `'exact'`. */
  maxStableDt: number;
  /** Spectral radius of the per-(sub)step update matrix; < 1 means stable. */
  spectralRadius: number;
}

/** Spring gains. */
export interface PdGains {
  kp: number;
  kd: number;
}

/** Members shared by every controller. `V` is the value type, `W` the velocity type. */
export interface PdController<V, W> extends Disposable {
  /**
   * Advances by `dt` seconds (>= 0; 0 is a no-op) toward `target` — where the target is at the end
   * of the step. With `targetVelocity` the target moves linearly during the step (the exact
   * integrator integrates that motion; `feedForward` uses it). Returns the new value.
   * Throws a RangeError naming the parameter on bad input, or when an `'explicit'`/`'stable'`/
   * `'substep'` step is outside its stability region (checked before stepping; see `onUnstable`)
   * or overflows (the state is then left unchanged). `dt` is in seconds: in development builds a
   * dt above 1 s (likely milliseconds) logs one console warning (see "Development warnings" in README).
   */
  update(dt: number, target: V, targetVelocity?: W): V;
  /** Current value. */
  readonly value: V;
  /** Current velocity. */
  readonly velocity: W;
  /** The last target. */
  readonly target: V;
  /** Sets the state; clears the integral, the blend-out and the remembered target. Velocity defaults to 0. */
  reset(value: V, velocity?: W): this;
  /** Applies new options (omitted ones take their defaults); keeps the state. */
  configure(options?: PdControllerOptions): this;
  /** Spring gain in use. */
  readonly kp: number;
  /** Damper gain in use. */
  readonly kd: number;
  /** |error| <= restTolerance and |velocity| <= restVelocity. */
  readonly atRest: boolean;
  /** kp·e²/2 + v²/2 relative to the current target. */
  readonly energy: number;
  /** Blend-out progress. */
  readonly blendPhase: PdBlendPhase;
  /**
   * The exact state `t` seconds from now (t < 0: back in time, e.g. −dt gives the state before the
   * last update) with the last target (and its velocity) continued. Ignores maxVelocity.
   */
  stateAt(t: number): { value: V; velocity: W };
  /**
   * Seconds until the error stays within `tolerance` (> 0) on the current segment, from the closed
   * form: 0 if it already does, Infinity if it never will (kd = 0).
   */
  timeToSettle(tolerance: number): number;
  /** Stability of this controller's integrator at frame step `dt`. */
  checkStability(dt: number): PdStability;
}

/** Scalar controller. Velocity in value units/s. */
export interface PD extends PdController<number, number> {
  /**
   * Blend-out (IK turning off): springs toward `rest` (default 0) until the energy is under
   * `blendOutEnergy`, then blends linearly to exactly `rest` over `blendOutTime`. `update` cancels it.
   */
  blendOut(dt: number, rest?: number): number;
  /**
   * IK-offset workflow: smooths offset = desired − animation and returns animation + smoothed offset.
   * `desired` null/undefined (IK off) blends the offset out to exactly 0.
   */
  trackOffset(dt: number, animation: number, desired: number | null | undefined): number;
}

/** Scalar options plus the initial state. */
export interface PDOptions extends PdControllerOptions {
  /** Initial value. Default 0. @default 0 */
  value?: number;
  /** Initial velocity. Default 0. @default 0 */
  velocity?: number;
}

/** Angle controller (radians): always turns the short way across ±π; value kept in (−π, π]. */
export type AnglePD = PD;

/** Options of Vec3PD and QuatPD. */
export interface RotationPdOptions extends PdControllerOptions, Pick<PdFields, 'method'> {}

/**
 * Unit 3D vector controller (e.g. a look direction). Targets need not be unit but must not be zero.
 * Velocity is dvalue/dt. Exactly opposite value and target are handled (a deterministic perpendicular
 * is chosen; the componentwise method uses the log map while more than ~154° away).
 */
export interface Vec3PD extends PdController<[number, number, number], [number, number, number]> {
  /**
   * As `PdController.update`, without garbage: returns this controller's own value array, the
   * same array on every call, overwritten by the next `update` (copy it to keep a value).
   */
  update(dt: number, target: Vec3, targetVelocity?: Vec3): [number, number, number];
  reset(value: Vec3, velocity?: Vec3): this;
  /** Blend-out toward the unit vector `rest`, ending exactly on it. */
  blendOut(dt: number, rest: Vec3): [number, number, number];
}

export interface Vec3PDOptions extends RotationPdOptions {
  /** Initial value. Default [1, 0, 0]. */
  value?: Vec3;
  /** Initial velocity. Default [0, 0, 0]. */
  velocity?: Vec3;
}

/**
 * Quaternion controller ([x, y, z, w]; non-unit input is normalized). Kept in the target's hemisphere;
 * velocity is the world-frame angular velocity (rad/s).
 */
export interface QuatPD
  extends PdController<[number, number, number, number], [number, number, number]> {
  /**
   * As `PdController.update`, without garbage: returns this controller's own value array, the
   * same array on every call, overwritten by the next `update` (copy it to keep a value).
   */
  update(dt: number, target: Quat, targetVelocity?: Vec3): [number, number, number, number];
  reset(value: Quat, velocity?: Vec3): this;
  /** Blend-out toward identity, ending exactly at [0, 0, 0, 1]. */
  blendOut(dt: number): [number, number, number, number];
  /**
   * IK-offset workflow on rotations: smooths offset = desired·animation⁻¹ (world-frame) and returns
   * smoothedOffset·animation; `desired` null/undefined blends the offset out to identity.
   */
  trackOffset(dt: number, animation: Quat, desired: Quat | null | undefined): [number, number, number, number];
}

export interface QuatPDOptions extends RotationPdOptions, Pick<PdFields, 'maxAngle'> {
  /** Initial value. Default [0, 0, 0, 1]. */
  value?: Quat;
  /** Initial angular velocity. Default [0, 0, 0]. */
  velocity?: Vec3;
}

export interface PdApi {
  /** Scalar PD controller: `new ikpd.PD({ settleTime: 1, damping: 'critical' })`. */
  readonly PD: new (options?: PDOptions) => PD;
  /** Angle PD controller (wraps at ±π). */
  readonly AnglePD: new (options?: PDOptions) => AnglePD;
  /** Unit-vector PD controller. */
  readonly Vec3PD: new (options?: Vec3PDOptions) => Vec3PD;
  /** Quaternion PD controller. */
  readonly QuatPD: new (options?: QuatPDOptions) => QuatPD;
  /** kp = (2π/settleTime)², kd = 2ζ√kp. `damping` defaults to `'critical'`. */
  gainsFromSettleTime(settleTime: number, damping?: PdDamping): PdGains;
  /** Unity `Mathf.SmoothDamp(smoothTime)`: critical damping with ω = 2/smoothTime. */
  gainsFromSmoothTime(smoothTime: number): PdGains;
  /** Critical damping whose error, released at rest, halves after exactly `halfLife` seconds. */
  gainsFromHalfLife(halfLife: number): PdGains;
  /** react-spring (tension/friction/mass) or motion (stiffness/damping/mass): kp = stiffness/mass, kd = damping/mass. `mass` defaults to 1. */
  gainsFromSpring(options: { stiffness: number; damping: number; mass?: number }): PdGains;
  /** Stability of an integrator at step `dt` (`integrator` default `'exact'`, `dtMax` default 1/120). */
  checkStability(options: { kp: number; kd: number; dt: number; integrator?: PdIntegrator; dtMax?: number }): PdStability;
}
