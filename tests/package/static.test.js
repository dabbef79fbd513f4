// A plain static page (an import map, no bundler) loads ikpd from the packed
// tarball: the .wasm is its own request, streamed when the server sends
// application/wasm and compiled from the downloaded bytes when the server
// gets the type wrong; no bundler says "development", so nothing warns.
import { expect, it } from 'vitest';
import { serveStatic } from './packed.js';
import { expectSolvedWithSeparateWasm, loadPage, usePackedAppInChromium } from './page.js';

const context = usePackedAppInChromium('static');

for (const wasmType of ['application/wasm', 'application/octet-stream']) {
  it(`loads with an import map, the .wasm served as ${wasmType}`, async () => {
    const server = await serveStatic(context.installed.app, { wasmType });
    try {
      const loaded = await loadPage(context.browser, `${server.url}static.html`);
      expectSolvedWithSeparateWasm(loaded, /^\/node_modules\/ikpd\/web\/lib\/ikpd\.wasm$/);
      expect(loaded.requests.find((r) => r.url.endsWith('.wasm')).type).toBe(wasmType);
      expect(loaded.warnings).toEqual([]); // Chromium's own "incorrect MIME type" warning is not raised: one plain compile
      expect(loaded.leakWarned).toBe(false);
    } finally {
      await server.close();
    }
  });
}
