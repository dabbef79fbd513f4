// With WebGPU disabled the demo falls back to three's WebGL2 backend with the SDR look and still renders.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { artifactPath, launchBrowser, startDemoServer } from './browser.js';
import { pixelStats } from './pixels.js';

let server;
let browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startDemoServer(), launchBrowser({ webgpu: false })]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('falls back to WebGL2 when WebGPU is unavailable and renders the HDR scene in SDR', async () => {
  const page = await browser.newPage({ viewport: { width: 960, height: 540 } });
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${server.url}#hdr`);
  await page.waitForFunction(() => (window.__ikpdDemo?.ready && window.__ikpdDemo.frames > 3) || window.__ikpdDemo?.errors.length, null, { timeout: 90_000 });
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
