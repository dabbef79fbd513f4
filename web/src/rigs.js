// API module 'rigs' (see web/types/rigs.d.ts): character rigs built from the
// solvers and controllers, today the full-body look-at (docs/body-look-at.md).
// Returns the members it adds to the ikpd object.
import { SmoothedRig, fillTransform, readNumber, readOptions, readTransform, readVec3, readVector } from './core.js';

const MAX_SPINE_JOINTS = 64;
const LIMB_JOINTS = 6; // [upper, lower, end] × 2
const NO_JOINTS = Object.freeze([]);
// Settings header (cpp/bindings/rigs.cc): forward(3) up(3) offset(3) footLock blendOutTime,
// spine headSettleTime pelvisSettleTime damping, weightShift amount limit settleTime damping,
// armReaction amount settleTime damping chest; then the optional spine arrays.
const HEADER = 22;
const SPINE_JOINTS = Object.freeze({ min: 2, max: MAX_SPINE_JOINTS, integer: true });
const CHEST = Object.freeze({ min: -1, max: MAX_SPINE_JOINTS - 1, integer: true });

function readGroup(options, name) {
  return options[name] === undefined ? {} : readOptions(options[name], name);
}

// `spine` is required; `arms` and `legs` default to none.
function readJoints(value, name, required = false) {
  if (value === undefined && !required) return NO_JOINTS;
  if (!Array.isArray(value)) throw new TypeError(`${name}: expected an array of joints, got ${value === null ? 'null' : typeof value}`);
  return value;
}

// Reads an optional number into f[i] (which holds the C++ default).
function readSetting(group, key, name, f, i) {
  if (group[key] !== undefined) f[i] = readNumber(group[key], name);
}

// Packs the settings at f[0..]; returns [n, hasWeights, hasLimits, hasSettleTimes].
function packSettings(options, x, core) {
  readOptions(options);
  const n = readNumber(options.spineJoints ?? 6, 'spineJoints', SPINE_JOINTS);
  x.BodyLookAt.writeDefaults(core.scratchPointer);
  const f = core.scratch;
  if (options.forward !== undefined) readVec3(options.forward, 'forward', f, 0);
  if (options.up !== undefined) readVec3(options.up, 'up', f, 3);
  if (options.offset !== undefined) readVec3(options.offset, 'offset', f, 6);
  if (options.footLock !== undefined) {
    if (typeof options.footLock !== 'boolean') throw new TypeError('footLock: expected a boolean');
    f[9] = options.footLock ? 1 : 0;
  }
  readSetting(options, 'blendOutTime', 'blendOutTime', f, 10);
  const spine = readGroup(options, 'spine');
  let at = HEADER;
  const array = (value, name) => {
    if (value === undefined) return 0;
    readVector(value, name, n, f, at);
    at += n;
    return 1;
  };
  const hasWeights = array(spine.weights, 'spine.weights');
  const hasLimits = array(spine.limits, 'spine.limits');
  let hasSettleTimes = 0;
  const settle = spine.settleTime;
  if (typeof settle === 'object' && settle !== null) {
    hasSettleTimes = array(settle, 'spine.settleTime');
  } else if (settle !== undefined) {
    f[11] = f[12] = readNumber(settle, 'spine.settleTime'); // the same for every joint
  }
  if (spine.damping !== undefined) f[13] = core.readDamping(spine.damping, 'spine.damping');
  const shift = readGroup(options, 'weightShift');
  readSetting(shift, 'amount', 'weightShift.amount', f, 14);
  readSetting(shift, 'limit', 'weightShift.limit', f, 15);
  readSetting(shift, 'settleTime', 'weightShift.settleTime', f, 16);
  if (shift.damping !== undefined) f[17] = core.readDamping(shift.damping, 'weightShift.damping');
  const arms = readGroup(options, 'armReaction');
  readSetting(arms, 'amount', 'armReaction.amount', f, 18);
  readSetting(arms, 'settleTime', 'armReaction.settleTime', f, 19);
  if (arms.damping !== undefined) f[20] = core.readDamping(arms.damping, 'armReaction.damping');
  if (arms.chest !== undefined) f[21] = readNumber(arms.chest, 'armReaction.chest', CHEST);
  return [n, hasWeights, hasLimits, hasSettleTimes];
}

// Writes `count` solved joints f[o..] into `joints` (resized, entries reused).
function fillJoints(joints, count, f, o) {
  if (joints.length !== count) joints.length = count;
  for (let i = 0; i < count; i++, o += 7) joints[i] = fillTransform(joints[i], f, o);
  return o;
}

export function createRigsApi(core) {
  const x = core.wasm;

  /** Full-body look-at (docs/body-look-at.md); see BodyLookAt in web/types/rigs.d.ts. */
  class BodyLookAt extends SmoothedRig {
    #native; // Embind handle of the C++ BodyLookAtHandle (cpp/bindings/rigs.cc)
    #size;
    #result = { spine: [], arms: [], legs: [] };

    constructor(options = {}) {
      const [n, hasWeights, hasLimits, hasSettleTimes] = packSettings(options, x, core);
      const native = new x.BodyLookAt();
      const error = native.reset(core.scratchPointer, n, hasWeights, hasLimits, hasSettleTimes);
      super('BodyLookAt', native, error, core);
      this.#native = native;
      this.#size = n;
    }

    /**
     * Advances dt seconds from the animated world pose `frame` and returns the solved pose.
     * The returned object (and its joints) is reused by the next update: copy what you keep.
     */
    update(dt, frame) {
      this.assertAlive();
      const seconds = readNumber(dt, 'dt');
      readOptions(frame, 'frame');
      const n = this.#size;
      const spine = readJoints(frame.spine, 'spine', true);
      if (spine.length !== n) throw new RangeError(`spine: expected ${n} joints (pelvis ... head), got ${spine.length}`);
      const arms = readJoints(frame.arms, 'arms');
      if (arms.length % 3 !== 0 || arms.length > LIMB_JOINTS) {
        throw new RangeError('arms: needs 0, 3 or 6 joints (upper, lower, hand per arm)');
      }
      const legs = readJoints(frame.legs, 'legs');
      if (legs.length % 3 !== 0 || legs.length > LIMB_JOINTS) {
        throw new RangeError('legs: needs 0, 3 or 6 joints (hip, knee, ankle per leg)');
      }
      const enabled = frame.enabled ?? true;
      if (typeof enabled !== 'boolean') throw new TypeError('enabled: expected a boolean');
      const f = core.scratch;
      let o = 0;
      for (let i = 0; i < n; i++, o += 7) readTransform(spine[i], `spine[${i}]`, f, o);
      for (let i = 0; i < arms.length; i++, o += 7) readTransform(arms[i], `arms[${i}]`, f, o);
      for (let i = 0; i < legs.length; i++, o += 7) readTransform(legs[i], `legs[${i}]`, f, o);
      readVec3(frame.target, 'target', f, o);
      core.check(this.#native.update(core.scratchPointer, arms.length, legs.length, seconds, enabled ? 1 : 0));
      const out = core.scratch;
      const result = this.#result;
      o = fillJoints(result.spine, n, out, o + 3);
      o = fillJoints(result.arms, arms.length, out, o);
      fillJoints(result.legs, legs.length, out, o);
      return result;
    }

    /** Number of spine joints. */
    get spineJoints() {
      this.assertAlive();
      return this.#size;
    }
  }

  return { BodyLookAt };
}
