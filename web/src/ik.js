// API module 'ik' (see web/types/ik.d.ts): aim with up-vector roll (docs/ik/aim.md), two-bone IK (docs/ik/two-bone.md).
// Inputs are packed as float32 into core.scratch in the job layouts C++ describes (web/src/fields.js).
import { readOptions, readQuat } from './core.js';
import { checkOptionNames } from './options.js';
import { OUT } from './fields.js';

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

export function createIkApi(core) {
  const { solveAim: solveAimNative, solveTwoBone: solveTwoBoneNative, toLocalRotations: toLocalNative } = core.wasm;
  const pointer = core.scratchPointer;
  const { aim: aimJob, twoBone: twoBoneJob } = core.jobs;

  /** Aim with up-vector roll (docs/ik/aim.md); with `result` (a previous result), it is filled in place and returned. */
  function solveAim(options, result) {
    readOptions(options);
    if (result !== undefined) readOptions(result, 'result');
    checkOptionNames(options, aimJob.names, 'solveAim');
    core.fillScratch((s) => aimJob.pack(options, s));
    core.check(solveAimNative(pointer));
    return aimJob.result.readInto(result, core.scratch, OUT);
  }

  /** Two-bone IK (docs/ik/two-bone.md); with `result` (a previous result), its arrays are filled in place and it is returned. */
  function solveTwoBone(options, result) {
    readOptions(options);
    if (result !== undefined) readOptions(result, 'result');
    checkOptionNames(options, twoBoneJob.names, 'solveTwoBone');
    core.fillScratch((s) => twoBoneJob.pack(options, s));
    core.check(solveTwoBoneNative(pointer));
    return twoBoneJob.result.readInto(result, core.scratch, OUT);
  }

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
    core.check(toLocalNative(pointer, n));
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

  return { solveAim, solveTwoBone, toLocalRotations };
}
