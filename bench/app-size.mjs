// What an app downloads: builds three apps with Vite (production) against an
// ikpd checkout's web/ folder and prints the bytes of the JavaScript and
// .wasm files in dist/, raw and gzip -9: those the page loads (its entry, the
// entry's static imports, the module init() asked for, and their assets,
// from Vite's manifest) apart from those fetched only on demand (dynamic
// imports: the other modules, lazily loaded demo scenes).
//   tests/package/app  the smallest app: init() and one two-bone solve
//   README quick start an IKRig on a three.js arm: init({ rig: true })
//   demo/              the three.js demo (three's WebGPU build included; init({ batch: true, threads }))
// Usage: node bench/app-size.mjs [path/to/ikpd/web]   (default: this checkout's web/)
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

// The files a page loads: the manifest's entries, their static imports, the
// chunk of the module `module` (web/lib/<module>.mjs, a dynamic import of
// web/src/module.js) and the assets (its .wasm) those chunks reference.
function loadedFiles(outDir, module) {
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8'));
  const loaded = new Set();
  const wasm = Object.entries(manifest).find(([key]) => key.endsWith(`lib/${module}.wasm`))?.[1].file;
  const visit = (key) => {
    const chunk = manifest[key];
    if (chunk === undefined || loaded.has(join(outDir, chunk.file))) return;
    loaded.add(join(outDir, chunk.file));
    // Of the .wasm files web/src/module.js names, only the module's is fetched.
    for (const asset of chunk.assets ?? []) if (!asset.endsWith('.wasm') || asset === wasm) loaded.add(join(outDir, asset));
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry || key.endsWith(`lib/${module}.mjs`)) visit(key);
  return loaded;
}

const alias = [
  // web/three/hdr/hdr.js since web/three has a folder per area (older checkouts: web/three/hdr/hdr.js).
  { find: /^ikpd\/three\/hdr$/, replacement: join(web, existsSync(join(web, 'three/hdr/hdr.js')) ? 'three/hdr/hdr.js' : 'three/hdr.js') },
  { find: /^ikpd\/three$/, replacement: join(web, 'three/index.js') },
  { find: /^ikpd$/, replacement: join(web, 'index.js') },
];
// README's quick start as an app of its own (index.html + main.js in a temporary folder).
function quickStartApp() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const code = readme.slice(readme.indexOf('<!-- quick-start -->')).match(/```js\n([\s\S]*?)```/)[1];
  mkdirSync(join(root, 'build'), { recursive: true });
  const dir = mkdtempSync(join(root, 'build/quick-start-')); // in the checkout, so that 'three' resolves
  writeFileSync(join(dir, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>');
  writeFileSync(join(dir, 'main.js'), code);
  return dir;
}
const quickStart = quickStartApp();
const apps = {
  'minimal app (tests/package/app)': { module: 'ikpd', config: { root: join(root, 'tests/package/app'), configFile: false } },
  'README quick start (IKRig)': { module: 'ikpd-rig', config: { root: quickStart, configFile: false } },
  'three.js demo (demo/)': { module: 'ikpd-batch', config: { root: join(root, 'demo'), configFile: join(root, 'demo/vite.config.js') } },
};
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`ikpd from ${web}`);
for (const [name, { module, config }] of Object.entries(apps)) {
  const outDir = mkdtempSync(join(tmpdir(), 'ikpd-app-size-'));
  try {
    // dedupe: three from this checkout even when ikpd/three comes from another one.
    await build({ ...config, logLevel: 'error', resolve: { alias, dedupe: ['three'] },
      build: { outDir, emptyOutDir: true, manifest: true } });
    const loaded = loadedFiles(outDir, module);
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
rmSync(quickStart, { recursive: true, force: true });
