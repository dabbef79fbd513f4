// init({ threads }) in Chromium: the demo's server sends COOP/COEP, so the
// page is crossOriginIsolated and the demo reports threads on; in the page, a
// threaded two-bone batch (its joins busy-wait on the main thread) gives the
// single-threaded module's floats bit for bit. Without the headers (a plain
// server), init({ threads: 2 }) falls back to one thread.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser, openDemo, root, startDemoServer } from './browser.js';

let server;
let browser;
let page;
const errors = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startDemoServer(), launchBrowser({ webgpu: false })]);
  page = await openDemo(browser, `${server.url}#twoBone`, errors);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('the demo page is cross-origin isolated and reports threads on', async () => {
  expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
  expect(await page.evaluate(() => window.__ikpdDemo.threads)).toBe(2);
  expect(await page.textContent('#badge')).toContain('threads: 2');
  expect(errors).toEqual([]);
}, 180_000);

it('a threaded batch in the page gives the single-threaded floats bit for bit', async () => {
  // A string: vitest rewrites import() in functions it transforms.
  const result = await page.evaluate(`(async () => {
    const base = '/@fs${root}';
    const { createModule } = await import(base + 'web/src/module.js');
    const { createApi } = await import(base + 'web/src/api.js');
    const { makeTwoBoneProblems } = await import(base + 'bench/problems.js');
    const [single, threaded] = [createApi(await createModule()), createApi(await createModule({ threads: 2 }))];
    const bits = (api) => {
      const batch = new api.TwoBoneBatch(5001, { poleMode: 'point', soften: 0.05 });
      const p = makeTwoBoneProblems(5001, 3);
      for (const k of Object.keys(p)) batch.input[k].set(p[k]);
      for (let frame = 0; frame < 200; frame++) batch.solve();
      const out = Object.values(batch.output).flatMap((v) => Array.from(new Uint32Array(v.buffer, v.byteOffset, v.length)));
      batch.dispose();
      return out;
    };
    const [a, b] = [bits(single), bits(threaded)];
    return { threads: threaded.threads, floats: a.length, same: a.length === b.length && a.every((x, i) => x === b[i]) };
  })()`);
  expect(result).toEqual({ threads: 2, floats: 5001 * 20, same: true });
}, 180_000);

it('without COOP/COEP, init({ threads: 2 }) runs on one thread', async () => {
  // A plain static server for the package's web/ folder: no isolation headers.
  const types = { js: 'text/javascript', mjs: 'text/javascript', wasm: 'application/wasm', html: 'text/html' };
  const plain = createServer(async (request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    if (path === '/') {
      response.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>plain</title>');
      return;
    }
    try {
      const body = await readFile(`${root}${path.slice(1)}`);
      response.writeHead(200, { 'Content-Type': types[path.split('.').pop()] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((resolve) => plain.listen(0, '127.0.0.1', resolve));
  try {
    const other = await browser.newPage();
    await other.goto(`http://127.0.0.1:${plain.address().port}/`);
    const result = await other.evaluate(`(async () => {
      const { init } = await import('/web/index.js');
      const ikpd = await init({ threads: 2 });
      return { isolated: globalThis.crossOriginIsolated, threads: ikpd.threads };
    })()`);
    expect(result).toEqual({ isolated: false, threads: 1 });
    await other.close();
  } finally {
    plain.close();
  }
}, 180_000);
