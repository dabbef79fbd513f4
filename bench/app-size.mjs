// What an app downloads: builds two apps with Vite (production) against an
// ikpd checkout's web/ folder and prints the bytes of the JavaScript and
// .wasm files in dist/, raw and gzip -9: those the page loads (its entry, the
// entry's static imports and their assets, from Vite's manifest) apart from
// those fetched only on demand (dynamic imports: the threaded module of
// init({ threads }), lazily loaded demo scenes).
//   tests/package/app  the smallest app: init() and one two-bone solve
//   demo/              the three.js demo (three's WebGPU build included)
// Usage: node bench/app-size.mjs [path/to/ikpd/web]   (default: this checkout's web/)
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = resolve(import.meta.dirname, '..');
const web = resolve(process.argv[2] ?? join(root, 'web'));
process.env.NODE_ENV = 'production';

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

// The files a page loads: the manifest's entries, their static imports and
// the assets (the default .wasm) those chunks reference.
function loadedFiles(outDir) {
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8'));
  const loaded = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (chunk === undefined || loaded.has(join(outDir, chunk.file))) return;
    loaded.add(join(outDir, chunk.file));
    for (const asset of chunk.assets ?? []) loaded.add(join(outDir, asset));
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  return loaded;
}

const alias = [
  // web/three/hdr/hdr.js since web/three has a folder per area (older checkouts: web/three/hdr/hdr.js).
  { find: /^ikpd\/three\/hdr$/, replacement: join(web, existsSync(join(web, 'three/hdr/hdr.js')) ? 'three/hdr/hdr.js' : 'three/hdr.js') },
  { find: /^ikpd\/three$/, replacement: join(web, 'three/index.js') },
  { find: /^ikpd$/, replacement: join(web, 'index.js') },
];
const apps = {
  'minimal app (tests/package/app)': { root: join(root, 'tests/package/app'), configFile: false },
  'three.js demo (demo/)': { root: join(root, 'demo'), configFile: join(root, 'demo/vite.config.js') },
};
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`ikpd from ${web}`);
for (const [name, config] of Object.entries(apps)) {
  const outDir = mkdtempSync(join(tmpdir(), 'ikpd-app-size-'));
  try {
    // dedupe: three from this checkout even when ikpd/three comes from another one.
    await build({ ...config, logLevel: 'error', resolve: { alias, dedupe: ['three'] },
      build: { outDir, emptyOutDir: true, manifest: true } });
    const loaded = loadedFiles(outDir);
    const sum = (ext, onLoad) => files(outDir).filter((f) => extname(f) === ext && loaded.has(f) === onLoad)
      .map((f) => readFileSync(f))
      .reduce((t, b) => ({ raw: t.raw + b.length, gz: t.gz + gzipSync(b, { level: 9 }).length }), { raw: 0, gz: 0 });
    const line = (onLoad) => {
      const js = sum('.js', onLoad);
      const wasm = sum('.wasm', onLoad);
      return `JS ${kib(js.raw)} (${kib(js.gz)} gz) + wasm ${kib(wasm.raw)} (${kib(wasm.gz)} gz)`
        + ` = ${kib(js.raw + wasm.raw)} (${kib(js.gz + wasm.gz)} gz)`;
    };
    console.log(`${name}: on load ${line(true)}; on demand ${line(false)}`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
