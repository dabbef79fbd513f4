// A fresh Vite app that installs ikpd from the packed tarball works with no
// configuration: `vite build` (served statically) and the dev server both
// fetch the .wasm as its own request, solve a two-bone pose, and only the dev
// server warns about objects dropped without dispose().
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'vite';
import { expect, it } from 'vitest';
import { root, serveStatic } from './packed.js';
import { expectSolvedWithSeparateWasm, loadPage, usePackedAppInChromium, wasmAssets } from './page.js';

const context = usePackedAppInChromium('vite');

it('vite build: the .wasm is its own asset, streamed, and production builds do not warn', async () => {
  // As a user runs it: a separate process, NODE_ENV unset (Vitest sets it to 'test').
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_ENV' && !k.startsWith('VITEST')));
  execFileSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], { cwd: context.installed.app, env });
  const assets = join(context.installed.app, 'dist/assets');
  const files = readdirSync(assets);
  // Every module; the page below (init()) fetches only the default one.
  const wasm = wasmAssets(assets);
  expect(Object.keys(wasm).sort()).toEqual(['ikpd', 'ikpd-batch', 'ikpd-rig', 'threads']);
  // No base64 copy of the module in the JavaScript (the threaded module's chunks, its glue and worker apart).
  const js = files.filter((f) => f.endsWith('.js') && !/^(ikpd-)?threads\b/.test(f)).map((f) => readFileSync(join(assets, f), 'utf8')).join('');
  expect(js).not.toMatch(/base64,AGFzbQ/);
  // The job layouts are JavaScript written at build time (about 110 KB of JS
  // with the default module's glue, 33 KB gzipped, and 25 KB for each other
  // module's glue chunk); a base64-embedded wasm would add ~240–750 KB.
  expect(js.length).toBeLessThan(200_000);

  const server = await serveStatic(join(context.installed.app, 'dist'));
  try {
    const loaded = await loadPage(context.browser, server.url);
    expectSolvedWithSeparateWasm(loaded, new RegExp(`^/assets/${wasm.ikpd}$`));
    expect(loaded.requests.find((r) => r.url.endsWith('.wasm')).type).toBe('application/wasm');
    expect(loaded.leakWarned).toBe(false);
  } finally {
    await server.close();
  }
});

it('vite dev server: pre-bundled ikpd still finds its .wasm, and development warns about leaks', async () => {
  const server = await createServer({ root: context.installed.app, configFile: false, logLevel: 'error', server: { host: '127.0.0.1', port: 0, hmr: false } });
  await server.listen();
  try {
    const loaded = await loadPage(context.browser, `http://127.0.0.1:${server.httpServer.address().port}/`);
    expect(loaded.requests.some((r) => new URL(r.url).pathname.startsWith('/node_modules/.vite/deps/ikpd.js'))).toBe(true);
    expectSolvedWithSeparateWasm(loaded, /^\/node_modules\/ikpd\/web\/lib\/ikpd\.wasm$/);
    expect(loaded.leakWarned).toBe(true);
  } finally {
    await server.close();
  }
});
