// Every per-frame call of the core API makes no garbage: each runs 100,000
// times under `node --trace-gc --max-semi-space-size=1` (a 1 MiB young
// generation; tests/support/core-frames.mjs) after a warm-up, and V8 reports
// at most one collection (V8's own, e.g. code optimized late on a busy
// machine). PD.update and AnglePD.update return a number, which V8 boxes (16
// bytes) where the call is not inlined: up to 4 for them. Before the calls
// were fixed they set off 4 to 108 collections here (PD: 11 to 13): closures
// over a call's values, object literals, new result arrays.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const BOXED_NUMBER = new Set(['PD.update', 'AnglePD.update']);

it('the per-frame calls of the core API make no garbage', () => {
  const script = fileURLToPath(new URL('../support/core-frames.mjs', import.meta.url));
  const out = execFileSync(process.execPath, ['--trace-gc', '--max-semi-space-size=1', script], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const collections = {};
  for (const [, name, lines] of out.matchAll(/--- measure (.*)\n([\s\S]*?)--- done \1\n/g)) {
    collections[name] = lines.split('\n').filter((line) => /Scavenge|Mark-Compact|Mark-sweep/.test(line)).length;
  }
  expect(Object.keys(collections).length).toBe(Number(out.match(/--- calls (\d+)/)[1]));
  const over = Object.entries(collections).filter(([name, n]) => n > (BOXED_NUMBER.has(name) ? 4 : 1));
  expect(over).toEqual([]);
}, 180_000);
