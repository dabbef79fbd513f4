// ikpd/three's Inertializer on the Fox (docs/pd/inertializer.md, "three.js"): Walk → Run
// → Survey switched three ways in lockstep, inertialized, cut and cross-faded; the
// figures (centimetres, the Fox's units) are printed and the docs quote them.
import { Quaternion, Vector3 } from 'three';
import { afterAll, describe, expect, it } from 'vitest';
import { Inertializer } from '../../../web/three/index.js';
import { loadCharacter } from '../../support/characters.js';
import { ikpd } from '../../support/setup.js';

const HALF_LIFE = 0.1;
const FADE = 0.3; // crossFadeTo's duration: about when the spring's offset is down to 5 %
const RATE = 60;
const SWITCH_EVERY = 1; // seconds: Walk, then Run, then Survey
const FEET = ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'];
const STANCE_SPEED = 40; // cm/s over the ground: a foot of the cut slower than this is in stance
const SPEEDS = [100, 250, 0]; // cm/s: how fast the clips carry the Fox (tests/support/real-walk.js)

async function fox() {
  const character = await loadCharacter('Fox');
  const actions = ['Walk', 'Run', 'Survey'].map((name) => character.mixer.clipAction(character.clip(name)));
  const feet = FEET.map((name) => character.scene.getObjectByName(name));
  return { ...character, actions, feet };
}

const posed = (bones) => bones.map((b) => b.quaternion.clone());
const feetOf = (c) => { c.scene.updateMatrixWorld(true); return c.feet.map((f) => f.getWorldPosition(new Vector3())); };

// Plays the three clips, switching every second; per frame the feet of each way.
async function play() {
  const [inert, cut, fade] = [await fox(), await fox(), await fox()];
  const inertia = new Inertializer(ikpd, inert.mixer, { halfLife: HALF_LIFE });
  for (const c of [inert, cut, fade]) c.actions[0].play();
  const frames = [];
  const dt = 1 / RATE;
  const jumps = [];
  for (let i = 0; i <= 3 * SWITCH_EVERY * RATE; i++) {
    const k = i / (SWITCH_EVERY * RATE);
    if (i > 0 && Number.isInteger(k) && k < 3) {
      const shown = inertia.bones.map((b) => [b.position.clone(), b.quaternion.clone()]);
      inertia.transition(inert.actions[k]);
      // The switch instant: the bones still show the pose before it.
      // (quaternions by their components: angleTo's acos turns float rounding into 1e-4 rad)
      const q = (a, b) => Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y), Math.abs(a.z - b.z), Math.abs(a.w - b.w));
      jumps.push(Math.max(...inertia.bones.map((b, j) => Math.max(b.position.distanceTo(shown[j][0]), q(b.quaternion, shown[j][1])))));
      cut.mixer.stopAllAction();
      cut.actions[k].play();
      fade.actions[k].play();
      fade.actions[k - 1].crossFadeTo(fade.actions[k], FADE, false);
    }
    if (i > 0) {
      for (const c of [inert, cut, fade]) c.mixer.update(dt);
      inertia.update(dt);
    }
    frames.push({ t: i * dt, inert: feetOf(inert), cut: feetOf(cut), fade: feetOf(fade), pose: { inert: posed(inertia.bones), cut: posed(inertia.bones.map((b) => cut.scene.getObjectByName(b.name))) } });
  }
  inertia.dispose();
  return { frames, jumps };
}

describe('ikpd/three Inertializer on the Fox (Walk → Run → Survey)', () => {
  let result;
  const figures = {};
  afterAll(() => console.log('Inertializer on the Fox (cm):', JSON.stringify(figures)));

  it('the switch instant shows the pose before it; no NaN', async () => {
    result = await play();
    expect(result.jumps.length).toBe(2);
    for (const j of result.jumps) expect(j).toBeLessThan(1e-4);
    for (const f of result.frames) for (const p of [...f.inert, ...f.fade]) expect(Number.isFinite(p.x + p.y + p.z)).toBe(true);
  });

  it('the bones turn on at the switch as they turned before it (the cut changes speed at once)', () => {
    const { frames } = result;
    // Per bone, the rotation of one frame as a vector (rad): log(q_i · q_{i-1}⁻¹).
    const turn = (a, b) => {
      const d = new Quaternion().copy(b).multiply(new Quaternion().copy(a).invert());
      if (d.w < 0) d.set(-d.x, -d.y, -d.z, -d.w);
      const s = Math.hypot(d.x, d.y, d.z);
      const k = s > 1e-12 ? (2 * Math.atan2(s, d.w)) / s : 2;
      return [d.x * k, d.y * k, d.z * k];
    };
    const change = (way, i) => Math.max(...frames[i].pose[way].map((q, j) => {
      const before = turn(frames[i - 2].pose[way][j], frames[i - 1].pose[way][j]);
      const after = turn(frames[i - 1].pose[way][j], q);
      return Math.hypot(after[0] - before[0], after[1] - before[1], after[2] - before[2]);
    }));
    for (const k of [1, 2]) {
      const s = k * SWITCH_EVERY * RATE; // the first frame after the switch
      const inert = change('inert', s), cut = change('cut', s);
      figures[`turn change at switch ${k} (rad/frame)`] = { inert, cut };
      expect(inert).toBeLessThan(0.25 * cut);
    }
  });

  it("during a transition the new clip's stance feet converge on where a cut puts them; the cross-fade's lag", () => {
    const { frames } = result;
    const dt = 1 / RATE;
    const at = [0.5, 1, 2, 3, 4, 5]; // half-lives after the switch
    for (const [k, name] of [[1, 'Walk → Run'], [2, 'Run → Survey']]) {
      const speed = SPEEDS[k];
      const start = k * SWITCH_EVERY * RATE;
      const window = frames.slice(start, start + Math.round(0.6 * RATE) + 1);
      const inert = at.map(() => null), fade = at.map(() => null);
      let inertSlide = 0, fadeSlide = 0, cutSlide = 0, stanceFrames = 0, settled = 0;
      for (let i = 1; i < window.length; i++) {
        const since = i * dt;
        for (let f = 0; f < FEET.length; f++) {
          // The character moves at the new clip's speed (+Z): a cut's stance foot stays on the ground.
          const ground = (p, j) => ({ x: p.x, z: p.z + speed * j * dt });
          const step = (a, b, j) => Math.hypot(ground(a, j).x - ground(b, j - 1).x, ground(a, j).z - ground(b, j - 1).z);
          const w = window[i], v = window[i - 1];
          if (step(w.cut[f], v.cut[f], i) / dt > STANCE_SPEED) continue;
          stanceFrames++;
          const di = w.inert[f].distanceTo(w.cut[f]);
          const df = w.fade[f].distanceTo(w.cut[f]);
          if (di > 1) settled = Math.max(settled, since);
          at.forEach((h, n) => { if (since >= h * HALF_LIFE - 1e-9) { inert[n] = Math.max(inert[n] ?? 0, di); fade[n] = Math.max(fade[n] ?? 0, df); } });
          inertSlide += step(w.inert[f], v.inert[f], i);
          fadeSlide += step(w.fade[f], v.fade[f], i);
          cutSlide += step(w.cut[f], v.cut[f], i);
        }
      }
      const r = (x) => (x === null ? null : Math.round(x * 10) / 10);
      figures[name] = {
        stanceFrames, halfLives: at, inertFromCut: inert.map(r), fadeFromCut: fade.map(r),
        inertWithin1cmAfter: r(settled * 1000) / 1000, slide: { inert: r(inertSlide), fade: r(fadeSlide), cut: r(cutSlide) },
      };
      expect(stanceFrames).toBeGreaterThan(10);
      // Within 1 cm of the cut from 4 half-lives on (at half a half-life the spring still holds 80 % of the offset).
      expect(inert[4]).toBeLessThanOrEqual(1);
      // Over the stance frames, the inertialized feet slide less than the cross-faded ones.
      expect(inertSlide).toBeLessThan(fadeSlide);
    }
  });
});
