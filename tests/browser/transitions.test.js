// The transitions scene (ikpd/three's Inertializer, docs/pd/inertializer.md) in
// headless Chromium: it loads without console errors and renders; switching clips
// every 50 ms never jumps, on the Fox (Survey, Walk, Run) and the built-in humanoid
// (idle, walk, run): the largest per-frame bone turn shrinks with the frame time
// (a continuous pose), where a half-life of 0 (a cut) jumps by the same angle at any
// rate; the cross-fade ghost's figure is printed; the clip keys switch too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, openDemoSession } from './browser.js';
import { pixelStats } from './pixels.js';

const SLOW = 240_000;
const CENTER = { x: 0.2, y: 0.2, width: 0.5, height: 0.55 };
let session;

beforeAll(async () => {
  session = await openDemoSession('#transitions');
}, SLOW);

afterAll(() => session?.close());

/**
 * Two seconds of switches every 50 ms at `rate` Hz with `halfLife`: the largest per-frame
 * bone turn (rad) of the inertialized copy and of the cross-fade ghost, and the state.
 */
const rapid = (page, rate, halfLife) => page.evaluate(([hz, h]) => {
  const hook = window.__ikpdDemo;
  hook.control('half-life (s)', h);
  hook.control('every (s)', 0.05);
  hook.control('rapid switching', true);
  hook.simulate(1 / hz, 0); // starts the worst turn again
  const state = hook.simulate(1 / hz, 2 * hz);
  hook.control('rapid switching', false);
  return { inertialized: state.worstJump[0], crossFade: state.worstJump[1], state };
}, [rate, halfLife]);

async function checkCharacter(page, character) {
  await page.evaluate((c) => window.__ikpdDemo.control('character', c), character);
  await page.waitForFunction((c) => window.__ikpdDemo.state().character === c, character, { timeout: 60_000 });
  const [at60, at240] = [await rapid(page, 60, 0.1), await rapid(page, 240, 0.1)];
  const [cut60, cut240] = [await rapid(page, 60, 0), await rapid(page, 240, 0)];
  console.log(`transitions scene, ${character}, switches every 50 ms: largest bone turn a frame, 60 / 240 Hz: ` +
    `inertialized ${at60.inertialized.toFixed(3)} / ${at240.inertialized.toFixed(3)} rad, cut ${cut60.inertialized.toFixed(3)} / ${cut240.inertialized.toFixed(3)}, ` +
    `crossFadeTo ${at60.crossFade.toFixed(3)} / ${at240.crossFade.toFixed(3)}`);
  expect(at240.state.transitions - at60.state.transitions, character).toBeGreaterThan(30);
  expect(at240.state.message).toBe('');
  // Continuous: a quarter of the frame time, about a quarter of the turn; a cut's stays.
  expect(at240.inertialized, character).toBeLessThan(0.4 * at60.inertialized);
  expect(cut240.inertialized, character).toBeGreaterThan(0.8 * cut60.inertialized);
  expect(cut60.inertialized, character).toBeGreaterThan(2 * at60.inertialized);
  const { footHeight, hipsSpeed, samples } = at240.state;
  expect(samples).toBeGreaterThan(100);
  expect([...footHeight, ...hipsSpeed].every(Number.isFinite)).toBe(true);
}

describe('transitions scene', () => {
  it('the Fox: switches every 50 ms never jump, a cut does; the keys switch', async () => {
    const { page, errors } = session;
    await page.evaluate(() => window.__ikpdDemo.select('transitions', { frames: 2 }));
    expect(await page.evaluate(() => window.__ikpdDemo.sceneList.find((s) => s.id === 'transitions').available)).toBe(true);
    await checkCharacter(page, 'Fox');
    await page.keyboard.press('r');
    expect((await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 30))).clip).toBe('Run');
    await page.keyboard.press('s');
    expect((await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 30))).clip).toBe('Survey');
    await page.evaluate(() => window.__ikpdDemo.renderFrames(2));
    const jpeg = await page.screenshot({ path: artifactPath('demo-transitions.jpg'), type: 'jpeg', quality: 85 });
    expect((await pixelStats(page, jpeg, CENTER)).std).toBeGreaterThan(4);
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => window.__ikpdDemo.errors)).toEqual([]);
  }, SLOW);

  it('the built-in humanoid (idle, walk, run baked into clips): the same', async () => {
    const { page, errors } = session;
    await checkCharacter(page, 'Humanoid');
    await page.keyboard.press('i');
    expect((await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 30))).clip).toBe('Idle');
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => window.__ikpdDemo.errors)).toEqual([]);
  }, SLOW);
});

describe('transitions scene: hold stance feet', () => {
  it("the Fox's stance feet of the new clip within 1 cm of a cut's from half a half-life on, at 60 Hz", async () => {
    const { page, errors } = session;
    await page.evaluate(() => window.__ikpdDemo.control('character', 'Fox'));
    // (the control sets `character` at once; the Fox is there when its clips are)
    await page.waitForFunction(() => window.__ikpdDemo.state().names.includes('Survey'), null, { timeout: 60_000 });
    // (the clip keys: the clip control is made again with each character)
    const run = async (key, holdFeet) => {
      await page.evaluate((h) => {
        const hook = window.__ikpdDemo;
        hook.control('half-life (s)', 0.1);
        hook.control('rapid switching', false);
        hook.control('hold stance feet', h);
      }, holdFeet);
      await page.keyboard.press(key);
      const state = await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 36)); // 0.6 s
      return { clip: state.clip, feetFromCut: state.feetFromCut, stanceSamples: state.stanceSamples, holdFeet: state.holdFeet };
    };
    const figures = [await run('w', true), await run('r', true), await run('s', true), await run('w', false), await run('s', false)];
    figures.splice(3, 1);
    figures.push(await page.evaluate(() => window.__ikpdDemo.errors));
    console.log(`transitions scene, Fox, hold stance feet at 60 Hz (cm from a cut, from half a half-life on): ${JSON.stringify(figures)}`);
    expect(figures[4]).toEqual([]);
    for (const f of figures.slice(1, 3)) {
      expect(f.holdFeet).toBe(true);
      expect(f.stanceSamples, f.clip).toBeGreaterThan(0);
      expect(f.feetFromCut, f.clip).toBeLessThanOrEqual(1);
    }
    expect(figures[4]).toEqual([]);
    expect(figures[3].feetFromCut).toBeGreaterThan(5); // without: the offset alone
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => window.__ikpdDemo.errors)).toEqual([]);
  }, SLOW);
});
