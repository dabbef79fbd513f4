// Run by tests/js/rig/lookAtPerBoneAlloc.test.js under the allocation probe
// (tests/support/alloc-probe.mjs): a LookAtIK with one settleTime per bone (the
// rig's lookAt with per-joint settle times) updated with a moving target; the
// probe counts the bytes its frames allocate.
import { Vector3 } from 'three';
import { init } from '../../web/index.js';
import { LookAtIK } from '../../web/three/index.js';
import { buildHumanoid } from './three-humanoid.js';
import { measureAllocation } from './alloc-probe.mjs';

const ikpd = await init({ rig: true });
const { bones } = buildHumanoid();
const target = new Vector3(0.5, 1.7, 2);
const look = new LookAtIK(ikpd, [bones.spine, bones.chest, bones.neck, bones.head], { target, settleTime: [0.4, 0.3, 0.2, 0.1], weight: 0.75 });
const frame = (i) => {
  target.x = 0.5 + Math.sin(i * 0.003);
  look.update(1 / 60);
};
measureAllocation('lookAt per bone', frame);
look.dispose();
