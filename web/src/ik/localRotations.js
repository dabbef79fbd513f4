// World → local rotations of a chain, computed by C++ (ikpd::ToLocalRotations;
// typings: IkApi in web/types/ik/index.d.ts), for the solvers' world-space results.
import { readQuat } from '../readers.js';

const IDENTITY = Object.freeze([0, 0, 0, 1]);

// Reads a quaternion into s[o..o+4) as float32 (like every WASM entry point, so
// typed and plain arrays give identical results), checking it stays in range.
function readQuat32(value, name, s, o) {
  readQuat(value, name, s, o);
  if (s.length === 0) return; // memory grew while reading: fillScratch reads it again
  const x = s[o], y = s[o + 1], z = s[o + 2], w = s[o + 3];
  const n = x * x + y * y + z * z + w * w;
  if (!(n > 0 && n < Infinity)) throw new RangeError(`${name}: must be a non-zero finite quaternion in float32 range`);
}

export function createLocalRotationsApi(core) {
  // The Embind function, taken on the first call (its area is bound then: Core.area).
  let toLocalNative = null;
  const pointer = core.scratchPointer;

  /** World → local rotations of a chain (root first), computed by C++ (ikpd::ToLocalRotations). */
  function toLocalRotations(joints, parentRotation) {
    if (!Array.isArray(joints)) throw new TypeError(`joints: expected an array of {rotation}, got ${typeof joints}`);
    const n = joints.length;
    if (4 * (n + 1) > core.scratchFloats) throw new RangeError(`joints: at most ${(core.scratchFloats >> 2) - 1} joints`);
    core.fillScratch((s) => {
      for (let i = 0; i < n; i++) {
        const joint = joints[i];
        if (joint === null || typeof joint !== 'object') {
          throw new TypeError(`joints[${i}]: expected {rotation}, got ${joint === null ? 'null' : typeof joint}`);
        }
        readQuat32(joint.rotation ?? IDENTITY, `joints[${i}].rotation`, s, 4 * i);
      }
      readQuat32(parentRotation ?? IDENTITY, 'parentRotation', s, 4 * n);
    });
    core.check((toLocalNative ??= core.area('ik').toLocalRotations)(pointer, n));
    const r = core.scratch;
    const out = new Array(n);
    // C++ gives float32 unit quaternions; JS callers compose them in double, so
    // they are rescaled to unit length there.
    for (let i = 0, o = 0; i < n; i++, o += 4) {
      const x = r[o], y = r[o + 1], z = r[o + 2], w = r[o + 3];
      const k = 1 / Math.sqrt(x * x + y * y + z * z + w * w);
      out[i] = [x * k, y * k, z * k, w * k];
    }
    return out;
  }

  return { toLocalRotations };
}
