// ikpd/three — BoneChain (web/three/boneChain.js): the bones every helper solves.
import type { Object3D, Quaternion, Vector3 } from 'three';
import type { BoneAxes } from './common.js';

/**
 * Low-level bone-chain access used by every helper: reads world transforms in
 * the solvers' canonical convention and writes solved world rotations back as
 * local quaternions (correct under rotated, translated and uniformly scaled
 * parents; non-uniformly scaled parents shear rotated children, which no
 * rotation can undo, so results there are approximate).
 */
export class BoneChain {
  constructor(bones: readonly Object3D[], axes?: BoneAxes | readonly BoneAxes[]);
  readonly bones: readonly Object3D[];
  readonly count: number;
  /** World positions, filled by `read()`. */
  readonly positions: Vector3[];
  /** World rotations of the bones (rig convention), filled by `read()`. */
  readonly rotations: Quaternion[];
  /** Bone-local frames: canonical +X/+Y → the bone's forward/up axes. */
  readonly frames: Quaternion[];
  readonly inverseFrames: Quaternion[];
  /** Bone-local forward axes (unit). */
  readonly forwards: Vector3[];
  /** Recomputes the frames from the current pose (as the constructor does). */
  setAxes(axes?: BoneAxes | readonly BoneAxes[]): void;
  /** Updates world matrices and reads world positions/rotations and the local rotations (for weight). */
  read(): void;
  /** Bone i as a solver joint in the canonical convention (after `read()`). */
  joint(i: number): { position: [number, number, number]; rotation: [number, number, number, number] };
  /** Writes a canonical-convention world rotation to bone i; write root → end, then call `finish()`. */
  writeSolved(i: number, rotation: Quaternion | readonly number[]): void;
  /** Writes a rig-convention world rotation to bone i; write root → end, then call `finish()`. */
  writeWorldRotation(i: number, rotation: Quaternion): void;
  /**
   * Blends each bone's local rotation from the pose `read()` saw to the
   * written one by `weight` (default 1), then refreshes the world matrices.
   */
  finish(weight?: number): void;
}
