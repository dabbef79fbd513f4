// Spring bones per character frame (docs/rig/springs.md): 7 chains of 6 joints (42)
// hanging from a moving head, with a sphere on the head and a capsule on the neck,
// through IKRig's springs constraint and through three-vrm's
// VRMSpringBoneManager.update on the same bones and colliders, three.js bones read
// and written by both. Not shipped; bench/run.mjs only.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Quaternion, Vector3 } from 'three';
import {
  VRMSpringBoneCollider, VRMSpringBoneColliderShapeCapsule, VRMSpringBoneColliderShapeSphere, VRMSpringBoneJoint, VRMSpringBoneManager,
} from '@pixiv/three-vrm-springbone';
import { IKRig } from '../../web/three/index.js';
import { headCharacter } from '../../tests/support/spring-character.js';
import { init } from '../../web/index.js';
import { measure, median, quick } from './measure.js';

const CHAINS = 7;
const JOINTS = 6; // swinging joints per chain (each with a tail: the next bone)
const SEGMENT = 0.05;
const VRM = { stiffness: 1, dragForce: 0.4, gravityPower: 0.2, hitRadius: 0.01 };
const SPHERE = { offset: [0, 0.1, 0], radius: 0.09 };
const CAPSULE = { offset: [0, -0.05, 0], tail: [0, 0.05, 0], radius: 0.05 };

// body → neck → head → CHAINS hair chains of JOINTS + 1 bones fanned round the back of the head.
function character() {
  const { scene, body, neck, head, chain } = headCharacter();
  const chains = [];
  for (let c = 0; c < CHAINS; c++) {
    const a = Math.PI * (0.25 + (0.5 * c) / (CHAINS - 1)) + Math.PI / 2; // round the back
    const out = new Vector3(Math.cos(a), 0, Math.sin(a));
    const dir = out.clone().multiplyScalar(0.3).add(new Vector3(0, -0.95, 0));
    chains.push(chain(`hair${c}_`, head, [0.1 * out.x, 0.1, 0.1 * out.z], [dir.x, dir.y, dir.z], JOINTS, SEGMENT));
  }
  scene.updateMatrixWorld(true);
  return { scene, body, neck, head, chains };
}

const _q = new Quaternion();
const _up = new Vector3(0, 1, 0);
const _side = new Vector3(1, 0, 0);
function animate(c, t) {
  c.head.quaternion.setFromAxisAngle(_up, 0.7 * Math.sin(Math.PI * t)).multiply(_q.setFromAxisAngle(_side, 0.3 * Math.sin(5 * t)));
  c.body.position.x = 0.2 * Math.sin(2 * t);
}

// One frame of each side (the scripted head, the scene's matrices, then the
// side's springs), each on its own character: `step()` and `dispose()`.
export function ikpdSide(ikpd) {
  const dt = 1 / 60;
  const ours = character();
  const rig = new IKRig(ikpd, ours.scene);
  rig.add('springs', {
    chains: ours.chains, center: ours.body, ...VRM,
    colliders: [{ joint: ours.head, ...SPHERE }, { joint: ours.neck, shape: 'capsule', ...CAPSULE }],
  });
  let t = 0;
  return {
    step() {
      t += dt;
      animate(ours, t);
      ours.scene.updateMatrixWorld(true);
      rig.update(dt);
    },
    dispose() { rig.dispose(); },
  };
}

export function threeVrmSide() {
  const dt = 1 / 60;
  const theirs = character();
  const sphere = new VRMSpringBoneCollider(new VRMSpringBoneColliderShapeSphere({ offset: new Vector3(...SPHERE.offset), radius: SPHERE.radius }));
  const capsule = new VRMSpringBoneCollider(new VRMSpringBoneColliderShapeCapsule({
    offset: new Vector3(...CAPSULE.offset), tail: new Vector3(...CAPSULE.tail), radius: CAPSULE.radius,
  }));
  theirs.head.add(sphere);
  theirs.neck.add(capsule);
  const groups = [{ colliders: [sphere, capsule] }];
  const manager = new VRMSpringBoneManager();
  for (const chain of theirs.chains) {
    for (let k = 0; k < JOINTS; k++) {
      const joint = new VRMSpringBoneJoint(chain[k], chain[k + 1], { ...VRM, gravityDir: new Vector3(0, -1, 0) }, groups);
      joint.center = theirs.body;
      manager.addJoint(joint);
    }
  }
  theirs.scene.updateMatrixWorld(true);
  manager.setInitState();
  let t = 0;
  return {
    step() {
      t += dt;
      animate(theirs, t);
      theirs.scene.updateMatrixWorld(true);
      manager.update(dt);
    },
    dispose() {},
  };
}

// Each side is timed in a fresh Node process of its own (this file run as a
// script), the sides' processes alternated (ikpd, three-vrm, three-vrm, ikpd,
// …), each side's figure the median of its processes' medians: the same for
// both sides. Why not one process: three-vrm's VRMSpringBoneJoint wraps its
// center's `matrixWorld.elements` in a Proxy (its inverse cache), and once
// three.js's shared Matrix4.multiplyMatrices has seen it, its stores box
// every float for whatever runs after it in that process (`node --trace-gc`:
// 4 scavenges over IKRig's samples run first, 240 run after three-vrm's side;
// the sampling heap profiler: 23 KB a frame in multiplyMatrices), which took
// IKRig's side from 16 to 37–52 µs a frame. docs/performance.md, "Springs".
const SIDES = { ikpd: (ikpd) => ikpdSide(ikpd), threeVrm: () => threeVrmSide() };
const ROUNDS = quick ? 1 : 3;

/** ns per character frame: `ikpd` (IKRig springs), `threeVrm` (VRMSpringBoneManager.update), the joint count, and each process's figure. */
export function benchSprings() {
  const runs = { ikpd: [], threeVrm: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of r % 2 ? ['threeVrm', 'ikpd'] : ['ikpd', 'threeVrm']) {
      const line = execFileSync(process.execPath, [fileURLToPath(import.meta.url), side, ...(quick ? ['--quick'] : [])], { encoding: 'utf8' });
      runs[side].push(JSON.parse(line.trim().split('\n').pop()).ns);
    }
  }
  return { joints: CHAINS * JOINTS, ikpd: median(runs.ikpd), threeVrm: median(runs.threeVrm), runs };
}

// As a script: `node bench/js/springs.js ikpd|threeVrm [--quick]` prints `{"ns": …}` for that side alone,
// after the same init({ batch: true }) as bench/run.mjs on both sides.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const side = process.argv[2];
  if (!SIDES[side]) throw new TypeError(`side: expected one of ${Object.keys(SIDES).join(', ')}, got ${side}`);
  const ikpd = await init({ batch: true });
  const s = SIDES[side](ikpd);
  const ns = measure(s.step, 1);
  s.dispose();
  console.log(JSON.stringify({ ns }));
}
