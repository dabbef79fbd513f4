// The avatar scene (AvatarIK, docs/rig/avatar.md) in headless Chromium: it
// loads without console errors and renders; the scripted tracking session
// keeps the head and hands on their targets; dragging a hand target (the test
// hook's setTarget) takes over from the script and the hand follows; off, the
// avatar blends out; the full-body trackers toggle puts the pelvis and
// feet on their targets too (scripted and dragged); CesiumMan and a dropped .glb (written by GLTFExporter in
// Node) take the built-in humanoid's place; the scripted reach beyond the
// arms is reached with the arm stretch on, short with it off, blended back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, dropFile, openDemoSession } from './browser.js';
import { pixelStats } from './pixels.js';
import { exportHumanoidGlb } from '../support/gltf-round-trip.js';

const SLOW = 240_000;
const CENTER = { x: 0.25, y: 0.2, width: 0.5, height: 0.55 };
let session;

beforeAll(async () => {
  session = await openDemoSession('#avatar');
}, SLOW);

afterAll(() => session?.close());

/**
 * Runs `count` updates of `dt` and returns the largest distance of a bone from its target after the
 * first `settle`, leaving out the head on frames where a leg stands straight (`legBound` counts them,
 * `straightAt` gives their times: the planted feet hold the pelvis down, so the head target is out of
 * reach until a foot steps).
 */
const run = (page, dt, count, settle = 0) => page.evaluate(([step, n, skip]) => {
  const hook = window.__ikpdDemo;
  let worst = 0, state = null, worstAt = null, legBound = 0;
  const straightAt = [];
  for (let i = 0; i < n; i++) {
    state = hook.simulate(step);
    if (i < skip) continue;
    const d = { ...state.distances };
    if (state.legStraight && d.head > 1e-3) delete d.head, ++legBound, straightAt.push(state.time);
    if (Math.max(...Object.values(d)) > worst) worst = Math.max(...Object.values(d)), worstAt = { i, ...d };
  }
  return { worst, state, worstAt, legBound, straightAt };
}, [dt, count, settle]);

describe('avatar scene', () => {
  it('the scripted session keeps the head and hands on their targets; a dragged target takes over', async () => {
    const { page, errors } = session;
    await page.evaluate(() => window.__ikpdDemo.select('avatar', { frames: 2 }));
    expect(await page.evaluate(() => window.__ikpdDemo.sceneList.find((s) => s.id === 'avatar').available)).toBe(true);
    // The whole 25 s session at 30 Hz (the walk, side steps and walk back
    // included), after the weights' blend-in (1 s).
    const scripted = await run(page, 1 / 30, 30 * 26, 30);
    expect(scripted.state.message).toBe('');
    expect(scripted.state.mode).toBe('script');
    expect(scripted.state.convention).toBe('mixamo');
    expect(scripted.state.time).toBeGreaterThan(25);
    expect(scripted.worst, JSON.stringify(scripted.worstAt)).toBeLessThan(1e-3);
    // A leg stands straight only in the walk and side steps (14–23 s), never while looking around,
    // crouching, reaching or turning in place, nor while standing after the walk: the settling steps
    // put the feet under the body the instant it comes still (docs/rig/avatar.md, "Steps").
    console.log(`avatar scene: a leg straight (head out of reach) on ${scripted.legBound} of ${30 * 25} frames`);
    expect(scripted.straightAt.filter((t) => t % 25 > 1.5 && (t % 25 < 14 || t % 25 > 23.5))).toEqual([]);
    // The walk (14–17 s, 1 m forward, onto a step) and the side step (17–18.5 s, 0.5 m
    // left) of the next loop: the feet step along, apart, never cross, and stand on the step.
    const walk = await page.evaluate(() => {
      const hook = window.__ikpdDemo;
      const at = {};
      let closest = Infinity, crossed = false, state = hook.state();
      const onStep = [], floor = [];
      let lowest = Infinity, last = null;
      for (let i = 0; i < 30 * 25 && !at.side; i++) {
        state = hook.simulate(1 / 30);
        const t = state.time % 25;
        if (t >= 14 && t < 18.7) {
          const [l, r] = state.feet;
          // Over the step (its box, 2 cm in from its edges): a planted foot (still since the last frame)
          // stands on it as high as on the floor (within 1 mm); none is ever lower than that.
          const box = state.step.box;
          // (How high a foot stands on the floor: where it was last planted off the step.)
          state.feet.forEach((foot, k) => {
            const still = last && Math.hypot(...foot.map((v, i) => v - last[k][i])) < 1e-6;
            if (foot[0] < box[0] + 0.02 || foot[0] > box[3] - 0.02 || foot[2] < box[2] + 0.02 || foot[2] > box[5] - 0.02) {
              if (still && (foot[0] < box[0] || foot[0] > box[3] || foot[2] < box[2] || foot[2] > box[5])) floor[k] = foot[1];
              return;
            }
            if (floor[k] === undefined) return;
            const above = foot[1] - floor[k] - state.step.rise;
            if (still) onStep.push(Math.abs(above));
            lowest = Math.min(lowest, above);
          });
          last = state.feet;
          closest = Math.min(closest, Math.hypot(l[0] - r[0], l[2] - r[2]));
          crossed ||= l[0] - r[0] < 0; // the built-in humanoid faces +z: its left foot is at +x
        }
        if (t >= 14 && t < 14.1 && !at.start) at.start = { feet: state.feet, walked: state.walked };
        if (t >= 17 && t < 17.1 && at.start && !at.forward) at.forward = { feet: state.feet, walked: state.walked };
        if (t >= 18.6 && at.forward) at.side = { feet: state.feet, walked: state.walked };
      }
      // Home again and standing (the next loop's first seconds) before a target is dragged.
      for (let i = 0; i < 30 * 25 && !(state.time % 25 >= 2 && state.time % 25 < 14); i++) state = hook.simulate(1 / 30);
      return { ...at, closest, crossed, walked: state.walked, onStep, lowest };
    });
    // The walk crosses a step (docs/rig/avatar.md, "Uneven ground"): the planted feet on it.
    expect(walk.onStep.length).toBeGreaterThan(10);
    expect(Math.max(...walk.onStep)).toBeLessThan(1e-3);
    expect(walk.lowest).toBeGreaterThan(-1e-3);
    expect(walk.forward.walked).toBeGreaterThan(0.9);
    for (const k of [0, 1]) {
      expect(walk.forward.feet[k][2] - walk.start.feet[k][2], `foot ${k} forward`).toBeGreaterThan(0.7);
      expect(walk.side.feet[k][0] - walk.forward.feet[k][0], `foot ${k} to the left`).toBeGreaterThan(0.3);
    }
    expect(walk.crossed).toBe(false);
    expect(walk.closest).toBeGreaterThan(0.05);
    expect(walk.walked).toBe(0);
    // The reach forward beyond the arms (10.5 s): with the arm stretch on (the default) the hands are on
    // their targets (the whole session above); toggled off they stop short (the arms straight), on
    // again they reach, blended (no frame jump).
    const reach = await page.evaluate(() => {
      const hook = window.__ikpdDemo;
      let state = hook.state();
      for (let i = 0; i < 30 * 25 && !(state.time % 25 >= 10.45 && state.time % 25 < 10.5); i++) state = hook.simulate(1 / 30);
      const on = state.distances;
      hook.control('arm stretch (up to 1.3×)', false);
      return { on, stretch: state.armStretch, time: state.time % 25 };
    });
    expect(reach.stretch).toBeCloseTo(1.3, 5);
    expect(Math.max(reach.on.leftHand, reach.on.rightHand)).toBeLessThan(1e-3);
    // Off: the script held at the far reach (speed 0), the hands blend back to straight arms, short of the
    // targets; on again (stepped at 240 Hz) they close the gap at the PD's pace and reach.
    await page.evaluate(() => window.__ikpdDemo.control('script speed', 0));
    const short = await run(page, 1 / 30, 30);
    expect(short.state.armStretch).toBe(1);
    expect(short.state.distances.leftHand).toBeGreaterThan(0.02);
    await page.evaluate(() => window.__ikpdDemo.control('arm stretch (up to 1.3×)', true));
    const back = await page.evaluate(() => {
      const hook = window.__ikpdDemo;
      let fastest = 0, last = hook.state().distances.leftHand, state = null;
      for (let i = 0; i < 240; i++) {
        state = hook.simulate(1 / 240);
        fastest = Math.max(fastest, Math.abs(state.distances.leftHand - last));
        last = state.distances.leftHand;
      }
      return { fastest, state };
    });
    console.log(`avatar scene: arm stretch back on, the left hand ${(short.state.distances.leftHand * 1000).toFixed(1)} mm short, closing at most ${(back.fastest * 240).toFixed(2)} m/s (240 Hz)`);
    expect(back.fastest * 240).toBeLessThan(2.5); // m/s, 1.75 measured: blended by the PD (a jump: the whole gap in one 240 Hz frame)
    expect(Math.max(back.state.distances.leftHand, back.state.distances.rightHand)).toBeLessThan(1e-3);
    await page.evaluate(() => window.__ikpdDemo.control('script speed', 1));
    // A dragged hand target: the script stops, the hand follows.
    await page.evaluate(() => window.__ikpdDemo.setTarget('right hand target', [-0.3, 1.35, 0.35]));
    const dragged = await run(page, 1 / 60, 60);
    expect(dragged.state.mode).toBe('drag');
    expect(dragged.state.distances.rightHand).toBeLessThan(1e-3);
    await page.evaluate(() => window.__ikpdDemo.renderFrames(2));
    const jpeg = await page.screenshot({ path: artifactPath('demo-avatar.jpg'), type: 'jpeg', quality: 85 });
    expect((await pixelStats(page, jpeg, CENTER)).std).toBeGreaterThan(4);
    // Off: blended out.
    await page.evaluate(() => window.__ikpdDemo.control('avatar on (off → blend out)', false));
    expect((await run(page, 1 / 60, 60)).state.active).toBe(false);
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => window.__ikpdDemo.errors)).toEqual([]);
  }, SLOW);

  it('runs on CesiumMan', async () => {
    const { page, errors } = session;
    await page.evaluate(() => window.__ikpdDemo.control('avatar on (off → blend out)', true));
    await page.evaluate(() => window.__ikpdDemo.control('character', 'CesiumMan'));
    await page.waitForFunction(() => window.__ikpdDemo.state().character === 'CesiumMan', null, { timeout: 60_000 });
    await page.evaluate(() => window.__ikpdDemo.reset());
    const scripted = await run(page, 1 / 30, 30 * 6, 30);
    expect(scripted.state.message).toBe('');
    expect(scripted.state.convention).toBe('table');
    expect(scripted.worst).toBeLessThan(1e-3);
    await page.evaluate(() => window.__ikpdDemo.renderFrames(1));
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => window.__ikpdDemo.errors)).toEqual([]);
  }, SLOW);

  it('runs on a dropped .glb (Mixamo names, mixed bone axes, a turned centimetre armature)', async () => {
    const { page, errors } = session;
    const bytes = Array.from(await exportHumanoidGlb({ axes: 'mixed', mixamoArmature: true, seed: 4 }));
    await dropFile(page, 'dropped.glb', bytes);
    await page.waitForFunction(() => window.__ikpdDemo.state().character === 'dropped.glb', null, { timeout: 60_000 });
    await page.evaluate(() => window.__ikpdDemo.reset());
    const scripted = await run(page, 1 / 30, 30 * 6, 30);
    expect(scripted.state.message).toBe('');
    expect(scripted.state.convention).toBe('mixamo');
    expect(scripted.worst).toBeLessThan(1e-3);
    await page.evaluate(() => window.__ikpdDemo.renderFrames(1));
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => window.__ikpdDemo.errors)).toEqual([]);
  }, SLOW);
  it('full-body trackers: the pelvis and feet on their targets too, scripted and dragged', async () => {
    const { page, errors } = session;
    await page.evaluate(() => window.__ikpdDemo.control('avatar on (off → blend out)', true));
    await page.evaluate(() => window.__ikpdDemo.reset());
    await page.evaluate(() => window.__ikpdDemo.control('full-body trackers', true));
    // The whole session at 30 Hz with six targets (the left foot lifts, the pelvis crouches), after the blend-in.
    const scripted = await run(page, 1 / 30, 30 * 23, 30);
    expect(scripted.state.message).toBe('');
    expect(scripted.state.fullBody).toBe(true);
    expect(Object.keys(scripted.state.distances).sort()).toEqual(['head', 'leftFoot', 'leftHand', 'pelvis', 'rightFoot', 'rightHand']);
    expect(scripted.worst, JSON.stringify(scripted.worstAt)).toBeLessThan(1e-3);
    // A dragged foot target: the foot follows.
    await page.evaluate(() => window.__ikpdDemo.setTarget('left foot target', [0.12, 0.3, 0.2]));
    const dragged = await run(page, 1 / 60, 60);
    expect(dragged.state.mode).toBe('drag');
    expect(dragged.state.distances.leftFoot).toBeLessThan(1e-3);
    await page.evaluate(() => window.__ikpdDemo.renderFrames(1));
    await page.evaluate(() => window.__ikpdDemo.control('full-body trackers', false));
    expect((await run(page, 1 / 60, 30)).state.fullBody).toBe(false);
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => window.__ikpdDemo.errors)).toEqual([]);
  }, SLOW);

});
