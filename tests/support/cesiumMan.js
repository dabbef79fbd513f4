// CesiumMan (demo/assets) for the rig tests: its humanoid role table (its bone
// names are none of the tables 'auto' knows) and a walk driven as a game does,
// AnimationMixer then IKRig.update, the scene moved forward at walking speed.
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
