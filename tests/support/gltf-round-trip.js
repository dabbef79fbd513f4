// glTF in Node for the tests: a test humanoid (tests/support/three-humanoid.js)
// skinned to a small mesh, written by three.js's GLTFExporter as .glb bytes and
// read back by GLTFLoader, as a user's exported character would be.
import { BoxGeometry, Float32BufferAttribute, MeshBasicMaterial, SkinnedMesh, Uint16BufferAttribute } from 'three';
import { GLTFExporter } from 'three/addons/exporters/GLTFExporter.js';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { buildHumanoid } from './three-humanoid.js';

// GLTFExporter reads its Blob through FileReader, which Node does not have.
globalThis.FileReader ??= class FileReader {
  readAsArrayBuffer(blob) {
    blob.arrayBuffer().then((buffer) => { this.result = buffer; this.onload?.({ target: this }); this.onloadend?.({ target: this }); });
  }
  readAsDataURL(blob) {
    blob.arrayBuffer().then((buffer) => {
      this.result = `data:${blob.type || 'application/octet-stream'};base64,${Buffer.from(buffer).toString('base64')}`;
      this.onload?.({ target: this });
      this.onloadend?.({ target: this });
    });
  }
};

/** `.glb` bytes of a skinned test humanoid (options as buildHumanoid's). */
export async function exportHumanoidGlb(options) {
  const { scene, armature, skeleton } = buildHumanoid(options);
  const geometry = new BoxGeometry(0.1, 0.1, 0.1);
  const n = geometry.attributes.position.count;
  geometry.setAttribute('skinIndex', new Uint16BufferAttribute(new Array(4 * n).fill(0), 4));
  geometry.setAttribute('skinWeight', new Float32BufferAttribute(Array.from({ length: 4 * n }, (_, i) => (i % 4 === 0 ? 1 : 0)), 4));
  const mesh = new SkinnedMesh(geometry, new MeshBasicMaterial());
  mesh.name = 'Body';
  armature.add(mesh);
  mesh.bind(skeleton);
  return new Uint8Array(await new GLTFExporter().parseAsync(scene, { binary: true }));
}

/** Loads `.glb` bytes with GLTFLoader; resolves to the loaded glTF (scene, animations). */
export function loadGlb(bytes) {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  return new GLTFLoader().parseAsync(buffer, '');
}
