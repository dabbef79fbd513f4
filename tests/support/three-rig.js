// Builders for the ikpd/three tests: Bone hierarchies with any bone axis
// convention under rotated, translated and scaled parents, plus a seeded RNG.
import { Bone, Group, Object3D, Quaternion, Vector3 } from 'three';

/** Mulberry32: a small seeded generator so failures reproduce. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomQuaternion(random) {
  // Shoemake's uniform random rotation.
  const u1 = random(), u2 = random() * 2 * Math.PI, u3 = random() * 2 * Math.PI;
  const a = Math.sqrt(1 - u1), b = Math.sqrt(u1);
  return new Quaternion(a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3));
}

export function randomUnit(random) {
  const z = 2 * random() - 1, phi = 2 * Math.PI * random(), r = Math.sqrt(1 - z * z);
  return new Vector3(r * Math.cos(phi), r * Math.sin(phi), z);
}

/** A unit vector perpendicular to `v`. */
export function perpendicular(v) {
  const other = Math.abs(v.x) < 0.9 ? new Vector3(1, 0, 0) : new Vector3(0, 1, 0);
  return new Vector3().crossVectors(v, other).normalize();
}

/**
 * A chain of Bones under a parent Group: bone i+1 sits at `lengths[i]` along
 * `axis` (bone-local) from bone i, each bone bent by `bend` radians about a
 * perpendicular axis so the chain is not straight; the last bone gets a child
 * `tip` at `tipLength` along the axis.
 */
export function buildChain({
  axis = new Vector3(0, 1, 0),
  lengths = [1, 0.8],
  tipLength = 0.25,
  bend = 0.4,
  parentPosition = new Vector3(0.3, -1.2, 2),
  parentRotation = new Quaternion().setFromAxisAngle(new Vector3(1, 2, 3).normalize(), 0.9),
  parentScale = 2.5,
  bendAxis = null,
} = {}) {
  const scene = new Group();
  const parent = new Group();
  parent.position.copy(parentPosition);
  parent.quaternion.copy(parentRotation);
  if (typeof parentScale === 'number') parent.scale.setScalar(parentScale);
  else parent.scale.copy(parentScale);
  scene.add(parent);
  const dir = axis.clone().normalize();
  const side = bendAxis ?? perpendicular(dir);
  const bones = [];
  let previous = parent;
  for (let i = 0; i <= lengths.length; i++) {
    const bone = new Bone();
    bone.name = `bone${i}`;
    if (i > 0) bone.position.copy(dir).multiplyScalar(lengths[i - 1]);
    if (i > 0 && i < lengths.length) bone.quaternion.setFromAxisAngle(side, bend);
    previous.add(bone);
    bones.push(bone);
    previous = bone;
  }
  const tip = new Object3D();
  tip.name = 'tip';
  tip.position.copy(dir).multiplyScalar(tipLength);
  previous.add(tip);
  scene.updateMatrixWorld(true);
  return { scene, parent, bones, tip };
}

export const worldPosition = (object) => {
  object.updateWorldMatrix(true, false);
  return new Vector3().setFromMatrixPosition(object.matrixWorld);
};

export const worldQuaternion = (object) => object.getWorldQuaternion(new Quaternion());

/** World distances between consecutive objects. */
export const segmentLengths = (objects) => objects.slice(1).map((o, i) => worldPosition(o).distanceTo(worldPosition(objects[i])));

/** Angle between two rotations (radians); atan2 keeps it accurate for tiny angles, unlike acos(dot). */
export const quatAngle = (a, b) => {
  const d = a.clone().normalize().invert().multiply(b.clone().normalize());
  return 2 * Math.atan2(Math.hypot(d.x, d.y, d.z), Math.abs(d.w));
};

/**
 * `human` (a demo humanoid, `createHumanoid`) placed under a moved, turned
 * (0.7 rad about +Y) and scaled (1.3) parent in a scene: { scene, human, parent }.
 */
export function underTurnedParent(human) {
  const scene = new Group();
  const parent = new Group();
  parent.position.set(1, 0.2, -2);
  parent.quaternion.setFromAxisAngle(new Vector3(0, 1, 0), 0.7);
  parent.scale.setScalar(1.3);
  scene.add(parent);
  parent.add(human.root);
  scene.updateMatrixWorld(true);
  return { scene, human, parent };
}

/** n bones under a group, each 1 up and 0.1·i toward +Z from its parent (a slightly bent chain): the bones. */
export function bentChain(n) {
  const group = new Group();
  const bones = [];
  let parent = group;
  for (let i = 0; i < n; i++) {
    const bone = new Bone();
    if (i > 0) bone.position.set(0, 1, 0.1 * i);
    parent.add(bone);
    bones.push(bone);
    parent = bone;
  }
  group.updateMatrixWorld(true);
  return bones;
}
