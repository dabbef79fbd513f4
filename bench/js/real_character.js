// A real character's frame (docs/performance.md): CesiumMan playing its walk
// through AnimationMixer, moved forward over bumps, with one IKRig holding
// grounding, a look-at (spine to head) and a hand reaching for a fixed cup;
// per frame, next to mixer.update alone on the same character. Not shipped;
// bench/run.mjs only.
import { Vector3 } from 'three';
import { IKRig } from '../../web/three/index.js';
import { loadCharacter } from '../../tests/support/characters.js';
import { CESIUM_LEGS, CESIUM_PELVIS, CESIUM_SPEED } from '../../tests/support/real-walk.js';

/** ns per frame: `mixer` (mixer.update), `frame` (mixer.update + IKRig.update with grounding, look-at and a hand). */
export async function benchRealCharacter(ikpd, measure) {
  const c = await loadCharacter('CesiumMan');
  c.mixer.clipAction(c.clip()).play();
  const dt = 1 / 60;
  let t = 0;
  const step = () => {
    t += dt;
    c.mixer.update(dt);
    c.scene.position.z = (CESIUM_SPEED * t) % 20;
    c.scene.updateMatrixWorld(true);
  };
  const out = { mixer: measure(step, 1) };
  const hit = { height: 0, normal: new Vector3(0, 1, 0) };
  const rig = new IKRig(ikpd, c.skinned);
  rig.add('grounding', { legs: CESIUM_LEGS, pelvis: CESIUM_PELVIS, ground: (x, y, z) => ((hit.height = 0.04 * Math.sin(5 * z)), hit) });
  rig.add('lookAt', { bones: ['Skeleton_torso_joint_2', 'torso_joint_3', 'Skeleton_neck_joint_1', 'Skeleton_neck_joint_2'], target: new Vector3(1, 1.5, 3) });
  const cup = new Vector3(-0.3, 0.8, 0.4);
  rig.add('twoBone', { bones: ['Skeleton_arm_joint_R', 'Skeleton_arm_joint_R__2_', 'Skeleton_arm_joint_R__3_'], target: cup });
  out.frame = measure(() => {
    step();
    cup.z = c.scene.position.z + 0.4;
    rig.update(dt);
  }, 1);
  rig.dispose();
  return out;
}
