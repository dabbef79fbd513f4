// API module 'ik' (see web/types/ik.d.ts): aim with up-vector roll (docs/aim.md), two-bone IK (docs/two-bone.md).
// Inputs are packed as float32 into core.scratch in the job layouts C++ describes (web/src/fields.js).
import { fillQuat, fillTransform, quatFrom, readOptions, readQuat, transformFrom } from './core.js';

const OUT = 64; // float offset of the outputs (kOut in cpp/bindings/solvers.h)

// Reads a quaternion as float32 (like every WASM entry point, so typed and plain
// arrays give identical results) and writes it normalized, in double, to out.
const quat32 = new Float32Array(4);
function readQuatInto(value, name, out) {
  readQuat(value, name, quat32, 0);
  const x = quat32[0], y = quat32[1], z = quat32[2], w = quat32[3];
  const n = Math.sqrt(x * x + y * y + z * z + w * w);
  if (!(n > 0 && n < Infinity)) throw new RangeError(`${name}: must be a non-zero finite quaternion in float32 range`);
  out[0] = x / n;
  out[1] = y / n;
  out[2] = z / n;
  out[3] = w / n;
}

export function createIkApi(core) {
  const { solveAim: solveAimNative, solveTwoBone: solveTwoBoneNative } = core.wasm;
  const pointer = core.scratchPointer;
  const { aim: aimJob, twoBone: twoBoneJob } = core.jobs;

  /** §1/§2 aim; with `result` (a previous result), it is filled in place and returned. */
  function solveAim(options, result) {
    readOptions(options);
    if (result !== undefined) readOptions(result, 'result');
    aimJob.pack(options, core.scratch);
    core.check(solveAimNative(pointer));
    const r = core.scratch;
    if (result === undefined) return { rotation: quatFrom(r, OUT) };
    result.rotation = fillQuat(result.rotation, r, OUT);
    return result;
  }

  /** §3 two-bone IK; with `result` (a previous result), its arrays are filled in place and it is returned. */
  function solveTwoBone(options, result) {
    readOptions(options);
    if (result !== undefined) readOptions(result, 'result');
    twoBoneJob.pack(options, core.scratch);
    core.check(solveTwoBoneNative(pointer));
    const r = core.scratch;
    if (result === undefined) {
      return {
        root: transformFrom(r, OUT), mid: transformFrom(r, OUT + 7), end: transformFrom(r, OUT + 14),
        reached: r[OUT + 21] !== 0, distance: r[OUT + 22],
      };
    }
    result.root = fillTransform(result.root, r, OUT);
    result.mid = fillTransform(result.mid, r, OUT + 7);
    result.end = fillTransform(result.end, r, OUT + 14);
    result.reached = r[OUT + 21] !== 0;
    result.distance = r[OUT + 22];
    return result;
  }

  function toLocalRotations(joints, parentRotation) {
    if (!Array.isArray(joints)) throw new TypeError(`joints: expected an array of {rotation}, got ${typeof joints}`);
    const parent = [0, 0, 0, 1];
    const q = [0, 0, 0, 0];
    if (parentRotation !== undefined) readQuatInto(parentRotation, 'parentRotation', parent);
    const out = new Array(joints.length);
    for (let i = 0; i < joints.length; i++) {
      const joint = joints[i];
      if (joint === null || typeof joint !== 'object') {
        throw new TypeError(`joints[${i}]: expected {rotation}, got ${joint === null ? 'null' : typeof joint}`);
      }
      readQuatInto(joint.rotation ?? [0, 0, 0, 1], `joints[${i}].rotation`, q);
      // local = conjugate(parent) · q
      const px = parent[0], py = parent[1], pz = parent[2], pw = parent[3];
      const x = q[0], y = q[1], z = q[2], w = q[3];
      out[i] = [
        pw * x - px * w - py * z + pz * y,
        pw * y + px * z - py * w - pz * x,
        pw * z - px * y + py * x - pz * w,
        pw * w + px * x + py * y + pz * z,
      ];
      parent[0] = x; parent[1] = y; parent[2] = z; parent[3] = w;
    }
    return out;
  }

  return { solveAim, solveTwoBone, toLocalRotations };
}
