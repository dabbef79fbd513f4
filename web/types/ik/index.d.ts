// Typings of the ik area: aim (docs/ik/aim.md), two-bone (docs/ik/two-bone.md), pseudo
// three-bone (docs/ik/pseudo-three-bone.md), chains (docs/ik/chains.md), the 2D tentacle
// (docs/ik/tentacle.md) and the prepared solvers (docs/ik/prepared-solvers.md), with the
// members they add to the ikpd object.
import type { Quat } from '../common.js';
import type { AimOptions, AimResult } from './aim.js';
import type { TwoBoneOptions, TwoBoneResult } from './twoBone.js';
import type { PseudoThreeBoneOptions, PseudoThreeBoneResult } from './pseudoThreeBone.js';
import type { ChainOptions, ChainResult } from './chain.js';
import type { Tentacle2D, Tentacle2DOptions } from './tentacle.js';

export * from './aim.js';
export * from './twoBone.js';
export * from './pseudoThreeBone.js';
export * from './chain.js';
export * from './tentacle.js';
export * from './solvers.js';

export interface IkApi {
  /**
   * One-bone IK with the optional up-vector roll constraint (docs/ik/aim.md).
   * Pass a previous result as `result` to have it filled in place (its `rotation` array is
   * reused) and returned; otherwise a new result is returned.
   */
  solveAim(options: AimOptions, result?: AimResult): AimResult;
  /**
   * Two-bone limb IK by the law of cosines (docs/ik/two-bone.md).
   * Pass a previous result as `result` to have it filled in place (its joints' `position` and
   * `rotation` arrays are reused, nothing is allocated) and returned; otherwise a new result is returned.
   */
  solveTwoBone(options: TwoBoneOptions, result?: TwoBoneResult): TwoBoneResult;
  /**
   * Converts world rotations of a chain (root first) to local ones:
   * local[0] = parentRotation⁻¹·world[0], local[i] = world[i−1]⁻¹·world[i].
   * Accepts joints (`{rotation}`, e.g. `[r.root, r.mid, r.end]`). `parentRotation` defaults to identity.
   */
  toLocalRotations(joints: ReadonlyArray<{ rotation: Quat }>, parentRotation?: Quat): Array<[number, number, number, number]>;
}

export interface ChainApi {
  /**
   * Pseudo three-bone IK (docs/ik/pseudo-three-bone.md): the two-bone solver run twice so a third bone (foot, hand)
   * follows the limb; for quadruped legs, hands and feet.
   * Pass a previous result as `result` to have it filled in place (its joints' arrays are
   * reused, nothing is allocated) and returned; otherwise a new result is returned.
   */
  solvePseudoThreeBone(options: PseudoThreeBoneOptions, result?: PseudoThreeBoneResult): PseudoThreeBoneResult;
  /**
   * N-bone chain IK in 3D by CCD or FABRIK, with per-joint limits and an optional pole.
   * Pass a previous result as `result` to have it filled in place (its `joints` arrays are
   * reused, nothing is allocated) and returned; otherwise a new result is returned.
   */
  solveChain(options: ChainOptions, result?: ChainResult): ChainResult;
  /** The incremental 2D tentacle (docs/ik/tentacle.md). Free it with `dispose()`. */
  Tentacle2D: new (options: Tentacle2DOptions) => Tentacle2D;
}
