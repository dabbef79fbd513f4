// webpack 5 with no configuration beyond entry and output: it copies the
// .wasm as an asset (from `new URL(..., import.meta.url)`), leaves the
// Node-only file reading alone, and its production mode removes the leak
// warning; the built page solves in Chromium.
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import webpack from 'webpack';
import { expect, it } from 'vitest';
import { serveStatic } from './packed.js';
import { expectSolvedWithSeparateWasm, loadPage, usePackedAppInChromium, wasmAssets } from './page.js';

const context = usePackedAppInChromium('webpack');

it('webpack 5 build: the .wasm is its own asset and the page solves without a leak warning', async () => {
  const dist = join(context.installed.app, 'dist');
  const stats = await new Promise((resolve, reject) => {
    const compiler = webpack({ mode: 'production', context: context.installed.app, entry: './main.js', output: { path: dist } });
    compiler.run((error, result) => compiler.close(() => (error ? reject(error) : resolve(result))));
  });
  const { errors, warnings } = stats.toJson({ all: false, errors: true, warnings: true });
  expect(errors).toEqual([]);
  // webpack's size hint (244 KiB) fires for the raw .wasm (over the size target: BENCHMARKS.md,
  // "Size and init()"); any other warning fails.
  const sizeHint = /asset size limit|entrypoint size limit|performance recommendations/;
  expect(warnings.map((w) => w.message).filter((m) => !sizeHint.test(m))).toEqual([]);
  // Every module; the page below (init()) fetches only the default one.
  const wasm = wasmAssets(dist);
  expect(Object.keys(wasm).sort()).toEqual(['ikpd', 'ikpd-batch', 'ikpd-rig', 'threads']);
  const js = readFileSync(join(dist, 'main.js'), 'utf8');
  // The job layouts are JavaScript written at build time (about 100 KB of JS in
  // all, 30 KB gzipped); a base64-embedded wasm would add ~580 KB.
  expect(js.length).toBeLessThan(150_000);
  expect(js).not.toContain('garbage-collected without dispose()'); // dead code in production

  copyFileSync(join(context.installed.app, 'index.html'), join(dist, 'index.html')); // its script is ./main.js, webpack's output name
  const server = await serveStatic(dist);
  try {
    const loaded = await loadPage(context.browser, server.url);
    expectSolvedWithSeparateWasm(loaded, new RegExp(`^/${wasm.ikpd}$`));
    expect(loaded.leakWarned).toBe(false);
  } finally {
    await server.close();
  }
});
