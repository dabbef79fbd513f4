// ikpd/three — Inertializer (web/three/pd/inertializer.js; docs/pd/inertializer.md, "three.js").
import type { AnimationAction, AnimationMixer, Object3D } from 'three';
import type { Ikpd } from '../../index.js';

/** Options of the three.js Inertializer and of its `transition`. */
export interface ThreeInertializerOptions {
  /**
   * Seconds for the offset (released at rest) to halve; 0: a cut.
   * In `transition`, the default is the Inertializer's `halfLife`.
   * @default 0.1
   */
  halfLife?: number;
}

/**
 * Inertialized clip switches on a three.js hierarchy (docs/pd/inertializer.md, "three.js"):
 * `transition(action)` plays `action` alone at once (a cut for the mixer: every other
 * action of its mixer stops) and the pose shown goes on from where it was, its offset
 * from the new clip (rotations as scaled angle-axis vectors, positions as vectors)
 * decaying by a critically damped spring. Call `update(dt)` every frame after
 * `mixer.update(dt)` and before an IKRig. No allocation per frame. Owns WASM memory.
 */
export declare class Inertializer {
  /**
   * @param ikpd the loaded library with the rig module (`await init({ rig: true })`: the inertializer's bindings are there)
   * @param mixerOrRoot the AnimationMixer, or the root it animates (then each transition uses its action's mixer)
   */
  constructor(ikpd: Ikpd, mixerOrRoot: AnimationMixer | Object3D, options?: ThreeInertializerOptions);
  /** The mixer given, or null. */
  readonly mixer: AnimationMixer | null;
  /** The animated objects (the bones under the root, or every object below it when it has none). */
  readonly bones: readonly Object3D[];
  /** Half-life (seconds) of the transitions that give none; 0: a cut. @default 0.1 */
  halfLife: number;
  /** Seconds since the last transition. */
  readonly elapsed: number;
  /** True after `dispose()`. */
  readonly disposed: boolean;
  /** Plays `action` alone from now, its time kept; the pose shown continues (replaces `a.crossFadeTo(b, d)`). */
  transition(action: AnimationAction, options?: ThreeInertializerOptions): this;
  /** After `mixer.update(dt)`: the clip's pose with the decaying offset, written into the bones. */
  update(dt: number): this;
  /** Drops the offset: the bones show the clip from the next update on. */
  reset(): this;
  /** Frees the WASM memory; later calls throw. */
  dispose(): void;
}
