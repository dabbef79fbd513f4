// The ikpd/three TSL nodes (web/three/hdr/hdr.js) agree with the C++/WASM
// transforms (ikpd.hdr) within 1e-4 (relative above 1): each case is rendered
// on the GPU (WebGPU, SwiftShader headless) into a FloatType (32-bit) target
// and read back, then compared with the WASM result on the same inputs.
import { createServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { init } from '../../web/index.js';
import { launchBrowser, root } from './browser.js';

const N = 1024;
let server;
let browser;
let page;
let ikpd;

beforeAll(async () => {
  ikpd = await init();
  server = await createServer({
    root,
    configFile: false,
    logLevel: 'error',
    cacheDir: `${root}build/vite-hdr-test`,
    optimizeDeps: { noDiscovery: true, include: [] },
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, fs: { strict: false } },
  });
  await server.listen();
  browser = await launchBrowser();
  page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`http://127.0.0.1:${server.httpServer.address().port}/tests/browser/hdr-agreement.html`);
  await page.waitForFunction(() => window.cases !== undefined || window.__failed, null, { timeout: 90_000 });
  expect(errors).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

// Inputs, RGBA (alpha 1): a ramp per channel with its own shape.
function ramp(lo, hi, { log = false } = {}) {
  const data = new Float32Array(N * 4);
  for (let i = 0; i < N; i++) {
    const t = i / (N - 1);
    const at = (s) => (log ? lo * (hi / lo) ** s : lo + (hi - lo) * s);
    data[4 * i] = at(t);
    data[4 * i + 1] = at((t * 7) % 1);
    data[4 * i + 2] = at(1 - t);
    data[4 * i + 3] = 1;
  }
  return data;
}

const { hdr } = await init();
const buffer = (data) => ({ data: data.slice(), channels: 4 });
const CASES = [
  ['filmic', ramp(0, 64), (d) => hdr.filmic(d)],
  ['filmicCustom', ramp(0, 16), (d) => hdr.filmic(d, { a: 2, b: 0.1, c: 1, d: 0.5, e: 0.2 })],
  ['hdrCurve', ramp(0, 1e4), (d) => hdr.hdrCurve(d, 4)],
  ['toneMapHDR', ramp(0, 1.2), (d) => hdr.toneMapHDR(d, 4)],
  ['toneMapHDRUniform', ramp(0, 1), (d) => hdr.toneMapHDR(d, 10)],
  ['gammaEncode', ramp(-2, 8), (d) => hdr.gammaEncode(d)],
  ['gammaDecode', ramp(-2, 3), (d) => hdr.gammaDecode(d)],
  ['srgbEncode', ramp(-1, 8), (d) => hdr.srgbEncode(d)],
  ['srgbDecode', ramp(-1, 2.5), (d) => hdr.srgbDecode(d)],
  ['rec709ToRec2020', ramp(-0.5, 20), (d) => hdr.rec709ToRec2020(d)],
  ['rec2020ToRec709', ramp(-0.5, 20), (d) => hdr.rec2020ToRec709(d)],
  ['expandGamut', ramp(0, 8), (d) => hdr.expandGamut(d, 0.5)],
  ['normalizePaperWhite', ramp(0, 40), (d) => hdr.normalizePaperWhite(d, 250)],
  ['linearToPQ', ramp(1e-6, 1, { log: true }), (d) => hdr.linearToPQ(d)],
  ['pqToLinear', ramp(0, 1), (d) => hdr.pqToLinear(d)],
  ['outputScenePq', ramp(0, 16), (d) => hdr.outputTransform(d, { paperWhite: 250, peak: 1000, saturation: 0.3 })],
  ['outputDisplayPq', ramp(0, 1.1), (d) => hdr.outputTransform(d, { paperWhite: 100, peak: 4000, saturation: 1, input: 'display' })],
  ['outputSceneExtended', ramp(0, 16), (d) => hdr.outputTransform(d, { paperWhite: 200, peak: 1600, saturation: 0.5, encoding: 'extended' })],
  ['toneMappingFn', ramp(0, 16), (d) => hdr.outputTransform(d, { paperWhite: 200, peak: 1600, saturation: 0.5, encoding: 'extended' })],
  ['toneMappingSdr', ramp(0, 8), (d) => {
    for (let i = 0; i < d.data.length; i++) if (i % 4 !== 3) d.data[i] *= 2; // exposure 2
    return hdr.outputTransform(d, { paperWhite: 100, peak: 100, saturation: 0, encoding: 'extended' });
  }],
];

describe('ikpd/three HDR nodes agree with the WASM transforms', () => {
  it('runs on the WebGPU backend with every case registered', async () => {
    expect(await page.evaluate(() => window.backend)).toBe('webgpu');
    expect(await page.evaluate(() => window.cases)).toEqual(CASES.map((c) => c[0]));
  });

  it('applyHDRToneMapping picks HDR on an extended canvas and SDR on the WebGL2 fallback', async () => {
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    expect(await page.evaluate(() => window.checkToneMapping())).toEqual({
      hdr: true, peak: 800, customToneMapping: true, fallbackHdr: false, fallbackExtended: false,
    });
    expect(errors).toEqual([]);
  });

  it.each(CASES)('%s within 1e-4', async (name, input, cpu) => {
    const gpu = await page.evaluate(([n, values]) => window.evaluate(n, values), [name, Array.from(input)]);
    expect(gpu.type).toBe('Float32Array');
    const expected = cpu(buffer(input)).data;
    let worst = 0;
    let worstAt = -1;
    for (let i = 0; i < N * 4; i++) {
      if (i % 4 === 3) continue;
      const error = Math.abs(gpu.values[i] - expected[i]) / Math.max(1, Math.abs(expected[i]));
      if (!(error <= worst)) {
        worst = error;
        worstAt = i;
      }
    }
    expect(worst, `worst at pixel ${worstAt >> 2}: input ${input[worstAt]}, gpu ${gpu.values[worstAt]}, wasm ${expected[worstAt]}`)
      .toBeLessThanOrEqual(1e-4);
  });
});
