// With WebGPU disabled the demo falls back to three's WebGL2 backend with the SDR look and
// still renders; switching through every scene there frees what each made.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { artifactPath, launchBrowser, memoryOverSwitches, openDemo, startDemoServer } from './browser.js';
import { pixelStats } from './pixels.js';

let server;
let browser;
let page;
const errors = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startDemoServer(), launchBrowser({ webgpu: false })]);
  // Drawing every frame, as users get it (the other demo tests draw only the frames they ask for).
  page = await openDemo(browser, `${server.url}#hdr`, errors, { manualFrames: false });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('falls back to WebGL2 when WebGPU is unavailable and renders the HDR scene in SDR', async () => {
  await page.waitForFunction(() => window.__ikpdDemo.frames > 3 || window.__ikpdDemo.errors.length, null, { timeout: 90_000 });
  const path = await page.evaluate(() => ({ ...window.__ikpdDemo.path }));
  expect(path).toMatchObject({ backend: 'webgl2', hdrCanvas: false, hdrActive: false, peakRatio: 1 });
  expect(await page.evaluate(() => document.querySelector('#viewport canvas').dataset.engine)).toMatch(/webgl2|webgpu/);
  expect(await page.textContent('#badge')).toContain('WebGL2 · SDR');
  const jpeg = await page.screenshot({ path: artifactPath('demo-webgl2-fallback.jpg'), type: 'jpeg', quality: 85 });
  const stats = await pixelStats(page, jpeg, { x: 0.25, y: 0.2, width: 0.5, height: 0.55 });
  expect(stats.std).toBeGreaterThan(4);
  expect(stats.distinct).toBeGreaterThan(50);
  expect(errors).toEqual([]);
}, 180_000);

// One measured round after a warm-up round: a switch that leaks shows on its first
// repeat. The 30-switch soak runs on WebGPU (demo-explore.test.js); on SwiftShader's
// WebGL2 each switch costs seconds.
it('a round of switches through every scene on WebGL2 frees every texture, geometry and WASM allocation they made', async () => {
  await page.evaluate(() => { window.__ikpdDemo.manualFrames = true; }); // each switch draws one frame
  const { ids, switches, before, after } = await memoryOverSwitches(page, 1);
  expect(switches).toBe(ids.length);
  expect(after.gpu.textures).toBeLessThanOrEqual(before.gpu.textures);
  expect(after.gpu.geometries).toBeLessThanOrEqual(before.gpu.geometries);
  expect(after.wasm.usedBytes).toBeLessThanOrEqual(before.wasm.usedBytes);
  expect(after.wasm.heapBytes).toBe(before.wasm.heapBytes);
  expect(errors).toEqual([]);
  expect(await page.evaluate(() => window.__ikpdDemo.errors)).toEqual([]);
}, 600_000);
