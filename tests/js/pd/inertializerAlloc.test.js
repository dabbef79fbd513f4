// The Inertializer with `feet: 'auto'` makes no garbage on the Fox: its frames
// (tests/support/inertializer-feet-frames.mjs), the lock's weights, targets and
// IK all running, under the allocation probe (tests/support/alloc-probe.mjs),
// which counts the bytes they allocate, exactly. The Fox's poses are sampled
// beforehand, since three.js's AnimationMixer makes garbage of its own. One
// object or boxed number per frame would be 16 bytes a frame or more; the bound
// is under one.
import { expect, it } from 'vitest';
import { allocations } from '../../support/alloc-run.js';

it("the frames of the Inertializer with feet: 'auto' on the Fox make no garbage", () => {
  const measures = allocations(new URL('../../support/inertializer-feet-frames.mjs', import.meta.url));
  // The lock held a foot (weight > 0.5) in most frames: the path measured is the lock's.
  const [, held, frames] = /held (\d+) of (\d+)/.exec(measures.output).map(Number);
  expect(held).toBeGreaterThan(frames / 3);
  const measured = measures['inertializer feet'];
  expect(measured.collections).toBe(0);
  expect(measured.perFrame).toBeLessThan(1);
}, 120_000);
