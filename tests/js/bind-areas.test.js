// Areas bind on first use (docs/loading.md, "Start-up"): init() registers
// only the module's plumbing, each area's Embind bindings are registered the
// first time the API uses the area, and binding never needs the heap, so a
// full heap still gives RangeErrors rather than an abort.
import { describe, expect, it } from 'vitest';
import { bindAllAreas, createModule } from '../../web/src/module.js';
import { createApi } from '../../web/src/api.js';

const AREA_CLASSES = { ik: 'TwoBoneSolver', rig: 'Rig', pd: 'PdQuat', hdr: 'HdrStorage', batch: 'TwoBoneBatch' };
const unbound = (wasm) => Object.keys(AREA_CLASSES).filter((area) => wasm[AREA_CLASSES[area]] === undefined);
const joint = (x) => ({ position: [x, 0, 0] });
const twoBone = () => ({ root: joint(0), mid: joint(1), end: joint(2), target: [1, 1, 0] });

describe('areas bind on first use', () => {
  it('init binds no area; each binds when the API first uses it, and only it', async () => {
    const wasm = await createModule({ batch: true });
    const ikpd = createApi(wasm);
    expect(unbound(wasm)).toEqual(['ik', 'rig', 'pd', 'hdr', 'batch']);
    expect(ikpd.solveTwoBone(twoBone()).reached).toBe(true);
    expect(unbound(wasm)).toEqual(['rig', 'pd', 'hdr', 'batch']);
    new ikpd.QuatPD().dispose();
    expect(unbound(wasm)).toEqual(['rig', 'hdr', 'batch']);
    new ikpd.TwoBoneBatch(8).dispose();
    expect(unbound(wasm)).toEqual(['rig', 'hdr']);
    new ikpd.LookAt({ weights: [0.5, 1] }).dispose();
    ikpd.hdr.createBuffer(4, 4).dispose();
    expect(unbound(wasm)).toEqual([]);
  });

  it('bindAllAreas binds every area from the static arena; binding again and unknown areas', async () => {
    const wasm = await createModule({ batch: true });
    expect(wasm.arenaUsed()).toBe(0);
    bindAllAreas(wasm);
    expect(unbound(wasm)).toEqual([]);
    const used = wasm.arenaUsed();
    // 4096 bytes in cpp/bindings/core.cc: every area's records fit with room to spare.
    expect(used).toBeGreaterThan(0);
    expect(used).toBeLessThanOrEqual(3072);
    bindAllAreas(wasm);
    expect(wasm.arenaUsed()).toBe(used);
    const ikpd = createApi(wasm);
    expect(ikpd.solveTwoBone(twoBone()).reached).toBe(true);
  });

  it('with the heap full before any area is bound, first uses bind and allocations are RangeErrors naming the parameter', async () => {
    const wasm = await createModule({ batch: true });
    const ikpd = createApi(wasm);
    const held = [];
    for (let bytes = 1 << 26; bytes >= 1; bytes = Math.floor(bytes / 2)) {
      for (let p; (p = wasm._malloc(bytes)) !== 0;) held.push(p);
    }
    expect(unbound(wasm)).toEqual(['ik', 'rig', 'pd', 'hdr', 'batch']);
    const outOf = (name) => new RegExp(`^${name}: out of (WASM )?memory`);
    expect(() => new ikpd.QuatPD()).toThrow(outOf('options'));
    expect(() => new ikpd.TwoBoneBatch(1)).toThrow(outOf('count'));
    expect(() => new ikpd.LookAt({ weights: [0.5, 1] })).toThrow(outOf('weights'));
    expect(() => ikpd.hdr.createBuffer(1, 1)).toThrow(outOf('pixelCount'));
    expect(() => new ikpd.TwoBoneSolver()).toThrow(outOf('options'));
    // A single call allocates nothing, its first included.
    expect(ikpd.solveChain({ joints: [joint(0), joint(1), joint(2)], target: [1, 1, 0] }).reached).toBe(true);
    expect(unbound(wasm)).toEqual([]);
    for (const p of held) wasm._free(p);
    const batch = new ikpd.TwoBoneBatch(4);
    batch.dispose();
  });
});
