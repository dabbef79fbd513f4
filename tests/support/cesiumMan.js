// CesiumMan (demo/assets) for the rig tests: its humanoid role table (its bone
// names are none of the tables 'auto' knows) and a walk driven as a game does,
// AnimationMixer then IKRig.update, the scene moved forward at walking speed.
import { Object3D, Vector3 } from 'three';
import { loadCharacter } from './characters.js';
import { CESIUM_MAN_HUMANOID } from '../../demo/lib/sampleCharacters.js';

/** CesiumMan's role table: the demo's (demo/lib/sampleCharacters.js), one copy. */
export const CESIUM_MAN = CESIUM_MAN_HUMANOID;

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

/**
 * AvatarIK (`AvatarIK` class passed in) on the `solved` CesiumMan of a
 * walkingPair, in place, with one Object3D target per role of `roles`.
 * `place(targets, bone, t)` scripts the targets at time t from the animated
 * bones; `step(rate, f)` advances the clip to frame f, places the targets and
 * updates the avatar. `boneOf(role)` maps a target role to the role table's
 * bone (default: the same name).
 */
export async function avatarSession(ikpd, AvatarIK, { roles, place, boneOf = (role) => role, options = {} }) {
  const pair = await walkingPair();
  const targets = Object.fromEntries(roles.map((role) => [role, new Object3D()]));
  const avatar = new AvatarIK(ikpd, pair.solved.skinned, { humanoid: CESIUM_MAN, ...targets, ...options });
  const bone = (who, role) => pair.bone(pair[who], boneOf(role));
  const step = (rate, f) => {
    pair.step(1 / rate, f / rate, false);
    place(targets, bone, f / rate);
    avatar.update(1 / rate);
  };
  return { pair, avatar, targets, bone, step };
}

/** A bone's world position, its world matrix brought up to date first. */
export function worldOf(bone) {
  bone.updateWorldMatrix(true, false);
  return bone.getWorldPosition(new Vector3());
}
