/** A 3D vector or point `[x, y, z]`. Plain arrays and typed arrays are accepted. */
export type Vec3 = readonly [number, number, number] | ArrayLike<number>;
/** A quaternion `[x, y, z, w]` in three.js order; need not be unit, must not be zero. */
export type Quat = readonly [number, number, number, number] | ArrayLike<number>;
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
