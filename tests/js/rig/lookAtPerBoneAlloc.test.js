// LookAtIK with one settleTime per bone (the rig's lookAt with per-joint settle times, docs/rig/look-at.md)
// makes no garbage: its updates with a moving target (tests/support/look-at-per-bone-frames.mjs)
// under the allocation probe (tests/support/alloc-probe.mjs), which counts the bytes they
// allocate, exactly. One object or boxed number per update would be 16 bytes or more; the
// bound is under one.
import { expect, it } from 'vitest';
import { allocations } from '../../support/alloc-run.js';

it('the updates of a LookAtIK with a settleTime per bone make no garbage', () => {
  const measured = allocations(new URL('../../support/look-at-per-bone-frames.mjs', import.meta.url))['lookAt per bone'];
  expect(measured.collections).toBe(0);
  expect(measured.perFrame).toBeLessThan(1);
}, 120_000);
