// Grounding on real characters playing their own clips (docs/rig/grounding.md,
// "What is tested"): CesiumMan walks at its clip speed on the authored floor,
// a raised floor, a 15° slope and a 10 cm step, and the Fox walks and runs on a
// slope and bumps, with IKRig's defaults, at 30, 60 and 240 Hz.
import { describe, expect, it } from 'vitest';
import { GROUNDS, stanceWindows, walkCesiumMan, walkCharacter } from '../../support/real-walk.js';

const RATES = [30, 60, 240];
const mm = (m) => m * 1000;

const horizontal = (p, q) => Math.hypot(p.x - q.x, p.z - q.z);

// From 0.1 s into each stance: the largest sole height error and slide, and how much the
// sole slid more than the clip's own foot over the whole stance (a lock the clip's leg
// cannot reach follows the animated foot: docs/rig/grounding.md, "Plant lock").
function stanceFigures(frames) {
  let error = 0, slide = 0, excess = 0, windows = 0;
  const errors = [];
  for (const k of frames[0].soleOut.keys()) {
    for (const [a, b, begin] of stanceWindows(frames, k, 0.1)) {
      windows++;
      const start = frames[a].soleOut[k];
      let own = 0, most = 0;
      for (let i = a; i <= b; i++) {
        const f = frames[i];
        errors.push(Math.abs(f.soleOut[k].y - f.expected[k]));
        error = Math.max(error, errors[errors.length - 1]);
        most = Math.max(most, horizontal(f.soleOut[k], start));
      }
      for (let i = begin; i <= b; i++) for (let j = i + 1; j <= b; j++) own = Math.max(own, horizontal(frames[i].animated.toes[k], frames[j].animated.toes[k]));
      slide = Math.max(slide, most);
      excess = Math.max(excess, most - own);
    }
  }
  errors.sort((a, b) => a - b);
  return { error, median: errors[Math.floor(errors.length / 2)], slide, excess, windows };
}

describe('grounding on real characters playing their own clips', () => {
  for (const ground of ['floor', 'raised', 'slope', 'step']) {
    for (const rate of RATES) {
      it(`${ground} at ${rate} Hz: stance soles where the animation puts them plus the ground change; no slide past the clip's`, async () => {
        const { frames } = await walkCesiumMan({ rate, ground });
        const { error, slide, excess, windows } = stanceFigures(frames);
        expect(windows).toBeGreaterThanOrEqual(3);
        expect(mm(error)).toBeLessThanOrEqual(1);
        // Where the clip's leg cannot hold the lock it follows the clip's own slide, never more;
        // on the slope (the pelvis lowered for the downhill foot) every lock holds.
        expect(mm(excess)).toBeLessThanOrEqual(1);
        if (ground === 'slope') expect(mm(slide)).toBeLessThanOrEqual(1);
        for (const f of frames) for (const p of [...f.out.toes, f.out.pelvis]) expect(Number.isFinite(p.y)).toBe(true);
      });
    }
  }

  for (const rate of RATES) {
    it(`on the authored floor at ${rate} Hz the heights and the pelvis are the animation's (≤ 0.5 mm)`, async () => {
      const { frames } = await walkCesiumMan({ rate, ground: 'floor' });
      let worst = 0;
      for (const f of frames) {
        worst = Math.max(worst, f.out.pelvis.distanceTo(f.animated.pelvis));
        for (const k of [0, 1]) {
          worst = Math.max(worst, Math.abs(f.out.toes[k].y - f.animated.toes[k].y), Math.abs(f.out.ankles[k].y - f.animated.ankles[k].y));
        }
      }
      expect(mm(worst)).toBeLessThanOrEqual(0.5);
    });
  }

  // The target is 1 mm at every rate. It holds on the floor and the step (an edge crossed between
  // two frames is taken where it was crossed) and on the slope, at 30 Hz by the sub-steps between
  // frames (0.75 mm measured, docs/rig/grounding.md; 2.33 mm without them).
  const PELVIS_BOUND = { floor: { 30: 1, 60: 1 }, slope: { 30: 0.8, 60: 1 }, step: { 30: 1, 60: 1 } };
  for (const [ground, bounds] of Object.entries(PELVIS_BOUND)) {
    for (const rate of [30, 60]) {
      it(`${ground}: the pelvis height at ${rate} Hz and 240 Hz agrees within ${bounds[rate]} mm`, async () => {
        const [a, b] = await Promise.all([walkCesiumMan({ rate, ground }), walkCesiumMan({ rate: 240, ground })]);
        const k = 240 / rate;
        let worst = 0;
        for (let i = Math.round(0.1 * rate); i < a.frames.length; i++) worst = Math.max(worst, Math.abs(a.frames[i].out.pelvis.y - b.frames[k * i].out.pelvis.y));
        expect(mm(worst)).toBeLessThanOrEqual(bounds[rate]);
      });
    }
  }

  it('a rig built at rest, at the loader pose or mid-stride gives the same result (≤ 0.1 mm)', async () => {
    const runs = await Promise.all([0, 0.5, 1.3].map((warmup) => walkCesiumMan({ rate: 60, ground: 'slope', seconds: 2, warmup })));
    let worst = 0;
    for (let i = 0; i < runs[0].frames.length; i++) {
      for (const r of runs.slice(1)) {
        const f = r.frames[i], g = runs[0].frames[i];
        worst = Math.max(worst, f.out.pelvis.distanceTo(g.out.pelvis), ...[0, 1].map((k) => f.out.toes[k].distanceTo(g.out.toes[k])));
      }
    }
    expect(mm(worst)).toBeLessThanOrEqual(0.1);
    expect(runs[1].soles).toEqual(runs[0].soles);
  });

  it('derived defaults read back as the numbers in force', async () => {
    const { inForce } = await walkCesiumMan({ rate: 30, seconds: 0.1 });
    expect(inForce.soleOffsets).toHaveLength(2);
    for (const s of inForce.soleOffsets) expect(s).toBeGreaterThan(0.01);
    // CesiumMan's shortest leg (hip → knee → ankle) is about 0.5 m.
    expect(inForce.maxPelvisDrop).toBeGreaterThan(0.1);
    expect(inForce.maxPelvisRise).toBeGreaterThan(0.03);
    expect(inForce.plantHeight).toBeGreaterThan(0.01);
    expect(inForce.unplantRadius).toBeGreaterThan(0.05);
  });

  it('played in place with the root moving, feet plant; without moving it, reached says they are not planted', async () => {
    const moving = await walkCesiumMan({ rate: 60, ground: 'floor', seconds: 2 });
    expect(moving.frames.filter((f) => f.reached).length).toBeGreaterThan(moving.frames.length * 0.4);
    const still = await walkCesiumMan({ rate: 60, ground: 'floor', seconds: 2, speed: 0 });
    expect(still.frames.slice(30).every((f) => !f.reached)).toBe(true);
  });

  // The Fox (centimetres, four legs) on its own Walk and Run: every figure is measured and
  // reported in docs/rig/grounding.md; what holds is asserted here. The stance soles are
  // within 1 mm in the median; the worst sole within the bound just above the largest of the
  // three rates (the target is 1 mm).
  const FOX_WORST = { Walk: { slope: 0.5, bumps: 0.35 }, Run: { slope: 0.05, bumps: 0.45 } };
  for (const clip of ['Walk', 'Run']) {
    for (const ground of ['slope', 'bumps']) {
      for (const rate of RATES) {
        it(`the Fox's ${clip} on ${ground} at ${rate} Hz: four legs grounded, stance soles on the ground, the body pitched to the slope, no slide past the clip's`, async () => {
          const { frames, unit } = await walkCharacter({ name: 'Fox', clip, rate, ground, seconds: 3 });
          const { error, median, excess, windows } = stanceFigures(frames);
          expect(windows).toBeGreaterThanOrEqual(8);
          expect(mm(median * unit)).toBeLessThanOrEqual(1);
          expect(mm(error * unit)).toBeLessThanOrEqual(FOX_WORST[clip][ground]);
          expect(mm(excess * unit)).toBeLessThanOrEqual(1);
          for (const f of frames) for (const p of [...f.out.toes, f.out.pelvis]) expect(Number.isFinite(p.y)).toBe(true);
          const pitch = (Math.max(...frames.slice(rate / 2).map((f) => f.pelvisTurn)) * 180) / Math.PI;
          if (ground === 'slope') expect(pitch).toBeGreaterThan(12), expect(pitch).toBeLessThan(19);
          else expect(pitch).toBeLessThan(9);
        });
      }
    }
  }
});
