// The demo's Vite dev server on a free loopback port. A Vitest global setup
// (vitest.config.js) starts one for the whole run and provides its address as
// 'demoUrl': the browser test files share it (tests/browser/browser.js,
// startDemoServer), so each file does not start a server and transform the demo's
// modules again.
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Starts the demo's Vite dev server; returns {url, close}. */
export async function createDemoServer() {
  const server = await createServer({
    configFile: `${root}demo/vite.config.js`,
    logLevel: 'error',
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false },
  });
  await server.listen();
  const address = server.httpServer.address();
  return { url: `http://127.0.0.1:${address.port}/`, close: () => server.close() };
}

export default async function setup({ provide }) {
  const server = await createDemoServer();
  provide('demoUrl', server.url);
  return () => server.close();
}
