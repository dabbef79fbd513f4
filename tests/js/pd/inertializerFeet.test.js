// ikpd/three's Inertializer with `feet` on the Fox (docs/pd/inertializer.md, "Stance feet"):
// Walk → Run → Survey, the Fox carried along +Z at the new clip's speed, switched three ways
// in lockstep: inertialized with the stance feet held, inertialized alone, and cut. The new
// clip's stance feet (a cut's foot slower than 40 cm/s in the world) are measured against
// where the cut puts them; the figures (cm, the Fox's units) are printed and the docs quote them.
import { Quaternion, Vector3 } from 'three';
import { afterAll, describe, expect, it } from 'vitest';
import { Inertializer } from '../../../web/three/index.js';
import { loadCharacter } from '../../support/characters.js';
import { ikpd } from '../../support/setup.js';

const HALF_LIFE = 0.1;
const SWITCH_EVERY = 1; // seconds: Walk, then Run, then Survey
const FEET = ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'];
const STANCE_SPEED = 40; // cm/s in the world: the Fox is in centimetres
const LOCK_SPEED = 80; // cm/s: the lock's stanceSpeed, 0.8 m/s (its default) in the Fox's centimetres
const SPEEDS = [100, 250, 0]; // cm/s: how fast the clips carry the Fox (tests/support/real-walk.js)
const LEGS = ['b_LeftLeg01_015', 'b_LeftLeg02_016', 'b_LeftFoot01_017', 'b_LeftFoot02_018', 'b_RightLeg01_019', 'b_RightLeg02_020',
  'b_RightFoot01_021', 'b_RightFoot02_022', 'b_LeftUpperArm_09', 'b_LeftForeArm_010', 'b_LeftHand_011', 'b_RightUpperArm_06', 'b_RightForeArm_07', 'b_RightHand_08'];

async function fox() {
  const character = await loadCharacter('Fox');
  const actions = ['Walk', 'Run', 'Survey'].map((name) => character.mixer.clipAction(character.clip(name)));
  const feet = FEET.map((name) => character.scene.getObjectByName(name));
  const legs = LEGS.map((name) => character.scene.getObjectByName(name));
  return { ...character, actions, feet, legs };
}

const feetOf = (c) => { c.scene.updateMatrixWorld(true); return c.feet.map((f) => f.getWorldPosition(new Vector3())); };
// Per leg bone, its world length to its parent (the bone lengths the IK must keep).
const lengthsOf = (c) => c.legs.map((b) => b.getWorldPosition(new Vector3()).distanceTo(b.parent.getWorldPosition(new Vector3())));

/** Plays Walk → Run → Survey at `rate` Hz three ways; per frame the feet, the bones' rotations, lengths. */
export async function playFeet(rate, { options = {}, halfLife = HALF_LIFE } = {}) {
  const [held, plain, cut] = [await fox(), await fox(), await fox()];
  const inertia = new Inertializer(ikpd, held.mixer, { halfLife, feet: 'auto', stanceSpeed: LOCK_SPEED, ...options });
  const alone = new Inertializer(ikpd, plain.mixer, { halfLife });
  for (const c of [held, plain, cut]) c.actions[0].play();
  const frames = [];
  const dt = 1 / rate;
  let z = 0;
  for (let i = 0; i <= 3 * SWITCH_EVERY * rate; i++) {
    const k = Math.floor(i / (SWITCH_EVERY * rate));
    if (i > 0 && i % (SWITCH_EVERY * rate) === 0 && k < 3) {
      inertia.transition(held.actions[k]);
      alone.transition(plain.actions[k]);
      cut.mixer.stopAllAction();
      cut.actions[k].play();
    }
    if (i > 0) z += SPEEDS[Math.min(k, 2)] * dt;
    for (const c of [held, plain, cut]) c.scene.position.z = z;
    if (i > 0) {
      for (const c of [held, plain, cut]) c.mixer.update(dt);
      inertia.update(dt);
      alone.update(dt);
    }
    frames.push({
      held: feetOf(held), plain: feetOf(plain), cut: feetOf(cut),
      turns: { held: inertia.bones.map((b) => b.quaternion.clone()), plain: alone.bones.map((b) => b.quaternion.clone()), cut: inertia.bones.map((b) => cut.scene.getObjectByName(b.name).quaternion.clone()) },
      lengths: lengthsOf(held),
    });
  }
  return { frames, inertia, alone };
}

// The largest per-frame turn of any bone's local rotation (rad) over frames [from, to), one way.
function largestTurn(frames, way, from = 1, to = frames.length) {
  let worst = 0;
  for (let i = from; i < to; i++) {
    frames[i].turns[way].forEach((q, j) => { worst = Math.max(worst, q.angleTo(frames[i - 1].turns[way][j])); });
  }
  return worst;
}

describe('ikpd/three Inertializer with feet on the Fox (Walk → Run → Survey)', () => {
  const figures = {};
  afterAll(() => console.log('Inertializer feet on the Fox (cm):', JSON.stringify(figures)));
  const at = [0.5, 1, 2]; // half-lives after the switch
  const turns = {};
  for (const rate of [30, 60, 240]) {
    it(`${rate} Hz: the new clip's stance feet within 1 cm of the cut from half a half-life on; no jump, lengths kept, no NaN`, async () => {
      const { frames, inertia, alone } = await playFeet(rate);
      expect(inertia.feet.map((leg) => leg.map((b) => b.name))).toEqual([
        ['b_RightUpperArm_06', 'b_RightForeArm_07', 'b_RightHand_08'], ['b_LeftUpperArm_09', 'b_LeftForeArm_010', 'b_LeftHand_011'],
        ['b_LeftLeg01_015', 'b_LeftLeg02_016', 'b_LeftFoot01_017'], ['b_RightLeg01_019', 'b_RightLeg02_020', 'b_RightFoot01_021'],
      ]);
      const dt = 1 / rate;
      let stanceFrames = 0;
      for (const [k, name] of [[1, 'Walk → Run'], [2, 'Run → Survey']]) {
        const start = k * SWITCH_EVERY * rate;
        const held = at.map(() => 0), plain = at.map(() => 0);
        for (let i = start + 1; i <= start + Math.round(0.6 * rate); i++) {
          for (let f = 0; f < FEET.length; f++) {
            if (frames[i].cut[f].distanceTo(frames[i - 1].cut[f]) / dt > STANCE_SPEED) continue; // a cut's foot in stance
            stanceFrames++;
            const since = (i - start) * dt;
            at.forEach((h, n) => {
              if (since < h * HALF_LIFE - 1e-9) return;
              held[n] = Math.max(held[n], frames[i].held[f].distanceTo(frames[i].cut[f]));
              plain[n] = Math.max(plain[n], frames[i].plain[f].distanceTo(frames[i].cut[f]));
            });
          }
        }
        const r = (x) => Math.round(x * 100) / 100;
        figures[`${name} at ${rate} Hz, half-lives ${at.join(', ')}`] = { feet: held.map(r), without: plain.map(r) };
        for (const d of held) expect(d, `${name} at ${rate} Hz`).toBeLessThanOrEqual(1);
        expect(plain[0], 'the inertializer alone is far off').toBeGreaterThan(10);
      }
      expect(stanceFrames).toBeGreaterThan(0.5 * rate);
      // Per frame, the largest bone turn in the 0.1 s after each switch (the lock's ramp), and over the whole run.
      const window = (way) => Math.max(...[1, 2].map((k) => largestTurn(frames, way, k * rate, k * rate + Math.round(0.1 * rate))));
      turns[rate] = { feet: window('held'), without: window('plain'), cut: window('cut'), run: { feet: largestTurn(frames, 'held'), without: largestTurn(frames, 'plain') } };
      // The legs' bone lengths are the clip's (the IK turns bones, never stretches them); no NaN.
      for (const f of frames) {
        f.lengths.forEach((l, j) => expect(Math.abs(l - frames[0].lengths[j])).toBeLessThan(1e-3));
        for (const p of [...f.held, ...f.turns.held.map((q) => ({ x: q.x, y: q.y, z: q.z + q.w }))]) expect(Number.isFinite(p.x + p.y + p.z)).toBe(true);
      }
      inertia.dispose();
      alone.dispose();
    }, 60_000);
  }

  it('the feet move continuously: the per-frame turn of the ramp shrinks with the frame, a cut\'s does not', () => {
    const r = (x) => Math.round(x * 1000) / 1000;
    for (const rate of [30, 60, 240]) {
      const t = turns[rate];
      figures[`largest bone turn a frame in the 0.1 s after a switch at ${rate} Hz (rad)`] = { feet: r(t.feet), without: r(t.without), cut: r(t.cut), wholeRun: { feet: r(t.run.feet), without: r(t.run.without) } };
      expect(t.feet).toBeLessThan(t.cut);
    }
    expect(turns[240].feet).toBeLessThan(0.4 * turns[60].feet);
    expect(turns[240].cut).toBeGreaterThan(0.8 * turns[60].cut);
    // At 240 Hz the ramp's turns are within the clips' own: the whole run's largest is the inertializer's.
    expect(turns[240].run.feet).toBeLessThanOrEqual(turns[240].run.without);
  });
});

describe('ikpd/three Inertializer feet: off, bad options', () => {
  it('without feet (or feet: null) the bones are bit for bit those of an Inertializer without the option', async () => {
    const [a, b] = [await fox(), await fox()];
    const plain = new Inertializer(ikpd, a.mixer, { halfLife: HALF_LIFE });
    const off = new Inertializer(ikpd, b.mixer, { halfLife: HALF_LIFE, feet: null, stanceSpeed: 0.5 });
    expect(off.feet).toBe(null);
    a.actions[0].play();
    b.actions[0].play();
    for (let i = 1; i <= 90; i++) {
      if (i % 30 === 0) { plain.transition(a.actions[(i / 30) % 3]); off.transition(b.actions[(i / 30) % 3]); }
      a.mixer.update(1 / 60); b.mixer.update(1 / 60);
      plain.update(1 / 60); off.update(1 / 60);
      plain.bones.forEach((bone, j) => {
        expect(off.bones[j].quaternion.toArray()).toEqual(bone.quaternion.toArray());
        expect(off.bones[j].position.toArray()).toEqual(bone.position.toArray());
      });
    }
    plain.dispose(); off.dispose();
  });

  it("the lock fades out when the transition has decayed: then the bones are the inertializer alone's, bit for bit", async () => {
    const [a, b] = [await fox(), await fox()];
    const inertia = new Inertializer(ikpd, a.mixer, { halfLife: HALF_LIFE, feet: 'auto', stanceSpeed: LOCK_SPEED });
    const alone = new Inertializer(ikpd, b.mixer, { halfLife: HALF_LIFE });
    a.actions[1].play(); b.actions[1].play();
    const step = () => { a.mixer.update(1 / 60); b.mixer.update(1 / 60); inertia.update(1 / 60); alone.update(1 / 60); };
    for (let i = 0; i < 30; i++) step();
    inertia.transition(a.actions[2]);
    alone.transition(b.actions[2]);
    let locked = 0;
    // Each lock weight is the exact PD's (ikpd.PD, settleTime half the half-life) stepped toward the stance goal.
    const pds = inertia.feet.map(() => new ikpd.PD({ settleTime: HALF_LIFE / 2, value: 0 }));
    for (let i = 0; i < 60; i++) {
      step();
      if (i === 10) locked = Math.max(...inertia._feet.weights);
      inertia._feet.cut.forEach((_, k) => {
        const w = pds[k].update(1 / 60, inertia._feet.stance[k] !== 0 ? 1 : 0);
        if (inertia._feet.weights[k] !== 0) expect(Math.abs(inertia._feet.weights[k] - Math.min(1, Math.max(0, w)))).toBeLessThan(1e-9);
      });
    }
    for (const pd of pds) pd.dispose();
    expect(locked).toBeGreaterThan(0.99); // Survey stands: every foot in stance, held
    expect(Math.max(...inertia._feet.weights)).toBe(0); // 10 half-lives on: released
    inertia.bones.forEach((bone, j) => {
      expect(bone.quaternion.toArray()).toEqual(alone.bones[j].quaternion.toArray());
      expect(bone.position.toArray()).toEqual(alone.bones[j].position.toArray());
    });
    inertia.dispose();
    alone.dispose();
  });

  it('bad feet and stanceSpeed are errors naming them; unknown names suggested; nothing changes', async () => {
    const c = await fox();
    const make = (o) => new Inertializer(ikpd, c.mixer, o);
    expect(() => make({ feet: 3 })).toThrow(TypeError);
    expect(() => make({ feet: 3 })).toThrow(/^feet: expected 'auto', null or \[\[upper, lower, foot\], …\], got number/);
    expect(() => make({ feet: 'yes' })).toThrow(/^feet:/);
    expect(() => make({ feet: [] })).toThrow(/^feet:/);
    expect(() => make({ feet: [['b_LeftLeg01_015', 'b_LeftLeg02_016']] })).toThrow(RangeError);
    expect(() => make({ feet: [['b_LeftLeg01_015', 'b_LeftLeg02_016']] })).toThrow(/^feet\[0\]: expected \[upper, lower, foot\]/);
    expect(() => make({ feet: [['b_LeftLeg01_015', 'b_LeftLeg02_016', 'nope']] })).toThrow(/^feet\[0\]\[2\]: no bone or humanoid role named 'nope'/);
    expect(() => make({ feet: [['b_LeftLeg01_015', 'b_LeftFoot01_017', 'b_LeftLeg02_016']] })).toThrow(/^feet\[0\]/);
    expect(() => make({ feet: 'auto', stanceSpeed: -1 })).toThrow(RangeError);
    expect(() => make({ feet: 'auto', stanceSpeed: -1 })).toThrow(/^stanceSpeed: must be a finite number > 0/);
    expect(() => make({ feet: 'auto', stanceSpeed: '1' })).toThrow(TypeError);
    expect(() => make({ feet: 'auto', stanceSpeed: NaN })).toThrow(/^stanceSpeed:/);
    expect(() => make({ feets: 'auto' })).toThrow(/feets: unknown option of Inertializer \(did you mean 'feet'\?\)/);
    expect(() => make({ stanceSped: 1 })).toThrow(/did you mean 'stanceSpeed'\?/);
    const inertia = make({ feet: 'auto', stanceSpeed: LOCK_SPEED });
    expect(inertia.stanceSpeed).toBe(LOCK_SPEED);
    expect(() => { inertia.stanceSpeed = 0; }).toThrow(/^stanceSpeed:/);
    expect(inertia.stanceSpeed).toBe(LOCK_SPEED);
    c.actions[0].play();
    expect(() => inertia.transition(c.actions[1], { feet: null })).toThrow(/feet: unknown option of Inertializer.transition/);
    expect(c.actions[0].isRunning()).toBe(true);
    expect(new Inertializer(ikpd, c.mixer).stanceSpeed).toBe(0.8); // the default (world units per second)
    inertia.dispose();
  });
});
