// API module 'ik' (see web/types/ik.d.ts): §1 aim, §2 up-vector roll, §3 two-bone IK.
// Inputs are packed as float32 into core.scratch; layouts are documented in cpp/bindings/ik.cc.
import {
  fillQuat, fillTransform, quatFrom, readEnum, readNumber, readOptions, readQuat, readTransform, readVec3, transformFrom,
} from './core.js';

const AIM_METHODS = ['yawPitch', 'crossProduct', 'shortestArc'];
const BEND_DIRECTIONS = ['auto', 'positive', 'negative'];
const STRAIGHT_BENDS = ['positive', 'negative'];
const END_ROTATIONS = ['world', 'relative'];
const OUT = 64; // float offset of the outputs (kOut in cpp/bindings/ik.cc)

// Reads an optional vector into s[o..] when given; returns `bit` when given, else 0
// (C++ then keeps the job's default, so nothing is written for it).
function readOptionalVec3(value, name, s, o, bit) {
  if (value === undefined) return 0;
  readVec3(value, name, s, o);
  return bit;
}

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

/**
 * Packs the two-bone options (root, mid, end, target and every TwoBoneOptions
 * field) as float32 at s[0..50) in the layout of cpp/bindings/two_bone_layout.h;
 * optional vectors that are not given are not written (flags at s[39]).
 * Shared by solveTwoBone and chain.js's solvePseudoThreeBone.
 */
export function packTwoBone(options, s) {
  readTransform(options.root, 'root', s, 0);
  readTransform(options.mid, 'mid', s, 7);
  readTransform(options.end, 'end', s, 14);
  readVec3(options.target, 'target', s, 21);
  const o = options;
  s[39] = readOptionalVec3(o.pole, 'pole', s, 24, 1) | readOptionalVec3(o.poleDirection, 'poleDirection', s, 27, 2) |
    readOptionalVec3(o.forward, 'forward', s, 30, 4) | readOptionalVec3(o.bendAxis, 'bendAxis', s, 33, 8) |
    readOptionalVec3(o.effectorOffset, 'effectorOffset', s, 36, 16);
  s[40] = o.bendDirection === undefined ? 0 : readEnum(o.bendDirection, 'bendDirection', BEND_DIRECTIONS);
  s[41] = o.straightBend === undefined ? 1 : readEnum(o.straightBend, 'straightBend', STRAIGHT_BENDS) + 1;
  s[42] = o.minAngle === undefined ? 0 : readNumber(o.minAngle, 'minAngle');
  s[43] = o.maxAngle === undefined ? Math.PI : readNumber(o.maxAngle, 'maxAngle');
  s[44] = o.weight === undefined ? 1 : readNumber(o.weight, 'weight');
  s[45] = o.soften === undefined ? 0 : readNumber(o.soften, 'soften');
  s[46] = o.maxStretch === undefined ? 1 : readNumber(o.maxStretch, 'maxStretch');
  s[47] = o.twist === undefined ? 0 : readNumber(o.twist, 'twist');
  s[48] = o.endRotation === undefined ? 0 : readEnum(o.endRotation, 'endRotation', END_ROTATIONS);
  s[49] = o.tolerance === undefined ? 1e-4 : readNumber(o.tolerance, 'tolerance');
}

export function createIkApi(core) {
  const { solveAim: solveAimNative, solveTwoBone: solveTwoBoneNative } = core.wasm;
  const pointer = core.scratchPointer;

  /** §1/§2 aim; with `result` (a previous result), it is filled in place and returned. */
  function solveAim(options, result) {
    readOptions(options);
    if (result !== undefined) readOptions(result, 'result');
    const s = core.scratch;
    readVec3(options.position, 'position', s, 0);
    let flags = 0;
    if (options.rotation !== undefined) {
      readQuat(options.rotation, 'rotation', s, 3);
      flags = 16;
    }
    readVec3(options.target, 'target', s, 7);
    s[23] = flags | readOptionalVec3(options.forward, 'forward', s, 10, 4) | readOptionalVec3(options.up, 'up', s, 13, 8) |
      readOptionalVec3(options.pole, 'pole', s, 16, 1) | readOptionalVec3(options.hingeAxis, 'hingeAxis', s, 19, 2);
    s[22] = options.method === undefined ? 0 : readEnum(options.method, 'method', AIM_METHODS);
    s[24] = options.weight === undefined ? 1 : readNumber(options.weight, 'weight');
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
    packTwoBone(options, core.scratch);
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
