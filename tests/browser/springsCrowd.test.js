// The spring-bone crowd scene (demo/scenes/springsCrowd.js, docs/rig/springs.md
// "A crowd") in headless Chromium: 500 avatars with hair and a tail of spring
// bones as one RigBatch (two threads where the page is cross-origin isolated);
// it loads without console errors and renders a non-blank frame; stepped 2 s,
// the springs swing the chains (their first joints turn), the tips move, every
// drawn point is finite and the readout gives a finite time per frame; the
// count control rebuilds the batch for 50 avatars, freeing what it replaced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, openDemoSession } from './browser.js';
import { pixelStats } from './pixels.js';

const SLOW = 240_000;
const CENTER = { x: 0.25, y: 0.2, width: 0.5, height: 0.55 };
let session;

beforeAll(async () => {
  session = await openDemoSession('#springs-crowd');
}, SLOW);

afterAll(() => session?.close());

describe('springs crowd scene', () => {
  it('steps 500 avatars\' spring bones in one RigBatch: the tails move, nothing is NaN, no console errors', async () => {
    const { page, errors } = session;
    await page.evaluate(() => window.__ikpdDemo.select('springs-crowd', { frames: 2 }));
    expect(await page.evaluate(() => window.__ikpdDemo.sceneList.find((s) => s.id === 'springs-crowd').available)).toBe(true);
    const before = await page.evaluate(() => window.__ikpdDemo.state());
    const state = await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 120));
    const moved = Math.max(...state.tips.map((p, k) => Math.hypot(p[0] - before.tips[k][0], p[1] - before.tips[k][1], p[2] - before.tips[k][2])));
    console.log(`springs crowd: ${state.count} avatars × ${state.joints} joints, threads ${state.threads}: ${state.readout}; the chains swing up to ${(state.swing * 180 / Math.PI).toFixed(1)}°, tips moved up to ${(moved * 1e3).toFixed(0)} mm`);
    expect(state.count).toBe(500);
    expect(state.joints).toBe(38);
    expect(state.finite).toBe(true);
    expect(state.tips.flat().every(Number.isFinite)).toBe(true);
    expect(state.swing).toBeGreaterThan(0.1);
    expect(moved).toBeGreaterThan(0.01);
    expect(Number.isFinite(state.solveMs) && state.solveMs > 0).toBe(true);
    expect(state.readout).toMatch(/^500 avatars × 38 spring joints, one RigBatch\.update: \d+\.\d\d ms per frame \((one thread|\d+ threads)\)$/);
    await page.evaluate(() => window.__ikpdDemo.renderFrames(2));
    const jpeg = await page.screenshot({ path: artifactPath('demo-springs-crowd.jpg'), type: 'jpeg', quality: 85 });
    expect((await pixelStats(page, jpeg, CENTER)).std).toBeGreaterThan(4);
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => window.__ikpdDemo.errors)).toEqual([]);
  }, SLOW);

  it('the count control rebuilds the batch, freeing the one it replaced', async () => {
    const { page, errors } = session;
    const result = await page.evaluate(() => {
      const hook = window.__ikpdDemo;
      hook.control('avatars', 50);
      const small = hook.simulate(1 / 60, 30);
      const used = hook.wasmMemory().usedBytes;
      hook.control('avatars', 2000);
      hook.simulate(1 / 60, 2);
      hook.control('avatars', 50);
      const again = hook.simulate(1 / 60, 30);
      return { small, again, used, after: hook.wasmMemory().usedBytes };
    });
    expect(result.small.count).toBe(50);
    expect(result.small.finite && result.again.finite).toBe(true);
    expect(result.small.swing).toBeGreaterThan(0.1);
    expect(result.after).toBe(result.used);
    expect(errors).toEqual([]);
  }, SLOW);
});
