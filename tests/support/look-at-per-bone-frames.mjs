// Run by tests/js/rig/lookAtPerBoneAlloc.test.js under `node --trace-gc`: a LookAtIK
// with one settleTime per bone (the rig's lookAt with per-joint settle times)
// updated 100,000 times with a moving target, between two markers; every
// garbage collection in between is printed by V8.
import { Vector3 } from 'three';
import { init } from '../../web/index.js';
import { LookAtIK } from '../../web/three/index.js';
import { buildHumanoid } from './three-humanoid.js';

const ikpd = await init({ rig: true });
const { bones } = buildHumanoid();
const target = new Vector3(0.5, 1.7, 2);
const look = new LookAtIK(ikpd, [bones.spine, bones.chest, bones.neck, bones.head], { target, settleTime: [0.4, 0.3, 0.2, 0.1], weight: 0.75 });
const frame = (i) => {
  target.x = 0.5 + Math.sin(i * 0.003);
  look.update(1 / 60);
};
// Warm-up, long enough for V8's optimizing tier (see ik-rig-frames.mjs).
const start = performance.now();
for (let i = 0; i < 30000 || performance.now() - start < 2000; i++) frame(i);
// A full collection first (run with --expose-gc), as crowd-frames.mjs: the measure
// starts on an empty young generation, so a collection in it is this loop's garbage.
globalThis.gc?.();
console.log('--- measure');
for (let i = 0; i < 100000; i++) frame(i);
console.log('--- done');
look.dispose();
