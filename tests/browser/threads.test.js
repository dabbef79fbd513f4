// init({ threads }) in Chromium: the demo's server sends COOP/COEP, so the
// page is crossOriginIsolated and the demo reports threads on; in the page, a
// threaded two-bone batch (its joins busy-wait on the main thread) gives the
// single-threaded module's floats bit for bit. Without the headers (a plain
// server), init({ threads: 2 }) falls back to one thread.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDemoSession, root } from './browser.js';
import { serveStatic } from '../package/packed.js';

let session;
beforeAll(async () => {
  session = await openDemoSession('#two-bone', { webgpu: false });
}, 180_000);
afterAll(() => session?.close());

it('the demo page is cross-origin isolated and reports threads on', async () => {
  const { page, errors } = session;
  expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
  expect(await page.evaluate(() => window.__ikpdDemo.threads)).toBe(2);
  expect(await page.textContent('#badge')).toContain('threads: 2');
  expect(errors).toEqual([]);
}, 180_000);

it('a threaded batch in the page gives the single-threaded floats bit for bit', async () => {
  // A string: vitest rewrites import() in functions it transforms.
  const result = await session.page.evaluate(`(async () => {
    const base = '/@fs${root}';
    const { createModule } = await import(base + 'web/src/module.js');
    const { createApi } = await import(base + 'web/src/api.js');
    const { makeTwoBoneProblems } = await import(base + 'bench/problems.js');
    const [single, threaded] = [createApi(await createModule({ batch: true })), createApi(await createModule({ threads: 2 }))];
    const bits = (api) => {
      const batch = new api.TwoBoneBatch(5001, { poleMode: 'point', soften: 0.05 });
      const p = makeTwoBoneProblems(5001, 3);
      for (const k of Object.keys(p)) batch.input[k].set(p[k]);
      for (let frame = 0; frame < 200; frame++) batch.solve();
      const out = Object.values(batch.output).flatMap((v) => Array.from(new Uint32Array(v.buffer, v.byteOffset, v.length)));
      batch.dispose();
      return out;
    };
    const [a, b] = [bits(single), bits(threaded)];
    return { threads: threaded.threads, floats: a.length, same: a.length === b.length && a.every((x, i) => x === b[i]) };
  })()`);
  expect(result).toEqual({ threads: 2, floats: 5001 * 20, same: true });
}, 180_000);

it('without COOP/COEP, init({ threads: 2 }) runs on one thread', async () => {
  // A plain static server for the repository (no isolation headers); the page itself is a 404.
  const plain = await serveStatic(root.replace(/\/$/, ''));
  try {
    const other = await session.browser.newPage();
    await other.goto(plain.url);
    const result = await other.evaluate(`(async () => {
      const { init } = await import('/web/index.js');
      const ikpd = await init({ threads: 2 });
      return { isolated: globalThis.crossOriginIsolated, threads: ikpd.threads };
    })()`);
    expect(result).toEqual({ isolated: false, threads: 1 });
    await other.close();
  } finally {
    await plain.close();
  }
}, 180_000);
