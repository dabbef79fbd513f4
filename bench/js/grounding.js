// Grounding in three.js (docs/rig/grounding.md): a humanoid's two legs on a
// 10k-triangle terrain mesh accelerated by three-mesh-bvh, per character per
// frame: IKRig.update with a 'grounding' constraint (locals in, probe, one
// raycast per foot, solve, locals out), and the two raycasts alone. Not
// shipped; bench/run.mjs only.
import { Mesh, MeshBasicMaterial, PlaneGeometry, Raycaster, Vector3 } from 'three';
import { acceleratedRaycast, computeBoundsTree } from 'three-mesh-bvh';
import { IKRig } from '../../web/three/index.js';
import { buildHumanoid } from '../../tests/support/three-humanoid.js';

/** Rolling hills, 20 m square, 71 × 71 quads: 10,082 triangles, accelerated by three-mesh-bvh. */
export function makeTerrain() {
  const geometry = new PlaneGeometry(20, 20, 71, 71).rotateX(-Math.PI / 2);
  const p = geometry.attributes.position;
  for (let i = 0; i < p.count; i++) {
    const x = p.getX(i), z = p.getZ(i);
    p.setY(i, 0.2 * Math.sin(0.8 * x) * Math.cos(0.6 * z) + 0.05 * Math.sin(2.3 * x + 1.7 * z));
  }
  geometry.computeVertexNormals();
  geometry.computeBoundsTree = computeBoundsTree;
  geometry.computeBoundsTree();
  const mesh = new Mesh(geometry, new MeshBasicMaterial());
  mesh.raycast = acceleratedRaycast;
  mesh.updateMatrixWorld(true);
  return mesh;
}

/** ns per character per frame: `rig` (IKRig.update with grounding on the terrain), `raycasts` (two BVH raycasts alone). */
export function benchGrounding(ikpd, measure) {
  const terrain = makeTerrain();
  const out = { triangles: terrain.geometry.index.count / 3 };
  const { scene } = buildHumanoid();
  const rig = new IKRig(ikpd, scene);
  rig.add('grounding', { ground: [terrain] });
  let frame = 0;
  // The character wanders over the hills, so every frame casts somewhere new.
  const move = () => {
    const t = frame++ * 0.01;
    scene.position.set(3 * Math.sin(t), 0.2 * Math.sin(0.8 * 3 * Math.sin(t)), 3 * Math.cos(0.7 * t));
    scene.updateMatrixWorld(true);
  };
  out.rig = measure(() => { move(); rig.update(1 / 60); }, 1);
  rig.dispose();
  const raycaster = new Raycaster();
  raycaster.firstHitOnly = true;
  const down = new Vector3(0, -1, 0), origin = new Vector3();
  const hits = [];
  out.raycasts = measure(() => {
    const t = frame++ * 0.01;
    for (const side of [-0.1, 0.1]) {
      raycaster.set(origin.set(3 * Math.sin(t) + side, 2, 3 * Math.cos(0.7 * t)), down);
      raycaster.far = 3;
      hits.length = 0;
      raycaster.intersectObject(terrain, false, hits);
    }
  }, 1);
  return out;
}
