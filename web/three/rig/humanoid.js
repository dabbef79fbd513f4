// Humanoid roles (docs/rig/rig.md, "Humanoid roles"): the VRM humanoid bone
// names as roles, found from bone names (the exporters' tables, in
// humanoidNames.js) or else from the skeleton's shape (humanoidStructure.js),
// and what a rig found: `rig.humanoid`.
import { Vector3 } from 'three';
import { HUMANOID_ROLES, HUMANOID_TABLES, humanoidFinder } from './humanoidNames.js';
import { humanoidFromStructure } from './humanoidStructure.js';

export { HUMANOID_ROLES, HUMANOID_TABLES, humanoidKey } from './humanoidNames.js';

// The roles a table must resolve for a rig to count as that humanoid.
const REQUIRED = ['hips', 'spine', 'head', 'leftUpperArm', 'rightUpperArm', 'leftUpperLeg', 'rightUpperLeg'];

const looseKey = (name) => name.replace(/[^A-Za-z0-9]/g, '').toLowerCase();

/**
 * A name → Object3D lookup over `objects`: exact names first, then names
 * compared without separators and case ('mixamorig:Hips' finds 'mixamorigHips').
 */
export function boneFinder(objects) {
  const exact = new Map();
  const loose = new Map();
  for (const object of objects) {
    if (!object.name) continue;
    if (!exact.has(object.name)) exact.set(object.name, object);
    const key = looseKey(object.name);
    if (key && !loose.has(key)) loose.set(key, object);
  }
  return (name) => exact.get(name) ?? loose.get(looseKey(name)) ?? null;
}

const readOnly = (what) => new TypeError(`humanoid: read-only (${what}); pass the humanoid option to the IKRig instead`);

/**
 * What a rig found: a read-only Map role → Object3D (empty when no humanoid),
 * with `convention` (a `HUMANOID_TABLES` name, 'structure', 'table' for a
 * given role table, 'VRMHumanoid', or null) and `reason` (when empty: why).
 */
export class HumanoidRoles extends Map {
  constructor(roles, convention, reason = null, outside = new Map()) {
    super();
    for (const role of HUMANOID_ROLES) if (roles.has(role)) super.set(role, roles.get(role));
    Object.defineProperties(this, {
      convention: { value: this.size > 0 ? convention : null, enumerable: true },
      reason: { value: this.size > 0 ? null : reason, enumerable: true },
      // Roles given bones outside the rig (left out): named when a constraint asks for one.
      _outside: { value: outside },
    });
    Object.freeze(this);
  }

  get [Symbol.toStringTag]() { return 'HumanoidRoles'; }

  set() { throw readOnly('set'); }

  delete() { throw readOnly('delete'); }

  clear() { throw readOnly('clear'); }
}

function checkRole(role, name) {
  if (HUMANOID_ROLES.includes(role)) return;
  const close = HUMANOID_ROLES.find((r) => r.toLowerCase() === role.toLowerCase());
  throw new TypeError(`${name}.${role}: not a humanoid role${close ? ` (did you mean '${close}'?)` : ''}`);
}

// A bone given as an Object3D must be one of the rig's objects: else it is
// left out, kept in `outside` to be named.
function inRig(role, bone, members, outside) {
  if (members.has(bone)) return bone;
  outside.set(role, bone);
  return null;
}

const boneName = (bone) => (bone.name ? `'${bone.name}'` : '(unnamed)');

/** The message for a role whose bone is not one of the rig's objects. */
export function outsideMessage(name, role, bone) {
  return `${name}: the humanoid's ${role} is the bone ${boneName(bone)}, which is not a bone of this rig ` +
    "(a VRM face mesh has a skeleton of its own: give the body's SkinnedMesh, its Skeleton or the whole scene)";
}

function resolveTable(table, find, name, members, outside) {
  const roles = new Map();
  for (const [role, boneName] of Object.entries(table)) {
    checkRole(role, name);
    if (boneName?.isObject3D) {
      const bone = inRig(role, boneName, members, outside);
      if (bone) roles.set(role, bone);
      continue;
    }
    if (typeof boneName !== 'string') throw new TypeError(`${name}.${role}: expected a bone name or an Object3D`);
    const bone = find(boneName);
    if (bone) roles.set(role, bone);
  }
  return roles;
}

const missingRoles = (roles) => REQUIRED.filter((role) => !roles.has(role));

// The table the names fit best: every required role, then the most roles, then the
// most names spelt as the table spells them ('Hips' is BVH's, 'mixamorig1:Hips' Mixamo's).
function byNames(find) {
  let best = null;
  for (const [convention, table] of Object.entries(HUMANOID_TABLES)) {
    const roles = resolveTable(table, find, 'humanoid', null, null);
    if (missingRoles(roles).length > 0) continue;
    const spelt = Object.values(table).filter((n) => find.spelt(n)).length;
    if (!best || roles.size > best.roles.size || (roles.size === best.roles.size && spelt > best.spelt)) best = { convention, roles, spelt };
  }
  return best;
}

const TABLE_NAMES = () => Object.keys(HUMANOID_TABLES).map((k) => `'${k}'`).join(', ');

/**
 * Resolves the `humanoid` option of an IKRig to a `HumanoidRoles`: `'auto'`
 * (bone names of the table they fit best, else the skeleton's structure in
 * the rest pose; empty when neither finds every required role), `'none'`, a
 * table's name, `'structure'`, a role → name (or Object3D) table, or a
 * three-vrm `VRMHumanoid` (anything with `getRawBoneNode(role)`). Anything
 * but 'auto' and 'none' must resolve the required roles (hips, spine, head,
 * both upper arms and upper legs), else a RangeError names what is missing.
 * Bones given as Object3Ds must be among `objects`. `up`: the world up.
 */
export function resolveHumanoid(option, objects, { up = new Vector3(0, 1, 0), positionOf = null } = {}) {
  if (option === 'none') return new HumanoidRoles(new Map(), null, "no humanoid (the humanoid option is 'none')");
  const members = new Set(objects);
  const outside = new Map();
  if (typeof option?.getRawBoneNode === 'function') {
    const roles = new Map();
    for (const role of HUMANOID_ROLES) {
      const bone = option.getRawBoneNode(role);
      if (bone?.isObject3D && inRig(role, bone, members, outside)) roles.set(role, bone);
    }
    return checked(roles, 'humanoid', 'VRMHumanoid', outside);
  }
  const find = humanoidFinder(objects);
  if (option === 'auto' || option === undefined) {
    const named = byNames(find);
    if (named) return new HumanoidRoles(named.roles, named.convention);
    const shaped = humanoidFromStructure(objects, up, positionOf);
    if (shaped.roles) return new HumanoidRoles(shaped.roles, 'structure');
    return new HumanoidRoles(new Map(), null, `no humanoid: the bone names fit none of ${TABLE_NAMES()}, and ${shaped.reason}`);
  }
  if (option === 'structure') {
    const shaped = humanoidFromStructure(objects, up, positionOf);
    if (!shaped.roles) throw new RangeError(`humanoid 'structure': ${shaped.reason}`);
    return new HumanoidRoles(shaped.roles, 'structure');
  }
  if (typeof option === 'string') {
    const table = Object.hasOwn(HUMANOID_TABLES, option) ? HUMANOID_TABLES[option] : null;
    if (!table) {
      const close = Object.keys(HUMANOID_TABLES).find((k) => k.toLowerCase() === option.toLowerCase());
      throw new RangeError(`humanoid: expected 'auto', 'none', 'structure', ${TABLE_NAMES()}, a role table or a VRMHumanoid, got '${option}'${close ? ` (did you mean '${close}'?)` : ''}`);
    }
    return checked(resolveTable(table, find, 'humanoid', members, outside), `humanoid '${option}'`, option, outside);
  }
  if (option === null || typeof option !== 'object' || Array.isArray(option)) {
    throw new TypeError(`humanoid: expected 'auto', 'none', 'structure', a table name, a role table or a VRMHumanoid, got ${option === null ? 'null' : typeof option}`);
  }
  return checked(resolveTable(option, find, 'humanoid', members, outside), 'humanoid', 'table', outside);
}

function checked(roles, name, convention, outside) {
  const missing = missingRoles(roles);
  const away = missing.find((role) => outside.has(role));
  if (away) throw new RangeError(outsideMessage(name, away, outside.get(away)));
  if (missing.length > 0) throw new RangeError(`${name}: no bone found for the role(s) ${missing.join(', ')}`);
  return new HumanoidRoles(roles, convention, null, outside);
}
