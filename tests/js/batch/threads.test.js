// The threaded module (init({ threads }), docs/batch/batches.md "Threads"):
// every batch kind gives the single-threaded module's floats bit for bit,
// joins never deadlock, errors name the right item, batches come and go
// between calls, options are checked, and where threads cannot run init()
// falls back with one development warning.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ikpd } from '../../support/setup.js';
import { createModule, threadsAvailable, threadsUnavailable } from '../../../web/src/module.js';
import { createApi } from '../../../web/src/api.js';
import { makeTwoBoneProblems, rng } from '../../../bench/problems.js';

// The API of a module loaded with `threads` threads (as init({ threads }) makes it).
async function batchesWith(threads) {
  const api = createApi(await createModule({ threads }));
  expect(api.threads).toBe(threads);
  return api;
}
const two = await batchesWith(2);
const three = await batchesWith(3);
const made = [];
const track = (batch) => (made.push(batch), batch);
afterAll(() => made.forEach((b) => b.dispose())); // dispose() twice is a no-op

// Deterministic inputs for every input (and state) field of `batch`:
// unit quaternions for 4-float rotations and PD quaternion values, weights
// and blends in [0, 1], the rest in [-1, 1]; two-bone limbs from bench/problems.js.
function fill(batch, seed) {
  const r = rng(seed);
  const groups = [batch.input, batch.state ?? {}];
  for (const group of groups) {
    for (const [name, view] of Object.entries(group)) {
      const size = view.length / batch.count;
      for (let i = 0; i < batch.count; i++) {
        const at = i * size;
        for (let k = 0; k < size; k++) view[at + k] = /weight|blend/i.test(name) ? r.next() : r.uniform(-1, 1);
        if (size === 4) {
          const n = Math.hypot(view[at], view[at + 1], view[at + 2], view[at + 3]) || 1;
          for (let k = 0; k < 4; k++) view[at + k] /= n;
        }
      }
    }
  }
  if (batch.constructor.name === 'TwoBoneBatch') {
    const p = makeTwoBoneProblems(batch.count, seed);
    for (const name of Object.keys(p)) batch.input[name].set(p[name]);
  }
}

// Every float a batch writes, as bits.
const bitsOf = (batch) => Object.fromEntries(Object.entries({ ...batch.output, ...batch.state })
  .map(([name, view]) => [name, Array.from(new Uint32Array(view.buffer, view.byteOffset, view.length))]));

const KINDS = [
  ['TwoBoneBatch', { poleMode: 'point', soften: 0.05 }, (b) => b.solve()],
  ['TwoBoneBatch', { poleMode: 'direction', maxStretch: 1.2, twist: 0.3 }, (b) => b.solve(b.count - 1)],
  ['PseudoThreeBoneBatch', { poleMode: 'point' }, (b) => b.solve()],
  ['AimBatch', { poleMode: 'point' }, (b) => b.solve()],
  ['AimBatch', {}, (b) => b.solve(b.count - 2)],
  ['PDBatch', { settleTime: 0.3 }, (b) => { for (let k = 0; k < 5; k++) b.update(1 / 60); }],
  ['PDBatch', { settleTime: 0.2, angle: true }, (b) => b.update(1 / 30)],
  ['QuatPDBatch', { settleTime: 0.3 }, (b) => { for (let k = 0; k < 5; k++) b.update(1 / 240); }],
];

describe('threaded batches give the single-threaded floats bit for bit', () => {
  // Counts that are no multiple of the 4 SIMD lanes nor of the threads, below
  // and above the 2,048 items from which solves split.
  it.each(KINDS.flatMap(([name, options, run]) => [2047, 2051, 5003].map((count) => [name, JSON.stringify(options), count, options, run])))(
    '%s %s, %i items', (name, _, count, options, run) => {
      const [single, threaded, threadedThree] = [ikpd, two, three].map((api) => track(new api[name](count, options)));
      for (const batch of [single, threaded, threadedThree]) {
        fill(batch, count);
        run(batch);
      }
      const expected = bitsOf(single);
      expect(bitsOf(threaded)).toEqual(expected);
      expect(bitsOf(threadedThree)).toEqual(expected);
      for (const batch of [single, threaded, threadedThree]) batch.dispose();
    });
});

describe('threaded batches over many frames', () => {
  it('10^5 update() calls finish (no deadlock) with the single-threaded state', () => {
    const [single, threaded] = [ikpd, two].map((api) => track(new api.PDBatch(2051, { settleTime: 0.25 })));
    for (const batch of [single, threaded]) fill(batch, 7);
    for (let frame = 0; frame < 100_000; frame++) {
      const dt = frame % 3 === 0 ? 1 / 240 : 1 / 60;
      single.update(dt);
      threaded.update(dt);
    }
    expect(bitsOf(threaded)).toEqual(bitsOf(single));
    single.dispose();
    threaded.dispose();
  });

  it('batches created and disposed between calls, the pool kept busy by others', () => {
    const keep = track(new two.AimBatch(4099, { poleMode: 'point' }));
    fill(keep, 3);
    for (let round = 0; round < 50; round++) {
      const batch = new two.TwoBoneBatch(2048 + 37 * round, {});
      fill(batch, round);
      batch.solve();
      keep.solve();
      batch.dispose();
      expect(() => batch.solve()).toThrow();
    }
    const reference = track(new ikpd.AimBatch(4099, { poleMode: 'point' }));
    fill(reference, 3);
    reference.solve();
    expect(bitsOf(keep)).toEqual(bitsOf(reference));
    keep.dispose();
    reference.dispose();
  });
});

describe('errors in threaded batches', () => {
  // Items in the first part, at the split (2,504: 313 groups of 8 lanes), in the last part, the last item.
  it.each([10, 2503, 2504, 2505, 4000, 4999])('a bad item %i is named as in the single-threaded module', (bad) => {
    const [single, threaded] = [ikpd, two].map((api) => track(new api.TwoBoneBatch(5000, {})));
    const messages = [single, threaded].map((batch) => {
      fill(batch, 5);
      batch.input.target[3 * bad + 1] = NaN;
      try {
        batch.solve();
      } catch (error) {
        return error.message;
      }
      return 'no error';
    });
    expect(messages[0]).toMatch(new RegExp(`^items\\[${bad}\\]\\.`));
    expect(messages[1]).toBe(messages[0]);
    single.dispose();
    threaded.dispose();
  });

  it('an invalid PD state names its item', () => {
    const batch = track(new two.QuatPDBatch(4096, {}));
    fill(batch, 9);
    batch.state.velocity[3 * 3333] = Infinity;
    expect(() => batch.update(1 / 60)).toThrow(/^items\[3333\]\./);
    batch.dispose();
  });
});

describe('init({ threads })', () => {
  it.each([
    [0, RangeError], [17, RangeError], [1.5, RangeError], [NaN, RangeError], ['2', TypeError], [null, TypeError],
  ].map(([threads, Type]) => [String(threads), Type.name, threads, Type]))('threads: %s is a %s naming threads', async (_, __, threads, Type) => {
    const error = await createModule({ threads }).catch((e) => e);
    expect(error).toBeInstanceOf(Type);
    expect(error.message).toMatch(/^threads: /);
  });

  it('unknown option names suggest threads', async () => {
    await expect(createModule({ thread: 2 })).rejects.toThrow(/thread: unknown option of init \(did you mean 'threads'\?\)/);
  });

  it('threads cannot be combined with wasm', async () => {
    await expect(createModule({ threads: 2, wasm: new Uint8Array(8) })).rejects.toThrow(/^threads: .*wasm/);
  });

  it('threads: 1 is the single-threaded module', async () => {
    const wasm = await createModule({ threads: 1 });
    expect(wasm.ikpdThreads).toBeUndefined();
    expect(ikpd.threads).toBe(1);
  });

  it('where threads cannot run: no threaded module, one development warning', async () => {
    expect(threadsUnavailable({ node: true })).toBeUndefined();
    expect(threadsUnavailable({ node: false, sharedMemory: true, crossOriginIsolated: true })).toBeUndefined();
    expect(threadsUnavailable({ node: false, sharedMemory: false })).toBe('no SharedArrayBuffer');
    const page = { node: false, sharedMemory: true, crossOriginIsolated: false };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(threadsAvailable(2, page)).toBe(false);
      expect(threadsAvailable(4, page)).toBe(false);
      expect(threadsAvailable(2, { node: true })).toBe(true);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0][0]).toMatch(/threads: 2 \}\) runs on one thread: not cross-origin isolated.*Cross-Origin-Opener-Policy: same-origin/);
    } finally {
      warn.mockRestore();
    }
  });
});
