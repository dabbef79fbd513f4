// The sample characters (demo/assets/README.md) in the browser: loaded on
// demand as text glTF (Vite's ?raw), their clips made seamless, and what the
// rig needs to know about them: CesiumMan's humanoid roles (its COLLADA bone
// names match none of the built-in tables) and the Fox's legs.
import { parseCharacter, seamlessClip } from './characters.js';

/**
 * CesiumMan's bones by humanoid role. It faces +Z, so its left is +X: the
 * `_L_` bones are on its left.
 */
export const CESIUM_MAN_HUMANOID = Object.freeze({
  hips: 'Skeleton_torso_joint_1', spine: 'Skeleton_torso_joint_2', chest: 'torso_joint_3',
  neck: 'Skeleton_neck_joint_1', head: 'Skeleton_neck_joint_2',
  leftUpperArm: 'Skeleton_arm_joint_L__4_', leftLowerArm: 'Skeleton_arm_joint_L__3_', leftHand: 'Skeleton_arm_joint_L__2_',
  rightUpperArm: 'Skeleton_arm_joint_R', rightLowerArm: 'Skeleton_arm_joint_R__2_', rightHand: 'Skeleton_arm_joint_R__3_',
  leftUpperLeg: 'leg_joint_L_1', leftLowerLeg: 'leg_joint_L_2', leftFoot: 'leg_joint_L_3', leftToes: 'leg_joint_L_5',
  rightUpperLeg: 'leg_joint_R_1', rightLowerLeg: 'leg_joint_R_2', rightFoot: 'leg_joint_R_3', rightToes: 'leg_joint_R_5',
});

/**
 * The Fox's four-legged grounding (docs/rig/grounding.md): hind legs first.
 * Every leg must have as many joints as the others, and the front legs have
 * three (upper arm, forearm, hand); the hind legs are taken from the stifle
 * (leg 02, foot 01 = the hock, foot 02 = the paw), so that each leg's effector
 * is the joint at its paw.
 */
export const FOX_GROUNDING = Object.freeze({
  legs: [
    ['b_LeftLeg02_016', 'b_LeftFoot01_017', 'b_LeftFoot02_018'],
    ['b_RightLeg02_020', 'b_RightFoot01_021', 'b_RightFoot02_022'],
    ['b_LeftUpperArm_09', 'b_LeftForeArm_010', 'b_LeftHand_011'],
    ['b_RightUpperArm_06', 'b_RightForeArm_07', 'b_RightHand_08'],
  ],
  pelvis: 'b_Hip_01',
  chest: 'b_Spine02_03',
});

/** Role tables the demo knows beyond ikpd's own (tried when `humanoid: 'auto'` finds none). */
export const DEMO_HUMANOIDS = Object.freeze({ cesiumMan: CESIUM_MAN_HUMANOID });

/** The first demo table whose bones `root` has every one of (by exact name), else null. */
export function knownHumanoid(root) {
  const names = new Set();
  root.traverse((o) => { if (o.isBone) names.add(o.name); });
  return Object.values(DEMO_HUMANOIDS).find((table) => Object.values(table).every((n) => names.has(n))) ?? null;
}

const SOURCES = {
  CesiumMan: () => import('../assets/CesiumMan.gltf?raw'),
  Fox: () => import('../assets/Fox.gltf?raw'),
};

/**
 * A fresh copy of a sample character: `{ root, skinned, clips }`, its clips
 * seamless (CesiumMan's keys start at 1/24 s).
 * @param {'CesiumMan'|'Fox'} name
 */
export async function loadSample(name) {
  const { default: text } = await SOURCES[name]();
  const gltf = await parseCharacter(text);
  const root = gltf.scene;
  let skinned = null;
  root.traverse((o) => {
    if (o.isSkinnedMesh && !skinned) skinned = o;
    if (o.isMesh) o.castShadow = true;
  });
  return { root, skinned, clips: gltf.animations.map(seamlessClip) };
}

/** Frees what a loaded model holds on the GPU: geometries, materials, their textures, skeletons. */
export function disposeModel(root) {
  root.traverse((o) => {
    o.geometry?.dispose();
    for (const material of [o.material ?? []].flat()) {
      for (const value of Object.values(material)) if (value?.isTexture) value.dispose();
      material.dispose();
    }
    if (o.isSkinnedMesh) o.skeleton.dispose();
  });
}
