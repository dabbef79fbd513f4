// Shared by the package tests: `npm pack` the repository and install the
// tarball into a fresh app folder (offline, as a user's `npm install` would
// lay it out), plus the page those apps serve and a static file server.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';

export const root = resolve(import.meta.dirname, '../..');

export const npm = (args, cwd) => execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
  cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' },
});

/**
 * Packs the repository (web/lib must be built) and installs the tarball into
 * `<tmp>/app`, with the page in ./app copied next to it. Returns
 * { app, files (paths in the tarball), cleanup }.
 */
export function installPacked(prefix) {
  const work = mkdtempSync(join(tmpdir(), `ikpd-${prefix}-`));
  // --ignore-scripts: the WASM is already built; prepack would rebuild it concurrently with other tests.
  const [{ filename, files }] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], root));
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }));
  npm(['install', '--offline', '--ignore-scripts', join(work, filename)], app);
  for (const name of readdirSync(join(import.meta.dirname, 'app'))) {
    copyFileSync(join(import.meta.dirname, 'app', name), join(app, name));
  }
  return { app, files: files.map((f) => f.path), cleanup: () => rmSync(work, { recursive: true, force: true }) };
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json', '.css': 'text/css' };

/**
 * Serves `dir` on a free loopback port; `.wasm` files go out as `wasmType`
 * (application/wasm, or a wrong type as servers that do not know the
 * extension send). Returns { url, close }.
 */
export async function serveStatic(dir, { wasmType = 'application/wasm' } = {}) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    const file = resolve(dir, `.${path.endsWith('/') ? `${path}index.html` : path}`);
    try {
      if (!file.startsWith(dir + sep)) throw new Error('outside the served folder');
      const body = await readFile(file);
      const type = extname(file) === '.wasm' ? wasmType : TYPES[extname(file)] ?? 'application/octet-stream';
      response.writeHead(200, { 'Content-Type': type }).end(body);
    } catch {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((done) => server.close(done)) };
}
