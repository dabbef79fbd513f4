// IKRig.update and a helper's update make no garbage: 300,000 frames of a
// humanoid rig and a TwoBoneIK (moving targets, a toggled enabled) run under
// `node --trace-gc` (tests/js/ik-rig-frames.mjs), and V8 reports at most one
// garbage collection during them (one may come from V8 itself, e.g. code
// optimized late on a busy machine). An allocation per frame of 30 bytes or
// more (an object, a boxed number) would fill the young generation at least
// twice and show up as scavenges.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it("300,000 frames of IKRig.update (grounding included) and TwoBoneIK.update make no garbage", () => {
  const script = fileURLToPath(new URL('./ik-rig-frames.mjs', import.meta.url));
  const out = execFileSync(process.execPath, ['--trace-gc', script], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const measured = out.slice(out.indexOf('--- measure'), out.indexOf('--- done'));
  expect(out).toContain('--- done');
  expect(measured.split('\n').filter((line) => /Scavenge|Mark-Compact|Mark-sweep/.test(line)).length).toBeLessThanOrEqual(1);
}, 120_000);
