// A humanoid skeleton for the IKRig tests, built the ways real exporters
// build them: each bone's own axes along +Y (Blender/glTF/Mixamo), −Z, −Y,
// mixed or random, non-identity rest rotations, under an armature node that
// may be rotated and scaled (Mixamo's FBX → glTF gives a 0.01-scaled,
// −90°-about-X armature). The world rest pose is the same in every variant:
// metres, Y up, facing +Z, left at +X.
import { Bone, Group, Matrix4, Quaternion, Skeleton, Vector3 } from 'three';
import { HUMANOID_TABLES } from '../../web/three/rig/humanoid.js';
import { randomQuaternion, rng } from './three-rig.js';
import { humanoidLayout } from '../../demo/lib/humanoid-layout.js';

// Role, parent role, world rest position: the demo's humanoid, with eyes.
const LAYOUT = humanoidLayout({ eyes: true });
const CHILD = { head: 'leftEye', leftHand: null, rightHand: null, leftToes: null, rightToes: null };

/** Every role the test humanoid has. */
export const TEST_ROLES = LAYOUT.map(([role]) => role);

// The world rest rotation of a bone whose own `axis` points from it to `to`.
function alongBone(axis, from, to, roll) {
  const dir = new Vector3().subVectors(to, from);
  if (dir.lengthSq() < 1e-12) return new Quaternion();
  const q = new Quaternion().setFromUnitVectors(axis, dir.normalize());
  return new Quaternion().setFromAxisAngle(dir, roll).multiply(q);
}

/**
 * Builds the humanoid.
 * @param {object} [o]
 * @param {'identity'|'+y'|'-z'|'-y'|'mixed'|'random'} [o.axes] each bone's own axis along the bone
 * @param {string|Record<string, string>|null} [o.names] bone names: a `HUMANOID_TABLES` name
 *   ('mixamo', 'bvh', 'unreal', …), a role → name table, or null (unnamed bones)
 * @param {(name: string, role: string) => string} [o.rename] a variant of each table name
 *   (e.g. `(n) => n.replace('mixamorig', 'mixamorig1:')`); roles the table lacks keep their role as name
 * @param {boolean} [o.mixamoArmature] put the bones under a −90°-about-X armature scaled 0.01 (in centimetres)
 * @param {number} [o.seed] for 'random' and 'mixed'
 * @returns {{ scene: Group, armature: Group, skeleton: Skeleton, bones: Record<string, Bone>, world: Record<string, Vector3> }}
 */
export function buildHumanoid({ axes = '+y', names = 'mixamo', rename = (name) => name, mixamoArmature = false, seed = 1 } = {}) {
  const random = rng(seed);
  const table = typeof names === 'string' ? HUMANOID_TABLES[names] : names;
  if (table === undefined) throw new RangeError(`names: no humanoid table '${names}'`);
  const world = Object.fromEntries(LAYOUT.map(([role, , p]) => [role, new Vector3(...p)]));
  const childOf = (role) => {
    if (role in CHILD) return CHILD[role];
    return LAYOUT.find(([, parent]) => parent === role)?.[0] ?? null;
  };
  const conventions = { '+y': new Vector3(0, 1, 0), '-z': new Vector3(0, 0, -1), '-y': new Vector3(0, -1, 0) };
  const kinds = ['+y', '-z', '-y'];
  const worldRotation = {};
  for (const [role] of LAYOUT) {
    const child = childOf(role);
    let kind = axes;
    if (axes === 'mixed') kind = kinds[Math.floor(random() * 3)];
    if (axes === 'identity') worldRotation[role] = new Quaternion();
    else if (axes === 'random') worldRotation[role] = randomQuaternion(random);
    else if (child) worldRotation[role] = alongBone(conventions[kind], world[role], world[child], (random() - 0.5) * 2);
    else worldRotation[role] = worldRotation[LAYOUT.find(([r]) => r === role)[1]].clone();
  }
  const scene = new Group();
  const armature = new Group();
  armature.name = 'Armature';
  scene.add(armature);
  // The armature's own transform, undone below so the world pose is the same.
  const armatureMatrix = new Matrix4();
  if (mixamoArmature) {
    armature.quaternion.setFromAxisAngle(new Vector3(1, 0, 0), -Math.PI / 2);
    armature.scale.setScalar(0.01);
    armature.position.set(0.5, 0, -0.25);
  }
  scene.updateMatrixWorld(true);
  armatureMatrix.copy(armature.matrixWorld).invert();
  const armatureRotation = armature.quaternion.clone().invert();
  const bones = {};
  const model = {}; // armature-space rest matrices
  for (const [role, parent] of LAYOUT) {
    const bone = new Bone();
    bone.name = table ? (role in table ? rename(table[role], role) : role) : '';
    // Armature space without its scale: bones keep scale 1 (positions in the armature's units).
    const m = new Matrix4().compose(world[role].clone().applyMatrix4(armatureMatrix),
      armatureRotation.clone().multiply(worldRotation[role]), new Vector3(1, 1, 1));
    model[role] = m;
    const local = parent ? new Matrix4().copy(model[parent]).invert().multiply(m) : m.clone();
    local.decompose(bone.position, bone.quaternion, bone.scale);
    (parent ? bones[parent] : armature).add(bone);
    bones[role] = bone;
  }
  scene.updateMatrixWorld(true);
  const skeleton = new Skeleton(LAYOUT.map(([role]) => bones[role]));
  return { scene, armature, skeleton, bones, world };
}

/** The world position of an Object3D (its matrices brought up to date). */
export function worldOf(object, out = new Vector3()) {
  object.updateWorldMatrix(true, false);
  return out.setFromMatrixPosition(object.matrixWorld);
}

/** The world rotation of an Object3D. */
export function worldRotationOf(object, out = new Quaternion()) {
  object.updateWorldMatrix(true, false);
  const p = new Vector3(), s = new Vector3();
  object.matrixWorld.decompose(p, out, s);
  return out;
}
