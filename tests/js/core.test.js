import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { init } from '../../web/index.js';
import { ikpd } from '../support/setup.js';

describe('isDevelopment (dev-only warnings)', () => {
  const core = new URL('../../web/src/core.js', import.meta.url);
  // Each case in a fresh Node process: `hideProcess` runs it as a browser
  // without a bundler would (no `process`); `replace` rewrites the source as
  // bundlers do (webpack's DefinePlugin, esbuild's define, Vite).
  function isDevelopmentIn({ env = {}, hideProcess = false, replace = null }) {
    let url = core.href;
    const dir = mkdtempSync(join(tmpdir(), 'ikpd-dev-'));
    try {
      if (replace) {
        // core.js imports its siblings: copy web/src as an ES module package, then rewrite core.js.
        const source = readFileSync(core, 'utf8');
        expect(source).toContain(replace[0]); // the exact expression bundlers look for
        cpSync(new URL('.', core), dir, { recursive: true });
        writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
        writeFileSync(join(dir, 'core.js'), source.replaceAll(replace[0], replace[1]));
        url = pathToFileURL(join(dir, 'core.js')).href;
      }
      const script = `const out = globalThis.process.stdout; ${hideProcess ? 'delete globalThis.process;' : ''}
        const { isDevelopment } = await import(${JSON.stringify(url)}); out.write(String(isDevelopment()));`;
      const { NODE_ENV, ...inherited } = process.env; // Vitest sets NODE_ENV=test
      return execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...inherited, ...env }, encoding: 'utf8' }) === 'true';
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('in Node: true unless NODE_ENV is production', () => {
    expect(isDevelopmentIn({})).toBe(true);
    expect(isDevelopmentIn({ env: { NODE_ENV: 'development' } })).toBe(true);
    expect(isDevelopmentIn({ env: { NODE_ENV: 'production' } })).toBe(false);
  });

  it('without `process` and without a bundler (a static page): false', () => {
    expect(isDevelopmentIn({ hideProcess: true })).toBe(false);
  });

  it('follows what bundlers write for process.env.NODE_ENV and import.meta.env.DEV', () => {
    expect(isDevelopmentIn({ hideProcess: true, replace: ['process.env.NODE_ENV', '"production"'] })).toBe(false);
    expect(isDevelopmentIn({ hideProcess: true, replace: ['process.env.NODE_ENV', '"development"'] })).toBe(true);
    expect(isDevelopmentIn({ hideProcess: true, replace: ['import.meta.env', '({ DEV: true })'] })).toBe(true);
    expect(isDevelopmentIn({ env: { NODE_ENV: 'development' }, replace: ['import.meta.env', '({ DEV: false })'] })).toBe(false);
  });
});

describe('init', () => {
  it('loads once and reports the version', async () => {
    expect(await init()).toBe(ikpd);
    expect(ikpd.version).toBe('0.1.0');
  });

  // Each in a fresh Node process (this one has loaded ikpd already): init()
  // with a valid but foreign .wasm rejects (it never settled, and the glue's
  // error escaped as an unhandled rejection), then init() with good bytes works.
  function initWithForeignWasm(bytes) {
    const index = new URL('../../web/index.js', import.meta.url).href;
    const good = new URL('../../web/lib/ikpd.wasm', import.meta.url);
    const script = `
      process.on('unhandledRejection', (e) => { console.log('unhandled: ' + e.message); process.exit(3); });
      const timer = setTimeout(() => { console.log('pending'); process.exit(4); }, 5000);
      const { init } = await import(${JSON.stringify(index)});
      const lines = [];
      try { await init({ wasm: new Uint8Array(${JSON.stringify(bytes)}) }); lines.push('resolved'); }
      catch (error) { lines.push(error.constructor.name + ': ' + error.message); }
      const { readFileSync } = await import('node:fs');
      const ikpd = await init({ wasm: readFileSync(new URL(${JSON.stringify(good.href)})) });
      lines.push('then ' + ikpd.version + ' ' + ikpd.solveAim({ position: [0, 0, 0], target: [0, 1, 0] }).rotation.length);
      clearTimeout(timer);
      console.log(JSON.stringify(lines));`;
    return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20000 }).trim()).map(String);
  }

  it('rejects a valid WebAssembly module that is not ikpd\'s, then loads good bytes', () => {
    const [error, then] = initWithForeignWasm([0, 97, 115, 109, 1, 0, 0, 0]); // an empty module
    expect(error).toMatch(/^TypeError: wasm: not ikpd's WebAssembly module/);
    expect(then).toBe('then 0.1.0 4');
  });

  it('rejects a module the glue fails on (a memory, a table and the default module\'s areas, nothing else), then loads good bytes', () => {
    const ascii = (text) => [...text].map((c) => c.charCodeAt(0));
    const name = ascii('ikpd.areas'), areas = ascii('ik\0pd\0hdr\0');
    const bytes = [0, 97, 115, 109, 1, 0, 0, 0, 0, 1 + name.length + areas.length, name.length, ...name, ...areas,
      4, 4, 1, 0x70, 0, 0, 5, 3, 1, 0, 1, 7, 9, 2, 1, 113, 2, 0, 1, 115, 1, 0];
    const [error, then] = initWithForeignWasm(bytes);
    expect(error).toMatch(/^TypeError: wasm: the WebAssembly module does not fit ikpd's glue/);
    expect(then).toBe('then 0.1.0 4');
  });
});

describe('single calls after WASM memory growth', () => {
  // The scratch and PD buffers are views over WASM memory; growth detaches the
  // old ArrayBuffer and every call must re-derive them (web/src/core.js, pd.js).
  const grow = () => {
    const heap = ikpd.memoryStats().heapBytes;
    const buffer = ikpd.hdr.createBuffer(Math.ceil(heap / 16) + 4096, 4); // more than the whole heap
    expect(ikpd.memoryStats().heapBytes).toBeGreaterThan(heap);
    return buffer;
  };
  const limb = {
    root: { position: [0, 0, 0] }, mid: { position: [0, 1, 0] }, end: { position: [0, 2, 0] },
    target: [0.7, 1.2, 0.3], pole: [0, 1, 1], weight: 0.8, soften: 0.05,
  };
  const aim = { position: [1, 2, 3], rotation: [0, 0.3, 0, 0.95], target: [4, 1, -2], pole: [0, 5, 0] };

  it('solveTwoBone, solveAim and PD controllers give the same results before and after growth', () => {
    const pd = new ikpd.PD({ settleTime: 0.4, value: 1 });
    const qpd = new ikpd.QuatPD({ settleTime: 0.4 });
    const twin = new ikpd.PD({ settleTime: 0.4, value: 1 });
    const qtwin = new ikpd.QuatPD({ settleTime: 0.4 });
    const before = [ikpd.solveTwoBone(limb), ikpd.solveAim(aim), pd.update(1 / 60, 3), qpd.update(1 / 60, [0, 0.6, 0, 0.8])];
    const buffer = grow();
    try {
      const after = [ikpd.solveTwoBone(limb), ikpd.solveAim(aim), twin.update(1 / 60, 3), qtwin.update(1 / 60, [0, 0.6, 0, 0.8])];
      expect(after).toEqual(before);
      expect(pd.value).toBe(twin.value);
      expect(qpd.velocity).toEqual(qtwin.velocity);
    } finally {
      buffer.dispose();
      for (const c of [pd, qpd, twin, qtwin]) c.dispose();
    }
  });

  it('a prepared solver made before growth re-derives its views (solve, input/run/output)', () => {
    const solver = new ikpd.TwoBoneSolver({ pole: [0, 1, 1], soften: 0.05 });
    const frame = { root: limb.root, mid: limb.mid, end: limb.end, target: limb.target };
    const before = structuredClone(solver.solve(frame));
    const rawBefore = Array.from(solver.output);
    const input = Array.from(solver.input);
    const buffer = grow();
    try {
      expect(solver.solve(frame)).toEqual(before);
      solver.output.fill(0);
      solver.input.set(input);
      solver.run();
      expect(solver.output.length).toBe(rawBefore.length);
      expect(Array.from(solver.output)).toEqual(rawBefore);
    } finally {
      buffer.dispose();
      solver.dispose();
    }
  });
});
