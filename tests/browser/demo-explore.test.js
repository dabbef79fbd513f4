// The demo used as a user would (headless Chromium, WebGPU on SwiftShader): controls that
// could put a scene in an invalid state, a far lure at low and high frame rates, a knotted
// tentacle, what the two-bone and quadruped panels claim, GPU and WASM memory over many scene
// switches, the HDR scene's controls, and the small things (keys, hashes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryOverSwitches, openDemoSession } from './browser.js';

let session;
let page;
let errors = [];
const SLOW = 240_000;

beforeAll(async () => {
  // Nothing here reads the picture (its checks are states, layout and memory), so the
  // canvas has half the pixels each way: SwiftShader draws every frame on the CPU.
  session = await openDemoSession('?output=hdr#aim');
  ({ page, errors } = session);
}, SLOW);

afterAll(() => session?.close());

const demo = (fn, arg) => page.evaluate(fn, arg);
const select = (id) => demo((sceneId) => window.__ikpdDemo.select(sceneId), id);
const control = (name, value) => demo(([n, v]) => window.__ikpdDemo.control(n, v), [name, value]);
/** Null once `count` frames are drawn, 'frames stopped' if they are not within 60 s. */
const framesDrawn = (count) => demo((n) => Promise.race([
  window.__ikpdDemo.renderFrames(n).then(() => null),
  new Promise((resolve) => { setTimeout(() => resolve('frames stopped'), 60_000); }),
]), count);

describe('aim: the up axis can never be the forward axis', () => {
  for (const [forward, up] of [['+x', '+x'], ['+x', '-x'], ['-z', '+z'], ['+y', '+y']]) {
    it(`forward ${forward}, up ${up}: the demo keeps drawing, with no error`, async () => {
      await select('aim');
      await control('up target (roll)', true);
      await control('forward axis', forward);
      await control('up axis', up);
      expect(await framesDrawn(3)).toBe(null);
      const state = await demo(() => window.__ikpdDemo.state());
      expect(state.forward).toBe(forward);
      expect(state.up.slice(1)).not.toBe(forward.slice(1));
      expect(await demo(() => window.__ikpdDemo.errors)).toEqual([]);
      expect(errors).toEqual([]);
      // The parallel choices are disabled in the dropdown.
      const disabled = await demo(() => [...document.querySelectorAll('.lil-gui select')]
        .find((s) => s.closest('.lil-controller').textContent.includes('up axis'))
        .querySelectorAll('option:disabled').length);
      expect(disabled).toBe(2);
      await control('forward axis', '+x');
      await control('up target (roll)', false);
    }, SLOW);
  }
});

describe('quadruped: a far lure', () => {
  const STRIDE = 0.28;
  for (const rate of [10, 60]) {
    it(`at ${rate} Hz and full speed every foot keeps stepping and stays within a stride of rest`, async () => {
      await select('quadruped');
      await demo(() => window.__ikpdDemo.reset());
      await control('speed', 2);
      await control('stride', STRIDE);
      await demo(() => window.__ikpdDemo.setTarget('lure', [12, 0, -12]));
      const result = await demo((hz) => {
        const hook = window.__ikpdDemo;
        let worstBody = 0;
        let worstRest = 0;
        const steps = [0, 0, 0, 0];
        let previous = null;
        for (let i = 0; i < 10 * hz; i++) {
          const s = hook.simulate(1 / hz);
          s.legs.forEach((leg, k) => {
            // Horizontal distance of each foot target from the body and from its rest point.
            worstBody = Math.max(worstBody, Math.hypot(leg.target[0] - s.body[0], leg.target[2] - s.body[2]));
            if (leg.rest) worstRest = Math.max(worstRest, Math.hypot(leg.target[0] - leg.rest[0], leg.target[2] - leg.rest[1]));
            if (previous && Math.hypot(leg.target[0] - previous[k][0], leg.target[2] - previous[k][2]) > 1e-6) steps[k]++;
          });
          previous = s.legs.map((leg) => leg.target);
        }
        const s = hook.state();
        return { worstBody, worstRest, steps, travelled: Math.hypot(s.body[0], s.body[2]) };
      }, rate);
      expect(result.travelled).toBeGreaterThan(8);
      // Rest points lie within 0.67 of the body centre.
      expect(result.worstBody).toBeLessThan(0.67 + STRIDE);
      expect(result.worstRest).toBeLessThanOrEqual(STRIDE);
      for (const moves of result.steps) expect(moves).toBeGreaterThan(10);
      expect(errors).toEqual([]);
    }, SLOW);
  }
});

describe('tentacle: a knot', () => {
  it('next to the base and back over the wall: the demo tentacle unwinds and reaches', async () => {
    await select('tentacle');
    await demo(() => window.__ikpdDemo.reset());
    const result = await demo(() => {
      const hook = window.__ikpdDemo;
      hook.setTarget('target', [1.4, 2.6, 0]);
      hook.simulate(1 / 60, 120);
      hook.setTarget('target', [0, 0.3, 0]);
      hook.simulate(1 / 60, 300);
      hook.setTarget('target', [1.4, 2.6, 0]);
      let unwound = false;
      for (let i = 0; i < 1000; i++) unwound = hook.simulate(1 / 60).unwinding || unwound;
      return { ...hook.state(), unwound, panel: document.querySelector('#overlay').textContent };
    });
    expect(result.escapeAfter).toBeGreaterThan(0);
    expect(result.unwound).toBe(true);
    expect(result.gap).toBeLessThan(0.3);
    expect(result.panel).toContain('escape knots on');
  }, SLOW);
});

describe('what the panels claim', () => {
  it('two-bone at weight 0 claims nothing; the reach sphere includes the fingertip', async () => {
    await select('two-bone');
    await demo(() => window.__ikpdDemo.setTarget('target', [2.4, 1.5, 0.3]));
    await control('weight', 0);
    const state = await demo(() => window.__ikpdDemo.simulate(1 / 60));
    expect(state.reached).toBe(null);
    expect(state.panel).not.toMatch(/reached/);
    expect(state.panel).toContain('IK off');
    expect(state.reachRadius).toBeGreaterThan(0.62 + 0.56 + 0.3);
    await control('weight', 1);
    const solved = await demo(() => window.__ikpdDemo.simulate(1 / 60));
    expect(solved.reached).toBe(false); // 2.4 from a 1.72-high shoulder at x = 0 is out of reach
    expect(solved.panel).toContain('out of reach');
    await demo(() => window.__ikpdDemo.reset());
  }, SLOW);

  it('quadruped with IK off reports no solve', async () => {
    await select('quadruped');
    await control('IK on', false);
    const state = await demo(() => window.__ikpdDemo.simulate(1 / 60));
    for (const leg of state.legs) {
      expect(leg.reached).toBe(null);
      expect(leg.distance).toBe(null);
    }
    const greyed = await demo(() => [...document.querySelectorAll('.lil-controller.lil-disabled')].map((c) => c.textContent));
    expect(greyed.join()).toContain('blend (ankle posture)');
    await control('IK on', true);
  }, SLOW);

  it('two-bone: distance is the measured fingertip gap for every hand rotation and weight', async () => {
    await select('two-bone');
    for (const rotation of ['world', 'relative', 'target']) {
      for (const weight of [0.3, 1]) {
        await control('hand rotation', rotation);
        await control('weight', weight);
        const s = await demo(() => window.__ikpdDemo.simulate(1 / 60));
        expect(s.distance).toBeCloseTo(s.gap, 3);
        if (s.reached) expect(s.gap).toBeLessThan(1e-3);
      }
    }
  }, SLOW);
});

describe('memory', () => {
  it('30 scene switches through every scene free every texture, geometry and WASM allocation they made', async () => {
    const { ids, switches, before, after } = await memoryOverSwitches(page, 30);
    expect(ids).toEqual(expect.arrayContaining(['aim', 'two-bone', 'quadruped', 'tentacle', 'look-at', 'chains', 'pd', 'hdr']));
    expect(switches).toBeGreaterThanOrEqual(30);
    expect(after.gpu.textures).toBeLessThanOrEqual(before.gpu.textures);
    expect(after.gpu.geometries).toBeLessThanOrEqual(before.gpu.geometries);
    // Solvers and controllers a scene made are freed when it goes: C++ allocations stay flat.
    expect(after.wasm.usedBytes).toBeLessThanOrEqual(before.wasm.usedBytes);
    expect(after.wasm.heapBytes).toBe(before.wasm.heapBytes);
    expect(errors).toEqual([]);
  }, 600_000);
});

describe('HDR scene', () => {
  it('the light can be grabbed through the split line; both folders show the same settings', async () => {
    await select('hdr');
    const { light, notice } = await demo(() => window.__ikpdDemo.state());
    const under = await demo(({ x, y }) => document.elementFromPoint(x, y)?.tagName, light);
    expect(under).toBe('CANVAS');
    expect(notice).toMatch(/HDR display is needed/); // headless Chromium reports an SDR display
    await control('exposure', 2.5);
    const shown = await demo(() => [...document.querySelectorAll('.lil-controller')]
      .filter((c) => c.querySelector('.lil-name')?.textContent === 'exposure')
      .map((c) => c.querySelector('input').value));
    expect(shown).toEqual(['2.5', '2.5']);
    await control('exposure', 1);
  }, SLOW);
});

describe('small things', () => {
  it('keys 1–6 still switch scenes after a control was used', async () => {
    await select('aim');
    await page.click('.lil-controller.lil-boolean input');
    await page.click('.lil-controller.lil-boolean input');
    await page.keyboard.press('2');
    await page.waitForFunction(() => window.__ikpdDemo.sceneId === 'two-bone', null, { timeout: 60_000 });
  }, SLOW);

  it('an unknown hash says so instead of showing another scene', async () => {
    await page.evaluate(() => { location.hash = '#no-such-scene'; });
    await page.waitForFunction(() => window.__ikpdDemo.sceneId === 'no-such-scene', null, { timeout: 60_000 });
    expect(await page.textContent('#overlay')).toContain('There is no scene “no-such-scene”');
    // The notice is not under the output badge (it was, at the bottom centre of a 1280×800 window).
    for (const viewport of [{ width: 1280, height: 800 }, { width: 960, height: 540 }]) {
      await page.setViewportSize(viewport);
      const clear = await demo(() => {
        const a = document.querySelector('#overlay .panel').getBoundingClientRect();
        const b = document.querySelector('#badge').getBoundingClientRect();
        return a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
      });
      expect(clear, `${viewport.width}×${viewport.height}`).toBe(true);
    }
    await select('aim');
  }, SLOW);

  it('the badge names the control that forces HDR', async () => {
    await demo(() => window.__ikpdDemo.setOutput({ mode: 'sdr' }));
    expect(await page.textContent('#badge')).toContain('Output ▸ tone map');
    await demo(() => window.__ikpdDemo.setOutput({ mode: 'hdr' }));
  }, SLOW);
});
