// A standard humanoid built in code: a Skeleton with Mixamo or VRM bone names,
// a SkinnedMesh of rounded limbs skinned to it, and a looping procedural idle
// clip for an AnimationMixer. Metres, Y up, facing +Z, every bone's rest
// rotation the identity (so bone axes are the world axes at rest).
import * as THREE from 'three/webgpu';
import { humanoidLayout } from './humanoid-layout.js';

// Joint layout (rest positions in the humanoid's space, metres) and which
// bone is the parent. Keys are the humanoid roles; names come from a table.
// With eye bones, which the look-ats turn (docs/rig/look-at.md, "Eyes").
const LAYOUT = humanoidLayout({ eyes: true });

/** Bone names per role: VRM humanoid names and Mixamo (as exported to glTF). */
export const HUMANOID_NAMES = {
  vrm: Object.fromEntries(LAYOUT.map(([role]) => [role, role])),
  mixamo: {
    hips: 'mixamorigHips', spine: 'mixamorigSpine', chest: 'mixamorigSpine1', upperChest: 'mixamorigSpine2',
    neck: 'mixamorigNeck', head: 'mixamorigHead', leftEye: 'mixamorigLeftEye', rightEye: 'mixamorigRightEye',
    leftShoulder: 'mixamorigLeftShoulder', leftUpperArm: 'mixamorigLeftArm', leftLowerArm: 'mixamorigLeftForeArm',
    leftHand: 'mixamorigLeftHand', leftUpperLeg: 'mixamorigLeftUpLeg', leftLowerLeg: 'mixamorigLeftLeg',
    leftFoot: 'mixamorigLeftFoot', leftToes: 'mixamorigLeftToeBase',
    rightShoulder: 'mixamorigRightShoulder', rightUpperArm: 'mixamorigRightArm', rightLowerArm: 'mixamorigRightForeArm',
    rightHand: 'mixamorigRightHand', rightUpperLeg: 'mixamorigRightUpLeg', rightLowerLeg: 'mixamorigRightLeg',
    rightFoot: 'mixamorigRightFoot', rightToes: 'mixamorigRightToeBase',
  },
};

// Limb thickness (radius, metres) per bone segment, keyed by the parent role.
const RADIUS = {
  hips: 0.11, spine: 0.12, chest: 0.13, upperChest: 0.07, neck: 0.05,
  Shoulder: 0.05, UpperArm: 0.045, LowerArm: 0.04, Hand: 0.03, UpperLeg: 0.07, LowerLeg: 0.055, Foot: 0.04,
};
const radiusOf = (role) => RADIUS[role] ?? RADIUS[role.replace(/^(left|right)/, '')] ?? 0.04;

/**
 * Builds the humanoid.
 * @param {object} [options]
 * @param {'mixamo'|'vrm'} [options.names] bone names (default 'mixamo')
 * @param {THREE.Material} [options.material] default: a matte MeshStandardMaterial
 * @returns {{ root: THREE.Group, mesh: THREE.SkinnedMesh, skeleton: THREE.Skeleton,
 *   bones: Record<string, THREE.Bone>, names: Record<string, string>, idle: THREE.AnimationClip }}
 *   `bones` by role (hips, spine, …, rightToes); `idle` loops every 4 s.
 */
export function createHumanoid({ names = 'mixamo', material } = {}) {
  const table = HUMANOID_NAMES[names];
  if (!table) throw new RangeError(`names: expected 'mixamo' or 'vrm', got ${JSON.stringify(names)}`);
  const bones = {};
  const rest = {};
  for (const [role, parent, position] of LAYOUT) {
    const bone = new THREE.Bone();
    bone.name = table[role];
    rest[role] = new THREE.Vector3(...position);
    bone.position.copy(rest[role]);
    if (parent) bone.position.sub(rest[parent]);
    if (parent) bones[parent].add(bone);
    bones[role] = bone;
  }
  const order = LAYOUT.map(([role]) => role);
  const skeleton = new THREE.Skeleton(order.map((role) => bones[role]));
  const geometry = buildBody(order, rest);
  const mesh = new THREE.SkinnedMesh(
    geometry,
    material ?? new THREE.MeshStandardMaterial({ color: 0xd9d4c7, roughness: 0.7, metalness: 0.0 }),
  );
  mesh.castShadow = true;
  mesh.add(bones.hips);
  mesh.bind(skeleton);
  for (const eye of [bones.leftEye, bones.rightEye]) eye.add(createEye());
  const root = new THREE.Group();
  root.name = 'humanoid';
  root.add(mesh);
  return { root, mesh, skeleton, bones, names: table, idle: createIdleClip(bones) };
}

// One rounded segment (capsule) per parent → child bone, rigidly skinned to
// the parent; plus a head sphere. Merged into one skinned BufferGeometry.
function buildBody(order, rest) {
  const pieces = [];
  const index = (role) => order.indexOf(role);
  for (const [role, parent] of LAYOUT) {
    if (!parent || role.endsWith('Shoulder') || role.endsWith('Eye')) continue;
    const from = rest[parent];
    const to = rest[role];
    const length = from.distanceTo(to);
    const radius = radiusOf(parent);
    const piece = new THREE.CapsuleGeometry(radius, Math.max(length - radius, 0.01), 4, 10);
    const direction = to.clone().sub(from).normalize();
    piece.applyQuaternion(new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 1, 0), direction));
    piece.translate(...from.clone().add(to).multiplyScalar(0.5).toArray());
    pieces.push([piece, index(parent)]);
  }
  const head = new THREE.SphereGeometry(0.1, 20, 14).scale(0.9, 1.1, 1);
  head.translate(0, rest.head.y + 0.1, rest.head.z + 0.01);
  pieces.push([head, index('head')]);
  return mergeSkinned(pieces);
}

// An eyeball and its pupil in front of an eye joint (its +Z, the facing at
// rest), carried by the bone: the gaze shows where the eyes look.
function createEye() {
  const eye = new THREE.Group();
  const ball = new THREE.Mesh(new THREE.SphereGeometry(0.019, 14, 10), new THREE.MeshStandardMaterial({ color: 0xf4f1ea, roughness: 0.4 }));
  ball.position.z = 0.026;
  const pupil = new THREE.Mesh(new THREE.SphereGeometry(0.009, 10, 8), new THREE.MeshStandardMaterial({ color: 0x1d2228, roughness: 0.3 }));
  pupil.position.z = 0.04;
  eye.add(ball, pupil);
  return eye;
}

function mergeSkinned(pieces) {
  const positions = [], normals = [], skinIndex = [], skinWeight = [], indices = [];
  let offset = 0;
  for (const [piece, bone] of pieces) {
    const geometry = piece.index ? piece : piece.toNonIndexed();
    const p = geometry.attributes.position, n = geometry.attributes.normal;
    for (let i = 0; i < p.count; i++) {
      positions.push(p.getX(i), p.getY(i), p.getZ(i));
      normals.push(n.getX(i), n.getY(i), n.getZ(i));
      skinIndex.push(bone, 0, 0, 0);
      skinWeight.push(1, 0, 0, 0);
    }
    if (geometry.index) for (const i of geometry.index.array) indices.push(offset + i);
    else for (let i = 0; i < p.count; i++) indices.push(offset + i);
    offset += p.count;
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
  geometry.setAttribute('normal', new THREE.Float32BufferAttribute(normals, 3));
  geometry.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(skinIndex, 4));
  geometry.setAttribute('skinWeight', new THREE.Float32BufferAttribute(skinWeight, 4));
  geometry.setIndex(indices);
  return geometry;
}

/**
 * The procedural idle as an AnimationClip (4 s loop, 30 keys/s): breathing in
 * the chest, a slow sway of the spine, a small head drift and relaxed arms.
 * Hips and legs hold still, so planted feet stay planted.
 */
export function createIdleClip(bones, { duration = 4, rate = 30 } = {}) {
  const w = (2 * Math.PI) / duration;
  const motions = {
    spine: (t) => [0.02 * Math.sin(w * t), 0, 0.025 * Math.sin(w * t + 1)],
    chest: (t) => [0.015 * Math.sin(2 * w * t), 0.02 * Math.sin(w * t + 2), 0],
    upperChest: (t) => [0.02 * Math.sin(2 * w * t + 0.5), 0, 0],
    neck: (t) => [-0.02 * Math.sin(w * t), 0.03 * Math.sin(w * t + 0.7), 0],
    head: (t) => [0.03 * Math.sin(w * t + 1.3), 0.05 * Math.sin(w * t), 0.01 * Math.sin(2 * w * t)],
    leftUpperArm: (t) => [0.04 * Math.sin(w * t + 0.3), 0, 0.06 + 0.02 * Math.sin(2 * w * t)],
    rightUpperArm: (t) => [0.04 * Math.sin(w * t + 2.1), 0, -0.06 - 0.02 * Math.sin(2 * w * t + 1)],
    leftLowerArm: (t) => [-0.15 - 0.03 * Math.sin(w * t), 0, 0],
    rightLowerArm: (t) => [-0.15 - 0.03 * Math.sin(w * t + 1), 0, 0],
  };
  const frames = Math.round(duration * rate);
  const times = Array.from({ length: frames + 1 }, (_, i) => (i * duration) / frames);
  const euler = new THREE.Euler();
  const q = new THREE.Quaternion();
  const tracks = Object.entries(motions).map(([role, motion]) => {
    const values = [];
    for (const t of times) {
      q.setFromEuler(euler.set(...motion(t)));
      values.push(q.x, q.y, q.z, q.w);
    }
    return new THREE.QuaternionKeyframeTrack(`${bones[role].name}.quaternion`, times, values);
  });
  return new THREE.AnimationClip('idle', duration, tracks);
}
