// CesiumMan walking with IKRig grounding, measured against its own animation
// (docs/rig/grounding.md, "What is tested"). The clip plays in place through
// AnimationMixer; the character's root is moved forward at the clip's speed
// and set on the ground under it (a ramp across a step), as a character
// controller would. "Stance" is read from the animation: the toe or the ankle
// within 2 cm of its lowest height above the character's floor.
import { Quaternion, Vector3 } from 'three';
import { ikpd } from './setup.js';
import { loadCharacter } from './characters.js';
import { WALK_SPEED } from './cesiumMan.js';
import { CESIUM_MAN_HUMANOID } from '../../demo/lib/sampleCharacters.js';
import { IKRig } from '../../web/three/index.js';

export const CESIUM_SPEED = WALK_SPEED; // m/s, the clip's walking speed (tests/support/cesiumMan.js)
// Its legs and pelvis from its role table (demo/lib/sampleCharacters.js), the one copy.
export const CESIUM_LEGS = ['left', 'right'].map((side) =>
  ['UpperLeg', 'LowerLeg', 'Foot', 'Toes'].map((part) => CESIUM_MAN_HUMANOID[`${side}${part}`]));
export const CESIUM_PELVIS = CESIUM_MAN_HUMANOID.hips;

/** The characters walked: legs (effector last), pelvis, unit (metres per world unit), clip speeds (world units/s). */
export const CHARACTERS = /* @__PURE__ */ Object.freeze({
  CesiumMan: { legs: CESIUM_LEGS, pelvis: CESIUM_PELVIS, unit: 1, speed: { [undefined]: CESIUM_SPEED } },
  Fox: {
    legs: [
      ['b_LeftLeg01_015', 'b_LeftLeg02_016', 'b_LeftFoot01_017'], ['b_RightLeg01_019', 'b_RightLeg02_020', 'b_RightFoot01_021'],
      ['b_LeftUpperArm_09', 'b_LeftForeArm_010', 'b_LeftHand_011'], ['b_RightUpperArm_06', 'b_RightForeArm_07', 'b_RightHand_08'],
    ],
    pelvis: 'b_Hip_01', chest: 'b_Spine02_03', unit: 0.01, speed: { Walk: 100, Run: 250 },
  },
});

const SLOPE = Math.tan((15 * Math.PI) / 180);
/** Grounds along +Z (metres): height(z), its slope dh/dz and the root's height at z. */
export const GROUNDS = /* @__PURE__ */ Object.freeze({
  floor: { height: () => 0, slope: () => 0, root: () => 0 },
  raised: { height: () => 0.05, slope: () => 0, root: () => 0.05 },
  slope: { height: (z) => SLOPE * z, slope: () => SLOPE, root: (z) => SLOPE * z },
  // A 10 cm step at z = 1.2; the root climbs it over half a metre.
  step: { height: (z) => (z > 1.2 ? 0.1 : 0), slope: () => 0, root: (z) => 0.1 * Math.min(1, Math.max(0, (z - 0.95) / 0.5)) },
  // ±4 cm bumps, 1.2 m apart; the root at the mean ground.
  bumps: { height: (z) => 0.04 * Math.sin((2 * Math.PI * z) / 1.2), slope: (z) => 0.04 * ((2 * Math.PI) / 1.2) * Math.cos((2 * Math.PI * z) / 1.2), root: () => 0 },
});

/**
 * Walks CesiumMan for `seconds` at `rate` Hz over `ground` and returns per
 * frame the animated and output world positions of each leg's toe (and sole
 * offsets), the pelvis, the plant state.
 * @param {{ rate: number, ground?: keyof GROUNDS, seconds?: number, speed?: number, warmup?: number, options?: object, flat?: boolean }} o
 */
export function walkCesiumMan(o) {
  return walkCharacter({ name: 'CesiumMan', ...o });
}

/** As walkCesiumMan, for any of CHARACTERS (`clip`: its name; lengths in the character's units). */
export async function walkCharacter({ name, clip, rate, ground = 'floor', seconds = 4, speed, warmup = 0, options = {}, noGround = false }) {
  const character = CHARACTERS[name];
  const c = await loadCharacter(name);
  const u = character.unit;
  const m = GROUNDS[ground];
  const g = { height: (z) => m.height(z * u) / u, slope: (z) => m.slope(z * u), root: (z) => m.root(z * u) / u };
  speed ??= character.speed[clip];
  const action = c.mixer.clipAction(c.clip(clip)).play();
  if (warmup > 0) c.mixer.update(warmup); // build the rig in another pose
  c.scene.updateMatrixWorld(true);
  const rig = new IKRig(ikpd, c.skinned);
  const hit = { height: 0, normal: new Vector3() };
  const fn = (x, y, z) => {
    const s = g.slope(z);
    hit.height = g.height(z);
    hit.normal.set(0, 1, -s).normalize();
    return hit;
  };
  const LEGS = character.legs;
  const chest = character.chest ? { chest: character.chest } : {};
  const feet = rig.add('grounding', { legs: LEGS, pelvis: character.pelvis, ...chest, ground: noGround ? null : fn, ...options });
  action.time = 0;
  c.mixer.setTime(0);
  const bone = (n) => c.skinned.skeleton.bones.find((b) => b.name === n);
  const toes = LEGS.map((l) => bone(l[l.length - 1])), ankles = LEGS.map((l) => bone(l[2]));
  const pelvis = bone(character.pelvis);
  const legs = LEGS.map((_, k) => k);
  const low = { toe: legs.map(() => Infinity), ankle: legs.map(() => Infinity) };
  const soles = feet.soleOffsets;
  const frames = [];
  const dt = 1 / rate;
  const q = new Quaternion(), r = new Quaternion(), v = new Vector3();
  for (let i = 0; i <= Math.round(seconds * rate); i++) {
    const t = i * dt;
    if (i > 0) c.mixer.update(dt);
    const z = speed * t;
    c.scene.position.set(0, g.root(z), z);
    c.scene.updateMatrixWorld(true);
    const rootY = c.scene.position.y;
    const animated = {
      toes: toes.map((b) => b.getWorldPosition(new Vector3())),
      ankles: ankles.map((b) => b.getWorldPosition(new Vector3())),
      toeRot: toes.map((b) => b.getWorldQuaternion(new Quaternion())),
      pelvis: pelvis.getWorldPosition(new Vector3()),
      pelvisRot: pelvis.getWorldQuaternion(new Quaternion()),
    };
    rig.update(i > 0 ? dt : 0);
    c.scene.updateMatrixWorld(true);
    const out = {
      toes: toes.map((b) => b.getWorldPosition(new Vector3())),
      ankles: ankles.map((b) => b.getWorldPosition(new Vector3())),
      pelvis: pelvis.getWorldPosition(new Vector3()),
    };
    // Sole points: the toe less its sole offset along the foot's turned up.
    const soleOut = out.toes.map((p, k) => {
      toes[k].getWorldQuaternion(q).multiply(r.copy(animated.toeRot[k]).invert());
      return p.clone().addScaledVector(v.set(0, 1, 0).applyQuaternion(q), -soles[k]);
    });
    const soleAnim = animated.toes.map((p, k) => p.clone().setY(p.y - soles[k]));
    // Where the animation puts each sole plus the ground's change under it.
    const expected = soleOut.map((p, k) => soleAnim[k].y + g.height(p.z) - rootY);
    // (lengths in the character's units from here on; `u` converts to metres)
    frames.push({ t, rootY, animated, out, soleOut, expected, reached: feet.reached, pelvisTurn: pelvis.getWorldQuaternion(new Quaternion()).angleTo(animated.pelvisRot) });
    for (const k of legs) {
      low.toe[k] = Math.min(low.toe[k], animated.toes[k].y - rootY);
      low.ankle[k] = Math.min(low.ankle[k], animated.ankles[k].y - rootY);
    }
  }
  // Stance from the animation: the toe or the ankle within 2 cm of its lowest height.
  for (const f of frames) {
    f.stance = legs.map((k) => f.animated.toes[k].y - f.rootY < low.toe[k] + 0.02 / u || f.animated.ankles[k].y - f.rootY < low.ankle[k] + 0.02 / u);
  }
  const inForce = Object.fromEntries(['maxPelvisDrop', 'maxPelvisRise', 'plantHeight', 'unplantRadius', 'soleOffsets'].map((k) => [k, feet[k]]));
  rig.dispose();
  return { frames, soles, inForce, unit: u };
}

/** Stance windows of leg k: [first, last, stance start] frame indices, from `from` seconds into each. */
export function stanceWindows(frames, k, from) {
  const out = [];
  for (let i = 0; i < frames.length; ) {
    if (!frames[i].stance[k]) { i++; continue; }
    let j = i;
    while (j < frames.length && frames[j].stance[k]) j++;
    const start = frames[i].t + from;
    const first = frames.findIndex((f, n) => n >= i && f.t >= start - 1e-9);
    if (i > 0 && j < frames.length && first >= 0 && first < j) out.push([first, j - 1, i]);
    i = j;
  }
  return out;
}
