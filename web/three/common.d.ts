// ikpd/three — the types every helper's options share: points, bone axes, weight; and detectBoneAxis (web/three/readers.js).
import type { Object3D, Vector3 } from 'three';

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
 * The bone-local direction from `bone` to `child` (which may be any
 * descendant), in the bone's rotation frame; null when the child sits on the
 * bone. Brings both world matrices up to date first. (`AimIK`'s default
 * `forward`: toward the bone's first child with an offset.)
 */
export function detectBoneAxis(bone: Object3D, child: Object3D, out?: Vector3): Vector3 | null;
