// The rig's 'springs' kind (docs/rig/springs.md): spring bones over `chains`
// (arrays of joint indices, each a chain of descendants), simulated in the
// space of `center` (a joint, or null: the rig's root), kept out of (or in)
// `colliders` (spheres, capsules, planes, inside spheres and capsules on
// joints, their shape described in C++: springCollider); its options are the described
// ones (VRM's stiffness, dragForce, gravityPower, gravityDir, hitRadius, the
// wind and tipLength), `jointSettings` overrides them per chain joint,
// `chainColliders` lists the colliders each chain meets (VRM's collider
// groups; null: every chain meets every collider). The
// joint lists it packs: [center?], then the chains' joints and the colliders'.
import { checkOptionNames, nameSet } from '../../options.js';
import { describe, readNumber, readVec3 } from '../../readers.js';
import { springCollider, springs as layout } from '../described.js';
import { readIndex, readIndices } from '../rigKinds.js';
import { SMOOTHED } from './shared.js';

const COLLIDER_KEYS = nameSet('joint', springCollider.fields.map((f) => f.name));
const JOINT_KEYS = Object.freeze(['stiffness', 'dragForce', 'gravityPower', 'gravityDir', 'hitRadius']);

/** The joints the colliders hang on that no chain or center lists (each once). */
function attachedJoints(values) {
  const listed = new Set([...values.chains.flat(), ...(values.center === null ? [] : [values.center])]);
  const out = [];
  for (const c of values.colliders) if (!listed.has(c.joint)) listed.add(c.joint), out.push(c.joint);
  return out;
}

function readChains(value) {
  if (!Array.isArray(value) || value.length === 0) throw new TypeError(`chains: expected one or more arrays of joint indices, got ${describe(value)}`);
  return value.map((chain, i) => readIndices(chain, `chains[${i}]`));
}

// Each collider's shape packed by its description (checked there), errors named colliders[i].<field>.
function readColliders(value) {
  if (!Array.isArray(value)) throw new TypeError(`colliders: expected an array of { joint, shape, offset, tail, normal, radius }, got ${describe(value)}`);
  const block = new Float32Array(springCollider.floats);
  return value.map((c, i) => {
    const name = `colliders[${i}]`;
    if (c === null || typeof c !== 'object') throw new TypeError(`${name}: expected { joint, shape, offset, tail, normal, radius }, got ${describe(c)}`);
    checkOptionNames(c, COLLIDER_KEYS, 'a springs collider', `${name}.`);
    const joint = readIndex(c.joint, `${name}.joint`);
    try {
      springCollider.pack(c, block);
    } catch (e) {
      throw new e.constructor(`${name}.${e.message}`);
    }
    return Object.freeze({ joint, shape: c.shape ?? springCollider.defaultValues.shape, block: Float32Array.from(block) });
  });
}

function readJointSettings(value) {
  if (value === null) return null;
  if (!Array.isArray(value)) throw new TypeError(`jointSettings: expected null or one object per chain joint, got ${describe(value)}`);
  return value.map((j, i) => {
    if (j === null || typeof j !== 'object') throw new TypeError(`jointSettings[${i}]: expected an object of ${JOINT_KEYS.join(', ')}, got ${describe(j)}`);
    for (const key of Object.keys(j)) if (!JOINT_KEYS.includes(key)) throw new TypeError(`jointSettings[${i}].${key}: unknown (${JOINT_KEYS.join(', ')})`);
    return Object.freeze({ ...j });
  });
}

function readChainColliders(value) {
  if (value === null) return null;
  if (!Array.isArray(value)) throw new TypeError(`chainColliders: expected null or one array of collider indices per chain, got ${describe(value)}`);
  return Object.freeze(value.map((list, i) => Object.freeze(readIndices(list, `chainColliders[${i}]`, { min: 0, max: 64 }))));
}

// chainColliders against the chains and colliders it indexes.
function checkChainColliders(values) {
  const lists = values.chainColliders;
  if (lists === null) return;
  if (lists.length !== values.chains.length) throw new RangeError(`chainColliders: needs one entry per chain (${values.chains.length}), got ${lists.length}`);
  const n = values.colliders.length;
  if (n > 64) throw new RangeError(`chainColliders: takes at most 64 colliders, got ${n}`);
  lists.forEach((list, i) => list.forEach((k, j) => {
    if (k < 0 || k >= n) throw new RangeError(`chainColliders[${i}][${j}]: must be a collider index in [0, ${n}), got ${k}`);
  }));
}

export const springs = Object.freeze({
  job: 'springs',
  options: layout.options.map((f) => f.name),
  common: SMOOTHED,
  extras: ['chains', 'center', 'colliders', 'jointSettings', 'chainColliders'],
  takesJoints: false,
  required: Object.freeze([['chains', 'chains: required (arrays of joint indices, each a chain of descendants)']]),
  // The core names the center joints[0].
  errorNames: Object.freeze([['joints[0]', 'center']]),
  defaults: () => ({ chains: [], center: null, colliders: [], jointSettings: null, chainColliders: null }),
  joints: (values) => [...(values.center === null ? [] : [values.center]), ...values.chains.flat()],
  jointLists: (values) => [values.center === null ? [] : [values.center], [], [...values.chains.flat(), ...attachedJoints(values)]],
  tooMany: 'chains: too many joints for one constraint',
  mergeKey(key, value) {
    if (key === 'chains') return readChains(value);
    if (key === 'center') return value === null ? null : readIndex(value, key);
    if (key === 'colliders') return readColliders(value);
    if (key === 'jointSettings') return readJointSettings(value);
    if (key === 'chainColliders') return readChainColliders(value);
    return undefined;
  },
  packExtras(values, f, o, job) {
    f[o++] = values.chains.length;
    for (const chain of values.chains) f[o++] = chain.length;
    f[o++] = values.colliders.length;
    for (const c of values.colliders) {
      f[o++] = c.joint;
      f.set(c.block, o);
      o += c.block.length;
    }
    checkChainColliders(values);
    const joints = values.jointSettings;
    f[o++] = joints === null ? 0 : 1;
    if (joints !== null) o = packJointSettings(values, joints, f, o, job);
    const lists = values.chainColliders;
    f[o++] = lists === null ? 0 : 1;
    if (lists !== null) {
      for (const list of lists) {
        f[o++] = list.length;
        for (const k of list) f[o++] = k;
      }
    }
    return o;
  },
});

// Each chain joint's VRM parameters (7 floats), a missing one the constraint's.
function packJointSettings(values, joints, f, o, job) {
  const count = values.chains.reduce((n, chain) => n + chain.length, 0);
  if (joints.length !== count) throw new RangeError(`jointSettings: needs one entry per chain joint (${count}), got ${joints.length}`);
  const byName = job.byName, v3 = new Float32Array(3);
  joints.forEach((j, i) => {
    for (const key of ['stiffness', 'dragForce', 'gravityPower']) {
      const field = byName[key];
      f[o++] = j[key] === undefined ? values[key] : readNumber(j[key], `jointSettings[${i}].${key}`, { min: field.min, max: field.max });
    }
    readVec3(j.gravityDir ?? values.gravityDir, `jointSettings[${i}].gravityDir`, v3, 0);
    f.set(v3, o);
    o += 3;
    const radius = byName.hitRadius;
    f[o++] = j.hitRadius === undefined ? values.hitRadius : readNumber(j.hitRadius, `jointSettings[${i}].hitRadius`, { min: radius.min, max: radius.max });
  });
  return o;
}
