// A plain static page (an import map, no bundler) loads ikpd from the packed
// tarball: the .wasm is its own request, streamed when the server sends
// application/wasm and compiled from the downloaded bytes when the server
// gets the type wrong; no bundler says "development", so nothing warns.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installPacked, serveStatic } from './packed.js';
import { expectSolvedWithSeparateWasm, launchChromium, loadPage } from './page.js';

let installed;
let browser;
beforeAll(async () => {
  installed = installPacked('static');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  installed?.cleanup();
});

for (const wasmType of ['application/wasm', 'application/octet-stream']) {
  it(`loads with an import map, the .wasm served as ${wasmType}`, async () => {
    const server = await serveStatic(installed.app, { wasmType });
    try {
      const loaded = await loadPage(browser, `${server.url}static.html`);
      expectSolvedWithSeparateWasm(loaded, /^\/node_modules\/ikpd\/web\/lib\/ikpd\.wasm$/);
      expect(loaded.requests.find((r) => r.url.endsWith('.wasm')).type).toBe(wasmType);
      expect(loaded.warnings).toEqual([]); // Chromium's own "incorrect MIME type" warning is not raised: one plain compile
      expect(loaded.leakWarned).toBe(false);
    } finally {
      await server.close();
    }
  });
}
