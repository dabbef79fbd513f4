// The transitions scene (Inertializer, docs/pd/inertializer.md, "three.js") in headless
// Chromium: it loads without console errors and renders; rapid switches (Walk, Run,
// Survey, 50 ms apart, then held) keep the inertialized Fox's front foot moving without
// a jump and every value finite; the keys switch too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, openDemoSession } from './browser.js';
import { pixelStats } from './pixels.js';

const SLOW = 240_000;
const CENTER = { x: 0.25, y: 0.2, width: 0.5, height: 0.55 };
let session;

beforeAll(async () => {
  session = await openDemoSession('#transitions');
}, SLOW);

afterAll(() => session?.close());

describe('transitions scene', () => {
  it('switches Survey, Walk and Run by buttons and keys without a jump', async () => {
    const { page, errors } = session;
    await page.evaluate(() => window.__ikpdDemo.select('transitions', { frames: 2 }));
    expect(await page.evaluate(() => window.__ikpdDemo.sceneList.find((s) => s.id === 'transitions').available)).toBe(true);
    const state = await page.evaluate(() => {
      const hook = window.__ikpdDemo;
      hook.simulate(1 / 60, 60);
      for (const clip of ['Walk', 'Run', 'Survey', 'Run', 'Walk']) { hook.control('clip', clip); hook.simulate(1 / 60, 3); }
      hook.simulate(1 / 60, 60);
      return hook.state();
    });
    expect(state.clip).toBe('Walk');
    expect(state.switches).toBe(5);
    expect(state.finite).toBe(true);
    // The Fox's front foot moves at most 250 cm/s in its clips: ~4 cm a frame at 60 Hz.
    expect(state.largestStep).toBeLessThan(8);
    await page.keyboard.press('r');
    expect((await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 30))).clip).toBe('Run');
    await page.evaluate(() => window.__ikpdDemo.renderFrames(2));
    const jpeg = await page.screenshot({ path: artifactPath('demo-transitions.jpg'), type: 'jpeg', quality: 85 });
    expect((await pixelStats(page, jpeg, CENTER)).std).toBeGreaterThan(4);
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => window.__ikpdDemo.errors)).toEqual([]);
  }, SLOW);
});
