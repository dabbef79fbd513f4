import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser, startDemoServer } from './browser.js';

let server;
let browser;
beforeAll(async () => {
  server = await startDemoServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('the demo page loads ikpd in Chromium without console errors', async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(server.url);
  await page.waitForFunction(() => document.getElementById('app').textContent.includes('loaded'));
  expect(errors).toEqual([]);
});
