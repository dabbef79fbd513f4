// Typings of the rig area: the character rig (docs/rig/rig.md), look-at
// (docs/rig/look-at.md) and the full-body look-at (docs/rig/body-look-at.md), with the
// members they add to the ikpd object.
import type { LookAt, LookAtOptions } from './lookAt.js';
import type { BodyLookAt, BodyLookAtOptions } from './bodyLookAt.js';

export * from './rig.js';
export * from './rigBatch.js';
export * from './lookAt.js';
export * from './bodyLookAt.js';

/** In the module `init({ rig: true })` loads; elsewhere the constructors throw an Error naming that option. */
export interface RigsApi {
  /** Look-at IK with per-joint weights, limits and PD smoothing (docs/rig/look-at.md). Free it with `dispose()`. */
  LookAt: new (options: LookAtOptions) => LookAt;
  /** Full-body look-at on a humanoid. Free it with `dispose()`. */
  BodyLookAt: new (options?: BodyLookAtOptions) => BodyLookAt;
}
