import { describe, expect, it } from 'vitest';
import { init } from '../../web/index.js';
import { ikpd } from './setup.js';

describe('init', () => {
  it('loads once and reports the version', async () => {
    expect(await init()).toBe(ikpd);
    expect(ikpd.version).toBe('0.1.0');
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
});
