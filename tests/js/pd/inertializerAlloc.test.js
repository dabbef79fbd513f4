// The three.js Inertializer with `feet` makes no garbage per frame: 300,000 frames of
// the Fox with the stance-feet lock on (tests/support/inertializer-feet-frames.mjs)
// under `node --trace-gc`, and V8 reports at most one garbage collection during them
// (one may come from V8 itself, as in tests/js/rig/ikRigAlloc.test.js). An allocation
// per frame of 30 bytes or more would fill the young generation at least twice.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it("300,000 frames of the Inertializer with feet: 'auto' on the Fox make no garbage", () => {
  const script = fileURLToPath(new URL('../../support/inertializer-feet-frames.mjs', import.meta.url));
  const out = execFileSync(process.execPath, ['--trace-gc', script], { encoding: 'utf8', maxBuffer: 1 << 24 });
  expect(out).toContain('--- done');
  // The lock held a foot (weight > 0.5) in most frames: the path measured is the lock's.
  expect(Number(/held (\d+)/.exec(out)[1])).toBeGreaterThan(100000);
  const measured = out.slice(out.indexOf('--- measure'), out.indexOf('--- done'));
  expect(measured.split('\n').filter((line) => /Scavenge|Mark-Compact|Mark-sweep/.test(line)).length).toBeLessThanOrEqual(1);
}, 120_000);
