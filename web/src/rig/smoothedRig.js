// SmoothedRig: the base of the smoothed rigs (LookAt, BodyLookAt; docs/rig/look-at.md,
// docs/rig/body-look-at.md) over an Embind handle with active() and clear().
import { WasmObject } from '../core.js';
import { readNumber, readOptions } from '../readers.js';

/**
 * Base of the smoothed rigs over an Embind handle with active() and clear()
 * (LookAt, BodyLookAt). `reset(native)` packs the options into the new handle
 * and returns its reset() result; when it throws or returns an error, the
 * handle is deleted and the error thrown (Core.check); otherwise the handle is
 * deleted on dispose.
 */
export class SmoothedRig extends WasmObject {
  #native;

  constructor(name, native, reset, core) {
    let error;
    try {
      error = reset(native);
    } catch (thrown) {
      native.delete();
      throw thrown;
    }
    if (error) native.delete();
    core.check(error);
    super(name, () => native.delete());
    this.#native = native;
  }

  /** The checks every update(dt, frame) starts with; returns dt in seconds. */
  beginUpdate(dt, frame) {
    this.assertAlive();
    const seconds = readNumber(dt, 'dt');
    readOptions(frame, 'frame');
    return seconds;
  }

  /** False once every smoothed effect is exactly zero (e.g. disabled and blended out). */
  get active() {
    this.assertAlive();
    return this.#native.active() !== 0;
  }

  /** Zeroes every effect and velocity at once (no blend), e.g. after a camera cut. */
  clear() {
    this.assertAlive();
    this.#native.clear();
    return this;
  }
}
