// The crowd scene (demo/scenes/crowd.js) in headless Chromium (WebGPU on
// SwiftShader): it loads 2,000 characters drawn as instanced meshes (one per
// bone-segment kind, as many instances as the characters have segments),
// frames advance with a finite solve-time readout, the slider rebuilds the
// crowd (freeing the old batches), the stance feet stand on the analytic
// ground, the heads turn toward the target (at 30 and 240 Hz to the same
// pose), and the threads toggle reloads the page with ?threads=1 and back,
// the scene reporting what is active. Steps run through the test hook's
// simulate(), in one page.evaluate each, so no rendered frame steps in between.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { artifactPath, openDemoSession } from './browser.js';
import { pixelStats } from './pixels.js';
import { terrainHeight } from '../../demo/lib/terrain.js';

const SLOW = 240_000;
const CENTER = { x: 0.25, y: 0.2, width: 0.5, height: 0.55 };
let session;
let page;
let errors = [];

beforeAll(async () => {
  // ?output=hdr as in demo.test.js, whose screenshots are the README's: the same look.
  session = await openDemoSession('?output=hdr#crowd');
  ({ page, errors } = session);
}, SLOW);

afterAll(() => session?.close());

const demo = (fn, arg) => page.evaluate(fn, arg);
const framesAdvance = (count) => page.waitForFunction((n) => window.__ikpdDemo.frames >= n, count, { timeout: 90_000 });

/** Degrees between a head's facing (+Z turned by its rotation) and the line from it to `target`. */
function headAngle({ position: p, rotation: [x, y, z, w] }, target) {
  const f = [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)];
  const d = target.map((t, i) => t - p[i]);
  const cos = (f[0] * d[0] + f[1] * d[1] + f[2] * d[2]) / Math.hypot(...f) / Math.hypot(...d);
  return (Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI;
}
const meanAngle = (state) => state.sample.reduce((sum, c) => sum + headAngle(c.head, state.target), 0) / state.sample.length;

it('draws 2,000 characters as instanced meshes, and frames advance with a finite readout', async () => {
  expect(await demo(() => window.__ikpdDemo.sceneList.find((s) => s.id === 'crowd').available)).toBe(true);
  expect(await demo(() => window.__ikpdDemo.sceneId)).toBe('crowd');
  const start = await demo(() => window.__ikpdDemo.frames);
  await framesAdvance(start + 3);
  const state = await demo(() => window.__ikpdDemo.state());
  expect(state.characters).toBeGreaterThanOrEqual(2000);
  expect(state.instancedMeshes).toBe(Object.keys(state.perCharacter).length);
  for (const [kind, per] of Object.entries(state.perCharacter)) expect(state.instances[kind], kind).toBe(per * state.characters);
  expect(state.frames).toBeGreaterThanOrEqual(3);
  for (const key of ['solve', 'limbs', 'look', 'script']) {
    expect(Number.isFinite(state.times[key]), key).toBe(true);
    expect(state.times[key], key).toBeGreaterThan(0);
  }
  expect(state.panel[0]).toContain('2,000 characters');
  expect(state.panel[1]).toMatch(/^solve \d+\.\d\d ms per frame: limbs \d+\.\d\d · look-at \d+\.\d\d$/);
  console.log(`crowd, ${state.characters} characters, threads ${state.threads}: ${state.panel[1]}; ${state.panel[2]}`);
  const jpeg = await page.screenshot({ path: artifactPath('demo-crowd.jpg'), type: 'jpeg', quality: 85 });
  const stats = await pixelStats(page, jpeg, CENTER);
  expect(stats.std).toBeGreaterThan(4);
  expect(stats.distinct).toBeGreaterThan(50);
  expect(errors).toEqual([]);
  expect(await demo(() => window.__ikpdDemo.errors)).toEqual([]);
}, SLOW);

it('the characters slider rebuilds the crowd and frees the batches it replaced', async () => {
  const result = await demo(async () => {
    const hook = window.__ikpdDemo;
    const before = hook.wasmMemory().usedBytes;
    hook.control('characters', 2500);
    const more = hook.simulate(1 / 60, 2);
    hook.control('characters', 2000);
    const back = hook.simulate(1 / 60, 2);
    return { before, after: hook.wasmMemory().usedBytes, more, back };
  });
  expect(result.more.characters).toBe(2500);
  for (const [kind, per] of Object.entries(result.more.perCharacter)) expect(result.more.instances[kind], kind).toBe(per * 2500);
  expect(result.back.characters).toBe(2000);
  expect(result.back.instancedMeshes).toBe(Object.keys(result.back.perCharacter).length); // the old meshes are gone
  expect(result.after).toBe(result.before);
  expect(await demo(() => window.__ikpdDemo.errors)).toEqual([]);
}, SLOW);

it('stance feet stand on the ground, every frame', async () => {
  const states = await demo(() => {
    const hook = window.__ikpdDemo;
    hook.reset();
    return Array.from({ length: 6 }, () => hook.simulate(1 / 60, 10));
  });
  let checked = 0;
  let worst = 0;
  for (const state of states) {
    for (const { feet } of state.sample) {
      for (const { position: [x, y, z], stance } of feet) {
        if (!stance) continue;
        checked++;
        worst = Math.max(worst, Math.abs(y - terrainHeight(x, z) - state.ankleHeight));
      }
    }
  }
  expect(checked).toBeGreaterThan(6 * 40);
  expect(worst).toBeLessThan(1e-3); // metres: ankles at their height above the analytic ground
  // Swing feet are lifted: some foot is clearly above it.
  const lifted = states.flatMap((s) => s.sample.flatMap((c) => c.feet.filter((f) => !f.stance)))
    .map(({ position: [x, y, z] }) => y - terrainHeight(x, z) - states[0].ankleHeight);
  expect(Math.max(...lifted)).toBeGreaterThan(0.03);
}, SLOW);

it('the heads turn toward the target: the angle shrinks', async () => {
  const states = await demo(() => {
    const hook = window.__ikpdDemo;
    hook.reset();
    hook.setTarget('target', [0, 2.4, 0]); // the middle of the rings: within every character's turn
    return [hook.state(), hook.simulate(1 / 60, 6), hook.simulate(1 / 60, 24), hook.simulate(1 / 60, 60)];
  });
  expect(states[0].orbit).toBe(false); // moving the target stops its orbit
  const angles = states.map(meanAngle);
  expect(angles[0]).toBeGreaterThan(60); // from straight ahead, walking round the middle
  for (let i = 1; i < angles.length; i++) expect(angles[i], `after step ${i}`).toBeLessThan(angles[i - 1]);
  expect(angles.at(-1)).toBeLessThan(3);
}, SLOW);

it('standing, the look-at reaches the same pose at 30 and 240 Hz', async () => {
  const [slow, fast] = await demo(() => {
    const hook = window.__ikpdDemo;
    hook.control('walk speed (m/s)', 0);
    const run = (hz) => {
      hook.reset();
      hook.setTarget('target', [3, 2, 8]);
      return hook.simulate(1 / hz, hz / 2); // half a second: mid-turn
    };
    const runs = [run(30), run(240)];
    hook.control('walk speed (m/s)', 0.7);
    return runs;
  });
  let gap = 0;
  slow.sample.forEach((c, k) => c.head.rotation.forEach((v, i) => { gap = Math.max(gap, Math.abs(v - fast.sample[k].head.rotation[i])); }));
  expect(gap).toBeLessThan(2e-3);
  expect(Math.abs(meanAngle(slow) - meanAngle(fast))).toBeLessThan(0.2);
  expect(meanAngle(slow)).toBeGreaterThan(1); // still turning: the comparison is not of settled poses
}, SLOW);

/**
 * The readout after 120 simulated frames in one evaluate (no rendering between them, so
 * SwiftShader's drawing competes less for the CPU), logged for the record.
 */
async function steadyTimes() {
  const state = await demo(() => window.__ikpdDemo.simulate(1 / 60, 120));
  const t = state.times;
  console.log(`crowd, ${state.characters} characters, threads ${state.threads}, 120 simulated frames: solve ${t.solve.toFixed(2)} ms (limbs ${t.limbs.toFixed(2)}, look-at ${t.look.toFixed(2)}), script ${t.script.toFixed(2)} ms`);
  for (const key of ['solve', 'limbs', 'look', 'script']) expect(Number.isFinite(t[key]) && t[key] > 0, key).toBe(true);
  return t;
}

/** Flips the scene's threads control and waits for the page it reloads to be ready on the crowd. */
async function toggleThreads(on) {
  const loaded = page.waitForURL(new RegExp(`threads=${on ? 2 : 1}#crowd$`), { timeout: 90_000 });
  await demo((value) => { setTimeout(() => window.__ikpdDemo.control('threads (reloads the page)', value)); }, on);
  await loaded;
  await page.waitForFunction(() => window.__ikpdDemo?.ready && window.__ikpdDemo.frames > 3, null, { timeout: 120_000 });
  return demo(() => window.__ikpdDemo.state());
}

it('the threads toggle reports what is active and switches it by reloading the page', async () => {
  const on = await demo(() => window.__ikpdDemo.state());
  expect(on).toMatchObject({ crossOriginIsolated: true, threads: 2, threadsControl: true, threadsRequested: 2 });
  expect(on.panel[3]).toContain('threads: 2');
  await steadyTimes();

  const off = await toggleThreads(false);
  expect(off).toMatchObject({ threads: 1, threadsControl: false, threadsRequested: 1, characters: 2000 });
  expect(off.panel[3]).toContain('threads: off');
  expect(await page.textContent('#badge')).toContain('threads: off');
  await steadyTimes();

  const back = await toggleThreads(true);
  expect(back).toMatchObject({ threads: 2, threadsControl: true });
  expect(await page.textContent('#badge')).toContain('threads: 2');
  expect(errors).toEqual([]);
}, SLOW);
