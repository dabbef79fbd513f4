// Humanoid roles (docs/rig/rig.md, "Humanoid roles"): the VRM humanoid bone
// names as roles, name tables for the common exporters, and detection of a
// table from the bones a character has.

/** Every role a humanoid table may name, in parents-before-children order. */
export const HUMANOID_ROLES = /* @__PURE__ */ Object.freeze([
  'hips', 'spine', 'chest', 'upperChest', 'neck', 'head', 'leftEye', 'rightEye', 'jaw',
  'leftShoulder', 'leftUpperArm', 'leftLowerArm', 'leftHand',
  'rightShoulder', 'rightUpperArm', 'rightLowerArm', 'rightHand',
  'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'leftToes',
  'rightUpperLeg', 'rightLowerLeg', 'rightFoot', 'rightToes',
]);

// The roles a table must resolve for a rig to count as that humanoid.
const REQUIRED = ['hips', 'spine', 'head', 'leftUpperArm', 'rightUpperArm', 'leftUpperLeg', 'rightUpperLeg'];

const sided = (left, right, names) => Object.fromEntries(Object.entries(names).flatMap(([role, name]) => [
  [`left${role}`, name.replace('#', left)],
  [`right${role}`, name.replace('#', right)],
]));

/**
 * Role → bone-name tables: `mixamo` (Mixamo as exported to glTF, also
 * matching 'mixamorig:Hips'), `vrm` (bones named by their role, as in
 * three-vrm's normalized rig) and `vroid` (VRoid Studio's J_Bip names).
 */
export const HUMANOID_TABLES = /* @__PURE__ */ Object.freeze({
  mixamo: Object.freeze({
    hips: 'mixamorigHips', spine: 'mixamorigSpine', chest: 'mixamorigSpine1', upperChest: 'mixamorigSpine2',
    neck: 'mixamorigNeck', head: 'mixamorigHead', leftEye: 'mixamorigLeftEye', rightEye: 'mixamorigRightEye',
    ...sided('Left', 'Right', {
      Shoulder: 'mixamorig#Shoulder', UpperArm: 'mixamorig#Arm', LowerArm: 'mixamorig#ForeArm', Hand: 'mixamorig#Hand',
      UpperLeg: 'mixamorig#UpLeg', LowerLeg: 'mixamorig#Leg', Foot: 'mixamorig#Foot', Toes: 'mixamorig#ToeBase',
    }),
  }),
  vrm: Object.freeze(Object.fromEntries(HUMANOID_ROLES.map((role) => [role, role]))),
  vroid: Object.freeze({
    hips: 'J_Bip_C_Hips', spine: 'J_Bip_C_Spine', chest: 'J_Bip_C_Chest', upperChest: 'J_Bip_C_UpperChest',
    neck: 'J_Bip_C_Neck', head: 'J_Bip_C_Head', leftEye: 'J_Adj_L_FaceEye', rightEye: 'J_Adj_R_FaceEye',
    ...sided('L', 'R', {
      Shoulder: 'J_Bip_#_Shoulder', UpperArm: 'J_Bip_#_UpperArm', LowerArm: 'J_Bip_#_LowerArm', Hand: 'J_Bip_#_Hand',
      UpperLeg: 'J_Bip_#_UpperLeg', LowerLeg: 'J_Bip_#_LowerLeg', Foot: 'J_Bip_#_Foot', Toes: 'J_Bip_#_ToeBase',
    }),
  }),
});

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

function resolveTable(table, find, name) {
  const roles = new Map();
  for (const [role, boneName] of Object.entries(table)) {
    if (!HUMANOID_ROLES.includes(role)) {
      const close = HUMANOID_ROLES.find((r) => r.toLowerCase() === role.toLowerCase());
      throw new TypeError(`${name}.${role}: not a humanoid role${close ? ` (did you mean '${close}'?)` : ''}`);
    }
    if (boneName?.isObject3D) {
      roles.set(role, boneName);
      continue;
    }
    if (typeof boneName !== 'string') throw new TypeError(`${name}.${role}: expected a bone name or an Object3D`);
    const bone = find(boneName);
    if (bone) roles.set(role, bone);
  }
  return roles;
}

const missingRoles = (roles) => REQUIRED.filter((role) => !roles.has(role));

/**
 * Resolves the `humanoid` option of an IKRig to a Map role → Object3D:
 * `'auto'` (the table among mixamo, vrm and vroid that resolves every required
 * role; an empty map when none does), `'none'`, a table's name, a role → name
 * (or Object3D) table, or a three-vrm `VRMHumanoid` (anything with
 * `getRawBoneNode(role)`). A named or given table must resolve the required
 * roles (hips, spine, head, both upper arms and upper legs), else a RangeError
 * lists the missing ones.
 */
export function resolveHumanoid(option, objects) {
  if (option === 'none') return new Map();
  if (typeof option?.getRawBoneNode === 'function') {
    const roles = new Map();
    for (const role of HUMANOID_ROLES) {
      const bone = option.getRawBoneNode(role);
      if (bone?.isObject3D) roles.set(role, bone);
    }
    return checked(roles, 'humanoid');
  }
  const find = boneFinder(objects);
  if (option === 'auto' || option === undefined) {
    for (const table of Object.values(HUMANOID_TABLES)) {
      const roles = resolveTable(table, find, 'humanoid');
      if (missingRoles(roles).length === 0) return roles;
    }
    return new Map();
  }
  if (typeof option === 'string') {
    const table = HUMANOID_TABLES[option];
    if (!table) {
      throw new RangeError(`humanoid: expected 'auto', 'none', ${Object.keys(HUMANOID_TABLES).map((k) => `'${k}'`).join(', ')}, a role table or a VRMHumanoid, got '${option}'`);
    }
    return checked(resolveTable(table, find, 'humanoid'), `humanoid '${option}'`);
  }
  if (option === null || typeof option !== 'object' || Array.isArray(option)) {
    throw new TypeError(`humanoid: expected 'auto', 'none', a table name, a role table or a VRMHumanoid, got ${option === null ? 'null' : typeof option}`);
  }
  return checked(resolveTable(option, find, 'humanoid'), 'humanoid');
}

function checked(roles, name) {
  const missing = missingRoles(roles);
  if (missing.length > 0) throw new RangeError(`${name}: no bone found for the role(s) ${missing.join(', ')}`);
  return roles;
}
