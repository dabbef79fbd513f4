// Loads a package-test page (app/main.js) in headless Chromium and reports
// what it did: the solve, the requests it made, console warnings and errors,
// and whether the dropped objects were freed after garbage collection.
import { afterAll, beforeAll, expect } from 'vitest';
import { chromiumArgs } from '../browser/browser.js';
import { chromium } from 'playwright-core';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { installPacked, root } from './packed.js';

const LEAK_WARNING = 'ikpd: an object was garbage-collected without dispose()';

/** Chromium with gc() exposed to pages, for the leak-warning check. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [...chromiumArgs, '--js-flags=--expose-gc'],
  });
}

/**
 * For a test file: the packed tarball installed into a fresh app (installPacked)
 * and a Chromium, both ready in `context.installed` and `context.browser` once
 * the tests run, and removed after them.
 */
export function usePackedAppInChromium(prefix) {
  const context = {};
  beforeAll(async () => {
    context.installed = installPacked(prefix);
    context.browser = await launchChromium();
  });
  afterAll(async () => {
    await context.browser?.close();
    context.installed?.cleanup();
  });
  return context;
}

export async function loadPage(browser, url) {
  const page = await browser.newPage();
  const requests = [];
  const warnings = [];
  const errors = [];
  page.on('requestfinished', async (request) => {
    const response = await request.response();
    requests.push({ url: request.url(), status: response?.status(), type: response?.headers()['content-type'] });
  });
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  try {
    await page.goto(url);
    const result = await (await page.waitForFunction(() => window.ikpdResult, null, { timeout: 20_000 })).jsonValue();
    // Collect until the 100 dropped PD controllers are freed (FinalizationRegistry callbacks are asynchronous).
    const freed = await page.evaluate(async (before) => {
      for (let i = 0; i < 100 && window.ikpdUsedBytes() > before; i++) {
        globalThis.gc();
        await new Promise((done) => setTimeout(done, 20));
      }
      await new Promise((done) => setTimeout(done, 50));
      return window.ikpdUsedBytes() <= before;
    }, result.before);
    return { result, requests, warnings, errors, freed, leakWarned: warnings.some((w) => w.startsWith(LEAK_WARNING)) };
  } finally {
    await page.close();
  }
}

/** The checks every page shares: the solve reached the target and the .wasm came as its own request. */
export function expectSolvedWithSeparateWasm(loaded, wasmPath) {
  expect(loaded.errors).toEqual([]);
  expect(loaded.result.reached).toBe(true);
  loaded.result.end.forEach((v, i) => expect(v).toBeCloseTo([1, 1, 0][i], 4));
  const wasm = loaded.requests.filter((r) => new URL(r.url).pathname.endsWith('.wasm'));
  expect(wasm).toHaveLength(1);
  expect(new URL(wasm[0].url).pathname).toMatch(wasmPath);
  expect(wasm[0].status).toBe(200);
  expect(loaded.freed).toBe(true); // so that the presence or absence of the leak warning means something
}

/**
 * The .wasm assets a bundler emitted into `dir`, as { what: file name },
 * named by what they are: the default module ('ikpd'), the larger ones that
 * init({ rig }) and init({ batch }) fetch ('ikpd-rig', 'ikpd-batch') and the
 * threaded one ('threads', web/lib/threads/, which only init({ threads })
 * fetches). Anything else is named by its file name.
 */
export function wasmAssets(dir) {
  const modules = {
    ikpd: 'web/lib/ikpd.wasm', 'ikpd-rig': 'web/lib/ikpd-rig.wasm', 'ikpd-batch': 'web/lib/ikpd-batch.wasm',
    threads: 'web/lib/threads/ikpd-threads.wasm',
  };
  const bytes = Object.entries(modules).map(([name, path]) => [name, readFileSync(join(root, path))]);
  return Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.wasm')).map((file) => {
    const content = readFileSync(join(dir, file));
    return [bytes.find(([, b]) => b.equals(content))?.[0] ?? file, file];
  }));
}
