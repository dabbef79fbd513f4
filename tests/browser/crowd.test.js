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
import { itWalksAndLooks } from './crowd-checks.js';

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

it('draws 2,000 characters as instanced meshes, and frames advance with a finite readout', async () => {
  expect(await demo(() => window.__ikpdDemo.sceneList.find((s) => s.id === 'crowd').available)).toBe(true);
  expect(await demo(() => window.__ikpdDemo.sceneId)).toBe('crowd');
  await demo(() => window.__ikpdDemo.renderFrames(3));
  const state = await demo(() => window.__ikpdDemo.state());
  expect(state.characters).toBeGreaterThanOrEqual(2000);
  expect(state.instancedMeshes).toBe(Object.keys(state.perCharacter).length);
  for (const [kind, per] of Object.entries(state.perCharacter)) expect(state.instances[kind], kind).toBe(per * state.characters);
  expect(state.frames).toBeGreaterThanOrEqual(3);
  for (const key of ['solve', 'limbs', 'look', 'script']) {
    expect(Number.isFinite(state.times[key]), key).toBe(true);
    expect(state.times[key], key).toBeGreaterThan(0);
  }
  expect(state.solver).toBe('batches'); // the default, without ?solver=
  expect(state.panel[4]).toContain('three batches');
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

itWalksAndLooks('batches', () => page, SLOW);

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
  await page.waitForFunction(() => window.__ikpdDemo?.ready, null, { timeout: 120_000 });
  await demo(() => window.__ikpdDemo.renderFrames(4));
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
