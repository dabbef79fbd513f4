/** An object with numeric `x`, `y`, `z` (a three.js `Vector3`, or a plain object). */
export interface XYZ {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}
/** An object with numeric `x`, `y`, `z`, `w` (a three.js `Quaternion`, or a plain object). */
export interface XYZW extends XYZ {
  readonly w: number;
}
/**
 * A 3D vector or point: `[x, y, z]`, a `Float32Array`/`Float64Array` of length 3,
 * or an `{x, y, z}` object such as a three.js `Vector3`. Arrays are the fastest.
 */
export type Vec3 = readonly [number, number, number] | Float32Array | Float64Array | XYZ;
/**
 * A quaternion in three.js order: `[x, y, z, w]`, a `Float32Array`/`Float64Array`
 * of length 4, or an `{x, y, z, w}` object such as a three.js `Quaternion`.
 * It need not be unit but must not be zero.
 */
export type Quat = readonly [number, number, number, number] | Float32Array | Float64Array | XYZW;
/** A world-space joint. `rotation` defaults to identity. */
export interface Joint {
  position: Vec3;
  rotation?: Quat;
}
/** A solved world-space joint. */
export interface JointResult {
  position: [number, number, number];
  rotation: [number, number, number, number];
}
/** Base of every object that owns WASM memory. */
export interface Disposable {
  /** Frees the WASM memory now; later method calls throw. Idempotent. */
  dispose(): void;
  /** True after `dispose()`. */
  readonly disposed: boolean;
}
