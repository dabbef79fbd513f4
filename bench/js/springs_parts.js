// A VRM's springs with several centers (docs/rig/springs.md, "Several centers,
// branching chains"): `add('springs', { vrm })` makes one constraint per center.
// The same 42 joints (7 hair chains of 6 under a moving head, a sphere on the
// head) from a three-vrm VRMSpringBoneManager whose joints all have one center,
// and whose chains are spread over three (the body, the neck, none): what the
// extra constraints cost a character frame, three.js bones read and written.
// Not shipped; bench/run.mjs only.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Quaternion, Vector3 } from 'three';
import { VRMSpringBoneCollider, VRMSpringBoneColliderShapeSphere, VRMSpringBoneJoint, VRMSpringBoneManager } from '@pixiv/three-vrm-springbone';
import { IKRig } from '../../web/three/index.js';
import { headCharacter } from '../../tests/support/spring-character.js';
import { init } from '../../web/index.js';
import { measure, median, quick } from './measure.js';

const CHAINS = 7;
const JOINTS = 6;
const VRM = { stiffness: 1, dragForce: 0.4, gravityPower: 0.2, hitRadius: 0.01 };
const _q = new Quaternion();

// The character and its manager, chain c's joints centered on centers(c).
function vrm(centers) {
  const { scene, body, neck, head, chain } = headCharacter();
  const sphere = new VRMSpringBoneCollider(new VRMSpringBoneColliderShapeSphere({ offset: new Vector3(0, 0.1, 0), radius: 0.09 }));
  head.add(sphere);
  const manager = new VRMSpringBoneManager();
  const c = { scene, body, neck, head };
  for (let k = 0; k < CHAINS; k++) {
    const a = Math.PI * (0.25 + (0.5 * k) / (CHAINS - 1)) + Math.PI / 2;
    const out = new Vector3(Math.cos(a), 0, Math.sin(a));
    const dir = out.clone().multiplyScalar(0.3).add(new Vector3(0, -0.95, 0));
    const bones = chain(`hair${k}_`, head, [0.1 * out.x, 0.1, 0.1 * out.z], [dir.x, dir.y, dir.z], JOINTS, 0.05);
    for (let j = 0; j < JOINTS; j++) {
      const joint = new VRMSpringBoneJoint(bones[j], bones[j + 1], { ...VRM, gravityDir: new Vector3(0, -1, 0) }, [{ colliders: [sphere] }]);
      joint.center = centers(k, c);
      manager.addJoint(joint);
    }
  }
  scene.updateMatrixWorld(true);
  return { c, manager };
}

function frameTime(ikpd, measure, centers) {
  const { c, manager } = vrm(centers);
  const rig = new IKRig(ikpd, c.scene);
  const springs = rig.add('springs', { vrm: manager });
  const dt = 1 / 60;
  let t = 0;
  const ns = measure(() => {
    t += dt;
    c.head.quaternion.setFromAxisAngle(new Vector3(0, 1, 0), 0.7 * Math.sin(Math.PI * t)).multiply(_q.setFromAxisAngle(new Vector3(1, 0, 0), 0.3 * Math.sin(5 * t)));
    c.body.position.x = 0.2 * Math.sin(2 * t);
    c.scene.updateMatrixWorld(true);
    rig.update(dt);
  }, 1);
  const parts = springs.parts.length;
  rig.dispose();
  return { ns, parts };
}

const CENTERS = { one: (k, c) => c.body, three: (k, c) => [c.body, c.neck, null][k % 3] };
const ROUNDS = quick ? 1 : 3;

/**
 * ns per character frame: one center (one constraint) and three centers (three constraints), each in
 * fresh Node processes of its own, alternated, the median of its processes' (as bench/js/springs.js:
 * three-vrm's center Proxy, met by three.js's matrix code once that code is hot, slows whatever runs
 * after it in the process; docs/performance.md, "Springs").
 */
export function benchSpringsParts() {
  const runs = { one: [], three: [] };
  let parts = 0;
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 ? ['three', 'one'] : ['one', 'three']) {
      const line = execFileSync(process.execPath, [fileURLToPath(import.meta.url), name, ...(quick ? ['--quick'] : [])], { encoding: 'utf8' });
      const out = JSON.parse(line.trim().split('\n').pop());
      runs[name].push(out.ns);
      if (name === 'three') parts = out.parts;
    }
  }
  return { joints: CHAINS * JOINTS, one: median(runs.one), three: median(runs.three), parts, runs };
}

// As a script: `node bench/js/springs_parts.js one|three [--quick]` prints `{"ns": …, "parts": …}`.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const name = process.argv[2];
  if (!CENTERS[name]) throw new TypeError(`centers: expected one of ${Object.keys(CENTERS).join(', ')}, got ${name}`);
  const ikpd = await init({ batch: true });
  console.log(JSON.stringify(frameTime(ikpd, measure, CENTERS[name])));
}
