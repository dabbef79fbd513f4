// Spring bones per character frame (docs/rig/springs.md): 7 chains of 6 joints (42)
// hanging from a moving head, with a sphere on the head and a capsule on the neck,
// through IKRig's springs constraint and through three-vrm's
// VRMSpringBoneManager.update on the same bones and colliders, three.js bones read
// and written by both. Not shipped; bench/run.mjs only.
import { Quaternion, Vector3 } from 'three';
import {
  VRMSpringBoneCollider, VRMSpringBoneColliderShapeCapsule, VRMSpringBoneColliderShapeSphere, VRMSpringBoneJoint, VRMSpringBoneManager,
} from '@pixiv/three-vrm-springbone';
import { IKRig } from '../../web/three/index.js';
import { headCharacter } from '../../tests/support/spring-character.js';

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

/** ns per character frame: `ikpd` (IKRig springs), `threeVrm` (VRMSpringBoneManager.update), and the joint count. */
export function benchSprings(ikpd, measure) {
  const dt = 1 / 60;
  const ours = character();
  const rig = new IKRig(ikpd, ours.scene);
  rig.add('springs', {
    chains: ours.chains, center: ours.body, ...VRM,
    colliders: [{ joint: ours.head, ...SPHERE }, { joint: ours.neck, shape: 'capsule', ...CAPSULE }],
  });
  let t = 0;
  const out = {
    joints: CHAINS * JOINTS,
    ikpd: measure(() => {
      t += dt;
      animate(ours, t);
      ours.scene.updateMatrixWorld(true);
      rig.update(dt);
    }, 1),
  };
  rig.dispose();

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
  t = 0;
  out.threeVrm = measure(() => {
    t += dt;
    animate(theirs, t);
    theirs.scene.updateMatrixWorld(true);
    manager.update(dt);
  }, 1);
  return out;
}
