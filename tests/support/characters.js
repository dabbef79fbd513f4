// The sample characters in Node (demo/assets/README.md): CesiumMan and Fox
// loaded through three's GLTFLoader with their own clips, for the tests that
// play real animation through AnimationMixer.
import { readFileSync } from 'node:fs';
import { AnimationMixer } from 'three';
import { parseCharacter, seamlessClip } from '../../demo/lib/characters.js';

// GLTFLoader reports progress with a DOM ProgressEvent, which Node lacks.
globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, init = {}) {
    super(type);
    Object.assign(this, { lengthComputable: false, loaded: 0, total: 0, ...init });
  }
};

const text = {};
const read = (name) => (text[name] ??= readFileSync(new URL(`../../demo/assets/${name}.gltf`, import.meta.url), 'utf8'));

/**
 * A fresh copy of a sample character, its clips and a mixer.
 * @param {'CesiumMan'|'Fox'} name
 * @returns {Promise<{ scene: import('three').Group, skinned: import('three').SkinnedMesh, clips: import('three').AnimationClip[], mixer: AnimationMixer, clip: (name?: string) => import('three').AnimationClip }>}
 */
export async function loadCharacter(name) {
  const gltf = await parseCharacter(read(name), { images: false });
  const clips = gltf.animations.map(seamlessClip);
  let skinned = null;
  gltf.scene.traverse((o) => { if (o.isSkinnedMesh && !skinned) skinned = o; });
  gltf.scene.updateMatrixWorld(true);
  const mixer = new AnimationMixer(gltf.scene);
  return { scene: gltf.scene, skinned, clips, mixer, clip: (n) => (n === undefined ? clips[0] : clips.find((c) => c.name === n)) };
}
