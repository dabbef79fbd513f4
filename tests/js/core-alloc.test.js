// Every per-frame call of the core API makes no garbage: each runs 10,000 times
// after a warm-up under the allocation probe (tests/support/alloc-probe.mjs,
// tests/support/core-frames.mjs), which counts the bytes allocated on V8's young
// generation exactly. A constant few hundred bytes per measure are V8's own (the
// loop's code); one object or boxed number per call would be 120,000 bytes or
// more. PD.update and AnglePD.update return a number, which V8 boxes (16 bytes)
// where the call is not inlined: up to 16 bytes a call for them. Before the calls
// were fixed they made closures over a call's values, object literals and new
// result arrays.
import { expect, it } from 'vitest';
import { allocations } from '../support/alloc-run.js';

const BOXED_NUMBER = new Set(['PD.update', 'AnglePD.update']);

it('the per-frame calls of the core API make no garbage', () => {
  const measures = allocations(new URL('../support/core-frames.mjs', import.meta.url));
  expect(Object.keys(measures).length).toBe(Number(measures.output.match(/--- calls (\d+)/)[1]));
  const over = Object.entries(measures)
    .filter(([name, m]) => m.collections > 0 || m.perFrame >= (BOXED_NUMBER.has(name) ? 17 : 1))
    .map(([name, m]) => `${name}: ${m.bytes} bytes over ${m.frames} calls, ${m.collections} collections`);
  expect(over).toEqual([]);
}, 120_000);
