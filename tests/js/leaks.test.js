// No leaks: disposing frees WASM memory at once, and objects that are
// garbage-collected without dispose() are freed by the FinalizationRegistry
// safety net in web/src/core.js (with a one-time console warning in development).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WasmObject } from '../../web/src/core.js';
import { ikpd } from '../support/setup.js';
import { WASM_CLASSES } from '../support/wasm-classes.js';

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

function cycle(spec, count) {
  for (let i = 0; i < count; i++) {
    const object = spec.create(ikpd);
    if (i % 1000 === 0) spec.use?.(object);
    object.dispose();
  }
}

function expectFlat(run) {
  const before = ikpd.memoryStats();
  run();
  const after = ikpd.memoryStats();
  expect(after.usedBytes).toBe(before.usedBytes);
  expect(after.heapBytes).toBe(before.heapBytes);
}

// The per-frame objects: 1,000,000 of them in all, round-robin over the classes
// (a million of each would take minutes on a 2-core CI machine).
const CONTROLLERS = WASM_CLASSES.filter((c) => c.controller);

it(`1,000,000 controllers (${CONTROLLERS.map((c) => c.name).join(', ')}) created and disposed leave the WASM heap flat`, () => {
  for (const spec of CONTROLLERS) cycle(spec, 1000);  // warm up allocator bins
  expectFlat(() => {
    const per = Math.ceil(1_000_000 / CONTROLLERS.length);
    for (let round = 0; round < per; round += 1000) {
      for (const spec of CONTROLLERS) cycle(spec, 1000);
    }
  });
});

it('constructors that throw free what they allocated at once', () => {
  // Regression: PD constructors created the native object before checking the
  // options' shape, and an invalid initial value left it to the GC safety net.
  const warn = vi.spyOn(console, 'warn');
  for (const Class of [ikpd.PD, ikpd.AnglePD, ikpd.Vec3PD, ikpd.QuatPD]) new Class().dispose();
  const before = ikpd.memoryStats().usedBytes;
  for (let i = 0; i < 100; i++) {
    for (const Class of [ikpd.PD, ikpd.AnglePD, ikpd.Vec3PD, ikpd.QuatPD]) {
      expect(() => new Class(null)).toThrow(TypeError);
      expect(() => new Class({ value: NaN })).toThrow(/^value/);
      expect(() => new Class({ kp: -1 })).toThrow(/^kp/);
    }
  }
  expect(ikpd.memoryStats().usedBytes).toBe(before);
  expect(warn).not.toHaveBeenCalled();
});

// One entry per JS class that owns WASM memory (tests/support/wasm-classes.js).
describe.each(WASM_CLASSES.map((c) => [c.name, c]))('%s leaves the WASM heap flat', (name, spec) => {
  const cycles = spec.cycles ?? 100_000;

  it(`${cycles.toLocaleString('en')} create/dispose cycles`, () => {
    cycle(spec, 1000);  // warm up: first allocations may grow the heap or fill allocator bins
    expectFlat(() => cycle(spec, cycles));
  });

  it('objects garbage-collected without dispose() are freed', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    // Warm up with several alive together, as the cycles above warm up one at a time: the first
    // time a few RigBatches are alive at once the allocator keeps 8 bytes for itself, once
    // (measured: 5, 10, 20 or 100 alive together leave the same 8).
    const warm = Array.from({ length: 20 }, () => spec.create(ikpd));
    for (const object of warm) object.dispose();
    await collect();
    const before = ikpd.memoryStats().usedBytes;
    (() => {
      for (let i = 0; i < 2000; i++) spec.create(ikpd);
    })();
    expect(ikpd.memoryStats().usedBytes).toBeGreaterThan(before);
    await collect(() => ikpd.memoryStats().usedBytes <= before);
    expect(ikpd.memoryStats().usedBytes).toBe(before);
  });

  it('dispose() is idempotent and every later method call throws a named Error', () => {
    const object = spec.create(ikpd);
    object.dispose();
    object.dispose();
    expect(object.disposed).toBe(true);
    const proto = Object.getPrototypeOf(object);
    const methods = Object.getOwnPropertyNames(proto).filter(
      (k) => k !== 'constructor' && typeof Object.getOwnPropertyDescriptor(proto, k).value === 'function');
    for (const method of methods) {
      expect(() => object[method](1 / 60, [0, 0, 0, 1]), method).toThrow(new Error(`${name}: used after dispose()`));
    }
    // Getters must not read freed WASM memory either.
    const getters = Object.getOwnPropertyNames(proto).filter((k) => typeof Object.getOwnPropertyDescriptor(proto, k).get === 'function');
    expect(methods.length + getters.length).toBeGreaterThan(0);
    for (const getter of getters) {
      expect(() => object[getter], getter).toThrow(new Error(`${name}: used after dispose()`));
    }
  });
});
