// The demo in headless Chromium with WebGPU (SwiftShader): every scene loads
// without console errors and renders a non-blank frame, dragging a target
// changes the solved pose, and the canvas is configured for HDR output.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, launchBrowser, openDemo, startDemoServer } from './browser.js';
import { pixelStats } from './pixels.js';

let server;
let browser;
let page;
const errors = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startDemoServer(), launchBrowser({ webgpu: true })]);
  // ?output=hdr: headless Chromium reports an SDR display; force the HDR curve.
  page = await openDemo(browser, `${server.url}?output=hdr#aim`, errors);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

// The middle of the page, where the 3D view is not covered by the UI panels.
const CENTER = { x: 0.25, y: 0.2, width: 0.5, height: 0.55 };
// SwiftShader renders a frame per second or so on a busy 2-core machine.
const SLOW = 180_000;

/** One screenshot (kept as an artifact) and the pixel statistics of its middle. */
async function capture(name) {
  const jpeg = await page.screenshot({ path: artifactPath(`demo-${name}.jpg`), type: 'jpeg', quality: 85 });
  return pixelStats(page, jpeg, CENTER);
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
  const ids = ['aim', 'two-bone', 'quadruped', 'tentacle', 'look-at', 'hdr'];
  for (const id of ids) {
    it(`${id}: loads without console errors and renders a non-blank frame`, async () => {
      // A scene whose solver is missing from this build shows a notice instead: that fails here.
      const available = await page.evaluate((sceneId) => window.__ikpdDemo.sceneList.find((s) => s.id === sceneId).available, id);
      expect(available).toBe(true);
      await page.evaluate((sceneId) => window.__ikpdDemo.select(sceneId), id);
      const stats = await capture(id);
      expect(await page.evaluate(() => window.__ikpdDemo.sceneId)).toBe(id);
      expect(errors).toEqual([]);
      expect(stats.std).toBeGreaterThan(4);
      expect(stats.distinct).toBeGreaterThan(50);
    }, SLOW);
  }
});

const srgbEncode = (x) => (x <= 0.0031308 ? 12.92 * x : 1.055 * x ** (1 / 2.4) - 0.055);

describe('HDR output', () => {
  it('puts values above SDR white on the canvas in HDR mode, and none in SDR mode', async () => {
    await page.evaluate(() => window.__ikpdDemo.select('hdr'));
    const read = (p) => page.evaluate(({ x, y }) => window.__ikpdDemo.readCanvasPixel(x, y), p);
    const { patches, brightestTube } = await page.evaluate(() => window.__ikpdDemo.state());
    // Calibration image ('extended': 1.0 = paper white), drawn without tone mapping, sRGB-encoded by three's output pass.
    const white = await read(patches.paperWhite);
    expect(white.format).toBe('rgba16float');
    expect(white.rgba[0]).toBeCloseTo(1, 2);
    const peak = await read(patches.peak);
    expect(patches.peak.value).toBeCloseTo(4, 3); // 1000 nit at 250 nit paper white
    expect(peak.rgba[0]).toBeCloseTo(srgbEncode(4), 2);
    // The 64× emissive tube through ikpd's tone map: brighter than SDR white, at most the peak.
    const tube = await read(brightestTube);
    expect(Math.max(...tube.rgba.slice(0, 3))).toBeGreaterThan(1.2);
    expect(Math.max(...tube.rgba.slice(0, 3))).toBeLessThanOrEqual(srgbEncode(4) + 1e-2);

    await page.evaluate(() => window.__ikpdDemo.setOutput({ mode: 'sdr' }));
    const sdrTube = await read(brightestTube);
    await page.evaluate(() => window.__ikpdDemo.setOutput({ mode: 'hdr' }));
    expect(Math.max(...sdrTube.rgba.slice(0, 3))).toBeLessThanOrEqual(1 + 1e-3);
    expect(errors).toEqual([]);
  }, SLOW);
});

describe('dragging a target', () => {
  for (const id of ['two-bone', 'aim', 'chains']) {
    it(`${id}: a mouse drag on the gizmo moves the target and changes the solved pose`, async () => {
      await page.evaluate((sceneId) => window.__ikpdDemo.select(sceneId), id);
      await page.evaluate(() => window.__ikpdDemo.selectDraggable('target'));
      const before = await page.evaluate(() => window.__ikpdDemo.state());
      const start = await page.evaluate(() => window.__ikpdDemo.screenPosition('target'));
      await page.mouse.move(start.x, start.y);
      await page.mouse.move(start.x + 1, start.y + 1);
      await page.mouse.down();
      for (let i = 1; i <= 6; i++) await page.mouse.move(start.x + 1 - i * 12, start.y + 1 + i * 8);
      await page.mouse.up();
      await page.evaluate(() => window.__ikpdDemo.renderFrames(2));
      const after = await page.evaluate(() => window.__ikpdDemo.state());
      const moved = Math.hypot(...after.target.map((v, i) => v - before.target[i]));
      expect(moved).toBeGreaterThan(0.05);
      const turned = JSON.stringify(after.rotations) !== JSON.stringify(before.rotations);
      expect(turned).toBe(true);
      expect(errors).toEqual([]);
    }, SLOW);
  }
});
