// A small VRM 1.0 for the tests (docs/rig/springs.md, "From a VRM"): the test
// humanoid (three-humanoid.js) skinned to a box, with two hair chains on the
// head and a tail on the hips as skin joints, written by GLTFExporter and
// given VRMC_vrm (meta, humanoid) and VRMC_springBone with a center (or
// several) and one collider of every shape (the plane and inside ones through
// VRMC_springBone_extended_collider) in collider groups.
import { BoxGeometry, Bone, Float32BufferAttribute, MeshBasicMaterial, Skeleton, SkinnedMesh, Uint16BufferAttribute, Vector3 } from 'three';
import { GLTFExporter } from 'three/addons/exporters/GLTFExporter.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { VRMLoaderPlugin } from '@pixiv/three-vrm';
import { buildHumanoid } from './three-humanoid.js';
import './gltf-round-trip.js'; // its FileReader for GLTFExporter in Node

// The spring chains: name, parent role, first bone's place, direction, bones, length of each.
const CHAINS = [
  ['hairL', 'head', [0.05, 0.1, -0.08], [0.3, -1, -0.6], 5, 0.05],
  ['hairR', 'head', [-0.05, 0.1, -0.08], [-0.3, -1, -0.6], 5, 0.05],
  ['tail', 'hips', [0, 0, -0.1], [0, -0.4, -1], 6, 0.07],
];
const EXTENDED = 'VRMC_springBone_extended_collider';

/** The JSON and binary chunks of `.glb` bytes. */
function readGlb(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  return { json, bin: bytes.subarray(20 + jsonLength) }; // the BIN chunk with its header
}

function writeGlb(json, bin) {
  let text = new TextEncoder().encode(JSON.stringify(json));
  const padded = new Uint8Array(Math.ceil(text.length / 4) * 4).fill(0x20);
  padded.set(text);
  text = padded;
  const out = new Uint8Array(12 + 8 + text.length + bin.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true); // 'glTF'
  view.setUint32(4, 2, true);
  view.setUint32(8, out.length, true);
  view.setUint32(12, text.length, true);
  view.setUint32(16, 0x4e4f534a, true); // 'JSON'
  out.set(text, 20);
  out.set(bin, 20 + text.length);
  return out;
}

/**
 * `.vrm` bytes of the test humanoid with spring chains, a center (the hips; `severalCenters`: the left
 * hair's the neck, the right hair's none, the tail's the hips) and colliders of every shape.
 */
export async function exportSpringVrm({ severalCenters = false } = {}) {
  const { scene, armature, skeleton, bones } = buildHumanoid({ names: 'mixamo', axes: 'identity' });
  const chainBones = [];
  for (const [name, parent, at, dir, n, length] of CHAINS) {
    const step = new Vector3(...dir).normalize().multiplyScalar(length);
    let up = bones[parent];
    for (let k = 0; k <= n; k++) {
      const bone = new Bone();
      bone.name = `${name}${k}`;
      bone.position.copy(k === 0 ? new Vector3(...at) : step);
      up.add(bone);
      chainBones.push(bone);
      up = bone;
    }
  }
  const geometry = new BoxGeometry(0.1, 0.1, 0.1);
  const count = geometry.attributes.position.count;
  geometry.setAttribute('skinIndex', new Uint16BufferAttribute(new Array(4 * count).fill(0), 4));
  geometry.setAttribute('skinWeight', new Float32BufferAttribute(Array.from({ length: 4 * count }, (_, i) => (i % 4 === 0 ? 1 : 0)), 4));
  const mesh = new SkinnedMesh(geometry, new MeshBasicMaterial());
  mesh.name = 'Body';
  armature.add(mesh);
  scene.updateMatrixWorld(true);
  mesh.bind(new Skeleton([...skeleton.bones, ...chainBones]));
  const { json, bin } = readGlb(new Uint8Array(await new GLTFExporter().parseAsync(scene, { binary: true })));

  const node = (name) => {
    const i = json.nodes.findIndex((n) => n.name === name);
    if (i < 0) throw new Error(`no node ${name}`);
    return i;
  };
  const humanBones = {};
  for (const [role, bone] of Object.entries(bones)) {
    if (!/Eye$|Toes$/.test(role)) humanBones[role] = { node: node(bone.name) };
  }
  const head = node(bones.head.name), hips = node(bones.hips.name), leftUpperLeg = node(bones.leftUpperLeg.name);
  const colliders = [
    { node: head, shape: { sphere: { offset: [0, 0.08, 0], radius: 0.08 } } },
    { node: leftUpperLeg, shape: { capsule: { offset: [0, 0, 0], tail: [0, -0.3, 0], radius: 0.07 } } },
    // The extended ones, each with a plain sphere as the fallback the proposal asks for.
    { node: hips, shape: { sphere: { offset: [0, 0, 0], radius: 0 } }, extensions: { [EXTENDED]: { specVersion: '1.0', shape: { plane: { offset: [0, 0, -0.4], normal: [0, 0, 1] } } } } },
    { node: head, shape: { sphere: { offset: [0, 0, 0], radius: 0 } }, extensions: { [EXTENDED]: { specVersion: '1.0', shape: { sphere: { offset: [0, -0.05, -0.1], radius: 0.3, inside: true } } } } },
    { node: hips, shape: { sphere: { offset: [0, 0, 0], radius: 0 } }, extensions: { [EXTENDED]: { specVersion: '1.0', shape: { capsule: { offset: [0, 0, 0], tail: [0, -0.3, -0.3], radius: 0.26, inside: true } } } } },
  ];
  const colliderGroups = [{ name: 'head', colliders: [0, 3] }, { name: 'body', colliders: [1, 2, 4] }];
  const settings = { hitRadius: 0.01, stiffness: 1, gravityPower: 0.3, gravityDir: [0, -1, 0], dragForce: 0.4 };
  const springs = CHAINS.map(([name, parent, , , n]) => ({
    name,
    joints: Array.from({ length: n + 1 }, (_, k) => ({ node: node(`${name}${k}`), ...settings })),
    colliderGroups: parent === 'head' ? [0] : [1],
    ...(!severalCenters ? { center: hips } : name === 'hairL' ? { center: node(bones.neck.name) } : name === 'tail' ? { center: hips } : {}),
  }));
  json.extensionsUsed = [...(json.extensionsUsed ?? []), 'VRMC_vrm', 'VRMC_springBone', EXTENDED];
  json.extensions = {
    ...json.extensions,
    VRMC_vrm: {
      specVersion: '1.0',
      meta: { name: 'ikpd spring test', version: '1', authors: ['ikpd tests'], licenseUrl: 'https://vrm.dev/licenses/1.0/' },
      humanoid: { humanBones },
    },
    VRMC_springBone: { specVersion: '1.0', colliders, colliderGroups, springs },
  };
  return writeGlb(json, bin);
}

/** The chains' bone names, root to tail (what the tests read back). */
export const SPRING_CHAINS = CHAINS.map(([name, , , , n]) => Array.from({ length: n + 1 }, (_, k) => `${name}${k}`));

/** The VRM in `bytes` (exportSpringVrm's), read by GLTFLoader and three-vrm's VRMLoaderPlugin. */
export async function loadSpringVrm(bytes) {
  const loader = new GLTFLoader().register((parser) => new VRMLoaderPlugin(parser));
  const gltf = await loader.parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), '');
  return gltf.userData.vrm;
}

/**
 * The VRM in `bytes` over 4 s at 60 Hz, its hips turning, swaying and
 * hopping: each frame's tails (world positions of SPRING_CHAINS' bones below
 * each root) moved by three-vrm's own update, or (`rig`: a function making an
 * IKRig on the VRM's scene with its springs added) by ikpd's. `check(vrm)` is
 * called on the loaded VRM first.
 */
export async function simulateSpringVrm(bytes, { rig: makeRig = null, check = () => {} } = {}) {
  const vrm = await loadSpringVrm(bytes);
  check(vrm);
  const hips = vrm.humanoid.getRawBoneNode('hips'), y = hips.position.y;
  const bones = SPRING_CHAINS.map((chain) => chain.map((name) => vrm.scene.getObjectByName(name)));
  const rig = makeRig ? makeRig(vrm) : null;
  const kept = [];
  for (let k = 0; k <= 240; k++) {
    const t = k / 60;
    hips.rotation.set(0, 0.9 * Math.sin(1.3 * t), 0.2 * Math.sin(2 * t));
    hips.position.y = y + 0.12 * Math.max(0, Math.sin(2.2 * t)) ** 4;
    vrm.scene.updateMatrixWorld(true);
    if (rig) rig.update(k === 0 ? 0 : 1 / 60);
    else if (k > 0) vrm.springBoneManager.update(1 / 60);
    vrm.scene.updateMatrixWorld(true);
    if (k > 0) kept.push(bones.flatMap((chain) => chain.slice(1).map((b) => b.getWorldPosition(new Vector3()))));
  }
  rig?.dispose();
  return kept;
}
