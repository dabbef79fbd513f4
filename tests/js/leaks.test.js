// No leaks: disposing frees WASM memory at once, and objects that are
// garbage-collected without dispose() are freed by the FinalizationRegistry
// safety net in web/src/core.js (with a one-time console warning in development).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WasmObject } from '../../web/src/core.js';
import { ikpd } from './setup.js';
import { WASM_CLASSES } from './wasm-classes.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

/** Collects garbage until the FinalizationRegistry callbacks have run (they are asynchronous). */
async function collect(until = () => true) {
  for (let i = 0; i < 50; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
    if (until()) return;
  }
}

afterEach(() => vi.restoreAllMocks());

describe('WasmObject lifetime', () => {
  it('dispose() releases once, is idempotent, and later use throws an Error naming the object', () => {
    let released = 0;
    const object = new WasmObject('Thing', () => released++);
    expect(object.disposed).toBe(false);
    object.assertAlive();
    object.dispose();
    object.dispose();
    expect(released).toBe(1);
    expect(object.disposed).toBe(true);
    expect(() => object.assertAlive()).toThrow(new Error('Thing: used after dispose()'));
  });

  it('objects dropped without dispose() are released by the safety net, with one warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const counter = { released: 0 };
    (() => {
      // The release closure captures only `counter`, never the object itself.
      for (let i = 0; i < 100; i++) new WasmObject('Dropped', () => counter.released++);
    })();
    await collect(() => counter.released === 100);
    expect(counter.released).toBe(100);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toMatch(/garbage-collected without dispose\(\)/);
  });

  it('disposed objects are not released again when collected', async () => {
    const counter = { released: 0 };
    (() => {
      for (let i = 0; i < 100; i++) new WasmObject('Disposed', () => counter.released++).dispose();
    })();
    await collect();
    expect(counter.released).toBe(100);
  });
});

// One entry per JS class that owns WASM memory (tests/js/wasm-classes.js).
describe.each(WASM_CLASSES.map((c) => [c.name, c]))('%s leaves the WASM heap flat', (name, spec) => {
  const available = typeof ikpd[name] === 'function';

  it.runIf(available)('1,000,000 create/dispose cycles', () => {
    // Warm up: first allocations may grow the heap or fill allocator bins.
    for (let i = 0; i < 1000; i++) spec.create(ikpd).dispose();
    const before = ikpd.memoryStats();
    const cycles = spec.cycles ?? 1_000_000;
    for (let i = 0; i < cycles; i++) {
      const object = spec.create(ikpd);
      if (i % 1000 === 0) spec.use?.(object);
      object.dispose();
    }
    const after = ikpd.memoryStats();
    expect(after.usedBytes).toBe(before.usedBytes);
    expect(after.heapBytes).toBe(before.heapBytes);
  });

  it.runIf(available)('objects garbage-collected without dispose() are freed', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await collect();
    const before = ikpd.memoryStats().usedBytes;
    (() => {
      for (let i = 0; i < 2000; i++) spec.create(ikpd);
    })();
    expect(ikpd.memoryStats().usedBytes).toBeGreaterThan(before);
    await collect(() => ikpd.memoryStats().usedBytes <= before);
    expect(ikpd.memoryStats().usedBytes).toBe(before);
  });
});
