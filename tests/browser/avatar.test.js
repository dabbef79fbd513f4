// The avatar scene (AvatarIK, docs/rig/avatar.md) in headless Chromium: it
// loads without console errors and renders; the scripted tracking session
// keeps the head and hands on their targets; dragging a hand target (the test
// hook's setTarget) takes over from the script and the hand follows; off, the
// avatar blends out; the full-body trackers toggle puts the pelvis and
// feet on their targets too (scripted and dragged); CesiumMan and a dropped .glb (written by GLTFExporter in
// Node) take the built-in humanoid's place.
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

/** Runs `count` updates of `dt` and returns the largest distance of a bone from its target after the first `settle`. */
const run = (page, dt, count, settle = 0) => page.evaluate(([step, n, skip]) => {
  const hook = window.__ikpdDemo;
  let worst = 0, state = null, worstAt = null;
  for (let i = 0; i < n; i++) {
    state = hook.simulate(step);
    if (i >= skip && Math.max(...Object.values(state.distances)) > worst) worst = Math.max(...Object.values(state.distances)), worstAt = { i, ...state.distances };
  }
  return { worst, state, worstAt };
}, [dt, count, settle]);

describe('avatar scene', () => {
  it('the scripted session keeps the head and hands on their targets; a dragged target takes over', async () => {
    const { page, errors } = session;
    await page.evaluate(() => window.__ikpdDemo.select('avatar', { frames: 2 }));
    expect(await page.evaluate(() => window.__ikpdDemo.sceneList.find((s) => s.id === 'avatar').available)).toBe(true);
    // The whole 14 s session at 30 Hz, after the weights' blend-in (1 s).
    const scripted = await run(page, 1 / 30, 30 * 15, 30);
    expect(scripted.state.message).toBe('');
    expect(scripted.state.mode).toBe('script');
    expect(scripted.state.convention).toBe('mixamo');
    expect(scripted.state.time).toBeGreaterThan(14);
    expect(scripted.worst).toBeLessThan(1e-3);
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
    const scripted = await run(page, 1 / 30, 30 * 15, 30);
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
