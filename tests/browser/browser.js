// Shared by the browser tests: headless Debian Chromium through playwright-core
// (never a downloaded browser) and a Vite server for the demo on loopback.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { inject } from 'vitest';
import { createDemoServer } from '../support/demo-server.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const artifactsDir = `${root}test-artifacts`;

// Flags that give a working WebGPU device headless here (SwiftShader Vulkan).
export const chromiumArgs = [
  '--no-sandbox', '--enable-unsafe-webgpu', '--enable-features=Vulkan',
  '--use-vulkan=swiftshader', '--use-angle=swiftshader',
  '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run',
];

/** Launches Chromium; `webgpu: false` disables WebGPU to exercise the WebGL2 fallback. */
export function launchBrowser({ webgpu = true } = {}) {
  const args = webgpu ? chromiumArgs : [...chromiumArgs.filter((a) => a !== '--enable-unsafe-webgpu'), '--disable-webgpu'];
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', headless: true, args });
}

/**
 * The demo's Vite dev server: the run's shared one (the global setup in
 * tests/support/demo-server.js; `close` leaves it running), else a new one on a
 * free loopback port. Returns {url, close}.
 */
export async function startDemoServer() {
  const shared = inject('demoUrl');
  if (shared) return { url: shared, close: async () => {} };
  return createDemoServer();
}

/** Drops `bytes` (an array of numbers) as a file named `name` onto the demo's canvas, as a user would. */
export function dropFile(page, name, bytes) {
  return page.evaluate(({ name: n, data }) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], n));
    document.querySelector('#viewport canvas').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, { name, data: bytes });
}

/** Path for a test artifact (screenshots), creating the folder. */
export function artifactPath(name) {
  mkdirSync(artifactsDir, { recursive: true });
  return `${artifactsDir}/${name}`;
}

/**
 * `deviceScaleFactor` of every demo page unless a test asks otherwise: half the canvas
 * pixels each way, since SwiftShader draws every frame on the CPU (the demo tests run
 * about a third faster). The CSS layout (panels, badge, pointer positions) stays
 * 960×540, and what the tests read back (pixel statistics, HDR values above SDR white,
 * states) does not depend on the canvas size.
 */
const HALF_RES = 0.5;

/**
 * A page (960×540 unless `viewport`, `deviceScaleFactor` canvas pixels per CSS pixel) on
 * the demo at `url`, collecting console errors and page errors into `errors`; resolves once
 * the demo is ready (or failed to start). Unless `manualFrames: false`, the page draws only
 * the frames a test asks for (?render=manual: window.__ikpdDemo.renderFrames(n), and
 * select(id, { frames })): every frame SwiftShader draws takes the CPU from the test.
 */
export async function openDemo(browser, url, errors, { viewport = { width: 960, height: 540 }, deviceScaleFactor = HALF_RES, manualFrames = true } = {}) {
  const page = await browser.newPage({ viewport, deviceScaleFactor });
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  const address = new URL(url);
  if (manualFrames) address.searchParams.set('render', 'manual');
  await page.goto(address.href, { timeout: 120_000 }); // the first load compiles the demo's modules on a busy machine
  await page.waitForFunction(() => window.__ikpdDemo?.ready || window.__ikpdDemo?.errors.length, null, { timeout: 90_000 });
  return page;
}

/**
 * A demo server, a browser (WebGPU unless `webgpu: false`) and a page open on
 * `path` (e.g. '?output=hdr#aim'; at HALF_RES unless `deviceScaleFactor`; frames as openDemo),
 * with its console and page errors in `errors`; `close()` stops the browser and the server.
 */
export async function openDemoSession(path, { webgpu = true, deviceScaleFactor, manualFrames } = {}) {
  const [server, browser] = await Promise.all([startDemoServer(), launchBrowser({ webgpu })]);
  const close = async () => { await browser.close(); await server.close(); };
  const errors = [];
  const webgl = !webgpu || path.includes('renderer=webgl');
  try {
    const page = await openDemo(browser, `${server.url}${path}`, errors, { deviceScaleFactor, manualFrames });
    return { server, browser, page, errors, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * Memory over scene switches on a demo `page`: one warm-up round through every scene
 * (pipelines and shared resources exist after it), then switches through the scenes in
 * order, every scene at least once, until at least `switches` switches, ending on the first
 * scene; each renders one frame. Returns the scene ids, the number of switches, and
 * three.js's GPU resource counts (`gpu`) and ikpd's WASM heap (`wasm`, ikpd.memoryStats())
 * before and after, both taken on the first scene.
 */
export async function memoryOverSwitches(page, switches = 30) {
  const ids = await page.evaluate(() => window.__ikpdDemo.sceneList.map((s) => s.id));
  const select = (id) => page.evaluate((sceneId) => window.__ikpdDemo.select(sceneId, { frames: 1 }), id);
  const snapshot = () => page.evaluate(() => ({ gpu: window.__ikpdDemo.memory(), wasm: window.__ikpdDemo.wasmMemory() }));
  // Each round starts after the first scene and ends on it, so every select is a switch.
  const round = [...ids.slice(1), ids[0]];
  await select(ids[0]);
  for (const id of round) await select(id);
  const before = await snapshot();
  // Whole rounds, then the start of one more that goes back to the first scene (no
  // switches beyond `switches` only to finish a round).
  const total = Math.max(switches, round.length);
  const order = Array.from({ length: total - 1 }, (_, i) => round[i % round.length]);
  if (order.at(-1) === ids[0]) order.push(ids[1]);
  order.push(ids[0]);
  for (const id of order) await select(id);
  const after = await snapshot();
  return { ids, switches: order.length, before, after };
}
