// Humanoid roles from bone names (docs/rig/rig.md, "Humanoid roles"): one
// name table per exporter convention, and one normalised key that every name
// is compared by, so that the spellings real files use meet: namespaces
// ('mixamorig:', 'mixamorig1:', 'Armature|', 'Bip01 '), separators and case
// ('DEF-thigh.L' and three.js's sanitised 'DEF-thighL'), and the side in any
// usual spelling ('Left…', 'L_…', '…_l', '….L', 'l…', 'Bip01 L …').

/** Every role a humanoid table may name, in parents-before-children order. */
export const HUMANOID_ROLES = /* @__PURE__ */ Object.freeze([
  'hips', 'spine', 'chest', 'upperChest', 'neck', 'head', 'leftEye', 'rightEye', 'jaw',
  'leftShoulder', 'leftUpperArm', 'leftLowerArm', 'leftHand',
  'rightShoulder', 'rightUpperArm', 'rightLowerArm', 'rightHand',
  'leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'leftToes',
  'rightUpperLeg', 'rightLowerLeg', 'rightFoot', 'rightToes',
]);

// Role → name with '#' standing for the side, written out for both sides.
const sided = (left, right, names) => Object.fromEntries(Object.entries(names).flatMap(([role, name]) => [
  [`left${role}`, name.replace('#', left)],
  [`right${role}`, name.replace('#', right)],
]));

// The limbs every convention names, in the order of `sided`'s roles.
const LIMBS = ['Shoulder', 'UpperArm', 'LowerArm', 'Hand', 'UpperLeg', 'LowerLeg', 'Foot', 'Toes'];
const limbs = (left, right, pattern, parts) => sided(left, right, Object.fromEntries(LIMBS.map((limb, i) => [limb, pattern.replace('*', parts[i])])));

const table = (names) => Object.freeze(names);

// BVH (CMU, Mixamo's BVH) and Mixamo without its prefix: one vocabulary.
const BVH = {
  hips: 'Hips', spine: 'Spine', chest: 'Spine1', upperChest: 'Spine2', neck: 'Neck', head: 'Head',
  leftEye: 'LeftEye', rightEye: 'RightEye',
  ...limbs('Left', 'Right', '#*', ['Shoulder', 'Arm', 'ForeArm', 'Hand', 'UpLeg', 'Leg', 'Foot', 'ToeBase']),
};

/**
 * Role → bone-name tables, one per exporter convention (docs/rig/rig.md,
 * "Humanoid roles"). A name matches a bone whose name is the same after
 * normalisation (`humanoidKey`): namespaces, separators, case and the side's
 * spelling aside.
 */
export const HUMANOID_TABLES = /* @__PURE__ */ Object.freeze({
  /** Mixamo as exported to glTF ('mixamorigHips'; also 'mixamorig:Hips', 'mixamorig1:Hips', 'Hips'). */
  mixamo: table(Object.fromEntries(Object.entries(BVH).map(([role, name]) => [role, `mixamorig${name}`]))),
  /** BVH and CMU motion capture, and Mixamo without its prefix ('Hips', 'LeftUpLeg', 'Spine1'). */
  bvh: table(BVH),
  /** Bones named by their role, as in three-vrm's normalized rig ('leftUpperLeg'). */
  vrm: table(Object.fromEntries(HUMANOID_ROLES.map((role) => [role, role]))),
  /** VRoid Studio ('J_Bip_C_Hips', 'J_Bip_L_UpperLeg'). */
  vroid: table({
    hips: 'J_Bip_C_Hips', spine: 'J_Bip_C_Spine', chest: 'J_Bip_C_Chest', upperChest: 'J_Bip_C_UpperChest',
    neck: 'J_Bip_C_Neck', head: 'J_Bip_C_Head', leftEye: 'J_Adj_L_FaceEye', rightEye: 'J_Adj_R_FaceEye',
    ...limbs('L', 'R', 'J_Bip_#_*', ['Shoulder', 'UpperArm', 'LowerArm', 'Hand', 'UpperLeg', 'LowerLeg', 'Foot', 'ToeBase']),
  }),
  /** Unreal Engine's mannequin ('pelvis', 'spine_01', 'thigh_l', 'ball_l'). */
  unreal: table({
    hips: 'pelvis', spine: 'spine_01', chest: 'spine_02', upperChest: 'spine_03', neck: 'neck_01', head: 'head',
    ...limbs('l', 'r', '*_#', ['clavicle', 'upperarm', 'lowerarm', 'hand', 'thigh', 'calf', 'foot', 'ball']),
  }),
  /** Blender Rigify's deform bones ('DEF-spine' is the hips; a limb's first segment, 'DEF-thigh.L', not its '.001'). */
  rigify: table({
    hips: 'DEF-spine', spine: 'DEF-spine.001', chest: 'DEF-spine.002', upperChest: 'DEF-spine.003',
    neck: 'DEF-spine.004', head: 'DEF-spine.006',
    ...limbs('L', 'R', 'DEF-*.#', ['shoulder', 'upper_arm', 'forearm', 'hand', 'thigh', 'shin', 'foot', 'toe']),
  }),
  /** Reallusion Character Creator ('CC_Base_Hip', 'CC_Base_L_Thigh'). */
  cc: table({
    hips: 'CC_Base_Hip', spine: 'CC_Base_Waist', chest: 'CC_Base_Spine01', upperChest: 'CC_Base_Spine02',
    neck: 'CC_Base_NeckTwist01', head: 'CC_Base_Head', leftEye: 'CC_Base_L_Eye', rightEye: 'CC_Base_R_Eye', jaw: 'CC_Base_JawRoot',
    ...limbs('L', 'R', 'CC_Base_#_*', ['Clavicle', 'Upperarm', 'Forearm', 'Hand', 'Thigh', 'Calf', 'Foot', 'ToeBase']),
  }),
  /** 3ds Max Biped ('Bip01 Pelvis', 'Bip01 L Thigh'; any 'Bip<number>'). */
  biped: table({
    hips: 'Bip01 Pelvis', spine: 'Bip01 Spine', chest: 'Bip01 Spine1', upperChest: 'Bip01 Spine2',
    neck: 'Bip01 Neck', head: 'Bip01 Head',
    ...limbs('L', 'R', 'Bip01 # *', ['Clavicle', 'UpperArm', 'Forearm', 'Hand', 'Thigh', 'Calf', 'Foot', 'Toe0']),
  }),
  /** DAZ Genesis 8 and 9 ('hip', 'lThighBend', 'lShin'). */
  daz: table({
    hips: 'hip', spine: 'abdomenLower', chest: 'chestLower', upperChest: 'chestUpper', neck: 'neckLower', head: 'head',
    leftEye: 'lEye', rightEye: 'rEye',
    ...limbs('l', 'r', '#*', ['Collar', 'ShldrBend', 'ForearmBend', 'Hand', 'ThighBend', 'Shin', 'Foot', 'Toe']),
  }),
});

// Namespaces: anything up to a ':' or '|' ('mixamorig1:', 'Armature|'), Mixamo's
// glued prefix ('mixamorig', 'mixamorig12', as glTF loaders sanitise ':') and a Biped's name.
const NAMESPACE = /^(?:.*[:|])?(?:[Mm]ixamorig\d*|[Bb]ip\d+(?![A-Za-z0-9]))?/;
const SIDES = /* @__PURE__ */ new Map([['l', 'left'], ['left', 'left'], ['r', 'right'], ['right', 'right']]);

/**
 * The key a bone name is compared by: its words (split at separators, case
 * changes and digits) without namespaces, lower case, the side token (if any)
 * taken out and put first: 'mixamorig1:LeftUpLeg', 'UpLeg_L', 'DEF-upLeg.L'
 * and 'lUpLeg' all give 'left|upleg' (and 'DEF-' its own 'left|defupleg').
 */
export function humanoidKey(name) {
  const words = name.replace(NAMESPACE, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(?=\d)|(\d)(?=[A-Za-z])/g, '$1$2 ')
    .toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const at = words.findIndex((w) => SIDES.has(w));
  const side = at < 0 ? '' : SIDES.get(words[at]);
  if (at >= 0) words.splice(at, 1);
  return words.length === 0 ? '' : `${side}|${words.join('')}`;
}

// A name as its exporter spelt it, namespaces aside except Mixamo's: what tells
// conventions with the same words apart ('mixamorig1:Hips' is Mixamo's, 'Character1:Hips' not).
const spelling = (name) => name.replace(/^.*\|/, '')
  .replace(/^(?:[Mm]ixamorig\d*:?|.*:)/, (ns) => (/^mixamorig/i.test(ns) ? 'mixamorig' : ''))
  .replace(/[^A-Za-z0-9]/g, '').toLowerCase();

/**
 * A name → Object3D lookup for humanoid tables over `objects`: the exact
 * name first, then the same `humanoidKey` (the first object with it; bones
 * before other objects). `find.spelt(name)`: whether the object found is
 * spelt as `name` is (namespaces other than Mixamo's, separators and case aside).
 */
export function humanoidFinder(objects) {
  const exact = new Map();
  const keyed = new Map();
  const ordered = [...objects.filter((o) => o.isBone), ...objects.filter((o) => !o.isBone)];
  for (const object of ordered) {
    if (!object.name) continue;
    if (!exact.has(object.name)) exact.set(object.name, object);
    const key = humanoidKey(object.name);
    if (key && !keyed.has(key)) keyed.set(key, object);
  }
  const find = (name) => exact.get(name) ?? keyed.get(humanoidKey(name)) ?? null;
  find.spelt = (name) => { const found = find(name); return found !== null && spelling(found.name) === spelling(name); };
  return find;
}
