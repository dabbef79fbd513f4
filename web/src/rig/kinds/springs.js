// The rig's 'springs' kind (docs/rig/springs.md): spring bones over `chains`
// (arrays of joint indices, each a chain of descendants), simulated in the
// space of `center` (a joint, or null: the rig's root), pushed out of
// `colliders` (spheres and capsules on joints); its options are the described
// ones (VRM's stiffness, dragForce, gravityPower, gravityDir, hitRadius, the
// wind and tipLength), `jointSettings` overrides them per chain joint. The
// joint lists it packs: [center?], then the chains' joints and the colliders'.
import { describe, readNumber, readVec3 } from '../../readers.js';
import { springs as layout } from '../described.js';
import { readIndex, readIndices } from '../rigKinds.js';
import { SMOOTHED } from './shared.js';

const SHAPES = Object.freeze(['sphere', 'capsule']);
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

function readColliders(value) {
  if (!Array.isArray(value)) throw new TypeError(`colliders: expected an array of { joint, shape, offset, tail, radius }, got ${describe(value)}`);
  const v3 = new Float32Array(3);
  const vec = (x, name) => (x === undefined ? [0, 0, 0] : (readVec3(x, name, v3, 0), Array.from(v3)));
  return value.map((c, i) => {
    const name = `colliders[${i}]`;
    if (c === null || typeof c !== 'object') throw new TypeError(`${name}: expected { joint, shape, offset, tail, radius }, got ${describe(c)}`);
    for (const key of Object.keys(c)) {
      if (!['joint', 'shape', 'offset', 'tail', 'radius'].includes(key)) throw new TypeError(`${name}.${key}: unknown (joint, shape, offset, tail, radius)`);
    }
    const shape = c.shape ?? 'sphere';
    if (!SHAPES.includes(shape)) throw new RangeError(`${name}.shape: must be 'sphere' or 'capsule', got ${describe(shape)}`);
    return Object.freeze({
      joint: readIndex(c.joint, `${name}.joint`),
      shape,
      offset: Object.freeze(vec(c.offset, `${name}.offset`)),
      tail: Object.freeze(vec(c.tail, `${name}.tail`)),
      radius: readNumber(c.radius ?? 0, `${name}.radius`, { min: 0 }),
    });
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

export const springs = Object.freeze({
  job: 'springs',
  options: layout.options.map((f) => f.name),
  common: SMOOTHED,
  extras: ['chains', 'center', 'colliders', 'jointSettings'],
  takesJoints: false,
  required: Object.freeze([['chains', 'chains: required (arrays of joint indices, each a chain of descendants)']]),
  // The core names the center joints[0].
  errorNames: Object.freeze([['joints[0]', 'center']]),
  defaults: () => ({ chains: [], center: null, colliders: [], jointSettings: null }),
  joints: (values) => [...(values.center === null ? [] : [values.center]), ...values.chains.flat()],
  jointLists: (values) => [values.center === null ? [] : [values.center], [], [...values.chains.flat(), ...attachedJoints(values)]],
  tooMany: 'chains: too many joints for one constraint',
  mergeKey(key, value) {
    if (key === 'chains') return readChains(value);
    if (key === 'center') return value === null ? null : readIndex(value, key);
    if (key === 'colliders') return readColliders(value);
    if (key === 'jointSettings') return readJointSettings(value);
    return undefined;
  },
  packExtras(values, f, o, job) {
    f[o++] = values.chains.length;
    for (const chain of values.chains) f[o++] = chain.length;
    f[o++] = values.colliders.length;
    for (const c of values.colliders) {
      f[o++] = c.joint;
      f[o++] = SHAPES.indexOf(c.shape);
      f.set(c.offset, o), f.set(c.tail, o + 3);
      f[o + 6] = c.radius;
      o += 7;
    }
    const joints = values.jointSettings;
    f[o++] = joints === null ? 0 : 1;
    if (joints === null) return o;
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
  },
});
