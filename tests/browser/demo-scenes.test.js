// The PD playground, the chains and the grounding scenes (headless Chromium: WebGPU
// on SwiftShader, then the WebGL2 backend through ?renderer=webgl): each loads without
// console errors and renders a non-blank frame; the PD scene's exact integrator gives
// the same values at 30 Hz and 240 Hz where explicit Euler does not; ikpd's CCD and
// FABRIK get within tolerance of a reachable target; the grounding walker keeps its
// stance soles on the course (the ghost without grounding does not) and its planted
// feet still, and each part turns off without an error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, openDemo, openDemoSession } from './browser.js';
import { pixelStats } from './pixels.js';

let session;
let page;
let errors = [];
const SLOW = 240_000;
const NEW_SCENES = ['pd', 'chains', 'grounding'];
// The middle of the page, where the 3D view is not covered by the UI panels.
const CENTER = { x: 0.25, y: 0.2, width: 0.5, height: 0.55 };

beforeAll(async () => {
  // ?output=hdr as in demo.test.js, whose screenshots are the README's: the same look.
  session = await openDemoSession('?output=hdr#pd');
  ({ page, errors } = session);
}, SLOW);

afterAll(() => session?.close());

const demo = (fn, arg) => page.evaluate(fn, arg);

/** Selects `id` on `p`, screenshots it (kept as an artifact) and returns the middle's pixel statistics. */
async function capture(p, id, name) {
  await p.evaluate((sceneId) => window.__ikpdDemo.select(sceneId, { frames: 3 }), id);
  expect(await p.evaluate(() => window.__ikpdDemo.sceneId)).toBe(id);
  // The PD plots fill over time: 4 s of updates first, so the picture shows responses.
  if (id === 'pd') await p.evaluate(() => { window.__ikpdDemo.simulate(1 / 60, 240); return window.__ikpdDemo.renderFrames(1); });
  const jpeg = await p.screenshot({ path: artifactPath(`demo-${name}.jpg`), type: 'jpeg', quality: 85 });
  return pixelStats(p, jpeg, CENTER);
}

describe('WebGPU', () => {
  for (const id of NEW_SCENES) {
    it(`${id}: loads without console errors and renders a non-blank frame`, async () => {
      expect(await demo((sceneId) => window.__ikpdDemo.sceneList.find((s) => s.id === sceneId).available, id)).toBe(true);
      const stats = await capture(page, id, id);
      expect(await demo(() => window.__ikpdDemo.path.backend)).toBe('webgpu');
      expect(errors).toEqual([]);
      expect(await demo(() => window.__ikpdDemo.errors)).toEqual([]);
      expect(stats.std).toBeGreaterThan(4);
      expect(stats.distinct).toBeGreaterThan(50);
    }, SLOW);
  }
});

describe('PD playground', () => {
  it('the exact integrator gives the same values at 30 Hz and 240 Hz; explicit Euler does not', async () => {
    await demo(() => window.__ikpdDemo.select('pd'));
    // One synchronous run per rate, so no rendered frame steps the scene in between.
    const runs = await demo(() => {
      const hook = window.__ikpdDemo;
      hook.control('preset', 'explicit Euler vs exact: frame rate');
      const run = (rate) => {
        hook.control('update rate (Hz)', rate);
        hook.reset(); // from t = 0, every lane at rest at 0
        const samples = [];
        // Every 1/6 s for 6 s: times both rates step on, through the responses to three jumps.
        for (let k = 1; k <= 36; k++) {
          const s = hook.simulate(1 / rate, rate / 6);
          samples.push({ t: s.simTime, lanes: s.lanes.map((l) => ({ kind: l.kind, value: l.value, diverged: l.diverged })) });
        }
        return samples;
      };
      return { slow: run(30), fast: run(240) };
    });
    let explicitGap = 0;
    runs.slow.forEach((slow, i) => {
      const fast = runs.fast[i];
      expect(slow.t).toBeCloseTo((i + 1) / 6, 9);
      expect(fast.t).toBeCloseTo((i + 1) / 6, 9);
      expect(slow.lanes.map((l) => l.kind)).toEqual(['pd', 'naive']);
      expect(slow.lanes[0].value).toBeCloseTo(fast.lanes[0].value, 6); // exact: the same at any rate
      explicitGap = Math.max(explicitGap, Math.abs(slow.lanes[1].value - fast.lanes[1].value));
      expect(slow.lanes[1].diverged || fast.lanes[1].diverged).toBe(false);
    });
    expect(explicitGap).toBeGreaterThan(1e-3); // explicit Euler: the rate changes the curve
    // Many samples are mid-response, not all settled.
    expect(new Set(runs.slow.map((s) => s.lanes[0].value.toFixed(3))).size).toBeGreaterThan(10);
    expect(errors).toEqual([]);
  }, SLOW);

  it('at 10 Hz the large-step preset diverges with explicit Euler and not with the exact integrator', async () => {
    const state = await demo(() => {
      const hook = window.__ikpdDemo;
      hook.control('preset', 'explicit Euler vs exact: large step');
      hook.reset();
      return hook.simulate(1 / 10, 30);
    });
    expect(state.rate).toBe(10);
    expect(state.lanes[1].diverged).toBe(true);
    expect(state.lanes[0].diverged).toBe(false);
    expect(Math.abs(state.lanes[0].value - state.goal)).toBeLessThan(0.05);
    expect(errors).toEqual([]);
  }, SLOW);

  it('the IK offset blends out to exactly the animation when IK turns off', async () => {
    const state = await demo(() => {
      const hook = window.__ikpdDemo;
      hook.control('preset', 'IK offset and blend-out');
      hook.control('update rate (Hz)', 60);
      hook.reset();
      return hook.simulate(1 / 60, 60 * 5.5); // IK on for 3 s, then off
    });
    expect(state.ikOn).toBe(false);
    const offset = state.lanes.find((l) => l.kind === 'offset');
    expect(offset.blendPhase).toBe('done');
    expect(offset.value).toBe(state.goal); // the animation, exactly
    expect(errors).toEqual([]);
  }, SLOW);
});

describe('PD playground: dragging the target', () => {
  it('a mouse drag switches the target to manual and the controllers follow it', async () => {
    await demo(() => window.__ikpdDemo.select('pd'));
    // Paused, so the target does not jump between reading its position and grabbing it.
    await demo(() => {
      const hook = window.__ikpdDemo;
      hook.control('preset', 'under / critical / over-damped');
      hook.control('pause', true);
      hook.selectDraggable('target');
      return hook.renderFrames(1); // drawn where it is now, as the user sees it
    });
    const before = await demo(() => window.__ikpdDemo.state());
    expect(before.motion).toBe('steps');
    const start = await demo(() => window.__ikpdDemo.screenPosition('target'));
    await page.mouse.move(start.x, start.y);
    await page.mouse.move(start.x + 1, start.y);
    await page.mouse.down();
    for (let i = 1; i <= 6; i++) await page.mouse.move(start.x + 1 - i * 25, start.y);
    await page.mouse.up();
    await demo(() => window.__ikpdDemo.control('pause', false));
    const after = await demo(() => window.__ikpdDemo.simulate(1 / 60, 600)); // 10 s: every lane settles on it
    expect(after.motion).toBe('manual');
    expect(Math.abs(after.target[0] - before.target[0])).toBeGreaterThan(0.3);
    for (const lane of after.lanes) expect(Math.abs(lane.value - after.target[0]), lane.label).toBeLessThan(0.02);
    expect(errors).toEqual([]);
  }, SLOW);
});

describe('chains', () => {
  it('ikpd CCD and FABRIK (and CCDIKSolver) get within tolerance of a reachable target', async () => {
    await demo(() => window.__ikpdDemo.select('chains'));
    const state = await demo(() => {
      const hook = window.__ikpdDemo;
      hook.control('joint limits', 'none');
      hook.control('max iterations', 30);
      hook.setTarget('target', [0.6, 1.3, 0.3]);
      return hook.simulate(1 / 60);
    });
    for (const s of state.solvers) {
      expect(s.error, s.name).toBeLessThanOrEqual(state.tolerance);
      expect(s.reached).toBe(true);
      expect(s.iterations).toBeGreaterThan(0);
      expect(s.iterations).toBeLessThanOrEqual(30);
    }
    expect(errors).toEqual([]);
  }, SLOW);

  it('with hinge limits a target in the hinge plane is still reached; out of reach is reported', async () => {
    const state = await demo(() => {
      const hook = window.__ikpdDemo;
      hook.control('joint limits', 'hinge');
      hook.control('limit angle (°)', 60);
      hook.setTarget('target', [0.8, 1.2, 0]);
      const near = hook.simulate(1 / 60);
      hook.setTarget('target', [1.6, 2.6, 1.6]); // farther than the chain's 1.75 from the root
      const far = hook.simulate(1 / 60);
      hook.control('joint limits', 'none');
      hook.reset();
      return { near, far };
    });
    for (const key of ['ccd', 'fabrik']) {
      const near = state.near.solvers.find((s) => s.key === key);
      expect(near.error, key).toBeLessThanOrEqual(state.near.tolerance);
      const far = state.far.solvers.find((s) => s.key === key);
      expect(far.reached, key).toBe(false);
    }
    expect(errors).toEqual([]);
  }, SLOW);
});

describe('grounding', () => {
  it('a lap of the course: stance soles on the ground, planted feet still; the ghost off the ground', async () => {
    await demo(() => window.__ikpdDemo.select('grounding'));
    const lap = await demo(() => {
      const hook = window.__ikpdDemo;
      hook.reset();
      const errors = [];
      const slides = [];
      let ghost = 0;
      // One lap at 60 Hz (the loop is about 40 m at 1.1 m/s).
      for (let i = 0; i < 60 * 38; i++) {
        const s = hook.simulate(1 / 60);
        for (const f of s.feet) if (f.planted) { errors.push(f.error); slides.push(f.slide); }
        ghost = Math.max(ghost, s.ghostSoleError);
      }
      errors.sort((a, b) => a - b);
      return { median: errors[errors.length >> 1], p90: errors[Math.floor(0.9 * errors.length)], slide: Math.max(...slides), ghost, state: hook.state() };
    });
    expect(lap.state.constraints).toEqual(['grounding']);
    expect(lap.state.distance).toBeGreaterThan(lap.state.loop * 0.95);
    expect(lap.ghost).toBeGreaterThan(0.3); // on the platform, the ghost's feet are 60 cm under the ground
    expect(lap.median).toBeLessThan(1e-3);
    expect(lap.p90).toBeLessThan(0.01);
    expect(lap.slide).toBeLessThan(0.01);
    expect(errors).toEqual([]);
  }, SLOW);

  it('every part turns off and on, and the walk goes on without an error', async () => {
    const state = await demo(() => {
      const hook = window.__ikpdDemo;
      for (const name of ['feet to the ground height', 'feet to the slope', 'pelvis drop', 'plant lock', 'grounding on (off → blend out)']) {
        hook.control(name, false);
        hook.simulate(1 / 60, 60);
        hook.control(name, true);
        hook.simulate(1 / 60, 60);
      }
      return hook.state();
    });
    expect(state.soleError).toBeLessThan(0.05);
    expect(await demo(() => window.__ikpdDemo.errors)).toEqual([]);
    expect(errors).toEqual([]);
  }, SLOW);
});

describe('WebGL2 (?renderer=webgl)', () => {
  it('the new scenes render a non-blank frame without errors; the badge says WebGL2 was forced, not that WebGPU is missing', async () => {
    const glErrors = [];
    const gl = await openDemo(session.browser, `${session.server.url}?renderer=webgl#pd`, glErrors);
    try {
      expect(await gl.evaluate(() => window.__ikpdDemo.path.backend)).toBe('webgl2');
      const badge = await gl.textContent('#badge');
      expect(badge).toContain('WebGL2 · SDR');
      expect(badge).toContain('forced by ?renderer=webgl');
      expect(badge).not.toContain('WebGPU unavailable');
      for (const id of NEW_SCENES) {
        const stats = await capture(gl, id, `${id}-webgl2`);
        expect(stats.std, id).toBeGreaterThan(4);
        expect(stats.distinct, id).toBeGreaterThan(50);
      }
      expect(glErrors).toEqual([]);
      expect(await gl.evaluate(() => window.__ikpdDemo.errors)).toEqual([]);
    } finally {
      await gl.close();
    }
  }, SLOW);
});
