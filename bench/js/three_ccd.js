// three.js's own CCDIKSolver on the benchmark chain problem (not shipped):
// an N-bone chain of equal bones along +Y from the origin, reset to its
// straight rest pose before every solve, target from bench/problems.js.
import { Bone, BufferGeometry, MeshBasicMaterial, Skeleton, SkinnedMesh } from 'three';
import { CCDIKSolver } from 'three/examples/jsm/animation/CCDIKSolver.js';

/** Returns { solve(x, y, z) → remaining distance } for a `bones`-bone chain of bone length `length`. */
export function makeThreeCcd(bones, length, iterations) {
  const list = [];
  for (let i = 0; i <= bones; i++) {
    const bone = new Bone();
    if (i > 0) {
      bone.position.set(0, length, 0);
      list[i - 1].add(bone);
    }
    list.push(bone);
  }
  const target = new Bone();
  list.push(target);
  const mesh = new SkinnedMesh(new BufferGeometry(), new MeshBasicMaterial());
  mesh.add(list[0]);
  mesh.add(target);
  mesh.bind(new Skeleton(list));
  const links = [];
  for (let i = bones - 1; i >= 0; i--) links.push({ index: i });
  const solver = new CCDIKSolver(mesh, [{ target: bones + 1, effector: bones, links, iteration: iterations }]);
  const tip = list[bones];
  return {
    solve(x, y, z) {
      for (let i = 0; i < bones; i++) list[i].quaternion.set(0, 0, 0, 1);
      target.position.set(x, y, z);
      mesh.updateMatrixWorld(true);
      solver.update();
      const e = tip.matrixWorld.elements;
      return Math.hypot(e[12] - x, e[13] - y, e[14] - z);
    },
  };
}
