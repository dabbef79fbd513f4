// ikpd/three — the grounding constraint of IKRig (docs/rig/grounding.md).
import type { Object3D, Plane, Vector3 } from 'three';
import type { BoneLike, ConstraintOptions } from './ikRig.js';
import type { GroundingFields } from '../../types/rig/described.js';

/** What a ground function returns: the ground's height along the rig's up (world y for '+y') and, optionally, its normal (default: up); null: no ground there. */
export interface GroundSample {
  height: number;
  normal?: Vector3 | { x: number; y: number; z: number } | readonly [number, number, number] | null;
}

/**
 * The ground under the feet:
 * - an Object3D or an array of them (meshes, with their descendants): one ray
 *   per foot per frame, straight down from a leg's length above the hip to a
 *   leg's length below the animated sole, with one reusable `Raycaster` and
 *   `firstHitOnly = true` (so meshes accelerated by `three-mesh-bvh`,
 *   `geometry.computeBoundsTree()` and `mesh.raycast = acceleratedRaycast`,
 *   answer in microseconds; ikpd does not import it). Their world matrices
 *   are used as they are (as of the last render or `updateMatrixWorld`);
 * - a function `(x, y, z) → { height, normal } | null` called with the
 *   animated sole point (world): null is no ground there; a function that
 *   throws, returns NaN or nothing counts as no ground too (the foot keeps its
 *   animated pose; one development warning);
 * - a `THREE.Plane` (world);
 * - null: the flat ground the animation was authored on (the plane
 *   `groundHeight` along up in the rig root's frame): only plant lock acts.
 */
export type GroundLike = Object3D | readonly Object3D[] | ((x: number, y: number, z: number) => GroundSample | null | undefined) | Plane | null;

export interface GroundingConstraintOptions extends Omit<ConstraintOptions, 'target'>,
  Pick<GroundingFields, 'groundHeight' | 'maxFootPitch' | 'maxFootRoll' | 'plantSpeed' | 'soften'> {
  /**
   * Two or four legs, each `[hip, knee, ankle]` (two-bone) or `[hip, knee,
   * ankle, toe]` (pseudo three-bone; the toe lands on the ground), bones,
   * names or roles; with four, legs 0–1 are the hind legs (under the pelvis),
   * 2–3 the front ones (under the chest). On a humanoid: its left and right
   * upper leg, lower leg, foot and (when both feet have them) toes.
   */
  legs?: readonly (readonly BoneLike[])[];
  /** The joint whose translation moves (drops and rises). On a humanoid: `'hips'`; otherwise the first hip's parent. */
  pelvis?: BoneLike;
  /** Four legs: the joint the front legs hang under (it pitches with the slope). @default null */
  chest?: BoneLike | null;
  /** The ground under the feet (see `GroundLike`). @default null */
  ground?: GroundLike;
  /** Per leg, the stance: −1 auto (from the animated foot's speed and height), 0 free, 1 planted; read every update (`constraint.plant`). @default -1 */
  plant?: ArrayLike<number>;
  /** Per leg, the ankle's (or toe's) height above its sole, model units (> 0). Default: its rest-pose height above the authored ground. */
  soleOffsets?: ArrayLike<number>;
  /** Largest pelvis drop, model units (>= 0). Default: 0.35 × the shortest leg's rest length. */
  maxPelvisDrop?: number;
  /** Largest pelvis rise, model units (>= 0). Default: 0.1 × the shortest leg's rest length. */
  maxPelvisRise?: number;
  /** …and is at most this high above the authored ground, model units (>= 0). Default: 0.03 × the shortest leg's rest length. */
  plantHeight?: number;
  /** How far (horizontally) a planted foot's lock may trail its animated sole before it follows, model units (>= 0). Default: 0.15 × the shortest leg's rest length. */
  unplantRadius?: number;
  /** Seconds for each offset (feet, pelvis) to settle after a change (0: no smoothing). @default 0.1 */
  settleTime?: number;
  [option: string]: unknown;
}

/** A grounding constraint of an IKRig: its options are writable properties, as every constraint's. */
export interface GroundingConstraint {
  readonly kind: 'grounding';
  readonly bones: { readonly pelvis: Object3D; readonly chest: Object3D | null; readonly legs: readonly (readonly Object3D[])[] };
  /** The ground under the feet; setting it is checked at once. */
  ground: GroundLike;
  /** Per leg: −1 auto, 0 free, 1 planted (a flag or a curve's value, written before each update). */
  readonly plant: Float32Array;
  /** True when a foot is planted and every planted sole is within 1 mm of its target (the animated sole plus the ground change, under its lock) after the last update. */
  readonly reached: boolean;
  /** The largest distance of a planted sole from its target after the last update (world units). */
  readonly distance: number;
  /** The settings in force, derived defaults included (read back as numbers; writable like every option). */
  soleOffsets: number[];
  maxPelvisDrop: number;
  maxPelvisRise: number;
  plantHeight: number;
  unplantRadius: number;
  /** Sets several options at once, `ground` and `plant` included; all are checked before any changes. */
  set(options: Partial<GroundingConstraintOptions>): this;
}
