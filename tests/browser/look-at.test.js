// The full-body look-at scene in headless Chromium: a dragged target turns the
// skinned humanoid's head toward it while the hips shift and the feet stay on
// their animated positions; turning the IK off brings back the animated pose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDemoSession } from './browser.js';

let session;
let page;
let errors = [];
const SLOW = 240_000;

beforeAll(async () => {
  session = await openDemoSession('#look-at');
  ({ page, errors } = session);
}, SLOW);

afterAll(() => session?.close());

const demo = (fn, arg) => page.evaluate(fn, arg);
const control = (name, value) => demo(([n, v]) => window.__ikpdDemo.control(n, v), [name, value]);

/** Runs `seconds` of updates at `hz`; returns the worst foot gap, the largest hips shift and the last state. */
const run = (seconds, hz) => demo(([s, rate]) => {
  const hook = window.__ikpdDemo;
  let worstFoot = 0;
  let worstHips = 0;
  let state = null;
  for (let i = 0; i < Math.round(s * rate); i++) {
    state = hook.simulate(1 / rate);
    worstFoot = Math.max(worstFoot, ...state.footGaps);
    worstHips = Math.max(worstHips, Math.hypot(...state.hips.map((v, k) => v - state.animatedHips[k])));
  }
  return { worstFoot, worstHips, state };
}, [seconds, hz]);

describe('look-at: skinned humanoid with BodyLookAtIK', () => {
  it('the scene runs without an error', async () => {
    expect(errors).toEqual([]);
    expect(await demo(() => window.__ikpdDemo.errors)).toEqual([]);
    expect(await demo(() => window.__ikpdDemo.sceneId)).toBe('look-at');
    const state = await demo(() => window.__ikpdDemo.state());
    expect(state?.error).toBe('');
    expect(errors).toEqual([]);
  }, SLOW);

  it('a target dragged to the side turns the head toward it; the hips shift and the feet stay put', async () => {
    await demo(() => window.__ikpdDemo.reset());
    await control('target motion', 'manual');
    for (const [hz, target] of [[60, [2.0, 1.6, 0.6]], [30, [-1.4, 1.3, 1.2]]]) {
      await demo((p) => window.__ikpdDemo.setTarget('target', p), target);
      const { worstFoot, worstHips, state } = await run(3, hz);
      expect(state.target).toEqual(target);
      expect(state.animatedHeadToTarget).toBeGreaterThan(40); // the animation alone looks elsewhere
      expect(state.headToTarget).toBeLessThan(state.animatedHeadToTarget - 30);
      expect(worstHips).toBeGreaterThan(5e-3); // the weight shift really moved the pelvis…
      expect(worstFoot).toBeLessThan(1e-3); // …and the feet stayed on the animated ankles
    }
    expect(errors).toEqual([]);
  }, SLOW);

  it('a drag with the pointer moves the target and the head follows', async () => {
    await demo(() => window.__ikpdDemo.reset());
    await demo(() => window.__ikpdDemo.setTarget('target', [0.3, 1.7, 1.4]));
    await demo(() => window.__ikpdDemo.selectDraggable('target'));
    await run(1, 60);
    await demo(() => window.__ikpdDemo.renderFrames(1)); // drawn where it is now, as the user sees it
    const from = await demo(() => window.__ikpdDemo.screenPosition('target'));
    await page.mouse.move(from.x, from.y);
    await page.mouse.move(from.x + 1, from.y + 1);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(from.x + 1 - i * 30, from.y + 1 + i * 3);
    await page.mouse.up();
    const moved = await demo(() => window.__ikpdDemo.state());
    expect(moved.target[0]).toBeLessThan(-0.3); // dragged to the character's right
    const { worstFoot, state } = await run(3, 60);
    expect(state.headToTarget).toBeLessThan(state.animatedHeadToTarget - 20);
    expect(worstFoot).toBeLessThan(1e-3);
  }, SLOW);

  it('each effect toggles without an error; IK off blends out to the animated pose', async () => {
    for (const name of ['head / spine look-at', 'weight shift (hips)', 'arm reaction', 'foot lock']) {
      await control(name, false);
      await run(0.5, 60);
      await control(name, true);
      const { state } = await run(0.5, 60);
      expect(state.error).toBe('');
    }
    await control('IK on (off → blend out)', false);
    const { state } = await run(3, 60);
    expect(state.active).toBe(false);
    expect(Math.abs(state.headToTarget - state.animatedHeadToTarget)).toBeLessThan(1e-3);
    expect(Math.abs(state.headOffset - state.animatedHeadOffset)).toBeLessThan(1e-3);
    expect(Math.max(...state.footGaps)).toBeLessThan(1e-5);
    await control('IK on (off → blend out)', true);
    expect(errors).toEqual([]);
  }, SLOW);

  it('mutual gaze and a camera target with each behind policy run without an error; the feet stay put', async () => {
    await control('mutual gaze', true);
    let { state, worstFoot } = await run(2, 60);
    expect(state.error).toBe('');
    expect(worstFoot).toBeLessThan(1e-3);
    await control('mutual gaze', false);
    await control('target motion', 'camera');
    for (const policy of ['keep', 'front', 'follow']) {
      await control('target behind', policy);
      ({ state } = await run(1, 60));
      expect(state.error).toBe('');
    }
    await control('target motion', 'jump');
    expect(errors).toEqual([]);
  }, SLOW);
});
