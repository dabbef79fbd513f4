// CesiumMan (demo/assets) for the rig tests: its humanoid role table (its bone
// names are none of the tables 'auto' knows) and a walk driven as a game does,
// AnimationMixer then IKRig.update, the scene moved forward at walking speed.
import { loadCharacter } from './characters.js';

export const CESIUM_MAN = Object.freeze({
  hips: 'Skeleton_torso_joint_1',
  spine: 'Skeleton_torso_joint_2',
  chest: 'torso_joint_3',
  neck: 'Skeleton_neck_joint_1',
  head: 'Skeleton_neck_joint_2',
  rightUpperArm: 'Skeleton_arm_joint_R',
  rightLowerArm: 'Skeleton_arm_joint_R__2_',
  rightHand: 'Skeleton_arm_joint_R__3_',
  leftUpperArm: 'Skeleton_arm_joint_L__4_',
  leftLowerArm: 'Skeleton_arm_joint_L__3_',
  leftHand: 'Skeleton_arm_joint_L__2_',
  leftUpperLeg: 'leg_joint_L_1',
  leftLowerLeg: 'leg_joint_L_2',
  leftFoot: 'leg_joint_L_3',
  leftToes: 'leg_joint_L_5',
  rightUpperLeg: 'leg_joint_R_1',
  rightLowerLeg: 'leg_joint_R_2',
  rightFoot: 'leg_joint_R_3',
  rightToes: 'leg_joint_R_5',
});

export const WALK_SPEED = 0.95; // m/s: the clip plays in place

/**
 * Two CesiumMen walking the same clip: `solved` (to rig) and `animated` (the
 * clip alone, for reference). `step(dt, t, walking)` advances both mixers by
 * dt and puts both scenes at z = WALK_SPEED·t when walking (else at 0).
 */
export async function walkingPair() {
  const solved = await loadCharacter('CesiumMan');
  const animated = await loadCharacter('CesiumMan');
  const bone = (who, role) => who.scene.getObjectByName(CESIUM_MAN[role]);
  for (const who of [solved, animated]) who.mixer.clipAction(who.clip()).play();
  return {
    solved,
    animated,
    bone,
    step(dt, t, walking) {
      for (const who of [solved, animated]) {
        who.mixer.update(dt);
        who.scene.position.z = walking ? WALK_SPEED * t : 0;
        who.scene.updateMatrixWorld(true);
      }
    },
  };
}
