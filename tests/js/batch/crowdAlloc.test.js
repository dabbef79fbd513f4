// The demo's crowd frame makes no garbage of its own, with either solver:
// demo/lib/crowd.js (gait, batch inputs, instance matrices around
// TwoBoneBatch, AimBatch and QuatPDBatch) and demo/lib/crowdRigBatch.js (the
// same gait into one RigBatch, forward kinematics, instance matrices). The
// allocation probe (tests/support/alloc-probe.mjs, tests/support/crowd-frames.mjs)
// counts the bytes 2,000 frames of each allocate (three rounds), exactly, against the same
// frames of its ikpd calls and clock reads alone: Node's performance.now()
// returns a boxed number (16 bytes), which the crowd's phase timings read, and
// nothing else may allocate. One object per character per frame would be
// megabytes here; the bound is under one byte a frame.
import { expect, it } from 'vitest';
import { allocations } from '../../support/alloc-run.js';

const script = new URL('../../support/crowd-frames.mjs', import.meta.url);

for (const [crowd, calls, what] of [['crowd', 'calls', 'batch calls'], ['rigBatch', 'rigBatchCalls', 'RigBatch calls']]) {
  it(`the ${crowd} frame makes no more garbage than its ${what} alone`, () => {
    const measured = { ...allocations(script, calls), ...allocations(script, crowd) };
    expect(measured[calls].collections).toBe(0);
    expect(measured[crowd].collections).toBe(0);
    expect(measured[crowd].perFrame).toBeLessThan(measured[calls].perFrame + 1);
  }, 120_000);
}
