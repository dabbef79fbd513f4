// Run by tests/js/rig/ikRigAlloc.test.js under the allocation probe
// (tests/support/alloc-probe.mjs), once per ground
// (argv[2]): 'function' (one that answers with one reused object, the user's
// side of "no garbage"), 'plane' (a tilted Plane) or 'none' (the authored
// plane): a grounding rig on a moving character, its plant flag cycling
// through auto, free and planted; the probe counts the bytes its frames
// allocate. (Meshes: three.js's
// own raycast makes one object per hit.)
import { Plane, Vector3 } from 'three';
import { init } from '../../web/index.js';
import { IKRig } from '../../web/three/index.js';
import { buildHumanoid } from './three-humanoid.js';
import { measureAllocation } from './alloc-probe.mjs';

const ikpd = await init({ rig: true });
const sample = { height: 0, normal: new Vector3(0, 1, 0) };
let calls = 0, frames = 0;
const hills = (x, y, z) => { calls++; sample.height = 0.1 * Math.sin(3 * x) * Math.cos(2 * z); return sample; };
const grounds = { function: hills, plane: new Plane(new Vector3(0.1, 1, 0).normalize(), 0.05), none: null };
const { scene } = buildHumanoid({ axes: 'mixed', seed: 2 });
const rig = new IKRig(ikpd, scene);
const feet = rig.add('grounding', { ground: grounds[process.argv[2]] });
const frame = (i) => {
  frames++;
  scene.position.x = Math.sin(i * 0.001);
  scene.updateMatrixWorld(true);
  feet.plant[0] = (i >> 7) % 3 - 1;
  rig.update(1 / 60);
};
measureAllocation(`grounding ${process.argv[2]}`, frame);
console.log(`ground calls ${calls} of ${frames} frames`);
rig.dispose();
