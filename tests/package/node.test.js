// The published package works from plain Node: `npm pack`, install the
// tarball into a fresh project (offline), import `ikpd` and solve; init()
// reads the shipped .wasm from disk, or takes what `init({ wasm })` is given.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installPacked, root, serveStatic } from './packed.js';

let installed;
beforeAll(() => {
  expect(existsSync(join(root, 'web/lib/ikpd.wasm'))).toBe(true); // built by `npm test` before Vitest
  installed = installPacked('node');
});
afterAll(() => installed?.cleanup());

const node = (args, env = {}) => execFileSync('node', args, { cwd: installed.app, encoding: 'utf8', env: { ...process.env, ...env } });

// For a child that talks to a server in this process (execFileSync would block it).
const nodeAsync = async (args) => (await promisify(execFile)('node', args, { cwd: installed.app, encoding: 'utf8' })).stdout;

const SOLVE = `
  const r = ikpd.solveTwoBone({
    root: { position: [0, 0, 0] }, mid: { position: [1, 0.1, 0] }, end: { position: [2, 0, 0] },
    target: [1, 1, 0],
  });
  console.log(JSON.stringify({ version: ikpd.version, reached: r.reached, end: r.end.position }));
`;

function expectSolved(output) {
  const out = JSON.parse(output.trim().split('\n').pop());
  expect(out.reached).toBe(true);
  out.end.forEach((v, i) => expect(v).toBeCloseTo([1, 1, 0][i], 4));
  expect(out.version).toMatch(/^\d+\.\d+\.\d+/);
}

it('ships the glue and the .wasm as separate files, and nothing from the build', () => {
  const paths = installed.files;
  expect(paths).toEqual(expect.arrayContaining(['web/index.js', 'web/index.d.ts', 'web/lib/ikpd.mjs', 'web/lib/ikpd.wasm', 'web/lib/ikpd-rig.mjs', 'web/lib/ikpd-rig.wasm', 'web/lib/ikpd-batch.mjs', 'web/lib/ikpd-batch.wasm', 'web/src/ik/twoBone.js', 'web/src/load-wasm.js', 'web/types/ik/index.d.ts']));
  expect(paths.some((p) => p.startsWith('cpp/') || p.startsWith('tests/') || p.startsWith('build/'))).toBe(false);
  for (const name of ['ikpd', 'ikpd-rig', 'ikpd-batch']) {
    const glue = readFileSync(join(installed.app, `node_modules/ikpd/web/lib/${name}.mjs`), 'utf8');
    expect(glue).not.toMatch(/base64,AGFzbQ/); // no embedded module ("\0asm" in base64)
    expect(glue.length).toBeLessThan(50_000);
  }
});

it('init({ rig }) and init({ batch }) load the larger modules the package ships', () => {
  writeFileSync(join(installed.app, 'modules.mjs'), `import { init } from 'ikpd';
    const rig = await init({ rig: true }), all = await init({ batch: true });
    const r = new rig.Rig({ parents: [-1, 0] }), b = new all.TwoBoneBatch(8);
    console.log(JSON.stringify([rig.areas, all.areas]));`);
  expect(JSON.parse(node(['modules.mjs']).trim())).toEqual([['ik', 'pd', 'hdr', 'rig'], ['ik', 'pd', 'hdr', 'rig', 'batch']]);
});

it('solves a two-bone pose from a Node script and from `node -e`', () => {
  writeFileSync(join(installed.app, 'main.mjs'), `import { init } from 'ikpd';\nconst ikpd = await init();\n${SOLVE}`);
  expectSolved(node(['main.mjs']));
  // The `node -e` form, with the CommonJS-free dynamic import.
  const viaEval = node(['-e', `import('ikpd').then(async ({ init }) => {
    const ikpd = await init();
    console.log(ikpd.solveAim({ position: [0, 0, 0], target: [0, 2, 0] }).rotation.map((v) => v.toFixed(4)).join(','));
  })`]);
  expect(viaEval.trim()).toBe('0.0000,0.0000,0.7071,0.7071');
});

it('init({ wasm }) takes bytes, a Response, a URL or a path', () => {
  const wasmPath = join(installed.app, 'node_modules/ikpd/web/lib/ikpd.wasm');
  const sources = {
    bytes: `readFileSync(${JSON.stringify(wasmPath)})`,
    arrayBuffer: `new Uint8Array(readFileSync(${JSON.stringify(wasmPath)})).buffer`,
    response: `new Response(readFileSync(${JSON.stringify(wasmPath)}), { headers: { 'Content-Type': 'application/wasm' } })`,
    untypedResponse: `new Response(readFileSync(${JSON.stringify(wasmPath)}))`,
    fileUrl: `pathToFileURL(${JSON.stringify(wasmPath)})`,
    fileUrlString: `pathToFileURL(${JSON.stringify(wasmPath)}).href`,
    path: JSON.stringify(wasmPath),
    promise: `Promise.resolve(readFileSync(${JSON.stringify(wasmPath)}))`,
  };
  for (const [name, source] of Object.entries(sources)) {
    const script = `import { readFileSync } from 'node:fs'; import { pathToFileURL } from 'node:url'; import { init } from 'ikpd';
      const ikpd = await init({ wasm: ${source} });\n${SOLVE}`;
    expect(() => expectSolved(node(['--input-type=module', '-e', script])), name).not.toThrow();
  }
});

it('init({ wasm }) fetches http URLs, streamed or (wrong Content-Type) from the downloaded bytes', async () => {
  for (const wasmType of ['application/wasm', 'application/octet-stream']) {
    const server = await serveStatic(join(installed.app, 'node_modules/ikpd/web/lib'), { wasmType });
    try {
      const script = `import { init } from 'ikpd'; const ikpd = await init({ wasm: ${JSON.stringify(`${server.url}ikpd.wasm`)} });\n${SOLVE}`;
      expectSolved(await nodeAsync(['--input-type=module', '-e', script]));
      const missing = `import { init } from 'ikpd'; init({ wasm: ${JSON.stringify(`${server.url}missing.wasm`)} }).catch((e) => console.log(e.message));`;
      expect((await nodeAsync(['--input-type=module', '-e', missing])).trim()).toBe(`wasm: loading ${server.url}missing.wasm failed: HTTP 404 Not Found`);
    } finally {
      await server.close();
    }
  }
});

it('init() rejects bad options with errors naming them, and a failed load can be retried', () => {
  const out = node(['--input-type=module', '-e', `import { init } from 'ikpd';
    const failures = [];
    for (const options of [null, { wasm: 42 }, { wasm: '/nonexistent/ikpd.wasm' }, { wasm: new Uint8Array([0, 97, 115, 109]) }]) {
      failures.push(await init(options).then(() => 'resolved', (e) => e.constructor.name + ': ' + e.message));
    }
    const ikpd = await init();
    console.log(JSON.stringify({ failures, same: ikpd === await init(), version: ikpd.version }));`]);
  const { failures, same, version } = JSON.parse(out);
  expect(failures[0]).toBe('TypeError: options: expected an object, got null');
  expect(failures[1]).toMatch(/^TypeError: wasm: expected bytes .*got number$/);
  expect(failures[2]).toMatch(/^Error: ENOENT.*\/nonexistent\/ikpd\.wasm/);
  expect(failures[3]).toMatch(/^CompileError: /);
  expect(same).toBe(true);
  expect(version).toMatch(/^\d+\.\d+\.\d+/);
});

it('warns about objects dropped without dispose() unless NODE_ENV is production', () => {
  const script = `import { init } from 'ikpd';
    const ikpd = await init();
    const baseline = ikpd.memoryStats().usedBytes; // what the module itself keeps (Embind's registry)
    const warnings = [];
    console.warn = (message) => warnings.push(message);
    for (let i = 0; i < 100; i++) new ikpd.PD({ settleTime: 1 });
    for (let i = 0; i < 50 && ikpd.memoryStats().usedBytes > baseline; i++) { gc(); await new Promise((r) => setTimeout(r, 10)); }
    console.log(JSON.stringify({ warnings: warnings.length, freed: ikpd.memoryStats().usedBytes <= baseline }));`;
  const run = (env) => JSON.parse(node(['--expose-gc', '--input-type=module', '-e', script], env));
  expect(run({ NODE_ENV: 'production' })).toEqual({ warnings: 0, freed: true });
  expect(run({ NODE_ENV: 'development' })).toEqual({ warnings: 1, freed: true });
});
