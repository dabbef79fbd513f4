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

/** A leg whose foot the Inertializer holds: `[upper, lower, foot]` (hip, knee, ankle), bones, names or humanoid roles. */
export type InertializerLeg = readonly [Object3D | string, Object3D | string, Object3D | string];

/** Options of the three.js Inertializer's constructor (docs/pd/inertializer.md, "Stance feet"). */
export interface ThreeInertializerConstructorOptions extends ThreeInertializerOptions {
  /**
   * Stance feet held during a transition: each foot of these legs that is in stance in the new
   * clip is put where a cut would put it (place and rotation) by a two-bone IK of its leg on the
   * inertialized pose, blended in by a per-foot weight through the exact critically damped PD
   * (it settles in half the transition's half-life); the bones below the foot (toes, a paw) take
   * the cut's pose with it. Swing feet stay inertialized. The lock fades out 4 half-lives after the
   * switch, and then the bones are the inertialized pose, bit for bit. `'auto'`: the legs of a
   * humanoid by its bone names (upper leg, lower leg, foot), and every unbranched chain of 3 or
   * more bones ending near the lowest bone (a quadruped's legs: the first 3 bones from the
   * branch), read from the rest pose (a skinned mesh's bind pose, else the pose when the Inertializer is made). null: off (the
   * inertializer alone). Fixed at construction.
   * @default null
   */
  feet?: 'auto' | readonly InertializerLeg[] | null;
  /**
   * World units per second: a foot whose leg end (toes, a paw) moves slower than this in the new
   * clip, in the world, is in stance (until it moves faster than twice this). Move the character
   * as the game does (its root at the clip's speed) for its feet to be seen standing. Metres:
   * 0.8 m/s; scale it to your world's units (the Fox in centimetres: 80).
   * @default 0.8
   */
  stanceSpeed?: number;
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
  constructor(ikpd: Ikpd, mixerOrRoot: AnimationMixer | Object3D, options?: ThreeInertializerConstructorOptions);
  /** The mixer given, or null. */
  readonly mixer: AnimationMixer | null;
  /** The animated objects (the bones under the root, or every object below it when it has none). */
  readonly bones: readonly Object3D[];
  /** Half-life (seconds) of the transitions that give none; 0: a cut. @default 0.1 */
  halfLife: number;
  /** World units per second below which a new clip's foot is in stance (with `feet`). @default 0.8 */
  stanceSpeed: number;
  /** The legs whose stance feet are held (`[upper, lower, foot]` bones each, resolved), or null without `feet`. @default null */
  readonly feet: ReadonlyArray<readonly [Object3D, Object3D, Object3D]> | null;
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
