// IKRig.update and a helper's update make no garbage: a humanoid rig and a
// TwoBoneIK (moving targets, a toggled enabled; tests/support/ik-rig-frames.mjs),
// and a grounding rig on each kind of ground (tests/support/grounding-frames.mjs),
// each under the allocation probe (tests/support/alloc-probe.mjs), which counts
// the bytes their frames allocate, exactly. One object or boxed number per frame
// would be 16 bytes a frame or more; the bound is under one. A ground function
// (whose answer is one reused object, the user's side of "no garbage") is called
// with three numbers, which V8 boxes where it does not inline the call: here at
// the edge search's bisection now and then, 3–4 bytes a frame over about two
// calls a frame; the bound for that ground is 8.
import { expect, it } from 'vitest';
import { allocations } from '../../support/alloc-run.js';

it('the frames of IKRig.update and TwoBoneIK.update make no garbage', () => {
  const { ikRig } = allocations(new URL('../../support/ik-rig-frames.mjs', import.meta.url));
  expect(ikRig.collections).toBe(0);
  expect(ikRig.perFrame).toBeLessThan(1);
}, 120_000);

for (const ground of ['function', 'plane', 'none']) {
  it(`the frames of a grounding rig (ground: ${ground}) make no garbage`, () => {
    const measures = allocations(new URL('../../support/grounding-frames.mjs', import.meta.url), ground);
    const measured = measures[`grounding ${ground}`];
    expect(measured.collections).toBe(0);
    expect(measured.perFrame).toBeLessThan(ground === 'function' ? 8 : 1);
    if (ground === 'function') {
      const [, calls, frames] = /ground calls (\d+) of (\d+) frames/.exec(measures.output).map(Number);
      expect(calls / frames).toBeGreaterThan(1.5); // both feet asked the function each frame
    }
  }, 120_000);
}
