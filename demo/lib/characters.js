// The sample characters (demo/assets/README.md): parsing a text glTF and
// making a clip loop without a seam. Shared by the demo and the tests.
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

/**
 * Parses a text glTF (buffers embedded).
 * @param {string} text the .gltf JSON
 * @param {{ images?: boolean }} [o] images: false drops images and textures (Node cannot decode them)
 * @returns {Promise<import('three/addons/loaders/GLTFLoader.js').GLTF>}
 */
export function parseCharacter(text, { images = true } = {}) {
  let json = text;
  if (!images) {
    const gltf = JSON.parse(text);
    delete gltf.images;
    delete gltf.textures;
    delete gltf.samplers;
    for (const m of gltf.materials ?? []) {
      const pbr = m.pbrMetallicRoughness;
      if (pbr) delete pbr.baseColorTexture, delete pbr.metallicRoughnessTexture;
      delete m.normalTexture, delete m.occlusionTexture, delete m.emissiveTexture;
    }
    json = JSON.stringify(gltf);
  }
  return new Promise((resolve, reject) => new GLTFLoader().parse(json, '', resolve, reject));
}

/**
 * A clip whose keys start at 0 and whose last key repeats the first one step
 * later, so `AnimationMixer` loops it without holding the first key or
 * jumping from the last (CesiumMan's keys start at 1/24 s). Returns the clip,
 * changed in place; a clip that already starts at 0 is left as it is.
 * @param {import('three').AnimationClip} clip
 */
export function seamlessClip(clip) {
  let start = Infinity;
  for (const t of clip.tracks) start = Math.min(start, t.times[0]);
  if (!(start > 0)) return clip;
  let end = 0;
  for (const track of clip.tracks) {
    const n = track.times.length, size = track.getValueSize();
    const times = new Float32Array(n + 1), values = new Float32Array((n + 1) * size);
    const step = n > 1 ? track.times[1] - track.times[0] : start;
    for (let i = 0; i < n; i++) times[i] = track.times[i] - start;
    times[n] = times[n - 1] + step;
    values.set(track.values);
    values.set(track.values.subarray(0, size), n * size);
    track.times = times;
    track.values = values;
    end = Math.max(end, times[n]);
  }
  clip.duration = end;
  return clip;
}
