// The full-body look-at (docs/rig/body-look-at.md; typings web/types/rig/bodyLookAt.d.ts), a
// smoothed rig built from the solvers and controllers. Returns the members it adds to the
// ikpd object.
import { created } from '../core.js';
import { fillJoints, readEnabled, readOptions, readTransforms, readVec3, readVector } from '../readers.js';
import { checkOptionNames, nameSet } from '../options.js';
import { readRanged } from '../fields.js';
import { SmoothedRig } from './smoothedRig.js';

const LIMB_JOINTS = 6; // [upper, lower, end] × 2
const NO_JOINTS = Object.freeze([]);
// The option groups of the description's "group.option" fields (cpp/src/rig/fields.h).
const GROUPS = Object.freeze(['spine', 'weightShift', 'armReaction']);
// spine's options that are not description fields: the per-joint arrays, and
// settleTime (one number for spine.headSettleTime and spine.pelvisSettleTime).
const SPINE_OWN = Object.freeze(['weights', 'limits', 'settleTime']);
// The other top-level options, packed as the description names them.
const TOP_LEVEL = Object.freeze([
  'maxYaw', 'maxPitchUp', 'maxPitchDown', 'behind', 'eyeYaw', 'eyePitchUp', 'eyePitchDown', 'eyeSettleTime',
]);

// The option names of BodyLookAt and of each group, from the description's
// "group.option" fields (and spine's own arrays), for checkOptionNames.
const namesOf = (layout) => {
  const names = { '': [...GROUPS] };
  for (const name of layout.names) {
    const dot = name.indexOf('.');
    const group = dot < 0 ? '' : name.slice(0, dot);
    (names[group] ??= []).push(dot < 0 ? name : name.slice(dot + 1));
  }
  names.spine = names.spine.concat(SPINE_OWN);
  return Object.fromEntries(Object.entries(names).map(([group, list]) => [group, nameSet(list)]));
};
const groupNames = /* @__PURE__ */ new WeakMap();

function readGroup(options, name, names) {
  if (options[name] === undefined) return {};
  return checkOptionNames(readOptions(options[name], name), names[name], 'BodyLookAt', `${name}.`);
}

// `spine` is required; `arms` and `legs` default to none.
function readJoints(value, name, required = false) {
  if (value === undefined && !required) return NO_JOINTS;
  if (!Array.isArray(value)) throw new TypeError(`${name}: expected an array of joints, got ${value === null ? 'null' : typeof value}`);
  return value;
}

// The scalar options as the description names them ("group.option", C++
// defaults for those not given), packed into `settings` by the description's
// packer; the spine arrays packed at f[0..], spineJoints (n) floats each.
// Returns [n, hasWeights, hasLimits, hasSettleTimes].
function packSettings(options, layout, settings, f) {
  readOptions(options);
  let names = groupNames.get(layout);
  if (names === undefined) groupNames.set(layout, names = namesOf(layout));
  checkOptionNames(options, names[''], 'BodyLookAt');
  const given = options.spineJoints;
  const n = given === undefined ? layout.defaultValues.spineJoints : readRanged(given, layout.byName.spineJoints);
  const flat = {
    spineJoints: n, forward: options.forward, up: options.up, offset: options.offset, footLock: options.footLock, blendOutTime: options.blendOutTime,
  };
  for (const key of TOP_LEVEL) flat[key] = options[key];
  const groups = {};
  for (const name of GROUPS) {
    const group = groups[name] = readGroup(options, name, names);
    for (const key of Object.keys(group)) if (name !== 'spine' || !SPINE_OWN.includes(key)) flat[`${name}.${key}`] = group[key];
  }
  const spine = groups.spine;
  let at = 0;
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
    // One number for every joint: both ends, checked under the name the caller used.
    const field = { ...layout.byName['spine.headSettleTime'], name: 'spine.settleTime' };
    flat['spine.headSettleTime'] = flat['spine.pelvisSettleTime'] = readRanged(settle, field);
  }
  layout.pack(flat, settings);
  return [n, hasWeights, hasLimits, hasSettleTimes];
}

// Packs a frame's joints (read by update() into `joints`) and target at f[0..].
function packFrame(f, joints, frame) {
  let o = readTransforms(joints.spine, 'spine', f, 0);
  o = readTransforms(joints.arms, 'arms', f, o);
  o = readTransforms(joints.legs, 'legs', f, o);
  o = readTransforms(joints.eyes, 'eyes', f, o);
  readVec3(frame.target, 'target', f, o);
}

export function createBodyLookAtApi(core) {

  /** Full-body look-at (docs/rig/body-look-at.md); see BodyLookAt in web/types/rig/bodyLookAt.d.ts. */
  class BodyLookAt extends SmoothedRig {
    #native; // Embind handle of the C++ BodyLookAtHandle (cpp/bindings/rig/body_look_at.cc)
    #size;
    #result = { spine: [], arms: [], legs: [], eyes: [], gaze: { yaw: 0, pitch: 0 } };
    #joints = { spine: NO_JOINTS, arms: NO_JOINTS, legs: NO_JOINTS, eyes: NO_JOINTS }; // update()'s, packed by packFrame

    constructor(options = {}) {
      readOptions(options);
      const native = created(core.area('rig', 'BodyLookAt').BodyLookAt.create(), 'options');
      let n;
      super('BodyLookAt', native, () => {
        const layout = core.jobs.bodyLookAt;
        let hasWeights, hasLimits, hasSettleTimes;
        core.fillScratch((f) => {
          const settings = new Float32Array(core.heapF32.buffer, native.settings() >>> 0, layout.floats);
          [n, hasWeights, hasLimits, hasSettleTimes] = packSettings(options, layout, settings, f);
        });
        return native.reset(core.scratchPointer, hasWeights, hasLimits, hasSettleTimes);
      }, core);
      this.#native = native;
      this.#size = n;
    }

    /**
     * Advances dt seconds from the animated world pose `frame` and returns the solved pose.
     * The returned object (and its joints) is reused by the next update: copy what you keep.
     */
    update(dt, frame) {
      const seconds = this.beginUpdate(dt, frame);
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
      const eyes = readJoints(frame.eyes, 'eyes');
      if (eyes.length > 2) throw new RangeError(`eyes: needs 0, 1 or 2 joints (left, right), got ${eyes.length}`);
      const enabled = readEnabled(frame);
      const joints = this.#joints;
      joints.spine = spine;
      joints.arms = arms;
      joints.legs = legs;
      joints.eyes = eyes;
      core.fillScratch(packFrame, joints, frame);
      core.check(this.#native.update(core.scratchPointer, arms.length, legs.length, eyes.length, seconds, enabled));
      const out = core.scratch;
      const result = this.#result;
      let o = fillJoints(result.spine, n, out, 7 * (n + arms.length + legs.length + eyes.length) + 3);
      o = fillJoints(result.arms, arms.length, out, o);
      o = fillJoints(result.legs, legs.length, out, o);
      o = fillJoints(result.eyes, eyes.length, out, o);
      result.gaze.yaw = out[o];
      result.gaze.pitch = out[o + 1];
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
