// A model dropped onto the demo (.glb, .gltf or .vrm): parsed (three-vrm loaded
// on the first .vrm only, so it stays out of the main bundle) and framed to
// about 1.7 m. Shared by the character and avatar scenes.
import * as THREE from 'three/webgpu';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { disposeModel } from './sampleCharacters.js';

const _v = new THREE.Vector3();

/** The VRM loader plugin's class, loaded on the first .vrm dropped (GLTFLoader's plugin callback must return the plugin itself). */
async function vrmPluginClass() {
  return (await import('@pixiv/three-vrm')).VRMLoaderPlugin;
}

/**
 * Parses a dropped File: `{ gltf, vrm, model }` (`vrm` from three-vrm for a .vrm, else undefined;
 * `model` the scene to show). Throws when it has no skinned mesh (no skeleton to rig).
 */
export async function parseDropped(file) {
  const loader = new GLTFLoader();
  if (/\.vrm$/i.test(file.name)) {
    const VRMLoaderPlugin = await vrmPluginClass();
    loader.register((parser) => new VRMLoaderPlugin(parser));
  }
  const gltf = await loader.parseAsync(await file.arrayBuffer(), '');
  const vrm = gltf.userData.vrm;
  const model = vrm ? vrm.scene : gltf.scene;
  if (!model.getObjectByProperty('isSkinnedMesh', true)) {
    disposeModel(model); // what it holds goes with it
    throw new Error('no skinned mesh: there is no skeleton to rig');
  }
  return { gltf, vrm, model };
}

/**
 * Scales a model to about 1.6 m of bones (1.7 m of meshes), centred on the origin; its own
 * y = 0 stays the floor unless its bones are far from it.
 */
export function frameModel(model) {
  model.updateMatrixWorld(true);
  const box = new THREE.Box3();
  model.traverse((o) => { if (o.isBone) box.expandByPoint(o.getWorldPosition(_v)); });
  const bones = !box.isEmpty();
  if (!bones) box.setFromObject(model);
  const height = box.max.y - box.min.y;
  if (!(height > 1e-6)) return;
  const scale = (bones ? 1.6 : 1.7) / height;
  const floor = box.min.y > -0.05 * height && box.min.y < 0.1 * height ? 0 : box.min.y;
  model.scale.multiplyScalar(scale);
  model.position.set(-0.5 * (box.min.x + box.max.x), -floor, -0.5 * (box.min.z + box.max.z)).multiplyScalar(scale);
  model.updateMatrixWorld(true);
}

/**
 * Calls `load(file)` with the first file dropped on `canvas` (its rejection is the scene's to
 * report: the scene's message says why). Returns the function that removes the listeners.
 */
export function listenForDrops(canvas, load) {
  const onDragOver = (event) => event.preventDefault();
  const onDrop = (event) => {
    event.preventDefault();
    const file = event.dataTransfer?.files?.[0];
    if (file) load(file).catch(() => {});
  };
  canvas.addEventListener('dragover', onDragOver);
  canvas.addEventListener('drop', onDrop);
  return () => {
    canvas.removeEventListener('dragover', onDragOver);
    canvas.removeEventListener('drop', onDrop);
  };
}
