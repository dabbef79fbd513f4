// README's quick start, verbatim: the first ```js block after the
// `<!-- quick-start -->` marker runs as a plain module page whose import map
// has only `three`, `ikpd` and `ikpd/three` (the map README documents; no
// three/tsl, no three/webgpu), 20 page loads, no console error, the arm moves.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { artifactPath, launchBrowser, root } from './browser.js';
import { serveStatic } from '../package/packed.js';

const IMPORT_MAP = {
  imports: {
    three: '/node_modules/three/build/three.module.js',
    ikpd: '/web/index.js',
    'ikpd/three': '/web/three/index.js',
  },
};

/** The quick-start code block of README.md. */
export function quickStartCode() {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const at = readme.indexOf('<!-- quick-start -->');
  if (at < 0) throw new Error('README.md: no <!-- quick-start --> marker');
  const match = /```js\n([\s\S]*?)```/.exec(readme.slice(at));
  if (!match) throw new Error('README.md: no ```js block after the quick-start marker');
  return match[1];
}

let server;
let browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([serveStatic(root.replace(/\/$/, '')), launchBrowser({ webgpu: false })]);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('README quick start runs as pasted: 20 loads, no console error, it draws a moving arm, it fetches only the rig module', async () => {
  const code = quickStartCode();
  // The page a user would have: an import map and the code as the module.
  const html = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">${JSON.stringify(IMPORT_MAP)}</script></head>
<body style="margin:0"><script type="module">
${code}
</script></body></html>`;
  const page = await browser.newPage({ viewport: { width: 640, height: 400 } });
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  // init({ rig: true }): the page fetches that module's glue and .wasm, no other module's (docs/loading.md, "Modules").
  const modules = new Set();
  page.on('request', (r) => {
    const file = new URL(r.url()).pathname.match(/\/web\/lib\/(?:threads\/)?([\w-]+\.(?:mjs|wasm))$/)?.[1];
    if (file) modules.add(file);
  });
  // The page is served from memory at a path under the repository root, so the map's paths resolve.
  await page.route('**/quick-start.html', (route) => route.fulfill({ contentType: 'text/html', body: html }));
  for (let load = 0; load < 20; load++) {
    await page.goto(`${server.url}quick-start.html`);
    // Frames run: the bones' world matrices change (SkeletonHelper draws them) — wait for a few animation frames.
    await page.waitForFunction(() => document.querySelector('canvas') !== null, null, { timeout: 20_000 });
    await page.evaluate(() => new Promise((done) => { let n = 0; const tick = () => (++n > 5 ? done() : requestAnimationFrame(tick)); requestAnimationFrame(tick); }));
    expect(errors, `load ${load}`).toEqual([]);
  }
  expect([...modules].sort()).toEqual(['ikpd-rig.mjs', 'ikpd-rig.wasm']);
  // It draws, and the drawing changes: the target moves and the arm follows.
  const first = await page.screenshot({ path: artifactPath('readme-quick-start.png') });
  await page.waitForTimeout(400);
  const second = await page.screenshot();
  expect(first.equals(second)).toBe(false);
  expect(new Set(first.subarray(100, 4000)).size).toBeGreaterThan(1);
  await page.close();
}, 180_000); // 20 page loads: 57 s alone on a busy 2-core machine
